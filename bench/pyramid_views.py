"""Views of a tile pyramid and of its source against an exact reference of the same view.

The reference samples the decoded source bilinearly in float64 at 4×4 points inside every
output pixel (rectilinear lens, our yaw/pitch/hfov conventions) and averages them: what a
view of the source looks like without aliasing. Comparing a pyramid's view with the
source's own render (as issue 27 item 2 did) mixes two errors: the pyramid's second
resampling, and the aliasing both renders have where a sharp grid is finer than a pixel
(near the poles), which differ because their sample positions differ by a fraction of a
pixel. Against the reference each render's own error shows.

usage: pyramid_views.py SOURCE.png OUTDIR LABEL... (reads OUTDIR/src_V.png, OUTDIR/LABEL_V.png)
"""
import glob, math, os, re, sys
import numpy as np
from PIL import Image

from tiles_accuracy import sample_bilinear

SUPERSAMPLE = 4


def reference_view(src, yaw, pitch, hfov, w, h, samples):
    """Rectilinear view: +z forward, +y up; pitch about x, then yaw about y (turning right)."""
    H, W = src.shape[:2]
    f = (w / 2) / math.tan(math.radians(hfov) / 2)
    p, t = math.radians(pitch), math.radians(yaw)
    total = np.zeros((h, w, 3))
    for i in range(samples):
        for j in range(samples):
            X, Y = np.meshgrid(np.arange(w) + (i + 0.5) / samples - w / 2, h / 2 - (np.arange(h) + (j + 0.5) / samples))
            y2 = Y * math.cos(p) + f * math.sin(p)
            z2 = -Y * math.sin(p) + f * math.cos(p)
            x3 = X * math.cos(t) + z2 * math.sin(t)
            z3 = -X * math.sin(t) + z2 * math.cos(t)
            lon = np.arctan2(x3, z3)
            lat = np.arctan2(y2, np.hypot(x3, z3))
            total += sample_bilinear(src, (lon / (2 * math.pi) + 0.5) * W - 0.5, (0.5 - lat / math.pi) * H - 0.5)
    return total / samples**2


def psnr(a, b):
    mse = np.mean((a - b) ** 2)
    return 10 * math.log10(255**2 / mse) if mse > 0 else 99.0


def main():
    source, outdir, labels = sys.argv[1], sys.argv[2], sys.argv[3:]
    src = np.asarray(Image.open(source).convert("RGB"), dtype=np.float64)
    print(f"{'view (yaw pitch hfov)':24s} " + " ".join(f"{l:>10s}" for l in ["source"] + labels) + "   (dB against the 4×4 reference)")
    worst = {l: 99.0 for l in ["source"] + labels}
    for path in sorted(glob.glob(f"{outdir}/src_*.png")):
        name = os.path.basename(path)[4:-4]
        yaw, pitch, hfov = map(float, re.fullmatch(r"y(-?[\d.]+)_p(-?[\d.]+)_h([\d.]+)", name).groups())
        images = {"source": path, **{l: f"{outdir}/{l}_{name}.png" for l in labels}}
        first = np.asarray(Image.open(path).convert("RGB"), dtype=np.float64)
        h, w = first.shape[:2]
        reference = reference_view(src, yaw, pitch, hfov, w, h, SUPERSAMPLE)
        row = {}
        for label, file in images.items():
            row[label] = psnr(np.asarray(Image.open(file).convert("RGB"), dtype=np.float64), reference)
            worst[label] = min(worst[label], row[label])
        print(f"{yaw:7.1f} {pitch:6.1f} {hfov:6.1f}     " + " ".join(f"{row[l]:10.1f}" for l in images))
    print(f"{'worst':24s} " + " ".join(f"{worst[l]:10.1f}" for l in worst))


main()
