#!/usr/bin/env bash
# The web page, measured in one run beside its baselines (figures, not a test):
#  1. weight (scripts/web-weights): each component's files as a page fetches them, minified
#     by esbuild and gzip -9'd, against issue 29's aims (viewer 80 KB, board 40 KB, demo page
#     200 KB); three.js r111 (172 KB gzipped, what Photo Sphere Viewer needs) and Pannellum's
#     viewer (its src/ js + css, gzipped as it is and minified); then the size report (make
#     web-size: the largest functions and data of each wasm module, by Swift module);
#  2. the wasm CPU renderer, 1280×720 from 8192×4096, yaw 1° further each frame, scalar and
#     SIMD128, under node (V8, as in Chromium), against the native renderer on one thread:
#     ms/frame as slopes between 10 and 40 frames, ROUNDS interleaved rounds, min/median,
#     and the median of per-round ratios;
#  3. in headless Chromium (bench/web/browser.py): navigation → first panorama frame of the
#     bundled sample; navigation → loaded panorama for 4096, 5400 and 10800 wide JPEGs beside
#     Pannellum's published src/ (tests/web/pannellum/src and bench/pannellum/standalone,
#     unchanged, not shipped) standalone, by script tags and as an ES module, interleaved, the
#     HTTP cache off, what ships (web-min's bundles) served gzip-encoded; WebGL2 (SwiftShader)
#     and wasm CPU frame times in the page; then the same
#     loads on an emulated phone (bench/web/phone.py: 390×844 at 3×, slow 4G, CPU 4× slower,
#     what ships served gzip-encoded);
#  4. the board component (bench/web/board.py): its work per pointer move with 1000 items on
#     1000 slots, beside jQuery UI's draggable/droppable with snap and a plain-JS loop; its
#     set-up (bench/web/setup.py) with 200 and 1000 items beside SortableJS's, classic and
#     sortable mode: the call to ready, to the next frame drawn, the page's ready time, a
#     second board (the module compiled), and each phase from the board's User Timing marks; the sortable mode beside SortableJS (bench/web/sortable.py): the kanban
#     and the gallery of 12 photos (weight of what each page fetches, ready, set-up), and per
#     move while the neighbours make room with 200 and 1000 items, from real CDP input to the
#     frame rendered (MOVES moves a drag, 60 by default);
#  5. the sizes of everything `make dist` puts in build/dist (packed and unpacked); DIST=0
#     skips it (and its release build).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-5}
out=bench/out/web
mkdir -p "$out"

make web >&2
scripts/install-test-venv
make web WEB_SIMD=0 >&2
swift build -c release $(scripts/cpu-flags) --product pano-bench >&2
swift build -c release $(scripts/cpu-flags) --product imagestage >&2
echo "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores; $(chromium --version 2>/dev/null | head -1); node $(node --version); load average $(cut -d' ' -f1-3 /proc/loadavg)"

# Images: the sample at each size (JPEG, quality as `pano sample` writes it) and raw RGBA.
for size in 4096x2048 5400x2700 8192x4096 10800x5400; do
  w=${size%x*}
  [ -f "$out/p$w.jpg" ] || .build/release/imagestage pano sample -o "$out/p$w.jpg" --size "$size" >&2
done
[ -f "$out/p8192.rgba" ] || ffmpeg -loglevel error -y -i "$out/p8192.jpg" -f rawvideo -pix_fmt rgba "$out/p8192.rgba"

echo
echo "== 1. Weight: each component's files as they ship (minified, gzip -9), then where the wasm bytes are =="
make -s web-min >&2
scripts/web-weights build/web-min build/web
printf '%-34s %7.1f KB\n' "three.js r111 (issue's figure)" 172
v=build/web
weight() { cat "$@" | gzip -9 | wc -c; }
# Pannellum 2.5's viewer as published (MIT, not shipped): its src/js and src/css as the
# browser tests vendor them (tests/web/pannellum/src), its standalone page as bench/pannellum
# vendors it (standalone/), all from one commit.
rm -rf "$out/site/pannellum" && mkdir -p "$out/site/pannellum/src"
cp -r tests/web/pannellum/src/js tests/web/pannellum/src/css bench/pannellum/standalone "$out/site/pannellum/src/"
p=$(weight "$out/site/pannellum/src/js/libpannellum.js" "$out/site/pannellum/src/js/pannellum.js" "$out/site/pannellum/src/css/pannellum.css")
printf '%-34s %7.1f KB  (src/, unminified)\n' "Pannellum viewer" "$(echo "$p / 1024" | bc -l)"
pm=$(for f in js/libpannellum.js js/pannellum.js css/pannellum.css; do
  esbuild "$out/site/pannellum/src/$f" --minify --log-level=warning; done | gzip -9 | wc -c)
printf '%-34s %7.1f KB  (src/ through esbuild --minify)\n' "Pannellum viewer, minified" "$(echo "$pm / 1024" | bc -l)"
cp bench/web/pannellum.html "$out/site/pannellum/index.html"
echo
echo "-- the size report (make web-size: each module linked again unstripped; scripts/wasm-size-report)"
make -s web-size TOP=${TOP:-20}

echo
echo "== 2. CPU renderer, 1280×720 from 8192×4096, ms/frame (slope 10→40 frames) =="
results="$out/cpu.txt"
: > "$results"
for ((r = 1; r <= rounds; r++)); do
  for n in 10 40; do
    echo "native $n $(.build/release/pano-bench --frames "$out/p8192.jpg" 1280 720 "$n")" >> "$results"
    echo "simd $n $(node bench/web/cpu.mjs build/web/imagestage.wasm "$out/p8192.rgba" 8192 4096 1280 720 "$n")" >> "$results"
    echo "scalar $n $(node bench/web/cpu.mjs build/web/imagestage-scalar.wasm "$out/p8192.rgba" 8192 4096 1280 720 "$n")" >> "$results"
  done
done
python3 - "$results" "$rounds" <<'EOF'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
rounds = int(sys.argv[2])
def slopes(who):
    times = [(int(n), float(s)) for w, n, s in rows if w == who]
    pairs = [times[i:i + 2] for i in range(0, len(times), 2)]
    return [(b[1] - a[1]) / (b[0] - a[0]) * 1000 for a, b in pairs]
s = {w: slopes(w) for w in ("native", "simd", "scalar")}
for w, label in (("native", "native Swift, 1 thread"), ("simd", "wasm SIMD128 (node)"), ("scalar", "wasm scalar (node)")):
    ratio = statistics.median(x / n for x, n in zip(s[w], s["native"]))
    print(f"{label:26} min {min(s[w]):6.2f}  median {statistics.median(s[w]):6.2f}  × native {ratio:4.2f}")
EOF

echo
echo "== 3. In headless Chromium (load average $(cut -d' ' -f1-3 /proc/loadavg)) =="
mkdir -p "$out/site/images"
ln -sfn "$(pwd)/build/web" "$out/site/web"
ln -sfn "$(pwd)/build/web-min" "$out/site/web-min"
cp bench/web/embed-classic.html bench/web/embed-module.html "$out/site/"
for w in 4096 5400 8192 10800; do ln -sf "$(pwd)/$out/p$w.jpg" "$out/site/images/p$w.jpg"; done
build/venv/bin/python bench/web/browser.py "$out/site" "$rounds"
echo
echo "-- on a phone: Chromium's mobile emulation (390×844, 3× pixels, touch), network and CPU throttled over CDP"
build/venv/bin/python bench/web/phone.py "$out/site" "${PHONE_ROUNDS:-3}"

echo
echo "== 4. The board component =="
echo "(its weight: section 1)"
if [ ! -f /usr/share/javascript/jquery-ui/jquery-ui.min.js ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends libjs-jquery-ui >/dev/null
fi
printf '%-34s %7.1f KB\n' "jQuery + jQuery UI (gzip -9)" \
  "$(echo "$(weight /usr/share/javascript/jquery/jquery.min.js /usr/share/javascript/jquery-ui/jquery-ui.min.js) / 1024" | bc -l)"
ln -sfn /usr/share/javascript/jquery "$out/site/jquery"
ln -sfn /usr/share/javascript/jquery-ui "$out/site/jquery-ui"
cp bench/web/board.html "$out/site/board.html"
build/venv/bin/python bench/web/board.py "$out/site" "$rounds"
echo
echo "-- set-up beside SortableJS (Debian's libjs-sortable), bench/web/setup.py"
if [ ! -f /usr/share/javascript/sortable/Sortable.min.js ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends libjs-sortable >/dev/null
fi
ln -sfn /usr/share/javascript/sortable "$out/site/sortable"
cp bench/web/setup.html "$out/site/setup.html"
build/venv/bin/python bench/web/setup.py "$out/site" "$rounds"
echo
echo "-- sortable mode beside SortableJS: the kanban and the gallery (weight, ready, set-up), per move at 200 and 1000 items (bench/web/sortable.py; load average $(cut -d' ' -f1-3 /proc/loadavg))"
cp bench/web/kanban.html bench/web/gallery.html bench/web/moves.html "$out/site/"
build/venv/bin/python bench/web/sortable.py "$out/site" build/web-min "$rounds" "${MOVES:-60}"

[ "${DIST:-1}" = 0 ] && exit 0  # DIST=0: no release build (section 5)
echo
echo "== 5. Release artefacts (make dist: build/dist) =="
make dist >&2
for f in build/dist/*; do
  printf '%-40s %9.1f KB' "$(basename "$f")" "$(echo "$(stat -c %s "$f") / 1024" | bc -l)"
  case $f in
    *.tgz | *.tar.gz) printf '  (%d files, %.1f KB unpacked)' "$(tar -tzf "$f" | grep -vc '/$')" \
      "$(echo "$(tar -xzOf "$f" | wc -c) / 1024" | bc -l)" ;;
    *.zip) printf '  (%d files, %.1f KB unpacked)' "$(unzip -Z1 "$f" | grep -vc '/$')" \
      "$(echo "$(unzip -p "$f" | wc -c) / 1024" | bc -l)" ;;
    *.deb) printf '  (Installed-Size %s KB)' "$(dpkg-deb -f "$f" Installed-Size)" ;;
  esac
  echo
done
