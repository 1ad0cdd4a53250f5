#!/usr/bin/env bash
# Why the renderer prefetches (bench/walk-probe/walk.c): bilinear reads along rows that cross
# an image at 0°, 30°, 45° and 90°, row-major and tiled, without and with software
# prefetches 32 pixels ahead, and with 2 MB pages. SIDE (2736: a 10800×5400 panorama's polar
# face) and STEP (1.79: texels per output pixel for a 90° view of it at 1920 px) may be set.
set -euo pipefail
cd "$(dirname "$0")"
out=out/walk-probe
mkdir -p "$out"
gcc -O2 walk-probe/walk.c -o "$out/walk" -lm
side=${SIDE:-2736} step=${STEP:-1.79}
echo "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1); image ${side}², ${step} texels a pixel, ms per 1080p frame"
echo "== no prefetch"; "$out/walk" "$side" "$step" 2
echo "== huge pages"; HUGE=1 "$out/walk" "$side" "$step" 1
echo "== prefetch 32 pixels ahead"; AHEAD=32 "$out/walk" "$side" "$step" 2
