#!/usr/bin/env bash
# `imagestage pano tiles` against Pannellum's generate.py + nona (bench/pannellum/), in one
# run on the same image and machine: wall time and peak memory (/usr/bin/time -v) per run,
# ROUNDS (3) interleaved rounds, min / median and the median of per-round ratios; then the
# accuracy of both pyramids (PNG tiles, so no JPEG loss) against the exact float64
# reprojection of the same decode (bench/tiles_accuracy.py). That reference is bilinear, as
# our renderer is; nona interpolates bicubically (generate.py's `i0`), so part of its
# distance is a different, not a worse, filter.
# SOURCE=WxH (default 10800x5400; the issue's figure is 32000x16000): Pannellum's example
# photograph scaled up with Lanczos and a little grain, saved as JPEG quality 90.
# Both tools get 2 threads' worth of machine: ours --threads 2; nona uses every core.
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/out/tiles
mkdir -p "$out"
rounds=${ROUNDS:-3}
source_size=${SOURCE:-10800x5400}
[[ $source_size =~ ^([0-9]+)x([0-9]+)$ ]] || { echo "SOURCE must be WxH, got '$source_size'" >&2; exit 2; }
command -v nona > /dev/null || apt-get install -y -qq --no-install-recommends hugin-tools > /dev/null
[ -x /usr/bin/time ] || apt-get install -y -qq --no-install-recommends time > /dev/null
venv=build/bench-venv
if ! "$venv/bin/python" -c "import PIL, numpy" 2> /dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q pillow numpy
fi
swift build -c release $(scripts/cpu-flags) --product imagestage >&2
pano=$out/source-$source_size.jpg
if [ ! -f "$pano" ]; then
  "$venv/bin/python" - "$pano" "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" <<'PY'
import sys
import numpy as np
from PIL import Image
Image.MAX_IMAGE_PIXELS = None
path, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
big = np.asarray(Image.open("tests/web/pannellum/examples/examplepano.jpg").convert("RGB").resize((w, h), Image.LANCZOS))
rng = np.random.default_rng(1)
out = np.empty_like(big)
for y in range(0, h, 1024):  # grain in bands, so the noise array stays small
    band = big[y:y + 1024].astype(np.int16) + rng.integers(-6, 7, size=big[y:y + 1024].shape, dtype=np.int16)
    out[y:y + 1024] = np.clip(band, 0, 255).astype(np.uint8)
del big
Image.fromarray(out).save(path, quality=90)
PY
fi
echo "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores; source $source_size ($(du -h "$pano" | cut -f1))"
measure() {  # label, command...: appends "label seconds peak-MB"
  local label=$1
  shift
  /usr/bin/time -f "%e %M" -o "$out/time.txt" "$@" > /dev/null 2> "$out/stderr.txt" || { cat "$out/stderr.txt" >&2; exit 1; }
  read -r seconds kb < "$out/time.txt"
  echo "$label $seconds $((kb / 1024))" >> "$out/results.txt"
}
: > "$out/results.txt"
for ((r = 1; r <= rounds; r++)); do
  rm -rf "$out/ours" "$out/generate"
  measure ours .build/release/imagestage pano tiles "$pano" -o "$out/ours" --threads 2
  measure generate "$venv/bin/python" bench/pannellum/generate.py -n "$(command -v nona)" -o "$out/generate" "$pano"
done
python3 - "$out/results.txt" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
t = {w: [float(s) for l, s, m in rows if l == w] for w in ("ours", "generate")}
mem = {w: max(int(m) for l, s, m in rows if l == w) for w in t}
for w, label in (("ours", "imagestage pano tiles"), ("generate", "generate.py + nona")):
    print(f"{label:22} s min {min(t[w]):7.2f} median {statistics.median(t[w]):7.2f}  peak {mem[w]:5d} MB")
print(f"generate.py / ours: {statistics.median(g / o for g, o in zip(t['generate'], t['ours'])):.1f}x time,"
      f" {mem['generate'] / mem['ours']:.1f}x memory")
PY
# Accuracy: both as PNG (no JPEG loss), against the exact reprojection (ACCURACY=0 skips
# it: at 32000×16000 generate.py's PNG faces take longer than the timed runs).
if [ "${ACCURACY:-1}" = 1 ]; then
rm -rf "$out/ours-png" "$out/generate-png"
.build/release/imagestage pano tiles "$pano" -o "$out/ours-png" --png > /dev/null
"$venv/bin/python" bench/pannellum/generate.py -n "$(command -v nona)" --png -o "$out/generate-png" "$pano" > /dev/null
"$venv/bin/python" bench/tiles_accuracy.py "$pano" "$out/ours-png" "$out/generate-png"
fi
# The browser: time to first frame for the untiled JPEG against its pyramid (and the
# 32000×16000 pyramid when bench/out/tiles/big exists: SOURCE=32000x16000 leaves it there,
# as the viewer cannot open that size untiled at all).
if [ "$source_size" = 32000x16000 ]; then
  rm -rf "$out/big" && cp -r "$out/ours" "$out/big"
  echo "kept the 32000×16000 pyramid in $out/big for the next run's browser comparison"
  exit 0
fi
make web >&2
scripts/install-test-venv
site=$out/site
rm -rf "$site" && mkdir -p "$site"
ln -s "$PWD/build/web" "$site/web"
ln -s "$PWD/$pano" "$site/source.jpg"
ln -s "$PWD/$out/ours" "$site/tiles"
extra=()
if [ -d "$out/big" ]; then ln -s "$PWD/$out/big" "$site/big-32000" && extra=(big-32000); fi
build/venv/bin/python bench/web/tiles.py "$site" "$rounds" source.jpg tiles "${extra[@]}"
