# Sourced by bench/pyramid-views.sh and bench/pyramid-sharp.sh: the Python venv with Pillow and
# NumPy, the imagestage binary in $bin (IMAGESTAGE=BIN skips the build), the view size in $size
# (SIZE, default 960x540), and `grid OUT.png WIDTH HEIGHT`, the test panorama.
venv=build/bench-venv
if ! "$venv/bin/python" -c "import PIL, numpy" 2> /dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q pillow numpy
fi
scripts/install-deps build
bin=${IMAGESTAGE:-}
if [ -z "$bin" ]; then
  swift build -c release $(scripts/cpu-flags) --product imagestage >&2
  bin=.build/release/imagestage
fi
size=${SIZE:-960x540}

# 2-pixel lines every 64 px (the hardest case for a resampler) over a red ramp, so the
# channels differ.
grid() {
  "$venv/bin/python" - "$1" "$2" "$3" <<'PY'
import sys
import numpy as np
from PIL import Image
W, H = int(sys.argv[2]), int(sys.argv[3])
grid = np.full((H, W, 3), 230, np.uint8)
grid[:, :, 0] = 230 - (np.arange(W)[None, :] % 256) // 8
for x in range(0, W, 64): grid[:, x:x + 2] = 20
for y in range(0, H, 64): grid[y:y + 2, :] = 20
Image.fromarray(grid).save(sys.argv[1])
PY
}
