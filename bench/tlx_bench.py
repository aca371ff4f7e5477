"""The TLX tutorials that run on the GPU, beside torch in one process:
the GEMMs (pipelined, TMA, warp-specialized) against cuBLAS
(torch.matmul), the flash attentions (pipelined, warp-specialized) against
torch's flash SDPA. Correctness against torch and TFLOP/s from CUDA-event
timing: each row has TFLOP/s of calls back to back (`*_tflops`, the
kernels' own speed) and of single calls after an L2 flush, as
triton.testing.do_bench takes them (`*_call_tflops`, which also count host
launch time the GPU waits for); see time_ms.

    TPX_BUILD_DIR=.device PYTHONPATH=python python3 bench/tlx_bench.py OUT.json [KERNELS]

KERNELS: a comma-separated subset (gemm_pipelined, gemm_tma, gemm_ws,
gemm_ws_cluster, gemm_pingpong, attention_pipelined, attention_ws); all by
default.
"""

import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))

from tlx_tutorials import (attention_pipelined, attention_ws,  # noqa: E402
                           gemm_pingpong, gemm_pipelined, gemm_tma, gemm_ws)


_flush = []


def _flush_l2():
    """Zeroes a 256 MB buffer, as triton.testing.do_bench does before each
    timed run: the run starts with a cold L2."""
    if not _flush:
        _flush.append(torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int32,
                                  device="cuda"))
    _flush[0].zero_()


def _event_ms(fn, calls):
    """CUDA-event time of `calls` back-to-back calls of fn, in ms."""
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(calls):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end)


def time_ms(fn, reps=20, batch=10):
    """(kernel_ms, call_ms) of one call of fn, medians after warm-up.

    call_ms times each call alone after an L2 flush (_flush_l2), as
    triton.testing.do_bench does: it also counts host time the GPU spends
    waiting for the launch when the host takes longer than the flush.
    tpx's Python launch of a TMA kernel with two descriptors costs 50-80 us
    of host time, torch.matmul's about 20 us: a quarter of a 4096^3 GEMM.
    kernel_ms times `batch` calls back to back (after one flush) and
    divides: the launches queue up behind the running kernels, so host time
    shorter than a kernel is hidden and the figure is the kernels' own, as
    a model's stream of kernels sees it."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    calls, kernels = [], []
    for _ in range(reps):
        _flush_l2()
        calls.append(_event_ms(fn, 1))
    for _ in range(max(1, reps // 4)):
        _flush_l2()
        kernels.append(_event_ms(fn, batch) / batch)
    return sorted(kernels)[len(kernels) // 2], sorted(calls)[reps // 2]


def tflops(row, prefix, flops, fn):
    """Times fn into row: PREFIX_tflops (back-to-back calls) and
    PREFIX_call_tflops (one call after an L2 flush, host waits included)."""
    kernel_ms, call_ms = time_ms(fn)
    row[prefix + "_tflops"] = flops / kernel_ms * 1e3
    row[prefix + "_call_tflops"] = flops / call_ms * 1e3


def measure(row, run, ref, flops, tol):
    """Runs `run`, checks it against `ref` (max abs difference under
    `tol`), times it; fills `row` (the error instead, if anything raises)."""
    try:
        err = (run().float() - ref.float()).abs().max().item()
        row["max_abs_err"] = err
        row["correct"] = err < tol
        tflops(row, "tpx", flops, run)
        row["tpx_over_torch"] = row["tpx_tflops"] / row["torch_tflops"]
        row["tpx_call_over_torch_call"] = \
            row["tpx_call_tflops"] / row["torch_call_tflops"]
    except Exception as e:  # noqa: BLE001 - reported
        row["error"] = "%s: %s" % (type(e).__name__, e)
    print(json.dumps(row), flush=True)
    return row


def main(out, kernels):
    rows = []
    gemms = [k for k in ("gemm_pipelined", "gemm_tma") if k in kernels]
    configs = [("128x256x64 8 warps", gemm_pipelined.HOPPER_CONFIG),
               ("128x128x64 4 warps",
                dict(gemm_pipelined.HOPPER_CONFIG, BLOCK_SIZE_N=128,
                     num_warps=4))]
    for dtype in (torch.float16, torch.bfloat16):
        for size in (4096, 8192) if any(k.startswith("gemm")
                                        for k in kernels) else ():
            a = torch.randn(size, size, device="cuda", dtype=dtype)
            b = torch.randn(size, size, device="cuda", dtype=dtype)
            ref = a @ b
            flops = 2 * size ** 3 / 1e12
            base = {}
            tflops(base, "torch", flops, lambda: a @ b)
            for kernel in gemms:
                module = globals()[kernel]
                for name, config in configs:
                    row = dict(kernel=kernel, config=name, dtype=str(dtype),
                               size=size, **base)
                    rows.append(measure(
                        row, lambda: module.matmul(a, b, config), ref, flops,
                        1.0))
            for kernel, name, module, config in (
                    ("gemm_ws", "128x256x64 8+1 warps", gemm_ws, None),
                    ("gemm_ws_cluster", "128x256x64 8+1 warps, 2-CTA "
                     "clusters, B multicast", gemm_ws,
                     gemm_ws.HOPPER_CLUSTER_CONFIG),
                    ("gemm_pingpong", "128x128x64 4+2x4 warps",
                     gemm_pingpong, None)):
                if kernel not in kernels:
                    continue
                row = dict(kernel=kernel, config=name, dtype=str(dtype),
                           size=size, **base)
                rows.append(measure(
                    row, lambda: module.matmul(a, b, config), ref, flops,
                    1.0))
    from torch.nn.attention import SDPBackend, sdpa_kernel
    heads = 32
    for d, seq in ((64, 1024), (128, 4096), (64, 8192), (128, 8192)):
        for causal in (False, True):
            if "attention_pipelined" not in kernels and \
                    "attention_ws" not in kernels:
                continue
            q, k, v = (torch.randn(1, heads, seq, d, device="cuda",
                                   dtype=torch.bfloat16) for _ in range(3))
            q3, k3, v3 = (t.view(heads, seq, d) for t in (q, k, v))

            def sdpa():
                with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                    return torch.nn.functional.scaled_dot_product_attention(
                        q, k, v, is_causal=causal)
            ref = sdpa().view(heads, seq, d)
            flops = 4 * heads * seq * seq * d / 1e12 / (2 if causal else 1)
            base = {}
            tflops(base, "torch", flops, sdpa)
            for kernel in ("attention_pipelined", "attention_ws"):
                if kernel not in kernels:
                    continue
                module = globals()[kernel]
                row = dict(kernel=kernel, d=d, seq=seq, causal=causal,
                           **base)
                rows.append(measure(
                    row, lambda: module.attention(q3, k3, v3, causal), ref,
                    flops, 2e-2))
    with open(out, "w") as f:
        json.dump(dict(machine=torch.cuda.get_device_name(), rows=rows), f,
                  indent=1)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/tlx-bench.json",
         sys.argv[2].split(",") if len(sys.argv) > 2 else
         ["gemm_pipelined", "gemm_tma", "gemm_ws", "gemm_pingpong",
          "attention_pipelined", "attention_ws"])
