"""Autotuning compiles its configs in parallel: the speed-up over serial.

Compiles the 8 configs of a tutorial-style matmul (fp16 inputs, a
different tile shape each) for the active target (the GPU when there is
one, else the CPU), once one after the other and once the way
`tpx.autotune` does before it times them (`Autotuner._precompile`: a
thread pool, the C compile running without the GIL). Each mode runs in a
fresh process with an empty compile cache. Prints both wall times and the
ratio.

    PYTHONPATH=python python3 bench/python/autotune_compile.py
"""

import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

CONFIGS = [(128, 256, 64, 8), (128, 128, 64, 4), (128, 64, 32, 4),
           (64, 128, 32, 4), (64, 64, 32, 4), (128, 32, 32, 4),
           (32, 64, 32, 2), (64, 32, 32, 2)]


def child(mode):
    sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
    import numpy as np

    import tpx
    import tpx.language as tl

    @tpx.jit
    def matmul(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr,
               BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        rk = tl.arange(0, BLOCK_K)
        acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BLOCK_K)):
            a = tl.load(a_ptr + rm[:, None] * K + (k * BLOCK_K + rk)[None, :])
            b = tl.load(b_ptr + (k * BLOCK_K + rk)[:, None] * N + rn[None, :])
            acc += tl.dot(a, b)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))

    configs = [tpx.Config({"BLOCK_M": m, "BLOCK_N": n, "BLOCK_K": k},
                          num_warps=w, num_stages=3)
               for m, n, k, w in CONFIGS]
    tuned = tpx.autotune(configs, key=["M", "N", "K"])(matmul)
    device = tpx.runtime.driver.active.get_active_torch_device()
    if str(device) == "cpu":
        a = np.zeros((256, 256), np.float16)
        c = np.zeros((256, 256), np.float16)
    else:
        import torch
        a = torch.zeros((256, 256), dtype=torch.float16, device=device)
        c = torch.zeros_like(a)
    args = (a, a, c, 256, 256, 256)
    start = time.perf_counter()
    if mode == "serial":
        for config in configs:
            matmul.warmup(*args, grid=(1,), **config.all_kwargs())
    else:
        tuned._precompile(configs, args, {"grid": (1,)})
    elapsed = time.perf_counter() - start
    compiled = sum(len(kernels) for kernels in matmul.cache.values())
    print("%d %.3f" % (compiled, elapsed))


def main():
    times = {}
    for mode in ("serial", "parallel"):
        env = dict(os.environ, TPX_CACHE_DIR=tempfile.mkdtemp())
        out = subprocess.run([sys.executable, __file__, "--child", mode],
                             env=env, stdout=subprocess.PIPE, text=True,
                             check=True).stdout
        compiled, seconds = out.strip().splitlines()[-1].split()
        if int(compiled) != len(CONFIGS):
            sys.exit("%s: %s of %d configs compiled" % (mode, compiled,
                                                        len(CONFIGS)))
        times[mode] = float(seconds)
    print("8 matmul configs compiled: serial %.2f s, parallel %.2f s "
          "(%d CPUs): %.2fx faster" % (times["serial"], times["parallel"],
                                        os.cpu_count(),
                                        times["serial"] / times["parallel"]))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        child(sys.argv[2])
    else:
        main()
