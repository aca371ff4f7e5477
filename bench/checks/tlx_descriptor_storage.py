"""TLX descriptors written into allocate_tensor_descriptor slots and read
back, and a predicated TMA copy, on the GPU beside numpy's answer (the CPU
runs the same kernels in test/Python/test_tlx_descriptor_storage.py).

    TPX_BUILD_DIR=.device PYTHONPATH=python python3 \\
        bench/checks/tlx_descriptor_storage.py [cpu]
"""

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "test", "Python"))

import test_tlx_descriptor_storage as t  # noqa: E402


def main():
    on_cpu = len(sys.argv) > 1 and sys.argv[1] == "cpu"
    if on_cpu:
        def dev(a):
            return a

        def host(a):
            return a
    else:
        import torch

        def dev(a):
            return torch.tensor(a).cuda()

        def host(a):
            return a.cpu().numpy()
    results = []
    x = np.arange(200, dtype=np.int16)
    xd, yd = dev(x), dev(np.zeros_like(x))
    t.copy_kernel[(4,)](xd, yd, 200, BLOCK_SIZE=64)
    results.append(("copy through reinterpreted descriptors",
                    np.array_equal(host(yd), x)))
    x = np.arange(32 * 16, dtype=np.float32).reshape(32, 16)
    xd, yd = dev(x), dev(np.zeros_like(x))
    t.predicated_load_kernel[(2,)](xd, yd, 32, 16, BM=16, BN=16)
    got = host(yd)
    results.append(("predicated TMA copy", np.array_equal(got[:16], x[:16])
                    and (got[16:] == -1).all()))
    for name, ok in results:
        print("%s: %s" % ("PASS" if ok else "FAIL", name))
    return 0 if all(ok for _, ok in results) else 1


if __name__ == "__main__":
    sys.exit(main())
