#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer + AddressSanitizer, from the Swift toolchain) of what
# reads the files users hand us: JSON, scenarios, motion logs, images (our wrapper around
# TurboJPEG and libspng), saved board states, MP4 boxes (read, and retagged as `pano tag` does). The first byte of an input picks the reader. Usage: fuzz/run.sh [SECONDS]  (default 120). Crashes are written
# to fuzz/out/ as crash-* files; replay one with `fuzz/out/fuzz fuzz/out/crash-…`.
# `fuzz/run.sh --build` only compiles and seeds; `fuzz/run.sh --run SECONDS` only runs what
# --build made. make test compiles it beside its later steps, which leave a core idle (the
# compile is 2–3 minutes of one core), and runs it at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
out=fuzz/out
phase=all
case "${1:-}" in --build) phase=build ;; --run) phase=run; shift ;; esac
if [ "$phase" = run ]; then
  [ -x "$out/fuzz" ] || { echo "fuzz/run.sh --run: no $out/fuzz; run fuzz/run.sh --build first" >&2; exit 2; }
  cd "$out"
  exec ./fuzz -max_len=4096 -rss_limit_mb=4096 -max_total_time="${1:-120}" -print_final_stats=1 corpus
fi
mkdir -p "$out/corpus"
flags=(-sanitize=fuzzer,address -O -parse-as-library -wmo -I "$out" -I Sources/CTurboJPEG -I Sources/CSpng -I Sources/CZlib
  -I Sources/CKernels/include -I Sources/CJPEGRows/include -I Sources/CFFmpeg)
module() {  # name: compile Sources/NAME as a module with coverage instrumentation
  swiftc "${flags[@]}" -module-name "$1" -emit-module -emit-module-path "$out/$1.swiftmodule" \
    Sources/"$1"/*.swift -c -o "$out/$1.o"
}
for m in CoreMath Stage Panorama HostIO StageJSON Scenes Raster; do module "$m"; done
swiftc "${flags[@]}" -module-name FuzzEntry fuzz/Entry.swift fuzz/PortableReaders.swift -c -o "$out/Entry.o"
# The per-CPU kernels in C, instrumented too: the entry renders through each one.
# Every C file of CKernels (a file missing here is an undefined symbol at the link below).
for c in Sources/CKernels/*.c; do
  clang -O2 -fsanitize=fuzzer-no-link,address -I Sources/CKernels/include -c "$c" -o "$out/$(basename "$c" .c).o"
done
clang -O2 -fsanitize=fuzzer-no-link,address -I Sources/CJPEGRows/include -c Sources/CJPEGRows/jpeg_rows.c -o "$out/jpeg_rows.o"
swiftc -sanitize=fuzzer,address "$out"/{CoreMath,Stage,Panorama,HostIO,StageJSON,Scenes,Raster,Entry,kernels,yuv_kernels,jpeg_rows}.o \
  -lturbojpeg -ljpeg -lspng -lz -lavformat -lavcodec -lavutil -o "$out/fuzz"
# Seeds: every scenario as JSON (0) and as a scenario (1), and a log of each format (2).
i=0
for f in Tests/Scenarios/*.json; do
  i=$((i + 1))
  { printf '\x00'; cat "$f"; } > "$out/corpus/json-$i"
  { printf '\x01'; cat "$f"; } > "$out/corpus/scenario-$i"
done
{ printf '\x02'; head -50 docs/examples/turn.csv; } > "$out/corpus/log-ours"
printf '\x02time,seconds_elapsed,qz,qy,qx,qw,roll,pitch,yaw\n1000000000,0.0,0,0,0,1,0,0,0\n' > "$out/corpus/log-orientation"
printf '\x02time,seconds_elapsed,z,y,x\n1000000000,0.0,0.1,0,0\n1010000000,0.01,0.1,0,0\n' > "$out/corpus/log-gyroscope"
printf '\x02t,gx,gy,gz\n0,0,0,1\n0.1,0,0,1\n' > "$out/corpus/log-rates"
printf '\x02motionTimestamp_sinceReboot(s),motionQuaternionX(R),motionQuaternionY(R),motionQuaternionZ(R),motionQuaternionW(R)\n1.0,0,0,0,1\n' \
  > "$out/corpus/log-sensorlog"
# Small images: a JPEG and a PNG (ffmpeg's, so no build of the CLI is needed here).
ffmpeg -loglevel error -y -f lavfi -i testsrc=s=64x32 -frames:v 1 "$out/seed.jpg"
ffmpeg -loglevel error -y -f lavfi -i testsrc=s=64x32 -frames:v 1 "$out/seed.png"
{ printf '\x03'; cat "$out/seed.jpg"; } > "$out/corpus/image-jpeg"
{ printf '\x03'; cat "$out/seed.png"; } > "$out/corpus/image-png"
# The JPEG again with a GPano XMP packet (a 90°×67.5° crop), for the geometry path.
python3 - "$out/seed.jpg" "$out/corpus/image-gpano" <<'PY'
import sys
jpeg = open(sys.argv[1], "rb").read()
xmp = (b'http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description '
       b'GPano:ProjectionType="equirectangular" GPano:FullPanoWidthPixels="256" GPano:FullPanoHeightPixels="128" '
       b'GPano:CroppedAreaLeftPixels="96" GPano:CroppedAreaTopPixels="40" GPano:CroppedAreaImageWidthPixels="64" '
       b'GPano:CroppedAreaImageHeightPixels="32"/></rdf:RDF></x:xmpmeta>')
app1 = b"\xff\xe1" + (len(xmp) + 2).to_bytes(2, "big") + xmp
open(sys.argv[2], "wb").write(b"\x03" + jpeg[:2] + app1 + jpeg[2:])
PY
# Spherical Video V1 XML (selector 9): a top-bottom clip with a heading.
printf '\x09<GSpherical:Spherical>true</GSpherical:Spherical><GSpherical:StereoMode>top-bottom</GSpherical:StereoMode><GSpherical:InitialViewHeadingDegrees>90</GSpherical:InitialViewHeadingDegrees><GSpherical:FullPanoWidthPixels>64</GSpherical:FullPanoWidthPixels>' \
  > "$out/corpus/spherical-v1"
# MP4 boxes (selector 10): a one-frame 64×32 clip with V2 metadata (stereo, pose, crop),
# one with V1's XML, moov after mdat as ffmpeg writes it (fuzz/corpus has them too).
ffmpeg -loglevel error -y -f lavfi -i color=gray:s=64x32:d=0.04 -c:v libx264 -preset ultrafast -pix_fmt yuv420p "$out/seed.mp4"
python3 scripts/spherical-metadata.py "$out/seed.mp4" "$out/seed-v2.mp4" --v2 --stereo top-bottom --yaw 30 --pitch -5 --crop 0.25,0,0,0
python3 scripts/spherical-metadata.py "$out/seed.mp4" "$out/seed-v1.mp4" --v1 --yaw 45
{ printf '\x0a'; cat "$out/seed-v2.mp4"; } > "$out/corpus/spherical-mp4-v2"
{ printf '\x0a'; cat "$out/seed-v1.mp4"; } > "$out/corpus/spherical-mp4-v1"
# The same clips retagged as `pano tag` does (selector 11; fuzz/corpus has crafted ones: cut
# short, 64-bit sizes near 2⁶³, thousands of boxes), faststart too so offsets move.
ffmpeg -loglevel error -y -i "$out/seed.mp4" -c copy -movflags +faststart "$out/seed-fast.mp4"
{ printf '\x0b'; cat "$out/seed-v2.mp4"; } > "$out/corpus/tag-mp4-v2"
{ printf '\x0b'; cat "$out/seed-fast.mp4"; } > "$out/corpus/tag-mp4-faststart"
# Saved states and restores: the committed corpus (fuzz/corpus, replayed through the wasm
# build by embedded/replay.mjs in CI) seeds them.
cp fuzz/corpus/* "$out/corpus/"
# A geometry and view as doubles: 90°-wide crop of a 256×128 panorama, yaw 1, pitch 0.5.
python3 -c 'import struct,sys; sys.stdout.buffer.write(b"\x05" + struct.pack("<11d", 1, 256, 128, 96, 40, 64, 48, 1, 0.5, 0, 1.4))' \
  > "$out/corpus/geometry"
[ "$phase" = build ] && exit 0
cd "$out"
./fuzz -max_len=4096 -rss_limit_mb=4096 -max_total_time="${1:-120}" -print_final_stats=1 corpus
