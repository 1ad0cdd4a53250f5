#!/usr/bin/env bash
# What gathers would buy the renderer's inner loop: its four-pixel blend as the portable Swift
# renderer has it (SSE4.1 lane inserts, x86-64-v2) against the same blend in C with AVX2
# gathers (as ffmpeg's v360 remap has it), on one access pattern, one thread, interleaved
# rounds. Equal hashes mean equal pixels. Needs gcc and an x86-64 CPU with AVX2.
set -euo pipefail
cd "$(dirname "$0")"
out=out/blend-probe
mkdir -p "$out"
grep -q avx2 /proc/cpuinfo || { echo "this CPU has no AVX2" >&2; exit 2; }
gcc -O2 blend-probe/gather.c -o "$out/gather"
# The probe's driver plus the renderer's own inner loop (Sources/Panorama/BilinearFour.swift).
cp blend-probe/lanes.swift "$out/main.swift"
swiftc -O -wmo -target-cpu nehalem "$out/main.swift" ../Sources/Panorama/BilinearFour.swift -o "$out/lanes"
rounds=${ROUNDS:-5}
for ((r = 1; r <= rounds; r++)); do
  echo "lanes $("$out/lanes")"
  echo "gather $("$out/gather")"
done | tee "$out/results.txt"
python3 - "$out/results.txt" <<'PY'
import sys, statistics
ms, hashes = {}, set()
for line in open(sys.argv[1]):
    p = line.split()
    ms.setdefault(p[0], []).append(float(p[p.index("ms") + 1]))
    hashes.add(p[-1])
for k, v in ms.items():
    print(f"{k:7s} ms per 1920×1080 frame, one thread: min {min(v):.2f} median {statistics.median(v):.2f}")
print(f"gathers are {min(ms['lanes']) / min(ms['gather']):.2f}× (min/min), "
      f"{statistics.median(ms['lanes']) / statistics.median(ms['gather']):.2f}× (medians) faster;"
      f" same pixels: {'yes' if len(hashes) == 1 else 'NO'}")
PY
