#!/usr/bin/env bash
# The static-hosting zip, used as Pannellum's release zip is: unzipped next to a site's
# panoramas, it works from any static host. At its root: viewer.html, the viewer's modules
# (minified, with source maps), classic script, CSS and wasm from build/web-min, the licence,
# docs/viewer.md, this folder's README and serve.py (a local server that answers Range requests), and
# example/: a two-scene tour (tour.json) whose panoramas are made
# here by the CLI (`imagestage pano sample`, and that view turned round with the
# equirectangular lens), so the zip holds no third-party images.
#   packaging/zip/build.sh WEB_MIN IMAGESTAGE OUT_DIR   → OUT_DIR/imagestage-viewer-VERSION.zip
set -euo pipefail
cd "$(dirname "$0")/../.."
min=${1:?WEB_MIN} cli=${2:?IMAGESTAGE} out=${3:?OUT_DIR}
version=$(tr -d ' \n' <VERSION)
stage=build/dist-stage/zip
rm -rf "$stage" && mkdir -p "$stage/example" "$out"
cp "$min"/{viewer.html,imagestage-viewer.classic.js,imagestage-viewer.css} "$min"/imagestage-viewer*.wasm "$stage/"
# The viewer's modules: imagestage-viewer.js and what it imports, transitively (statically,
# and viewer-video.js for a video scene), with their maps.
queue=(imagestage-viewer.js) seen=()
while ((${#queue[@]})); do
  m=${queue[0]} queue=("${queue[@]:1}")
  [[ " ${seen[*]} " == *" $m "* ]] && continue
  seen+=("$m")
  cp "$min/$m" "$min/$m.map" "$stage/"
  queue+=($(grep -oE "(from ?|import\()[\"']\./[a-z.-]+\.js[\"']" "$min/$m" | grep -oE '[a-z.-]+\.js' || true))
done
cp LICENSE "$stage/"
# The viewer's manual, which its README and messages name.
mkdir -p "$stage/docs"
cp docs/viewer.md "$stage/docs/"
# A server for trying it out that answers Range requests (a video seeks only with them).
cp packaging/zip/serve.py "$stage/"
sed "s/@VERSION@/$version/g" packaging/zip/README.md >"$stage/README.md"
cp packaging/zip/example/tour.json "$stage/example/"
"$cli" pano sample -o "$stage/example/hills.jpg" --size 2048x1024 >/dev/null
"$cli" pano render "$stage/example/hills.jpg" --lens equirectangular --hfov 360 --yaw 180 --pitch -20 --size 2048x1024 \
  -o "$stage/example/hills-turned.jpg" >/dev/null
zip=$out/imagestage-viewer-$version.zip
rm -f "$zip"
# Fixed times and order: the same build makes the same zip.
find "$stage" -exec touch -h -d "@${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}" {} +
(cd "$stage" && find . -type f | LC_ALL=C sort | sed 's|^\./||' | zip -q -X -9 "$OLDPWD/$zip" -@)
echo "$zip"
