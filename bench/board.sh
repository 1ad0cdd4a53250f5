#!/usr/bin/env bash
# Hover-target lookup per pointer move at 1 k, 100 k and 1 M slots: the engine's spatial
# index vs a linear scan vs seed 000's quadratic search, side by side in one run.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release $(scripts/cpu-flags) --product stage-bench >&2
.build/release/stage-bench
