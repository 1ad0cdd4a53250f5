#!/usr/bin/env bash
# The cube renderers side by side in one run: the cube grid renderer (CubeRendering: rays at
# block corners, mip levels) on a CubeMap and on a fully loaded TiledCube, against the direct
# per-pixel cube renderer it replaced and the equirectangular grid renderer on the panorama
# the faces were cut from. 1920×1080, hfov 90°, turning 1° a frame, rounds interleaved;
# min and median ms/frame. FACE (1024) px faces, ROUNDS (5), THREADS (2).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps
swift build -c release $(scripts/cpu-flags) --product pano-bench >&2
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
.build/release/pano-bench --cube "${FACE:-1024}" "${ROUNDS:-5}" "${THREADS:-2}" | grep -v '^RESULT'
