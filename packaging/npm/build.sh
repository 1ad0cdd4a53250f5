#!/usr/bin/env bash
# The npm package, as `npm pack` makes it: build/web-min's modules (minified, with source
# maps), classic scripts, CSS and wasm, the TypeScript declarations from web/viewer and web/board, the licence,
# the manuals (docs/board.md, docs/viewer.md) and the board's examples, this folder's README (with the sizes of
# this build) and a package.json written here.
#   packaging/npm/build.sh WEB_MIN OUT_DIR     → OUT_DIR/imagestage-web-VERSION.tgz
set -euo pipefail
cd "$(dirname "$0")/../.."
min=${1:?WEB_MIN} out=${2:?OUT_DIR}
version=$(tr -d ' \n' <VERSION)
. packaging/project.env
stage=build/dist-stage/npm
rm -rf "$stage" && mkdir -p "$stage" "$out"
shopt -s nullglob
cp "$min"/*.js "$min"/*.js.map "$min"/*.css "$min"/*.wasm "$stage/"
cp web/viewer/imagestage-viewer.d.ts web/board/imagestage-board.d.ts packaging/npm/classic.d.ts LICENSE "$stage/"
# The manuals the errors and the README name (docs/board.md, docs/viewer.md), and the board's
# examples (their imports are the package's layout: '../imagestage-board.js').
mkdir -p "$stage/docs" "$stage/examples/art"
cp docs/board.md docs/viewer.md "$stage/docs/"
cp web/board/examples/*.html "$stage/examples/"
cp web/board/examples/art/*.svg "$stage/examples/art/"
files=$(cd "$stage" && ls | LC_ALL=C sort | sed 's/.*/    "&"/' | paste -sd, | sed 's/,/,\n/g')
gz() { local total=0; for f in "$@"; do total=$((total + $(gzip -9c "$min/$f" | wc -c))); done; echo $(((total + 512) / 1024)); }
# A component's files: its module and what it imports (transitively), its CSS, its wasm.
modules() {
  local queue=("$1") seen=() m
  while ((${#queue[@]})); do
    m=${queue[0]} queue=("${queue[@]:1}")
    [[ " ${seen[*]} " == *" $m "* ]] && continue
    seen+=("$m")
    queue+=($(grep -oE "from ?[\"']\./[a-z.-]+\.js[\"']" "$min/$m" | grep -oE '[a-z.-]+\.js' || true))
  done
  echo "${seen[@]}"
}
viewer_js=$(gz $(modules imagestage-viewer.js) imagestage-viewer.css)
viewer_wasm=$(gz imagestage-viewer.wasm)
# Fetched instead of imagestage-viewer.wasm where the view is drawn on the CPU (no WebGL2).
cpu_wasm=$([ -f "$min/imagestage-viewer-cpu.wasm" ] && gz imagestage-viewer-cpu.wasm || echo "$viewer_wasm")
board_js=$(gz $(modules imagestage-board.js)) board_wasm=$(gz imagestage-board.wasm)
# Fetched instead of imagestage-board.wasm by a board in mode: 'sortable'.
sortable_wasm=$(gz imagestage-sortable.wasm)
sed -e "s/@VERSION@/$version/g" -e "s/@VIEWER_JS@/$viewer_js/g" -e "s/@VIEWER_WASM@/$viewer_wasm/g" \
  -e "s/@VIEWER_TOTAL@/$((viewer_js + viewer_wasm))/g" -e "s/@CPU_WASM@/$cpu_wasm/g" -e "s/@CPU_TOTAL@/$((viewer_js + cpu_wasm))/g" -e "s/@BOARD_JS@/$board_js/g" -e "s/@BOARD_WASM@/$board_wasm/g" \
  -e "s/@BOARD_TOTAL@/$((board_js + board_wasm))/g" -e "s/@SORTABLE_WASM@/$sortable_wasm/g" \
  -e "s/@SORTABLE_TOTAL@/$((board_js + sortable_wasm))/g" packaging/npm/README.md >"$stage/README.md"
cat >"$stage/package.json" <<JSON
{
  "name": "imagestage",
  "version": "$version",
  "description": "A Pannellum-compatible panorama viewer and a drag-and-drop board engine, in Swift compiled to WebAssembly",
  "license": "MIT",
  "type": "module",
  "exports": {
    ".": { "types": "./imagestage-viewer.d.ts", "default": "./imagestage-viewer.js" },
    "./viewer": { "types": "./imagestage-viewer.d.ts", "default": "./imagestage-viewer.js" },
    "./board": { "types": "./imagestage-board.d.ts", "default": "./imagestage-board.js" },
    "./viewer.classic.js": { "types": "./classic.d.ts", "default": "./imagestage-viewer.classic.js" },
    "./board.classic.js": { "types": "./classic.d.ts", "default": "./imagestage-board.classic.js" },
    "./viewer.css": "./imagestage-viewer.css",
    "./imagestage-viewer.wasm": "./imagestage-viewer.wasm",
    "./imagestage-board.wasm": "./imagestage-board.wasm",
    "./imagestage-sortable.wasm": "./imagestage-sortable.wasm",
    "./package.json": "./package.json"
  },
  "types": "./imagestage-viewer.d.ts",
  "typesVersions": { "*": { "viewer": ["imagestage-viewer.d.ts"], "board": ["imagestage-board.d.ts"] } },
  "sideEffects": ["*.css", "*.classic.js"],
  "files": [
$files
  ],
  "repository": { "type": "git", "url": "$REPOSITORY" },
  "homepage": "$HOMEPAGE",
  "keywords": ["panorama", "360", "equirectangular", "pannellum", "viewer", "webgl", "drag-and-drop", "sortable", "webassembly", "swift"]
}
JSON
node -e 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))' "$stage/package.json"
root=$(pwd)
tarball=$(cd "$stage" && npm pack --silent --pack-destination "$root/build/dist-stage" | tail -1)
mv "build/dist-stage/$tarball" "$out/imagestage-web-$version.tgz"
echo "$out/imagestage-web-$version.tgz"
