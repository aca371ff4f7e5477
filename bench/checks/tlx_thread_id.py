"""tlx.thread_id on the GPU: the hardware thread index of each thread, in
the kernel and in warp-specialized tasks.

    TPX_BUILD_DIR=.device PYTHONPATH=python python3 bench/checks/tlx_thread_id.py
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
def first_thread_kernel(out_ptr, BLOCK: tl.constexpr):
    # One element per thread (BLOCK = the block's threads): only thread 0
    # stores, so only element 0 is written.
    offs = tl.arange(0, BLOCK)
    if tlx.thread_id(0) == 0:
        tl.store(out_ptr + offs, offs + 7)


@tpx.jit
def task_ids_kernel(out_ptr):
    # Thread 0 of each task's first warp records its id: the 4-warp task
    # runs on warps 4-7, so its first thread is 128.
    with tlx.async_tasks():
        with tlx.async_task("default"):
            if tlx.thread_id(0) == 0:
                tl.store(out_ptr, tlx.thread_id(0) + 1)
        with tlx.async_task(num_warps=4):
            if tlx.thread_id(0) % 128 == 0:
                tl.store(out_ptr + 1, tlx.thread_id(0))


def main():
    import torch
    failures = 0
    out = torch.full((32,), -1, dtype=torch.int32, device="cuda")
    first_thread_kernel[(1,)](out, BLOCK=32, num_warps=1)
    got = out.cpu().numpy()
    want = np.full(32, -1, np.int32)
    want[0] = 7
    ok = np.array_equal(got, want)
    failures += not ok
    print("thread_id, one element per thread:", "PASS" if ok else "FAIL",
          got.tolist())
    out = torch.full((2,), -1, dtype=torch.int32, device="cuda")
    task_ids_kernel[(1,)](out, num_warps=4)
    got = out.cpu().numpy().tolist()
    ok = got == [1, 128]
    failures += not ok
    print("thread_id in tasks:", "PASS" if ok else "FAIL", got)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
