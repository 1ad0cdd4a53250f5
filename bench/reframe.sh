#!/usr/bin/env bash
# `pano reframe` against decoding alone, decode + encode alone, and ffmpeg's v360 driven by
# sendcmd with the same moving view, in one run. Clips made here from a real panorama
# (Pannellum's examplepano.jpg, scaled): 3840×1920 H.264 at 30 fps, and 5760×2880 at
# about 80 Mb/s; the picture scrolls and carries grain, so every frame costs the decoder
# what a camera's does. The view moves every frame (yaw a turn in 8 s, pitch ±30°, hfov
# 70–100°). Per-frame cost is the slope between two frame counts (start-up cancels),
# ROUNDS (3) interleaved rounds, min / median; ratios are the medians of per-round ratios.
#   raw:   pano reframe -o - (1080p yuv420p frames) > /dev/null, against
#          decode:  ffmpeg -threads 2 -i IN -f null -
#   .mp4:  pano reframe -o OUT.mp4 (libx264 veryfast, CRF 20), against
#          v360:    ffmpeg -i IN -vf sendcmd,v360 (same view, same codec and settings), and
#          bound:   ffmpeg -i IN -vf crop=1920:1080 (decode + encode alone, the same codec)
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/out/reframe
mkdir -p "$out"
rounds=${ROUNDS:-3}
swift build -c release $(scripts/cpu-flags) --product imagestage >&2
bin=.build/release/imagestage
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores"
pano=tests/web/pannellum/examples/examplepano.jpg
make_clip() {  # WxH seconds bitrate-options... -> $out/clip-WxH.mp4
  local size=$1 seconds=$2
  shift 2
  local clip="$out/clip-$size.mp4"
  [ -f "$clip" ] && { echo "$clip"; return; }
  ffmpeg -loglevel error -y -loop 1 -i "$pano" -t "$seconds" -r 30 \
    -vf "scale=$size:flags=bicubic,scroll=horizontal=0.0015,noise=alls=6:allf=t,format=yuv420p" \
    -c:v libx264 -preset ultrafast "$@" "$clip"
  echo "$clip"
}
clips=("$(make_clip 3840x1920 8 -crf 18)" "$(make_clip 5760x2880 4 -b:v 80M -maxrate 100M -bufsize 100M)")
seconds() { local s e; s=$(date +%s.%N); "$@" > /dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc -l; }
vfov=58.7155 # 2·atan(tan(45°)·1080/1920) at hfov 90; v360 takes both, ours derives it
# The moving view, as keyframes for us and as sendcmd's per-frame commands for v360, both
# from one formula (yaw a turn in 8 s, pitch 30·sin, hfov 85 ± 15): keys 1/30 s apart,
# eased between, follow it to well under a pixel. v360 takes yaw in ±180, so it is wrapped
# there; ours is not (a wrap between two keys would sweep back the long way).
python3 - "$out" <<'PY'
import json, math, sys
out = sys.argv[1]
keys, cmds = [], []
for k in range(241):
    t = k / 30
    yaw = 45 * t
    pitch = 30 * math.sin(2 * math.pi * t / 4)
    hfov = 85 + 15 * math.sin(2 * math.pi * t / 3)
    vfov = 2 * math.degrees(math.atan(math.tan(math.radians(hfov / 2)) * 1080 / 1920))
    keys.append({"time": t, "yaw": yaw, "pitch": pitch, "hfov": hfov})
    wrapped = (yaw + 180) % 360 - 180
    cmds.append(f"{t:.4f} v360 yaw {wrapped:.4f}, v360 pitch {pitch:.4f}, v360 h_fov {hfov:.4f}, v360 v_fov {vfov:.4f};")
json.dump(keys, open(f"{out}/moving.json", "w"))
open(f"{out}/moving.cmd", "w").write("\n".join(cmds) + "\n")
PY
short=30
long=120
results="$out/results.txt"
: > "$results"
for clip in "${clips[@]}"; do
  size=$(basename "$clip" .mp4 | sed 's/clip-//')
  for ((r = 1; r <= rounds; r++)); do
    for n in $short $long; do
      d=$(echo "$n / 30" | bc -l)
      echo "$size decode $n $(seconds ffmpeg -threads 2 -i "$clip" -frames:v "$n" -f null -)" >> "$results"
      echo "$size raw $n $(seconds sh -c "$bin pano reframe $clip -o - --keys $out/moving.json --duration $d > /dev/null")" >> "$results"
      echo "$size bound $n $(seconds ffmpeg -y -threads 2 -i "$clip" -frames:v "$n" -vf crop=1920:1080 -c:v libx264 -preset veryfast -crf 20 -an "$out/bound.mp4")" >> "$results"
      echo "$size mp4 $n $(seconds "$bin" pano reframe "$clip" -o "$out/ours.mp4" --keys "$out/moving.json" --duration "$d" --no-audio)" >> "$results"
      echo "$size v360 $n $(seconds ffmpeg -y -threads 2 -i "$clip" -frames:v "$n" -filter_threads 2 -vf "sendcmd=f=$out/moving.cmd,v360=e:flat:w=1920:h=1080:h_fov=90:v_fov=$vfov:interp=linear" -c:v libx264 -preset veryfast -crf 20 -an "$out/v360.mp4")" >> "$results"
    done
  done
done
python3 - "$results" "$rounds" "$short" "$long" <<'PY'
import statistics, sys
path, rounds, short, long = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rows = [l.split() for l in open(path)]
sizes = list(dict.fromkeys(r[0] for r in rows))
for size in sizes:
    per = {}
    for name in ["decode", "raw", "bound", "mp4", "v360"]:
        t = {n: [float(r[3]) for r in rows if r[0] == size and r[1] == name and int(r[2]) == n] for n in (short, long)}
        per[name] = [(b - a) / (long - short) for a, b in zip(t[short], t[long])]
    fps = lambda s: 1 / s if s > 0 else float("inf")
    print(f"{size}, 1920x1080 out, moving view, frames/s from the slope {short}->{long} frames ({rounds} rounds, min/median ms a frame):")
    for name, label in [("decode", "decode alone (ffmpeg -threads 2 -f null)"), ("raw", "pano reframe -o - (raw yuv420p)"),
                        ("bound", "decode + encode alone (crop, libx264 veryfast)"), ("mp4", "pano reframe -o .mp4"),
                        ("v360", "ffmpeg sendcmd + v360 -> .mp4")]:
        s = per[name]
        print(f"  {label:48s} {fps(statistics.median(s)):6.1f} fps  ({1000 * min(s):.1f} / {1000 * statistics.median(s):.1f} ms)")
    ratio = lambda a, b: statistics.median([y / x for x, y in zip(per[a], per[b])])
    print(f"  raw vs decode alone: {ratio('raw', 'decode'):.2f}x the frame rate (aim: at least 0.9)")
    print(f"  .mp4 vs v360 + sendcmd: {ratio('mp4', 'v360'):.1f}x (aim: at least 5)")
    print(f"  .mp4 vs decode + encode alone: {ratio('mp4', 'bound'):.2f}x the frame rate")
PY
