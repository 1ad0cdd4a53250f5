#!/usr/bin/env bash
# Lays out what `make install` and the .deb install, relative to the prefix, in STAGE:
#   bin/imagestage, bin/imagestage-app            stripped, Swift's standard library inside
#   share/man/man1/imagestage{,-app}.1.gz         from their --help (packaging/manpage.py)
#   share/bash-completion/completions/imagestage  from `imagestage completions bash`
#   share/zsh/vendor-completions/_imagestage      … zsh
#   share/fish/vendor_completions.d/imagestage.fish … fish
#   share/applications/imagestage.desktop, share/icons/hicolor/scalable/apps/imagestage.svg
#   packaging/stage.sh BIN_DIR STAGE
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:?BIN_DIR} stage=${2:?STAGE}
rm -rf "$stage.tmp" && mkdir -p "$stage.tmp"/{bin,share/man/man1,share/bash-completion/completions,share/zsh/vendor-completions,share/fish/vendor_completions.d,share/applications,share/icons/hicolor/scalable/apps}
for p in imagestage imagestage-app; do
  install -m 755 "$bin/$p" "$stage.tmp/bin/$p"
  strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage.tmp/bin/$p"
  # No libswiftCore.so from /opt/swift: the standard library is linked in.
  if readelf -d "$stage.tmp/bin/$p" | grep -Eq 'NEEDED.*libswift|R(UN)?PATH.*swift'; then
    echo "packaging/stage.sh: $p still loads the Swift runtime from the toolchain (build it with --static-swift-stdlib)" >&2
    exit 1
  fi
done
# The man pages' date is the last commit's, so a rebuild of the same commit is byte-identical.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
python3 packaging/manpage.py "$stage.tmp/bin/imagestage" \
  "drag boards and panoramas from the command line: scenarios, renders, videos, tile pyramids" \
  | gzip -9n >"$stage.tmp/share/man/man1/imagestage.1.gz"
python3 packaging/manpage.py "$stage.tmp/bin/imagestage-app" \
  "move photos, shortcuts and panoramas by hand and by motion in one window" \
  | gzip -9n >"$stage.tmp/share/man/man1/imagestage-app.1.gz"
"$stage.tmp/bin/imagestage" completions bash >"$stage.tmp/share/bash-completion/completions/imagestage"
# zsh autoloads _imagestage on the first Tab: the script defines the completion (through
# bashcompinit), and the last line answers that first Tab too.
{
  echo "#compdef imagestage"
  "$stage.tmp/bin/imagestage" completions zsh
  echo '_bash_complete -F _imagestage "$@"'
} >"$stage.tmp/share/zsh/vendor-completions/_imagestage"
"$stage.tmp/bin/imagestage" completions fish >"$stage.tmp/share/fish/vendor_completions.d/imagestage.fish"
install -m 644 packaging/linux/imagestage.desktop "$stage.tmp/share/applications/imagestage.desktop"
install -m 644 packaging/linux/imagestage.svg "$stage.tmp/share/icons/hicolor/scalable/apps/imagestage.svg"
rm -rf "$stage" && mv "$stage.tmp" "$stage"
