#!/usr/bin/env bash
# lintian on the .deb: no errors, and every warning that stays is one listed below with the
# reason it stays (a new warning fails the build until it is fixed or listed here).
#   packaging/deb/lint.sh DEB
set -euo pipefail
deb=${1:?DEB}
declare -A reasons=(
)
report=$(lintian --tag-display-limit 0 "$deb" 2>&1 || true)
status=0
while read -r line; do
  [ -n "$line" ] || continue
  kind=${line%%:*} tag=$(awk '{print $3}' <<<"$line")
  case $kind in
    E) echo "lintian error: $line" >&2; status=1 ;;
    W)
      if [ -n "${reasons[$tag]:-}" ]; then echo "lintian warning (kept: ${reasons[$tag]}): $line"
      else echo "lintian warning not listed in packaging/deb/lint.sh: $line" >&2; status=1; fi ;;
    *) echo "lintian: $line" ;;
  esac
done <<<"$report"
[ $status = 0 ] && echo "lintian: no errors, no unlisted warnings ($deb)"
exit $status
