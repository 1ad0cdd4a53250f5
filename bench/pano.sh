#!/usr/bin/env bash
# Perspective panorama rendering, side by side in one run: ImageStage's renderer vs ffmpeg's
# v360 filter vs OpenCV's remap with precomputed maps. Equirectangular 8192×4096 (SOURCE=WxH
# for another size, e.g. the issue's 10800x5400) →
# 1920×1080, hfov 90°, bilinear, level and 30°, 60°, 80° and 90° up, and a little planet
# (stereographic, 300°, looking down). Runs ROUNDS (5) rounds, each timing every contender once
# over FRAMES (30) frames, and prints ms/frame (min/median over rounds), the ratios, the PSNR
# of our frame against ffmpeg's for the same view, and peak memory.
# Needs ffmpeg (apt) and makes a venv with opencv-python-headless and numpy (PyPI).
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/out
mkdir -p "$out"
frames=${FRAMES:-30}
source_size=${SOURCE:-8192x4096}
[[ $source_size =~ ^[0-9]+x[0-9]+$ ]] || { echo "SOURCE must be WxH, got '$source_size'" >&2; exit 2; }
pano="$out/pano-$source_size.jpg"
scripts/install-deps
# One product per build: `--product A --product B` builds only the last.
swift build -c release $(scripts/cpu-flags) --product pano-bench >&2
swift build -c release $(scripts/cpu-flags) --product imagestage >&2
[ -f "$pano" ] || .build/release/imagestage pano sample -o "$pano" --size "$source_size"
rounds=${ROUNDS:-5}
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores; load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"

# The machine's floor for the fixed view (pano-bench --floor): the frame written once, and
# the renderer's own tap addresses (recorded once) gathered with no arithmetic, plainly and
# with software prefetches, beside every kernel, interleaved round by round; the renderer's
# ratio to each. Then the hardware counters per frame, where the kernel exposes them.
echo "== the floor: the fixed view, ${rounds} interleaved rounds of ${FLOOR_FRAMES:-20} frames"
.build/release/pano-bench --floor "$pano" "${FLOOR_FRAMES:-20}" "$rounds" | grep '^FLOOR' | sed 's/^FLOOR //'
bench/perf-floor.sh "$pano"
[ -z "${FLOOR_ONLY:-}" ] || { echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"; exit 0; }

if [ ! -x bench/.venv/bin/python ]; then
  python3 -m venv bench/.venv
  bench/.venv/bin/pip install -q opencv-python-headless numpy
fi

# Every round runs each contender once, back to back, so a noisy spell on the machine hits
# all of them alike; the summary takes the min and median over rounds, and the median of the
# ratios within rounds.
results="$out/results.txt"
: > "$results"
vfov=58.7155  # 2·atan(tan(45°)·1080/1920): square pixels
v360="v360=input=e:output=flat:h_fov=90:v_fov=$vfov:w=1920:h=1080:interp=linear"
# A yaw per frame, sent as a command, which makes v360 rebuild its map.
: > "$out/yaw.cmd"
for ((f = 0; f <= frames; f++)); do
  printf '%s v360 yaw %s;\n' "$(echo "$f / 25" | bc -l | sed 's/^\./0./')" "$((28 + f))" >> "$out/yaw.cmd"
done
ffrun() {  # threads, input options, filter (may be empty), frames: ms for one run
  local s e
  s=$(date +%s.%N)
  # shellcheck disable=SC2086  # $2 is a list of options
  ffmpeg -hide_banner -loglevel error -threads 1 -filter_threads "$1" $2 -i "$pano" \
    -frames:v "$4" ${3:+-vf "$3"} -f null -
  e=$(date +%s.%N)
  echo "($e - $s) * 1000" | bc -l
}
# v360 alone on a still panorama, as ours renders one: the image is decoded once and the
# loop filter hands the same frame on, so a run of frames+1 frames minus a run of 1 frame
# is frames × v360 (start-up, decode and map set-up cancel out).
still() {  # threads, filter, label, [filter applied once, before the loop]
  local one many
  one=$(ffrun "$1" "" "${4:-}loop=loop=-1:size=1:start=0,$2" 1)
  many=$(ffrun "$1" "" "${4:-}loop=loop=-1:size=1:start=0,$2" $((frames + 1)))
  echo "RESULT $3 $1 $(echo "($many - $one) / $frames" | bc -l)"
}
# The way the issue's figures were taken: the image demuxer re-decodes the JPEG every frame
# (-loop 1) and a decode-only run is subtracted. v360 then reads a freshly decoded frame each
# time, which costs it more than a still one.
redecoded() {  # threads, filter, label
  local decode both
  decode=$(ffrun "$1" "-loop 1 -framerate 25" "" "$frames")
  both=$(ffrun "$1" "-loop 1 -framerate 25" "$2" "$frames")
  echo "RESULT $3 $1 $(echo "($both - $decode) / $frames" | bc -l)"
}
cat > "$out/opencv.py" <<'PY'
import sys, time, math
import numpy as np, cv2
src = cv2.imread(sys.argv[1], cv2.IMREAD_COLOR)
src = cv2.cvtColor(src, cv2.COLOR_BGR2BGRA)  # RGBA-sized pixels, as ours
frames = int(sys.argv[2])
H, W = src.shape[:2]
w, h, hfov = 1920, 1080, math.radians(90)
f = (w / 2) / math.tan(hfov / 2)
x = (np.arange(w) + 0.5 - w / 2) / f
y = (h / 2 - np.arange(h) - 0.5) / f
X, Y = np.meshgrid(x, y)
Z = np.ones_like(X)
p = math.radians(10)
Y2, Z2 = Y * math.cos(p) + Z * math.sin(p), -Y * math.sin(p) + Z * math.cos(p)
lon, lat = np.arctan2(X, Z2), np.arctan2(Y2, np.hypot(X, Z2))
mapx = ((lon / (2 * math.pi) + 0.5) * W - 0.5).astype(np.float32)
mapy = ((0.5 - lat / math.pi) * H - 0.5).astype(np.float32)
for threads in (1, 2):
    cv2.setNumThreads(threads)
    for label, shifting in (("fixed", False), ("yaw", True)):
        t = time.perf_counter()
        for k in range(frames):
            mx = np.mod(mapx + (k * W / 360.0), W).astype(np.float32) if shifting else mapx
            cv2.remap(src, mx, mapy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)
        print(f"RESULT opencv-{label} {threads} {(time.perf_counter() - t) * 1000 / frames:.3f}")
PY
for ((round = 1; round <= rounds; round++)); do
  echo "== round $round of $rounds: ImageStage, ffmpeg v360 (interp=linear), OpenCV remap"
  # Its KERNELS lines: every kernel on this source beside the one chosen (KernelWisdom).
  .build/release/pano-bench "$pano" "$frames" "$out/ours.png" 1 | grep -E '^(RESULT|KERNELS)'
  for threads in 1 2; do
    still "$threads" "$v360:yaw=28:pitch=10" "ffmpeg-fixed"
    still "$threads" "sendcmd=f=$out/yaw.cmd,$v360:pitch=10" "ffmpeg-yaw"
    still "$threads" "$v360:yaw=28:pitch=80" "ffmpeg-pole"
    still "$threads" "$v360:yaw=28:pitch=60" "ffmpeg-up60"
    still "$threads" "$v360:yaw=28:pitch=30" "ffmpeg-up30"
    still "$threads" "$v360:yaw=28:pitch=90" "ffmpeg-up90"
    # The little planet: stereographic output, 300° across (258.1° down for square pixels),
    # looking straight down.
    still "$threads" "v360=input=e:output=sg:h_fov=300:v_fov=258.1:w=1920:h=1080:interp=linear:yaw=28:pitch=-90" "ffmpeg-planet"
    # A fisheye 180° across (101.25° down: square pixels in an equidistant fisheye), 60° up.
    still "$threads" "v360=input=e:output=fisheye:h_fov=180:v_fov=101.25:w=1920:h=1080:interp=linear:yaw=28:pitch=60" "ffmpeg-fisheye"
    # Like for like (the issue's comparator): v360 on the JPEG's own YUV 4:2:0 samples 1.5
    # bytes per output pixel at half the chroma resolution, ours full-resolution RGB(A).
    # Converted to planar RGB (gbrp) once, before the loop, v360 does the work ours does.
    still "$threads" "$v360:yaw=28:pitch=10" "ffmpeg-fixed-rgb" "format=gbrp,"
    redecoded "$threads" "$v360:yaw=28:pitch=10" "ffmpeg-fixed-redecoded"
  done
  bench/.venv/bin/python "$out/opencv.py" "$pano" "$frames"
done | tee "$results"
ffmpeg -hide_banner -loglevel error -y -i "$pano" -vf "$v360:yaw=30:pitch=10" -frames:v 1 "$out/ffmpeg.png"

echo "== PSNR of our frame against ffmpeg's (yaw 30°, pitch 10°)"
bench/.venv/bin/python - "$out/ours.png" "$out/ffmpeg.png" <<'PY' | tee -a "$results"
import sys, numpy as np, cv2
a = cv2.imread(sys.argv[1], cv2.IMREAD_COLOR).astype(np.float64)
b = cv2.imread(sys.argv[2], cv2.IMREAD_COLOR).astype(np.float64)
mse = np.mean((a - b) ** 2)
print(f"RESULT psnr {10 * np.log10(255 ** 2 / mse):.2f}")
PY

echo "== Summary: ms/frame over $rounds rounds (min, median); ratio = baseline / ours, higher is better for us"
python3 - "$results" <<'PY'
import sys, statistics
runs, other = {}, {}
for line in open(sys.argv[1]):
    p = line.split()
    if not p or p[0] != "RESULT": continue
    if p[1] == "psnr": other["psnr"] = float(p[2])
    elif p[1] == "memory": other["memory"] = [float(v) for v in p[2:]]
    elif p[1] == "mips-memory": other["mips-memory"] = [float(v) for v in p[2:]]
    elif p[1] == "caps-memory": other["caps-memory"] = [float(v) for v in p[2:]]
    else: runs.setdefault((p[1], int(p[2])), []).append(float(p[3]))
views = [("fixed", "level"), ("up30", "30° up"), ("up60", "60° up"), ("pole", "80° up"), ("up90", "90° up"),
         ("planet", "little planet"), ("fisheye", "fisheye 180°, 60° up")]
setups = [("ours-", ""), ("ours-mips-", ", mip levels"), ("ours-caps-", ", polar caps"),
          ("ours-caps-mips-", ", polar caps + mip levels")]
rows = [("ours-yaw", "ours, yaw every frame"), ("ours-mips-yaw", "ours, yaw every frame, mip levels"),
        ("ours-caps-mips-yaw", "ours, yaw every frame, caps + mips"), ("ours-yaw+pitch", "ours, yaw+pitch every frame")]
for key, name in views:
    rows += [(prefix + key, f"ours, {name}{setup}") for prefix, setup in setups]
    rows.append(("ffmpeg-" + ("up" + key[2:] if key.startswith("up") else key), f"ffmpeg v360, {name}"))
rows += [("ffmpeg-yaw", "ffmpeg v360, yaw every frame"), ("ffmpeg-fixed-redecoded", "ffmpeg v360, fixed, re-decoded"),
         ("ffmpeg-fixed-rgb", "ffmpeg v360, fixed, planar RGB (gbrp)"),
         ("opencv-fixed", "OpenCV remap, fixed maps"), ("opencv-yaw", "OpenCV remap, yaw-shifted maps")]
for t in (1, 2):
    print(f"{t} thread(s)")
    for key, name in rows:
        v = runs.get((key, t))
        if not v: continue
        print(f"  {name:44s} min {min(v):7.2f}  median {statistics.median(v):7.2f}")
    def ratio(base, ours):
        per_round = [b / o for b, o in zip(runs[(base, t)], runs[(ours, t)])]
        return statistics.median(per_round), min(runs[(base, t)]) / min(runs[(ours, t)])
    for label, base, ours, aim in (("fixed view vs ffmpeg yuv420p", "ffmpeg-fixed", "ours-fixed", None),
                                   ("fixed vs ffmpeg re-decoded", "ffmpeg-fixed-redecoded", "ours-fixed", None),
                                   ("fixed vs ffmpeg on gbrp", "ffmpeg-fixed-rgb", "ours-fixed", None),
                                   ("fixed view vs OpenCV", "opencv-fixed", "ours-fixed", 2),
                                   ("yaw moving vs ffmpeg", "ffmpeg-yaw", "ours-yaw", 50),
                                   ("yaw+pitch moving vs ffmpeg", "ffmpeg-yaw", "ours-yaw+pitch", 50),
                                   ("yaw moving vs OpenCV", "opencv-yaw", "ours-yaw", None),
                                   ("turning, caps+mips, vs ffmpeg", "ffmpeg-yaw", "ours-caps-mips-yaw", 60)):
        med, mins = ratio(base, ours)
        note = f"  (aim {aim}x at 2 threads)" if aim and t == 2 else ""
        print(f"  ratio {label:31s} {med:6.1f}x median of rounds, {mins:6.1f}x min/min{note}")
    for key, name in views[1:]:
        ff = "ffmpeg-" + ("up" + key[2:] if key.startswith("up") else key)
        for prefix, setup in setups:
            if (prefix + key, t) in runs and (ff, t) in runs:
                med, mins = ratio(ff, prefix + key)
                print(f"  ratio {name + setup + ' vs ffmpeg':52s} {med:6.1f}x median of rounds, {mins:6.1f}x min/min")
    for key, name in views[1:]:
        for prefix, setup in setups:
            base = prefix + "fixed"
            if (prefix + key, t) in runs and (base, t) in runs:
                cost = statistics.median(o / b for o, b in zip(runs[(prefix + key, t)], runs[(base, t)]))
                best = min(runs[(prefix + key, t)])
                print(f"  cost of {name + setup:44s} vs our level view{setup}: {cost:.2f}x (aim <= 1.5x), min {best:.2f} ms")
print(f"PSNR ours vs ffmpeg: {other['psnr']:.2f} dB (aim > 35)")
peak, before, budget = other["memory"]
print(f"peak memory {peak:.0f} MB: {before:.0f} MB of process before loading + {peak - before:.0f} MB for the panorama,"
      f" vs decoded source + two frames {budget:.0f} MB")
mips_peak, mips = other["mips-memory"]
print(f"with mip levels (opt-in): +{mips:.0f} MB, peak {mips_peak:.0f} MB")
caps_peak, caps, caps_ms = other["caps-memory"]
print(f"with polar caps (opt-in): +{caps:.0f} MB (faces and their mip levels), built in {caps_ms:.0f} ms, peak {caps_peak:.0f} MB")
PY
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
