#!/usr/bin/env bash
# Configures (once) and builds tpx into build/ with ccache, two jobs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TPX_BUILD_DIR:-$root/build}
"$root/scripts/install-deps.sh"
export CCACHE_BASEDIR=$root CCACHE_NOHASHDIR=1
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$build" -j "${TPX_JOBS:-2}"
