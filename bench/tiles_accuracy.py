"""Accuracy of two tile pyramids against the exact reprojection of the same decode.

For a spread of finest-level tiles (every face, the poles' and the edges' included), each
pixel's direction is computed in float64 (Pannellum's cube frames), the decoded source is
sampled bilinearly in float64 (x wraps, y clamps), rounded once: the exact tile. Prints the
PSNR of each pyramid's tiles against it (all sampled tiles pooled), in dB.

usage: tiles_accuracy.py SOURCE.jpg DIR_A DIR_B ...
"""
import json, math, sys
import numpy as np
from PIL import Image

Image.MAX_IMAGE_PIXELS = None
FRAMES = {  # centre, right, down per face letter (Pannellum's orientation)
    "f": ((0, 0, 1), (1, 0, 0), (0, -1, 0)),
    "r": ((1, 0, 0), (0, 0, -1), (0, -1, 0)),
    "b": ((0, 0, -1), (-1, 0, 0), (0, -1, 0)),
    "l": ((-1, 0, 0), (0, 0, 1), (0, -1, 0)),
    "u": ((0, 1, 0), (1, 0, 0), (0, 0, 1)),
    "d": ((0, -1, 0), (1, 0, 0), (0, 0, -1)),
}


def exact_tile(src, face, x0, y0, w, h, cube):
    H, W = src.shape[:2]
    c, r, d = (np.array(v, dtype=np.float64) for v in FRAMES[face])
    s = 2 * (x0 + np.arange(w) + 0.5) / cube - 1
    t = 2 * (y0 + np.arange(h) + 0.5) / cube - 1
    S, T = np.meshgrid(s, t)
    D = c[None, None, :] + S[..., None] * r + T[..., None] * d
    lon = np.arctan2(D[..., 0], D[..., 2])
    lat = np.arctan2(D[..., 1], np.hypot(D[..., 0], D[..., 2]))
    return np.rint(sample_bilinear(src, (lon / (2 * math.pi) + 0.5) * W - 0.5, (0.5 - lat / math.pi) * H - 0.5))


def sample_bilinear(src, u, v):
    """The decode sampled at pixel coordinates (u, v) in float64: x wraps, y clamps."""
    H, W = src.shape[:2]
    v = np.clip(v, 0, H - 1)
    xf, yf = np.floor(u), np.floor(v)
    fx, fy = (u - xf)[..., None], (v - yf)[..., None]
    xa = xf.astype(np.int64) % W
    xb = (xa + 1) % W
    ya = yf.astype(np.int64)
    yb = np.minimum(ya + 1, H - 1)
    top = src[ya, xa] * (1 - fx) + src[ya, xb] * fx
    bottom = src[yb, xa] * (1 - fx) + src[yb, xb] * fx
    return top * (1 - fy) + bottom * fy


def main():
    source, dirs = sys.argv[1], sys.argv[2:]
    src = np.asarray(Image.open(source).convert("RGB"), dtype=np.float64)
    configs = [json.load(open(f"{d}/config.json")) for d in dirs]
    m = configs[0]["multiRes"]
    cube, ts, level = m["cubeResolution"], m["tileResolution"], m["maxLevel"]
    n = math.ceil(cube / ts)
    # Per face: the corners, an edge middle, and the centre (the poles on u and d).
    picks = sorted({(0, 0), (n - 1, n - 1), (0, n // 2), (n // 2, n // 2), (n // 2, 0)})
    errors = {d: 0.0 for d in dirs}
    count = 0
    for face in FRAMES:
        for tx, ty in picks:
            w, h = min(ts, cube - tx * ts), min(ts, cube - ty * ts)
            ref = exact_tile(src, face, tx * ts, ty * ts, w, h, cube)
            count += ref.size
            for d, c in zip(dirs, configs):
                ext = c["multiRes"]["extension"]
                tile = np.asarray(Image.open(f"{d}/{level}/{face}{ty}_{tx}.{ext}").convert("RGB"), dtype=np.float64)
                errors[d] += float(((tile - ref) ** 2).sum())
    for d in dirs:
        mse = errors[d] / count
        print(f"{d}: {10 * math.log10(255 ** 2 / mse):.2f} dB over {len(picks) * 6} tiles" if mse > 0 else f"{d}: exact")


if __name__ == "__main__":
    main()
