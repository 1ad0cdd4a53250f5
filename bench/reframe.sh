#!/usr/bin/env bash
# `pano reframe` against decoding alone, decode + encode alone, and ffmpeg's v360 driven by
# sendcmd with the same moving view, in one run. Clips made here from a real panorama
# (Pannellum's examplepano.jpg, scaled) at camera bit rates: 3840×1920 H.264 at 60 Mb/s,
# 8 s, and 5760×2880 at 80 Mb/s, 4 s, 30 fps, High profile with CABAC and deblocking (x264
# veryfast) as cameras write; the picture scrolls and carries grain, so every frame costs the
# decoder what a camera's does. The view moves every frame (yaw a turn in 8 s, pitch ±30°,
# hfov 90°). Per-frame cost is the slope between two frame counts (start-up cancels), ROUNDS
# (3) interleaved rounds, min / median; ratios are the medians of per-round ratios.
#   raw:   pano reframe -o - (1080p yuv420p frames) > /dev/null, with the chosen kernel
#          and with the portable Swift loop (IMAGESTAGE_YUV_KERNEL=swift), against
#          decode:  ffmpeg -threads 2 -i IN -f null -
#   .mp4:  pano reframe -o OUT.mp4 (libx264 veryfast, CRF 20), against
#          v360:    ffmpeg -i IN -vf sendcmd,v360 (same view, same codec and settings), and
#          bound:   ffmpeg -i IN -vf crop=1920:1080 (decode + encode alone, the same codec)
# v360's yaw, pitch and roll commands turn the view from where it is (each rotation is
# multiplied onto the last: "yaw 30" twice looks 60° round), and each command rebuilds its
# whole map. The moving view is sent as "pitch −p(prev), yaw Δy, pitch p" a frame, half a
# frame before it (at max(0, (k − 0.5)/30): at k/30 a command could land one frame late; three
# rebuilds; checked against a fixed v360 view of the same angles to 60 dB). Since any moving
# view needs at least one rebuild a frame, v360 is also timed with only the yaw commands (one
# rebuild a frame: its floor), and the 5× aim is held against that floor. v360 costs seconds a
# frame, so it is timed over 6 → 24 frames, the rest over 30 → 120.
# First, the machine's floor for the renderer alone (pano-bench --yuv-floor, as bench/pano.sh's
# for RGBA): the 3840×1920 clip's first frame, decoded to raw yuv420p, drawn at a fixed view
# into 1080p Y′CbCr by each kernel, beside the same frame written once and the same source
# samples gathered at the renderer's own addresses with no arithmetic; FLOOR_ROUNDS (5)
# interleaved rounds of FLOOR_FRAMES (20), then `perf stat` counters where the kernel allows
# them (bench/perf-floor.sh). FLOOR_ONLY=1 stops there.
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/out/reframe
mkdir -p "$out"
rounds=${ROUNDS:-3}
# One product per build: `--product A --product B` builds only the last.
swift build -c release $(scripts/cpu-flags) --product pano-bench >&2
swift build -c release $(scripts/cpu-flags) --product imagestage >&2
bin=.build/release/imagestage
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores; load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "aims (issue 40): raw frames at least 0.95x decoding alone's frame rate at 3840x1920; the renderer within 2x of the gather floor"
echo "video kernel: ${IMAGESTAGE_YUV_KERNEL:-auto} ($(grep -qw avx2 /proc/cpuinfo && echo 'avx2 where auto' || echo 'no AVX2: the Swift loop'))"
pano=tests/web/pannellum/examples/examplepano.jpg
make_clip() {  # WxH seconds Mb/s -> $out/clip-WxH-RATEM.mp4
  local size=$1 seconds=$2 rate=$3
  local clip="$out/clip-$size-${rate}M.mp4"
  [ -f "$clip" ] && { echo "$clip"; return; }
  ffmpeg -loglevel error -y -loop 1 -i "$pano" -t "$seconds" -r 30 \
    -vf "scale=$size:flags=bicubic,scroll=horizontal=0.0015,noise=alls=6:allf=t,format=yuv420p" \
    -c:v libx264 -preset veryfast -b:v "${rate}M" -maxrate "$((rate * 5 / 4))M" -bufsize "$((rate * 2))M" \
    -color_range tv -colorspace bt709 -color_primaries bt709 -color_trc bt709 "$clip.partial.mp4"
  mv "$clip.partial.mp4" "$clip"
  echo "$clip"
}
clips=("$(make_clip 3840x1920 8 60)" "$(make_clip 5760x2880 4 80)")
raw="$out/frame-3840x1920.yuv"
[ -f "$raw" ] || ffmpeg -loglevel error -y -i "${clips[0]}" -frames:v 1 -f rawvideo -pix_fmt yuv420p "$raw"
echo "== the floor: the video renderer alone, a fixed view, ${FLOOR_ROUNDS:-5} interleaved rounds of ${FLOOR_FRAMES:-20} frames"
.build/release/pano-bench --yuv-floor "$raw" 3840x1920 "${FLOOR_FRAMES:-20}" "${FLOOR_ROUNDS:-5}" | grep '^FLOOR' | sed 's/^FLOOR //'
bench/perf-floor.sh "$raw:3840x1920" yuv-floor
[ -z "${FLOOR_ONLY:-}" ] || { echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"; exit 0; }
for clip in "${clips[@]}"; do
  echo "clip: $clip, $(ffprobe -v error -select_streams v:0 -show_entries format=bit_rate:stream=profile -of csv=p=0 "$clip" | tr '\n' ' ' | awk '{printf "%s profile, %.0f Mb/s", $1, $2 / 1e6}')"
done
# Wall seconds and CPU seconds (user + system, the command and its children): on a loaded
# machine the wall time swings with the other load, while the CPU time a frame costs barely
# moves, and on 2 saturated cores the frame-rate ratio is the CPU ratio.
seconds() { local TIMEFORMAT='%R %U %S'; { time "$@" > /dev/null 2>&1; } 2>&1 | awk '{print $1, $2 + $3}'; }
vfov=58.7155 # 2·atan(tan(45°)·1080/1920) at hfov 90; v360 takes both, ours derives it
# The moving view, as keyframes for us and as sendcmd's per-frame commands for v360, both
# from one formula: keys 1/30 s apart, eased between, follow it to well under a pixel.
python3 - "$out" <<'PY'
import json, math, sys
out = sys.argv[1]
keys, moving, floor = [], [], []
previous = (0.0, 0.0)
for k in range(241):
    t = k / 30
    yaw = 45 * t
    pitch = 30 * math.sin(2 * math.pi * t / 4)
    keys.append({"time": t, "yaw": yaw, "pitch": pitch, "hfov": 90})
    dy = yaw - previous[0]
    # Half a frame early, so each command lands before its frame rather than on it (at k/30
    # printed to 4 places, 2/30 became 0.0667, after frame 2 at 0.06667: one frame late).
    at = max(0.0, (k - 0.5) / 30)
    moving.append(f"{at:.4f} v360 pitch {-previous[1]:.6f}, v360 yaw {dy:.6f}, v360 pitch {pitch:.6f};")
    floor.append(f"{at:.4f} v360 yaw {dy:.6f};")
    previous = (yaw, pitch)
json.dump(keys, open(f"{out}/moving.json", "w"))
open(f"{out}/moving.cmd", "w").write("\n".join(moving) + "\n")
open(f"{out}/floor.cmd", "w").write("\n".join(floor) + "\n")
PY
short=30
long=120
vshort=6
vlong=24
results="$out/results.txt"
: > "$results"
x264=(-c:v libx264 -preset veryfast -crf 20 -an)
v360() {  # clip frames commands output
  ffmpeg -y -threads 2 -i "$1" -frames:v "$2" -filter_threads 2 \
    -vf "sendcmd=f=$3,v360=e:flat:w=1920:h=1080:h_fov=90:v_fov=$vfov:interp=linear" "${x264[@]}" "$4"
}
for ((r = 1; r <= rounds; r++)); do
  for clip in "${clips[@]}"; do
    size=$(basename "$clip" .mp4 | sed 's/clip-//')
    for n in $short $long; do
      d=$(echo "$n / 30" | bc -l)
      echo "$size decode $n $(seconds ffmpeg -threads 2 -i "$clip" -frames:v "$n" -f null -)" >> "$results"
      echo "$size raw $n $(seconds sh -c "$bin pano reframe $clip -o - --keys $out/moving.json --duration $d > /dev/null")" >> "$results"
      echo "$size raw-swift $n $(seconds sh -c "IMAGESTAGE_YUV_KERNEL=swift $bin pano reframe $clip -o - --keys $out/moving.json --duration $d > /dev/null")" >> "$results"
      [ -n "${RAW_ONLY:-}" ] && continue
      echo "$size bound $n $(seconds ffmpeg -y -threads 2 -i "$clip" -frames:v "$n" -vf crop=1920:1080 "${x264[@]}" "$out/bound.mp4")" >> "$results"
      echo "$size mp4 $n $(seconds "$bin" pano reframe "$clip" -o "$out/ours.mp4" --keys "$out/moving.json" --duration "$d" --no-audio)" >> "$results"
    done
    [ -n "${RAW_ONLY:-}" ] && continue
    for n in $vshort $vlong; do
      echo "$size v360 $n $(seconds v360 "$clip" "$n" "$out/moving.cmd" "$out/v360.mp4")" >> "$results"
      echo "$size v360-floor $n $(seconds v360 "$clip" "$n" "$out/floor.cmd" "$out/v360-floor.mp4")" >> "$results"
    done
    if [ "$r" = 1 ]; then  # the same view: ours against v360's, frame by frame (both CRF 20)
      agree=$(ffmpeg -i "$out/ours.mp4" -i "$out/v360.mp4" -lavfi "[0:v][1:v]psnr=shortest=1" -f null - 2>&1 | grep -o "average:[0-9.inf]* min:[0-9.inf]*" | sed "s/average://; s/min:/(min /; s/$/)/")
      echo "$size agree $vlong $agree" >> "$results"
    fi
  done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$results" "$rounds" <<'PY'
import statistics, sys
path, rounds = sys.argv[1], int(sys.argv[2])
rows = [l.split() for l in open(path)]
sizes = list(dict.fromkeys(r[0] for r in rows))
names = [("decode", "decode alone (ffmpeg -threads 2 -f null)"), ("raw", "pano reframe -o - (raw yuv420p)"),
         ("raw-swift", "  the same, portable Swift loop"),
         ("bound", "decode + encode alone (crop, libx264 veryfast)"), ("mp4", "pano reframe -o .mp4"),
         ("v360", "ffmpeg sendcmd + v360 -> .mp4, same view"),
         ("v360-floor", "  v360 floor: one map rebuild a frame")]
for size in sizes:
    per, cpu = {}, {}
    for name, _ in names:
        counts = sorted({int(r[2]) for r in rows if r[0] == size and r[1] == name})
        if not counts:
            continue
        short, long = counts[0], counts[-1]
        def slopes(column):
            t = {n: [float(r[column]) for r in rows if r[0] == size and r[1] == name and int(r[2]) == n] for n in (short, long)}
            return [(b - a) / (long - short) for a, b in zip(t[short], t[long])]
        per[name] = (slopes(3), f"{short}->{long}")
        cpu[name] = slopes(4)
    fps = lambda s: 1 / s if s > 0 else float("inf")
    print(f"{size}, 1920x1080 out, moving view, frames/s from the slope between two frame counts ({rounds} rounds, ms a frame min / median; CPU ms a frame, user + system, median):")
    for name, label in names:
        if name not in per:
            continue
        s, frames = per[name]
        print(f"  {label:48s} {fps(statistics.median(s)):6.1f} fps  ({1000 * min(s):.1f} / {1000 * statistics.median(s):.1f} ms; CPU {1000 * statistics.median(cpu[name]):.1f} ms; {frames} frames)")
    ratio = lambda a, b, d=per: statistics.median([y / x for x, y in zip(d[a][0] if d is per else d[a], d[b][0] if d is per else d[b])])
    print(f"  raw vs decode alone: {ratio('raw', 'decode'):.2f}x the frame rate (aim: at least 0.95), per round {' '.join(f'{y / x:.2f}' for x, y in zip(per['raw'][0], per['decode'][0]))}; portable Swift: {ratio('raw-swift', 'decode'):.2f}x")
    print(f"    by CPU time a frame (what 2 saturated cores give, steadier under other load): {ratio('raw', 'decode', cpu):.2f}x; portable Swift: {ratio('raw-swift', 'decode', cpu):.2f}x")
    if "mp4" in per:
        print(f"  .mp4 vs v360 + sendcmd: {ratio('mp4', 'v360'):.1f}x the same view, {ratio('mp4', 'v360-floor'):.1f}x v360's floor (aim: at least 5)")
        print(f"  .mp4 vs decode + encode alone: {ratio('mp4', 'bound'):.2f}x the frame rate")
    agree = [r for r in rows if r[0] == size and r[1] == "agree"]
    if agree:
        print(f"  the views agree: ours against v360's .mp4, {' '.join(agree[0][3:])} dB PSNR over their first {agree[0][2]} frames (both CRF 20)")
PY
