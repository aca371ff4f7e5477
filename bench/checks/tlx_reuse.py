"""TLX's local_alloc(reuse=) and local_reinterpret on the GPU beside the
CPU's answer: a buffer reused by a second allocation and read back through
a reinterpreted view holds what the last store put there.

    TPX_BUILD_DIR=.device PYTHONPATH=python python3 bench/checks/tlx_reuse.py
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))

import tpx  # noqa: E402
import tpx.language as tl  # noqa: E402
import tpx.language.extra.tlx as tlx  # noqa: E402


@tpx.jit
def reuse_kernel(x_ptr, y_ptr, out_ptr):
    r = tl.arange(0, 64)
    offs = r[:, None] * 64 + r[None, :]
    a = tlx.local_alloc((64, 64), tl.float32, 1)
    tlx.local_store(a[0], tl.load(x_ptr + offs))
    first = tlx.local_load(a[0])
    b = tlx.local_alloc((64, 64), tl.float32, 1, reuse=a)
    tlx.local_store(b[0], tl.load(y_ptr + offs) + first)
    tl.store(out_ptr + offs, tlx.local_load(b[0]))
    bits = tlx.local_reinterpret(a[0], tl.int32)
    tl.store(out_ptr + 4096 + offs,
             tlx.local_load(bits).to(tl.float32, bitcast=True))


def main():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 64)).astype(np.float32)
    y = rng.standard_normal((64, 64)).astype(np.float32)
    want = np.concatenate([x + y, x + y])
    if len(sys.argv) > 1 and sys.argv[1] == "cpu":
        out = np.zeros((128, 64), np.float32)
        reuse_kernel[(1,)](x, y, out)
    else:
        import torch
        xs, ys = torch.tensor(x).cuda(), torch.tensor(y).cuda()
        outs = torch.zeros((128, 64), device="cuda")
        reuse_kernel[(1,)](xs, ys, outs)
        out = outs.cpu().numpy()
    ok = np.array_equal(out, want)
    print("reuse/reinterpret:", "PASS" if ok else "FAIL",
          np.abs(out - want).max())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
