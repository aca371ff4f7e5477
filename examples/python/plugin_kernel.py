"""The main job: a Triton-style Python kernel that uses two plugins.

`axpy_kernel` calls the DSL op `scaled_add` of the example-scaled-add
plugin (x + alpha * y, built by the plugin's C++ code) and selects the
example-evict-last pipeline extension of the example-eviction-policy plugin
for itself alone (`@tpx.jit(pipeline=[...])`), which marks its loads
evict_last at the end of the `ttir` stage. Both plugins come from
TRITON_PLUGIN_PATHS (scripts/main-job.sh sets it). The kernel runs on the
GPU when there is one and on the CPU otherwise; the result is checked
against numpy, and what the plugins changed is printed.
"""

import sys

import numpy as np

import tpx
import tpx.language as tl
from tpx.language.extra import example_scaled_add as ext

ALPHA = 0.25


def _axpy(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    out = ext.scaled_add(x, y, alpha=ALPHA)   # the plugin's op
    tl.store(out_ptr + offsets, out, mask=mask)


axpy_kernel = tpx.jit(pipeline=["example-evict-last"])(_axpy)
# The same kernel without the extension, to show what it changed.
axpy_kernel_default = tpx.jit(_axpy)


def _arrays(n, backend):
    rng = np.random.default_rng(7)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    if backend == "cuda":
        import torch
        return x, y, [torch.from_numpy(a).cuda() for a in (x, y)] + [
            torch.empty(n, dtype=torch.float32, device="cuda")]
    return x, y, [x.copy(), y.copy(), np.empty(n, np.float32)]


def _count(text, needle):
    return sum(1 for line in text.splitlines() if needle in line)


def main():
    driver = tpx.runtime.driver.active
    target = driver.get_current_target()
    print("== tpx %s, running on the %s (%s)" % (
        tpx.__version__, target.backend, target.arch))
    for plugin in tpx.loaded_plugins():
        print("== plugin loaded: %s" % (plugin,))

    n, block = 10007, 1024
    x, y, (dx, dy, dout) = _arrays(n, target.backend)
    grid = lambda meta: (tpx.cdiv(n, meta["BLOCK"]),)  # noqa: E731
    compiled = axpy_kernel[grid](dx, dy, dout, n, BLOCK=block)
    default = axpy_kernel_default.warmup(dx, dy, dout, n, BLOCK=block,
                                         grid=grid)
    got = dout.cpu().numpy() if target.backend == "cuda" else dout
    want = x + np.float32(ALPHA) * y
    ok = np.allclose(got, want, rtol=1e-6, atol=1e-6)

    text, _ = tpx.pipeline.resolve(axpy_kernel, compiled.metadata.target)
    base = tpx.pipeline.effective_text(compiled.metadata.target)
    added = [line for line in text.splitlines() if line not in
             base.splitlines()]
    print("== pipeline of axpy_kernel (%s), the stage the extension edited:"
          % compiled.metadata.target)
    for line in added:
        print("   " + line[:160])
    ttir, ttir_default = compiled.asm["ttir"], default.asm["ttir"]
    print("== what the plugins changed in the kernel's TTIR:")
    print("   loads marked evict_last: %d without the extension, %d with it"
          % (_count(ttir_default, "evict_last"), _count(ttir, "evict_last")))
    print("   scaled_add lowered inline: %d arith.mulf, %d arith.addf, %d "
          "tt.call left" % (_count(ttir, "arith.mulf"),
                            _count(ttir, "arith.addf"),
                            _count(ttir, "tt.call")))
    error = float(np.max(np.abs(got - want)))
    print("== %s: %d elements, grid %s, max |error| %.3g vs numpy" % (
        "PASS" if ok else "FAIL", n, grid({"BLOCK": block}), error))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
