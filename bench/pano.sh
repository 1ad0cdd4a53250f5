#!/usr/bin/env bash
# Perspective panorama rendering, side by side in one run: ImageStage's renderer vs ffmpeg's
# v360 filter vs OpenCV's remap with precomputed maps. Equirectangular 8192×4096 →
# 1920×1080, hfov 90°, bilinear. Prints ms/frame (min/median over 5 runs), the ratios, the
# PSNR of our frame against ffmpeg's for the same view, and peak memory.
# Needs ffmpeg (apt) and makes a venv with opencv-python-headless and numpy (PyPI).
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/out
mkdir -p "$out"
frames=${FRAMES:-30}
scripts/install-deps
swift build -c release --product pano-bench --product imagestage >&2 2>/dev/null || {
  swift build -c release --product pano-bench >&2
  swift build -c release --product imagestage >&2
}
[ -f "$out/pano-8k.jpg" ] || .build/release/imagestage pano sample -o "$out/pano-8k.jpg" --size 8192x4096
if [ ! -x bench/.venv/bin/python ]; then
  python3 -m venv bench/.venv
  bench/.venv/bin/pip install -q opencv-python-headless numpy
fi

echo "== ImageStage"
.build/release/pano-bench "$out/pano-8k.jpg" "$frames" "$out/ours.png" | tee "$out/ours.txt"

echo "== ffmpeg v360 (interp=linear), decode cost measured separately and subtracted"
vfov=58.7155  # 2·atan(tan(45°)·1080/1920): square pixels
ffrun() {  # threads, extra filter prefix, label
  local best=999999 all=()
  for run in 1 2 3 4 5; do
    local s e
    s=$(date +%s.%N)
    ffmpeg -hide_banner -loglevel error -threads 1 -filter_threads "$1" -loop 1 -framerate 25 -i "$out/pano-8k.jpg" \
      -frames:v "$frames" ${2:+-vf "$2"} -f null -
    e=$(date +%s.%N)
    all+=("$(echo "($e - $s) * 1000 / $frames" | bc -l)")
  done
  printf '%s\n' "${all[@]}" | sort -n | awk -v label="$3" '{a[NR]=$1} END {printf "RESULT %s %.3f %.3f\n", label, a[1], a[3]}'
}
v360="v360=input=e:output=flat:h_fov=90:v_fov=$vfov:w=1920:h=1080:interp=linear"
# A yaw per frame, sent as a command, which makes v360 rebuild its map.
: > "$out/yaw.cmd"
for ((f = 0; f < frames; f++)); do
  printf '%s v360 yaw %s;\n' "$(echo "$f / 25" | bc -l | sed 's/^\./0./')" "$((28 + f))" >> "$out/yaw.cmd"
done
for threads in 1 2; do
  ffrun "$threads" "" "decode $threads"
  ffrun "$threads" "$v360:yaw=28:pitch=10" "v360-fixed $threads"
  ffrun "$threads" "sendcmd=f=$out/yaw.cmd,$v360:pitch=10" "v360-yaw $threads"
done | tee "$out/ffmpeg.txt"
ffmpeg -hide_banner -loglevel error -y -i "$out/pano-8k.jpg" -vf "$v360:yaw=30:pitch=10" -frames:v 1 "$out/ffmpeg.png"

echo "== OpenCV remap (maps precomputed once; yaw shift = map_x offset)"
bench/.venv/bin/python - "$out/pano-8k.jpg" "$frames" <<'PY' | tee "$out/opencv.txt"
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
        runs = []
        for r in range(5):
            t = time.perf_counter()
            for k in range(frames):
                mx = np.mod(mapx + (k * W / 360.0), W).astype(np.float32) if shifting else mapx
                cv2.remap(src, mx, mapy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)
            runs.append((time.perf_counter() - t) * 1000 / frames)
        runs.sort()
        print(f"RESULT opencv-{label} {threads} {runs[0]:.3f} {runs[2]:.3f}")
PY

echo "== PSNR of our frame against ffmpeg's (yaw 30°, pitch 10°)"
bench/.venv/bin/python - "$out/ours.png" "$out/ffmpeg.png" <<'PY' | tee "$out/psnr.txt"
import sys, numpy as np, cv2
a = cv2.imread(sys.argv[1], cv2.IMREAD_COLOR).astype(np.float64)
b = cv2.imread(sys.argv[2], cv2.IMREAD_COLOR).astype(np.float64)
mse = np.mean((a - b) ** 2)
print(f"RESULT psnr {10 * np.log10(255 ** 2 / mse):.2f}")
PY

echo "== Summary (ms/frame, min and median of 5 runs; ratio = baseline / ours, higher is better for us)"
python3 - "$out" <<'PY'
import sys, re
d = sys.argv[1]
r = {}
for name in ("ours", "ffmpeg", "opencv", "psnr"):
    for line in open(f"{d}/{name}.txt"):
        if line.startswith("RESULT"):
            parts = line.split()
            if len(parts) == 3:
                r[parts[1]] = float(parts[2])
            else:
                r[" ".join(parts[1:-2])] = (float(parts[-2]), float(parts[-1]))
for t in (1, 2):
    for k, name in ((0, "min"), (1, "median")):
        ours_fixed = r[f"ours 0 {t}"][k]; ours_yaw = r[f"ours 1 {t}"][k]; ours_both = r[f"ours 2 {t}"][k]
        dec = r[f"decode {t}"][k]
        ff_fixed = r[f"v360-fixed {t}"][k] - dec; ff_yaw = r[f"v360-yaw {t}"][k] - dec
        cv_fixed = r[f"opencv-fixed {t}"][k]; cv_yaw = r[f"opencv-yaw {t}"][k]
        print(f"{t} thread(s), {name}: ours fixed {ours_fixed:.2f}, yaw {ours_yaw:.2f}, yaw+pitch {ours_both:.2f} | "
              f"ffmpeg v360 fixed {ff_fixed:.2f}, yaw {ff_yaw:.2f} | opencv fixed {cv_fixed:.2f}, yaw-shift {cv_yaw:.2f}")
        print(f"   ratios: fixed vs ffmpeg {ff_fixed / ours_fixed:.1f}x, vs opencv {cv_fixed / ours_fixed:.1f}x; "
              f"yaw vs ffmpeg {ff_yaw / ours_yaw:.1f}x, yaw+pitch vs ffmpeg-yaw {ff_yaw / ours_both:.1f}x, yaw vs opencv {cv_yaw / ours_yaw:.1f}x")
print(f"PSNR ours vs ffmpeg: {r['psnr']:.2f} dB")
mem = r["memory"]
print(f"peak memory {mem[0]:.0f} MB vs decoded source + two frames {mem[1]:.0f} MB")
PY
