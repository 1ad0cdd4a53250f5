#!/usr/bin/env bash
# Issue 27 item 2: how close a tile pyramid's views are to the truth, beside the source's own
# render. A 4096×2048 grid (2-pixel lines every 64 px: the hardest case) is cut into
# pyramids at the default face size (8·⌊width/π/8⌋ = 1296, as generate.py) and √2 finer
# (1832), PNG and JPEG q75 tiles; views at face centres, edges, a corner and the poles,
# hfov 20–120°, are rendered from each and from the source (as by default: mip levels for a
# view that minifies; and "plain", --no-mipmaps, the default before issue 39), and every
# render is compared with an exact reference (bench/pyramid_views.py: float64, 4×4 samples a
# pixel), then each pyramid's with the source's two renders. Rectilinear
# lens only: the reference has no other lens. SIZE (960x540); IMAGESTAGE=BIN skips the build.
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/out/pyramid-views
mkdir -p "$out"
source bench/pyramid-lib.sh
grid "$out/grid.png" 4096 2048
"$bin" pano tiles "$out/grid.png" -o "$out/png1296" --png --force > /dev/null
"$bin" pano tiles "$out/grid.png" -o "$out/png1832" --png --cube-size 1832 --force > /dev/null
"$bin" pano tiles "$out/grid.png" -o "$out/jpg1296" --force > /dev/null
rm -f "$out"/*_y*.png
# yaw pitch hfov: face centre, face edge (45), corner (45, 35.3), a tilted edge, the poles,
# and the field of view from 20° (magnified: a finest-level tile texel spans several pixels) to 120°.
for view in "0 0 90" "0 0 20" "45 0 60" "45 35.3 60" "45 35.3 120" "-135 -40 100" "30 85 90" "0 -90 120" "90 60 20" "10 0 45"; do
  read -r yaw pitch hfov <<< "$view"
  name="y${yaw}_p${pitch}_h${hfov}"
  "$bin" pano render "$out/grid.png" -o "$out/src_$name.png" --yaw "$yaw" --pitch "$pitch" --hfov "$hfov" --size "$size"
  "$bin" pano render "$out/grid.png" -o "$out/plain_$name.png" --yaw "$yaw" --pitch "$pitch" --hfov "$hfov" --size "$size" --no-mipmaps
  for pyramid in png1296 png1832 jpg1296; do
    "$bin" pano render "$out/$pyramid" -o "$out/${pyramid}_$name.png" --yaw "$yaw" --pitch "$pitch" --hfov "$hfov" --size "$size"
  done
done
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
"$venv/bin/python" bench/pyramid_views.py "$out/grid.png" "$out" plain png1296 png1832 jpg1296
"$venv/bin/python" - "$out" <<'PY'
import glob, math, os, sys
import numpy as np
from PIL import Image
out = sys.argv[1]
load = lambda p: np.asarray(Image.open(p).convert("RGB"), dtype=np.float64)
def psnr(a, b):
    mse = np.mean((a - b) ** 2)
    return 10 * math.log10(255**2 / mse) if mse > 0 else 99.0
print(f"{'view':24s} pyramid against the source's render (against the --no-mipmaps one)")
for src in sorted(glob.glob(f"{out}/src_*.png")):
    name = os.path.basename(src)[4:-4]
    a, b = load(src), load(f"{out}/plain_{name}.png")
    row = [f"{p} {psnr(load(f'{out}/{p}_{name}.png'), a):5.1f} ({psnr(load(f'{out}/{p}_{name}.png'), b):5.1f})"
           for p in ["png1296", "png1832", "jpg1296"]]
    print(f"{name:24s} " + "  ".join(row))
PY
