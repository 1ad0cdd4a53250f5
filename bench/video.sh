#!/usr/bin/env bash
# `pano video` against the renderer alone, in one run: a fixed level view of an 8192×4096
# panorama (SOURCE=WxH for another size, e.g. the issue's 10800x5400) to 1920×1080
# (2 threads), per-frame cost as the slope between 30 and 330 frames
# (start-up and decoding cancel), ROUNDS (5) interleaved rounds, min / median and the median
# of per-round ratios. Sinks: raw frames to a pipe (`-o -`), a PNG folder, and an .mp4
# (ffmpeg libx264 veryfast). Also frames per second end to end for a 60 s 1080p video from a
# hand-held log (docs/examples/turn.csv, looped to 60 s) to .mp4. The comparator is ffmpeg's
# v360 on full-resolution planar RGB (format=gbrp before v360, 2 filter threads), on a still
# image (decoded once, looped), timed by the same slope.
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/out/video
mkdir -p "$out"
rounds=${ROUNDS:-5}
swift build -c release $(scripts/cpu-flags) --product pano-bench >&2
swift build -c release $(scripts/cpu-flags) --product imagestage >&2
source_size=${SOURCE:-8192x4096}
[[ $source_size =~ ^[0-9]+x[0-9]+$ ]] || { echo "SOURCE must be WxH, got '$source_size'" >&2; exit 2; }
pano=bench/out/pano-$source_size.jpg
[ -f "$pano" ] || .build/release/imagestage pano sample -o "$pano" --size "$source_size"
vfov=58.7155  # 2·atan(tan(45°)·1080/1920): square pixels, as ours
# Fixed attitude logs lasting 30 and 330 frames at 30 fps.
for n in 30 330; do
  python3 -c "
n = $n
print('t,qx,qy,qz,qw')
for k in range(int((n - 1) / 30 * 100) + 1):
    print(f'{k / 100:.2f},0.7071068,0,0,0.7071068')" > "$out/fixed-$n.csv"
done
echo "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores"
seconds() { local s e; s=$(date +%s.%N); "$@" > /dev/null; e=$(date +%s.%N); echo "$e - $s" | bc -l; }
results="$out/results.txt"
: > "$results"
for ((r = 1; r <= rounds; r++)); do
  for n in 30 330; do
    echo "renderer $n $(.build/release/pano-bench --frames "$pano" 1920 1080 "$n" 2 fixed)" >> "$results"
    echo "pipe $n $(seconds sh -c ".build/release/imagestage pano video $pano --motion $out/fixed-$n.csv --size 1920x1080 -o - | cat > /dev/null")" >> "$results"
    rm -rf "$out/png"
    echo "png $n $(seconds .build/release/imagestage pano video "$pano" --motion "$out/fixed-$n.csv" --size 1920x1080 -o "$out/png")" >> "$results"
    echo "mp4 $n $(seconds .build/release/imagestage pano video "$pano" --motion "$out/fixed-$n.csv" --size 1920x1080 -o "$out/v.mp4")" >> "$results"
    echo "v360 $n $(seconds ffmpeg -hide_banner -loglevel error -threads 1 -filter_threads 2 -i "$pano" -frames:v "$n" \
      -vf "format=gbrp,loop=loop=-1:size=1:start=0,v360=input=e:output=flat:h_fov=90:v_fov=$vfov:w=1920:h=1080:interp=linear:pitch=0" \
      -f null -)" >> "$results"
  done
done
python3 - "$results" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
def slopes(who):
    t = [(int(n), float(s)) for w, n, s in rows if w == who]
    return [(b[1] - a[1]) / (b[0] - a[0]) * 1000 for a, b in zip(t[0::2], t[1::2])]
s = {w: slopes(w) for w in ("renderer", "pipe", "png", "mp4", "v360")}
for w, label in (("renderer", "renderer alone (pano-bench)"), ("pipe", "pano video -o - | cat"),
                 ("png", "pano video -o DIR (PNG)"), ("mp4", "pano video -o .mp4"), ("v360", "ffmpeg v360 on gbrp")):
    ratio = statistics.median(x / r for x, r in zip(s[w], s["renderer"]))
    faster = statistics.median(v / x for x, v in zip(s[w], s["v360"]))
    print(f"{label:30} ms/frame min {min(s[w]):6.2f} median {statistics.median(s[w]):6.2f}  × renderer {ratio:.2f}"
          f"  v360 / this {faster:.1f}x")
PY
# 60 s of hand-held motion (turn.csv is 12 s: looped five times with its times shifted).
python3 - > "$out/minute.csv" <<'PY'
rows = [l.strip() for l in open("docs/examples/turn.csv")][1:]
print("t,qx,qy,qz,qw")
span = float(rows[-1].split(",")[0]) + 0.01
k = 0
while k * span < 60:
    for r in rows:
        f = r.split(",")
        t = float(f[0]) + k * span
        if t <= 60: print(f"{t:.2f}," + ",".join(f[1:]))
    k += 1
PY
s=$(seconds .build/release/imagestage pano video "$pano" --motion "$out/minute.csv" --size 1920x1080 -o "$out/minute.mp4")
echo "60 s 1080p video from a hand-held log to .mp4: $(printf '%.1f' "$s") s, $(echo "1801 / $s" | bc -l | xargs printf '%.1f') frames/s end to end"
