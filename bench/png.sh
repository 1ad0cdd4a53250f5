#!/usr/bin/env bash
# PNG against JPEG for one big render, in one run: `pano render` of an 8192×4096 view from a
# noisy 8192×4096 JPEG (as photographs are: noise defeats run lengths) to .png and to .jpg,
# ROUNDS (5) interleaved rounds, wall time min / median and the median of per-round
# PNG/JPEG ratios, with the files' sizes. The render and the decode are in both, so the
# ratio is the whole command a user runs. THREADS (2) is passed as --threads.
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/out/png
mkdir -p "$out"
rounds=${ROUNDS:-5}
threads=${THREADS:-2}
swift build -c release $(scripts/cpu-flags) --product imagestage >&2
src="$out/noisy-8192.jpg"
if [ ! -f "$src" ]; then
  .build/release/imagestage pano sample -o "$out/sample.jpg" --size 8192x4096
  ffmpeg -loglevel error -y -i "$out/sample.jpg" -vf "noise=alls=20:allf=t" -q:v 3 "$src"
fi
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), threads $threads"
python3 - "$rounds" "$threads" "$src" "$out" <<'PY'
import statistics, subprocess, sys, time, os
rounds, threads, src, out = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
times = {"jpg": [], "png": []}
for r in range(rounds):
    for ext in ("jpg", "png"):
        start = time.perf_counter()
        subprocess.run([".build/release/imagestage", "pano", "render", src, "--size", "8192x4096", "--threads", threads,
                        "-o", f"{out}/view.{ext}"], check=True)
        times[ext].append(time.perf_counter() - start)
ratios = [p / j for p, j in zip(times["png"], times["jpg"])]
for ext in ("jpg", "png"):
    size = os.path.getsize(f"{out}/view.{ext}") / 1e6
    print(f"{ext}: {min(times[ext]):.2f} / {statistics.median(times[ext]):.2f} s (min / median), {size:.1f} MB")
print(f"PNG / JPEG: {statistics.median(ratios):.2f}x (median of per-round ratios; min/min {min(times['png']) / min(times['jpg']):.2f}x)")
PY
