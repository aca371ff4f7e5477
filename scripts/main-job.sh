#!/usr/bin/env bash
# The main job: read a real TTIR kernel printed by Triton 3.6, verify it and
# print it back with tpx-opt.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TPX_BUILD_DIR:-$root/build}
corpus=${TPX_CORPUS_DIR:-$root/../shared/ttir-corpus}
kernel=$corpus/vadd_f32/kernel.ttir
[ -f "$kernel" ] || kernel=$root/test/Dialect/TT/Inputs/vadd.ttir
echo "tpx: parsing, verifying and printing $kernel"
"$build/bin/tpx-opt" "$kernel"
