#!/usr/bin/env bash
# The main job, two examples, each run on the GPU when there is one and on
# the CPU otherwise, and checked:
#
# 1. A Triton-style Python kernel (examples/python/plugin_kernel.py) that
#    calls the DSL op `scaled_add` of the example-scaled-add plugin and
#    selects the example-evict-last pipeline extension of the
#    example-eviction-policy plugin for itself, both plugins loaded through
#    TRITON_PLUGIN_PATHS; it prints what the plugins changed.
# 2. A TTIR kernel (examples/fused-fma/fused_fma.ttir): TTIR as Triton
#    prints it, plus one `tpxex.fma` from the example dialect plugin
#    (plugins/examples/tpxex-dialect), whose pipeline extension, selected on
#    the kernel by `tpx.pipeline = "tpxex-lowering"`, lowers that op inside
#    the ttir stage.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TPX_BUILD_DIR:-$root/build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Debian's python3 has numpy here; elsewhere (a GPU box) take whichever has.
python=/usr/bin/python3
"$python" -c "import numpy" 2>/dev/null || python=python3

echo "==== 1. a Python kernel with a plugin DSL op and a plugin pipeline extension"
TRITON_PLUGIN_PATHS=$build/plugins/TpxExampleScaledAdd.so:$build/plugins/TpxExampleEvictionPolicy.so \
  TPX_BUILD_DIR=$build PYTHONPATH=$root/python${PYTHONPATH:+:$PYTHONPATH} \
  "$python" "$root/examples/python/plugin_kernel.py"

echo
echo "==== 2. a TTIR kernel with an op from a plugin dialect"
export TRITON_PLUGIN_PATHS=$build/plugins/TpxExampleTpxexDialect.so
kernel=$root/examples/fused-fma/fused_fma.ttir
"$python" "$root/examples/fused-fma/make_case.py" "$work/case"

# On the GPU when there is one (sm_90a through the CUDA driver), else on
# the CPU.
target=cpu
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi >/dev/null 2>&1; then
  target=cuda
fi
compile_target=cpu
[ "$target" = cuda ] && compile_target=sm_90a

echo "== plugin loaded from TRITON_PLUGIN_PATHS=$TRITON_PLUGIN_PATHS"
echo "== effective $compile_target pipeline for this kernel:"
"$build/bin/tpx-compile" "$kernel" --target "$compile_target" --dump-pipeline | sed 's/^/   /' | cut -c1-160

"$build/bin/tpx-compile" "$kernel" --target cpu --stop-after ttir -o "$work/ttir.mlir"
before=$(grep -c 'tpxex.fma' "$kernel" || true)
after=$(grep -c 'tpxex.fma' "$work/ttir.mlir" || true)
mulf=$(grep -c 'arith.mulf' "$work/ttir.mlir" || true)
addf=$(grep -c 'arith.addf' "$work/ttir.mlir" || true)
echo "== what the plugin changed: tpxex.fma ops $before -> $after after the ttir stage;" \
     "its lowering added $mulf arith.mulf and $addf arith.addf"

echo "== running on the $target (10007 elements, grid from case.json):"
"$build/bin/tpx-run" "$work/case" --target "$target" --verbose
