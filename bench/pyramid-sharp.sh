#!/usr/bin/env bash
# Issue 39 pyramid item 8: a 6144×3072 grid (2-pixel lines every 64 px) rendered from its tile
# pyramids (JPEG at the default face size 1952, PNG at 1952, PNG √2 finer at 2760) against the
# grid's own render (as it is by default: mip levels built for a view that minifies; and
# "plain", --no-mipmaps: bilinear from the source alone, the default before), and each against
# the exact reference (bench/pyramid_views.py: float64, 4×4 samples a pixel; rectilinear only).
# VIEWS ("yaw pitch hfov;…", default "-135 -40 100;0 0 100"), SIZE (960x540);
# IMAGESTAGE=BIN skips the build. Pyramids already in bench/out/pyramid-sharp are reused.
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/out/pyramid-sharp
mkdir -p "$out"
source bench/pyramid-lib.sh
grid "$out/grid.png" 6144 3072
[ -f "$out/jpg/config.json" ] || "$bin" pano tiles "$out/grid.png" -o "$out/jpg" --force > /dev/null
[ -f "$out/png/config.json" ] || "$bin" pano tiles "$out/grid.png" -o "$out/png" --png --force > /dev/null
[ -f "$out/png2760/config.json" ] || "$bin" pano tiles "$out/grid.png" -o "$out/png2760" --png --cube-size 2760 --force > /dev/null
rm -f "$out"/*_y*.png
IFS=';' read -ra views <<< "${VIEWS:--135 -40 100;0 0 100}"
for view in "${views[@]}"; do
  read -r yaw pitch hfov <<< "$view"
  name="y${yaw}_p${pitch}_h${hfov}"
  "$bin" pano render "$out/grid.png" -o "$out/src_$name.png" --yaw "$yaw" --pitch "$pitch" --hfov "$hfov" --size "$size"
  "$bin" pano render "$out/grid.png" -o "$out/plain_$name.png" --yaw "$yaw" --pitch "$pitch" --hfov "$hfov" --size "$size" --no-mipmaps
  for p in jpg png png2760; do
    "$bin" pano render --config "$out/$p/config.json" -o "$out/${p}_$name.png" --yaw "$yaw" --pitch "$pitch" --hfov "$hfov" --size "$size"
  done
done
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
"$venv/bin/python" bench/pyramid_views.py "$out/grid.png" "$out" plain jpg png png2760
"$venv/bin/python" - "$out" <<'PY'
import glob, math, os, sys
import numpy as np
from PIL import Image
out = sys.argv[1]
load = lambda p: np.asarray(Image.open(p).convert("RGB"), dtype=np.float64)
for src in sorted(glob.glob(f"{out}/src_*.png")):
    name = os.path.basename(src)[4:-4]
    for base, label in [("src", "the source's render"), ("plain", "the --no-mipmaps render")]:
        a = load(f"{out}/{base}_{name}.png")
        row = []
        for p in ["src", "plain", "jpg", "png", "png2760"]:
            if p == base: continue
            mse = np.mean((load(f"{out}/{p}_{name}.png") - a) ** 2)
            row.append(f"{p} {10 * math.log10(255**2 / mse) if mse > 0 else 99:5.1f}")
        print(f"{name:24s} against {label}: " + "  ".join(row))
PY
