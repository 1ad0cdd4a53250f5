#!/usr/bin/env bash
# The cube renderers beside the equirectangular one, natively and in wasm, in one run.
#  1. native (`pano-bench --cube`): SamplePanorama 4·FACE px wide with mip levels, its faces
#     (FACE px, 1024) as a CubeMap with mip levels and as a fully loaded TiledCube of 512 px
#     tiles, → 1920×1080, hfov 90°, pitch PITCH (11.5°), yaw 1° further a frame, THREADS (2):
#     the equirectangular grid renderer, the cube reference (a ray a pixel between block
#     corners), the stepped cube path, with the portable Swift loop and with the kernel
#     KernelWisdom chose (IMAGESTAGE_KERNEL to choose);
#  2. wasm under node (bench/web/cube.mjs, `make web-cube-bench`: the cores as the web viewer
#     builds them, SIMD128, one thread), the same cases at WASM_SIZE (1280x720).
# Each case is a slope over frame counts (start-up and caches cancel), ROUNDS (5) rounds
# interleaving the cases; min and median ms/frame, and the median of per-round ratios
# against the equirectangular path with the same loop. The CPU is named.
#  0. first, the machine's floor for the cube and pyramid paths (pano-bench --cube-floor, as
#     bench/pano.sh's for the equirectangular one): each path at a fixed view (yaw 30°, pitch
#     PITCH) beside the same frame written once and the same texels gathered at its own
#     addresses with no arithmetic, FLOOR_ROUNDS (5) interleaved rounds of FLOOR_FRAMES (20),
#     then `perf stat` counters where the kernel allows them. FLOOR_ONLY=1 stops there.
set -euo pipefail
cd "$(dirname "$0")/.."
face=${FACE:-1024} rounds=${ROUNDS:-5} threads=${THREADS:-2} pitch=${PITCH:-11.5} size=${WASM_SIZE:-1280x720}
[[ $size =~ ^[0-9]+x[0-9]+$ ]] || { echo "WASM_SIZE must be WxH, got '$size'" >&2; exit 2; }
scripts/install-deps
swift build -c release $(scripts/cpu-flags) --product pano-bench >&2
make -s web-cube-bench >&2
echo "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores; node $(node --version); load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "aims (issue 40): native cube 1.1x and full pyramid 1.2x the equirectangular path; wasm cube and pyramid 1.3x;"
echo "  each path within 2x of its gather floor"
echo
echo "== 0. the floor, a fixed view, ${FLOOR_ROUNDS:-5} interleaved rounds of ${FLOOR_FRAMES:-20} frames"
.build/release/pano-bench --cube-floor "$face" "$pitch" "${FLOOR_FRAMES:-20}" "${FLOOR_ROUNDS:-5}" | grep '^FLOOR' | sed 's/^FLOOR //'
bench/perf-floor.sh "$face:$pitch" cube-floor
[ -z "${FLOOR_ONLY:-}" ] || { echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"; exit 0; }
echo
echo "== 1. native"
.build/release/pano-bench --cube "$face" "$rounds" "$threads" "$pitch" | grep -v '^RESULT'
echo
echo "== 2. wasm (SIMD128, one thread), ${size}, same views"
results=bench/out/cube-wasm.txt
mkdir -p bench/out
node bench/web/cube.mjs build/web-obj/1/cube-bench.wasm "$face" "${size%x*}" "${size#*x}" "$rounds" "$pitch" > "$results"
python3 - "$results" <<'PY'
import sys, statistics
runs = {}
for line in open(sys.argv[1]):
    p = line.split()
    if p and p[0] == "RESULT": runs.setdefault(p[2], []).append(float(p[3]))
base = runs["equirectangular"]
for name, v in runs.items():
    ratio = statistics.median(t / b for t, b in zip(v, base))
    aim = "  (aim 1.3x)" if name != "equirectangular" and ("cube" in name or "tiled" in name) and "reference" not in name else ""
    print(f"  {name:32s} min {min(v):7.2f}, median {statistics.median(v):7.2f}, {ratio:5.2f}x equirectangular (median of rounds){aim}")
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
