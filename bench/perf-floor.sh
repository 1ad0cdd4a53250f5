#!/usr/bin/env bash
# Hardware counters a frame for a floor's contenders (pano-bench --MODE-one: the fixed view's
# by default; yuv-floor for the video renderer, cube-floor for the cube paths): the chosen
# kernel, the others, the gather floors and the write floor, one thread. Each is run
# at two frame counts and the difference divided by the frames between, so loading and
# set-up cancel. Prints IPC, L1 data and last-level-cache load misses a frame, or why the
# counters cannot be read here (no perf; perf_event_paranoid; a VM that exposes no PMU).
# Usage: bench/perf-floor.sh IN [MODE]  (after pano-bench is built; PERF_EVENTS to override)
#   IN: PANO.jpg for floor (the default MODE); RAW.yuv:WxH for yuv-floor; FACE:PITCH for cube-floor
set -euo pipefail
cd "$(dirname "$0")/.."
pano=$1 mode=${2:-floor}
bin=.build/release/pano-bench
events=${PERF_EVENTS:-cycles,instructions,L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses}
echo "== perf stat, a frame of each --$mode contender, 1 thread"
if ! command -v perf > /dev/null; then
  echo "perf is not installed (Debian: apt-get install linux-perf): no counters"
  exit 0
fi
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2> /dev/null || echo unknown)
probe=$(perf stat -x, -e "$events" true 2>&1 || true)
if grep -qiE 'not supported|<not counted>' <<< "$probe"; then
  echo "hardware counters not available: perf reports them <not supported> (perf_event_paranoid $paranoid;"
  echo "  event sources: $(ls /sys/bus/event_source/devices | tr '\n' ' '); a VM without a virtual PMU has no 'cpu' source)"
  exit 0
fi
if grep -qiE 'permission|access to performance monitoring' <<< "$probe"; then
  echo "perf may not read counters here: perf_event_paranoid is $paranoid (needs <= 2 for one's own process, or root)"
  exit 0
fi
short=${PERF_SHORT:-20} long=${PERF_LONG:-220}
# The case names, from the list pano-bench prints for an unknown one.
cases=$({ "$bin" "--$mode-one" list 1 "$pano" 1 2> /dev/null || true; } | sed -n 's/^no case list: //p' | tr -d ',')
for name in $cases; do
  a=$(perf stat -x, -e "$events" "$bin" "--$mode-one" "$name" 1 "$pano" "$short" 2>&1 > /dev/null)
  b=$(perf stat -x, -e "$events" "$bin" "--$mode-one" "$name" 1 "$pano" "$long" 2>&1 > /dev/null)
  python3 - "$name" "$((long - short))" "$a" "$b" <<'PY'
import sys
name, frames, a, b = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
def counts(text):
    out = {}
    for line in text.splitlines():
        p = line.split(",")
        if len(p) >= 3:
            try: out[p[2]] = float(p[0])
            except ValueError: pass
    return out
x, y = counts(a), counts(b)
per = {k: (y[k] - x[k]) / frames for k in y if k in x}
parts = []
if "cycles" in per and "instructions" in per and per["cycles"] > 0:
    parts.append(f"IPC {per['instructions'] / per['cycles']:.2f}, {per['instructions'] / 1e6:.1f} M instructions")
for k in ("L1-dcache-load-misses", "LLC-load-misses"):
    if k in per: parts.append(f"{k} {per[k] / 1e3:.0f} k")
rest = [f"{k} {v:.4g}" for k, v in per.items() if k not in ("cycles", "instructions", "L1-dcache-load-misses", "LLC-load-misses")]
print(f"  {name:10s} a frame: " + ", ".join(parts + rest))
PY
done
