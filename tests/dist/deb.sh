#!/usr/bin/env bash
# The .deb used as a new user would, without our toolchain: extracted with dpkg-deb -x, its
# binaries run in a mount namespace where /opt/swift is an empty tmpfs (unshare -m; needs
# root, as CI runs): `imagestage --version` (matching package.json's version), `pano render`,
# and `imagestage-app --screenshot` under Xvfb. A toolchain-linked build (make build's), run
# there too, must fail: the proof that the namespace hides the toolchain. Then the man pages render with
# man -l, and the bash completion loads and completes.
#   tests/dist/deb.sh build/dist/imagestage_VERSION_ARCH.deb
set -euo pipefail
cd "$(dirname "$0")/../.."
deb=$(readlink -f "${1:?DEB}")
version=$(tr -d ' \n' <VERSION)
npm_version=$(tar -xzOf "build/dist/imagestage-web-$version.tgz" package/package.json | node -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).version')
work=$(mktemp -d /tmp/imagestage-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT
dpkg-deb -x "$deb" "$work/root"
fail() { echo "tests/dist/deb.sh: FAIL: $*" >&2; exit 1; }
pass() { echo "ok - $*"; }

control=$(dpkg-deb -f "$deb")
grep -q '^Depends:.*libsdl2' <<<"$control" || fail "Depends names no SDL2: $control"
! grep -qi 'swift' <<<"$(dpkg-deb -f "$deb" Depends)" || fail "Depends names a Swift package"
[ "$(dpkg-deb -f "$deb" Recommends)" = ffmpeg ] || fail "ffmpeg is not recommended"
pass "control: Depends only Debian libraries, Recommends ffmpeg"

export work version npm_version
unshare -m bash -euo pipefail -c '
  mount -t tmpfs none /opt/swift
  [ -z "$(ls -A /opt/swift)" ] || { echo "FAIL: /opt/swift is not hidden" >&2; exit 1; }
  bin=$work/root/usr/bin
  # The control: a build that loads libswiftCore from /opt/swift must not start here.
  for control in .build/debug/imagestage .build/release/imagestage; do
    [ -x "$control" ] && readelf -d "$control" | grep -q "NEEDED.*libswiftCore" || continue
    if "$control" --version >/dev/null 2>&1; then
      echo "FAIL: $control (toolchain-linked) runs with /opt/swift hidden: the test proves nothing" >&2; exit 1
    fi
    echo "ok - $control, linked to the toolchain, does not start with /opt/swift hidden"
    break
  done
  out=$("$bin/imagestage" --version)
  [ "$out" = "imagestage $npm_version" ] || { echo "FAIL: imagestage --version said \"$out\", package.json $npm_version" >&2; exit 1; }
  [ "$("$bin/imagestage-app" --version)" = "imagestage-app $version" ] || { echo "FAIL: imagestage-app --version" >&2; exit 1; }
  echo "ok - --version with /opt/swift hidden: $out (package.json $npm_version)"
  "$bin/imagestage" pano render sample -o "$work/view.png" --size 320x180 --yaw 60
  [ "$(head -c 8 "$work/view.png" | od -An -tx1 | tr -d " \n")" = 89504e470d0a1a0a ] || { echo "FAIL: pano render wrote no PNG" >&2; exit 1; }
  echo "ok - imagestage pano render sample"
  XDG_CONFIG_HOME=$work/config xvfb-run -a -s "-screen 0 1024x768x24" "$bin/imagestage-app" --window 800x600 \
    --scene panorama --screenshot "$work/app.png" >/dev/null
  [ -s "$work/app.png" ] || { echo "FAIL: imagestage-app --screenshot wrote nothing" >&2; exit 1; }
  echo "ok - imagestage-app --screenshot under Xvfb"
'
cp "$work/app.png" build/dist-test-app.png

for page in imagestage imagestage-app; do
  file=$work/root/usr/share/man/man1/$page.1.gz
  # LC_ALL=C: the plain ASCII device, where a character the page does not spell in roff warns.
  text=$(LC_ALL=C MANWIDTH=80 man --warnings -l "$file" 2>"$work/man.err")
  [ ! -s "$work/man.err" ] || fail "man -l $page: $(cat "$work/man.err")"
  grep -q "^NAME" <<<"$text" && grep -q -- "--version" <<<"$text" || fail "man -l $page shows no NAME or --version"
done
grep -q -- "--hfov DEG" <<<"$(MANWIDTH=80 man -l "$work/root/usr/share/man/man1/imagestage.1.gz")" || fail "imagestage(1) lacks pano render's options"
pass "man -l renders imagestage(1) and imagestage-app(1)"
manual=$(MANWIDTH=80 man -l "$work/root/usr/share/man/man1/imagestage.1.gz")
[ "$(grep -c '^   imagestage pano render$' <<<"$manual")" = 1 ] || fail "imagestage(1) lists pano render more than once"
grep -q '/usr/share/doc/imagestage/' <<<"$manual" || fail "imagestage(1) does not name the shipped guides"
# The guides the man page names are there, with the formats a user writes.
doc=$work/root/usr/share/doc/imagestage
zgrep -q "KEYS.json" "$doc"/video.md* || fail "no keyframe (--keys) format in $doc/video.md.gz"
zgrep -q "qx,qy,qz,qw" "$doc"/motion.md* || fail "no motion log format in $doc/motion.md"
[ -s "$doc/examples/turn.csv" ] && zgrep -q "hotSpots" "$doc"/viewer.md* || fail "no example log or viewer config format"
pass "the guides with the file formats ship under /usr/share/doc/imagestage, named by imagestage(1)"

completion=$work/root/usr/share/bash-completion/completions/imagestage
words=$(bash -c 'source "$1"; complete -p imagestage >/dev/null; COMP_WORDS=(imagestage pano ren); COMP_CWORD=2; _imagestage; echo "${COMPREPLY[*]}"' _ "$completion")
[ "$words" = render ] || fail "bash completion of \"imagestage pano ren\" gave \"$words\""
pass "bash completion loads and completes"
[ -s "$work/root/usr/share/zsh/vendor-completions/_imagestage" ] && [ -s "$work/root/usr/share/fish/vendor_completions.d/imagestage.fish" ] ||
  fail "zsh or fish completion missing"

desktop=$work/root/usr/share/applications/imagestage.desktop
grep -q '^MimeType=image/jpeg;image/png;$' "$desktop" || fail "the .desktop entry does not offer JPEG and PNG"
[ -s "$work/root/usr/share/icons/hicolor/scalable/apps/imagestage.svg" ] || fail "no icon"
! find "$work/root" -name 'mimeapps.list' | grep -q . || fail "the package sets default applications"
# Which application opens a JPEG, as xdg-mime decides with no desktop's defaults: another
# viewer that sorts after ours, never ours; alone, still not ours (InitialPreference=-1).
xdg=$work/xdg
mkdir -p "$xdg/applications" "$xdg/empty"
cp "$desktop" "$xdg/applications/"
printf '[Desktop Entry]\nType=Application\nName=Another viewer\nExec=true %%f\nMimeType=image/jpeg;image/png;\n' \
  >"$xdg/applications/zz-viewer.desktop"
query() { XDG_DATA_DIRS=$xdg XDG_DATA_HOME=$xdg/empty XDG_CONFIG_HOME=$xdg/empty XDG_CONFIG_DIRS=$xdg/empty \
  XDG_CURRENT_DESKTOP= HOME=$xdg/empty xdg-mime query default "$1" 2>/dev/null; }
[ "$(query image/jpeg)" = zz-viewer.desktop ] && [ "$(query image/png)" = zz-viewer.desktop ] ||
  fail "xdg-mime makes ImageStage the default over another viewer: $(query image/jpeg)"
rm "$xdg/applications/zz-viewer.desktop"
[ -z "$(query image/jpeg)" ] || fail "xdg-mime makes ImageStage the default JPEG viewer when it is the only one"
pass ".desktop entry for JPEG and PNG, an icon; never the default viewer (xdg-mime)"
