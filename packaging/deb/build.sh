#!/usr/bin/env bash
# The .deb, with dpkg-deb: build/stage (packaging/stage.sh) under /usr, the copyright,
# changelogs and guides (docs/: cli, video, motion, viewer, scenario, examples) under
# /usr/share/doc/imagestage, and a control file whose Depends are what
# dpkg-shlibdeps finds the binaries load (Debian's libraries only: the Swift standard library
# is linked in), the font the app draws with, and ffmpeg recommended for `pano video` to .mp4.
#   packaging/deb/build.sh STAGE OUT_DIR    → OUT_DIR/imagestage_VERSION_ARCH.deb
set -euo pipefail
cd "$(dirname "$0")/../.."
stage=${1:?STAGE} out=${2:?OUT_DIR}
version=$(tr -d ' \n' <VERSION)
arch=$(dpkg --print-architecture)
. packaging/project.env
root=build/dist-stage/deb
rm -rf "$root" && mkdir -p "$root/DEBIAN" "$root/usr/share/doc/imagestage" "$out"
cp -a "$stage/." "$root/usr/"
doc=$root/usr/share/doc/imagestage
sed "s|@HOMEPAGE@|$HOMEPAGE|" packaging/deb/copyright >"$doc/copyright"
gzip -9nc CHANGELOG.md >"$doc/changelog.gz"
# The guides the man pages point to, with every file format a user writes (keyframes for
# --keys, motion logs, viewer configs, scenarios): the .deb had none of docs/. Compressed
# over 4 KB, as Debian policy (12.3) asks; the web components' docs stay with the npm package.
mkdir -p "$doc/examples"
for guide in cli video motion viewer scenario; do
  if [ "$(stat -c %s "docs/$guide.md")" -gt 4096 ]; then gzip -9nc "docs/$guide.md" >"$doc/$guide.md.gz"
  else cp "docs/$guide.md" "$doc/"; fi
done
cp docs/examples/* "$doc/examples/"
date=$(date -R -u -d "@${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")
printf 'imagestage (%s) unstable; urgency=medium\n\n  * Built from the ImageStage sources (make dist); changes: changelog.gz.\n\n -- %s  %s\n' \
  "$version" "$MAINTAINER" "$date" | gzip -9nc >"$doc/changelog.Debian.gz"
find "$root" -type d -exec chmod 755 {} + && find "$root/usr" -type f -exec chmod 644 {} + && chmod 755 "$root/usr/bin/"*

# Depends: dpkg-shlibdeps reads a debian/control; a throwaway one in a scratch folder.
scratch=build/dist-stage/shlibdeps
rm -rf "$scratch" && mkdir -p "$scratch/debian"
printf 'Source: imagestage\n\nPackage: imagestage\nArchitecture: any\n' >"$scratch/debian/control"
shlibs=$(cd "$scratch" && dpkg-shlibdeps -O "$OLDPWD/$root/usr/bin/imagestage" "$OLDPWD/$root/usr/bin/imagestage-app" 2>/dev/null |
  sed -n 's/^shlibs:Depends=//p')
[ -n "$shlibs" ] || { echo "packaging/deb/build.sh: dpkg-shlibdeps found no libraries" >&2; exit 1; }
size=$(du -sk --apparent-size "$root/usr" | cut -f1)
cat >"$root/DEBIAN/control" <<CONTROL
Package: imagestage
Version: $version
Architecture: $arch
Maintainer: $MAINTAINER
Installed-Size: $size
Depends: $shlibs, fonts-dejavu-core
Recommends: ffmpeg
Section: graphics
Priority: optional
Homepage: $HOMEPAGE
Description: move images by hand and by motion: a desktop app and a CLI
 imagestage-app shows three scenes in one SDL2 window: photos dragged onto
 places that snap, shortcuts dragged onto a dock, and a panorama that pans with
 the mouse, the keyboard, a gyroscope or a replayed motion log, in four lenses,
 with tours and tiled (multires) panoramas from a Pannellum config.
 .
 imagestage, the command-line tool, runs drag scenarios headless, renders views
 and videos of panoramas, and cuts big panoramas into tile pyramids. ffmpeg is
 needed only for video output to .mp4.
CONTROL
(cd "$root" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
deb=$out/imagestage_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
