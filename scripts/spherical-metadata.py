#!/usr/bin/env python3
"""Writes spherical video metadata into an MP4 that ffmpeg made (moov after mdat, the
default without -movflags faststart), for the tests and the benchmark:

  spherical-metadata.py IN.mp4 OUT.mp4 [--v2] [--v1] [--yaw D] [--pitch D] [--roll D]
                        [--stereo mono|top-bottom|left-right] [--crop T,B,L,R]

--v2 appends st3d and sv3d (Spherical Video V2: prhd pose in 16.16 degrees, equi bounds as
0.32 fractions) to the video track's sample entry; --v1 adds the GSpherical XML uuid box
to the video track. ffmpeg 5.1 cannot write them from the command line (its mov muxer
writes sv3d only from side data, with -strict unofficial), hence this.

Users: `imagestage pano tag CLIP.mp4 -o OUT.mp4` writes V2 (any box order, faststart files
too); this script stays for the tests' V1 clips and the fuzzer's seeds.
"""
import argparse
import struct
import sys

SPHERICAL_UUID = bytes.fromhex("ffcc8263f8554a938814587a02521fdd")
CONTAINERS = {b"moov", b"trak", b"mdia", b"minf", b"stbl"}


def boxes(data, start, end):
    i = start
    while i + 8 <= end:
        size, kind = struct.unpack(">I4s", data[i:i + 8])
        if size < 8 or i + size > end:
            raise SystemExit(f"bad box at {i}")
        yield i, size, kind
        i += size


def box(kind, body):
    return struct.pack(">I4s", 8 + len(body), kind) + body


def full(kind, body, version=0, flags=0):
    return box(kind, struct.pack(">I", version << 24 | flags) + body)


def rebuild(data, start, end, path, insert):
    """The boxes in data[start:end], with `insert` appended inside the box at `path`
    (a list of (kind, header_extra_bytes, test); kind None: the first box, as the video
    sample entry, whatever its codec: avc1, vp09…); sizes on the way grow."""
    out = b""
    for i, size, kind in boxes(data, start, end):
        if path and path[0][0] in (kind, None) and path[0][2](data, i, size):
            extra = path[0][1]
            head = data[i + 8:i + 8 + extra]
            if len(path) == 1:
                inner = data[i + 8 + extra:i + size] + insert
            else:
                inner = rebuild(data, i + 8 + extra, i + size, path[1:], insert)
            out += box(kind, head + inner)
            path = []  # only the first match
        else:
            out += data[i:i + size]
    return out


def is_video_trak(data, i, size):
    return b"vide" in data[i:i + size][:4096]


def anything(data, i, size):
    return True


def main():
    p = argparse.ArgumentParser()
    p.add_argument("input")
    p.add_argument("output")
    p.add_argument("--v1", action="store_true")
    p.add_argument("--v2", action="store_true")
    p.add_argument("--yaw", type=float, default=0)
    p.add_argument("--pitch", type=float, default=0)
    p.add_argument("--roll", type=float, default=0)
    p.add_argument("--stereo", default="mono", choices=["mono", "top-bottom", "left-right"])
    p.add_argument("--crop", default="0,0,0,0")
    a = p.parse_args()
    data = open(a.input, "rb").read()
    top = list(boxes(data, 0, len(data)))
    kinds = [k for _, _, k in top]
    if kinds.index(b"moov") < kinds.index(b"mdat"):
        raise SystemExit("moov before mdat: chunk offsets would move; write the MP4 without faststart")
    if a.v2:
        mode = {"mono": 0, "top-bottom": 1, "left-right": 2}[a.stereo]
        st3d = full(b"st3d", bytes([mode]))
        t, b, l, r = (int(float(x) * 2**32) for x in a.crop.split(","))
        pose = struct.pack(">iii", *(int(round(x * 65536)) for x in (a.yaw, a.pitch, a.roll)))
        sv3d = box(
            b"sv3d",
            full(b"svhd", b"imagestage tests\0")
            + box(b"proj", full(b"prhd", pose) + full(b"equi", struct.pack(">IIII", t, b, l, r))),
        )
        # stsd: FullBox (4) + entry count (4); the visual sample entry: 78 bytes of fields.
        path = [(b"moov", 0, anything), (b"trak", 0, is_video_trak), (b"mdia", 0, anything), (b"minf", 0, anything),
                (b"stbl", 0, anything), (b"stsd", 8, anything), (None, 78, anything)]
        data = b"".join(rebuild(data, i, i + s, path, st3d + sv3d) if k == b"moov" else data[i:i + s]
                        for i, s, k in boxes(data, 0, len(data)))
    if a.v1:
        xml = (
            '<?xml version="1.0"?><rdf:SphericalVideo xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
            'xmlns:GSpherical="http://ns.google.com/videos/1.0/spherical/">'
            "<GSpherical:Spherical>true</GSpherical:Spherical><GSpherical:Stitched>true</GSpherical:Stitched>"
            "<GSpherical:StitchingSoftware>imagestage tests</GSpherical:StitchingSoftware>"
            "<GSpherical:ProjectionType>equirectangular</GSpherical:ProjectionType>"
            f"<GSpherical:StereoMode>{a.stereo}</GSpherical:StereoMode>"
            f"<GSpherical:InitialViewHeadingDegrees>{a.yaw:g}</GSpherical:InitialViewHeadingDegrees>"
            "</rdf:SphericalVideo>"
        ).encode()
        path = [(b"moov", 0, anything), (b"trak", 0, is_video_trak)]
        data = b"".join(rebuild(data, i, i + s, path, box(b"uuid", SPHERICAL_UUID + xml)) if k == b"moov" else data[i:i + s]
                        for i, s, k in boxes(data, 0, len(data)))
    open(a.output, "wb").write(data)


if __name__ == "__main__":
    sys.exit(main())
