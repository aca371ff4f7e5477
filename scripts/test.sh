#!/usr/bin/env bash
# README command 2: set up, build, and run every test (lit, GoogleTest, ...).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TPX_BUILD_DIR:-$root/build}
"$root/scripts/build.sh"
cd "$build"
ctest --output-on-failure -j "${TPX_JOBS:-2}"
