#!/usr/bin/env bash
# Fuzz tpx for any duration (docs/fuzzing.md):
#   ./scripts/fuzz.sh [--duration SECONDS] [--strategy S ...] [--seed N] [--jobs N] [fuzz.py options]
#   ./scripts/fuzz.sh --regressions        # replay fuzz/regressions
# Uses the tools in build/bin (or $TPX_BUILD_DIR/bin); findings go to build/fuzz-findings.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-/usr/bin/python3}
[ -x "$python" ] || python=python3
exec "$python" "$root/fuzz/fuzz.py" "$@"
