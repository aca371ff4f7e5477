#!/usr/bin/env python3
"""tpx vs stock Triton vs torch, side by side in one process, on one GPU.

For every benchmark: stock Triton compiles a kernel from bench/kernels.py and
runs it; the very TTIR Triton printed (`compiled.asm["ttir"]`) is compiled by
tpx (`tpx-compile --target sm_90a`, same num_warps/num_stages) and the cubin
is launched through the CUDA driver (ctypes, on torch's stream); torch runs
the same computation. Each result is checked against torch. Prints a table
and writes bench/results/<date>-h200.json: a list of
{"name", "unit", "tpx", "triton", "torch"} plus compile times.

usage: bench.py --tpx-bin DIR [--out FILE] [--quick] [--only NAME]
"""
import argparse
import ctypes
import datetime
import json
import math
import os
import subprocess
import sys
import tempfile
import time

import torch
import triton
import triton.testing

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernels  # noqa: E402

# --------------------------------------------------------------------------
# Launching tpx cubins through the driver API.
# --------------------------------------------------------------------------
_cuda = ctypes.CDLL("libcuda.so.1")


def _check(result, what):
    if result != 0:
        name = ctypes.c_char_p()
        _cuda.cuGetErrorName(result, ctypes.byref(name))
        raise RuntimeError(f"{what} failed: {name.value.decode()}")


def raise_device_heap(megabytes=32768):
    """tpx's first NVIDIA path keeps tensors in device-malloc'ed buffers (see
    docs/nvidia-target.md); its own launcher raises the heap limit, and so
    must this one. Must run before the first kernel that calls malloc."""
    torch.cuda.init()
    torch.zeros(1, device="cuda")
    CU_LIMIT_MALLOC_HEAP_SIZE = 2
    _check(_cuda.cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE,
                               ctypes.c_size_t(megabytes << 20)),
           "cuCtxSetLimit")


class TpxKernel:
    """A tpx artifact (cubin + metadata JSON) loaded into torch's context."""

    def __init__(self, cubin_path, metadata):
        self.metadata = metadata
        data = open(cubin_path, "rb").read()
        self.module = ctypes.c_void_p()
        _check(_cuda.cuModuleLoadData(ctypes.byref(self.module), data),
               "cuModuleLoadData")
        self.function = ctypes.c_void_p()
        _check(_cuda.cuModuleGetFunction(
            ctypes.byref(self.function), self.module,
            metadata["entry_point"].encode()), "cuModuleGetFunction")
        # SIMT kernels run num_warps * 32 threads per block; the one-thread
        # path (kernels the SIMT code generator does not cover) runs 1.
        self.block = [metadata.get("block_threads", 1), 1, 1]
        self.shared = metadata.get("shared_memory", 0)
        if self.shared > 0:
            # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8: needed
            # past 48 KiB of dynamic shared memory.
            _check(_cuda.cuFuncSetAttribute(self.function, 8, self.shared),
                   "cuFuncSetAttribute")

    def __call__(self, grid, *args):
        values = []
        for spec, arg in zip(self.metadata["signature"]["args"], args):
            if spec["kind"] == "pointer":
                values.append(ctypes.c_uint64(arg.data_ptr()))
            elif spec["type"].startswith("f"):
                values.append(ctypes.c_float(arg))
            elif spec["type"] == "i64":
                values.append(ctypes.c_int64(arg))
            else:
                values.append(ctypes.c_int32(arg))
        params = (ctypes.c_void_p * len(values))(
            *[ctypes.cast(ctypes.pointer(v), ctypes.c_void_p) for v in values])
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
        grid = list(grid) + [1] * (3 - len(grid))
        _check(_cuda.cuLaunchKernel(
            self.function, grid[0], grid[1], grid[2], self.block[0],
            self.block[1], self.block[2], self.shared, stream, params, None),
            "cuLaunchKernel")


def tpx_compile(tpx_bin, ttir, num_warps, num_stages, cache_dir):
    """Compiles TTIR text with tpx; returns (TpxKernel, seconds)."""
    work = tempfile.mkdtemp(prefix="tpx-bench-")
    src = os.path.join(work, "kernel.ttir")
    with open(src, "w") as f:
        f.write(ttir)
    out = os.path.join(work, "kernel.cubin")
    env = dict(os.environ, TPX_CACHE_DIR=cache_dir)
    start = time.perf_counter()
    subprocess.run([os.path.join(tpx_bin, "tpx-compile"), src, "--target",
                    "sm_90a", "--num-warps", str(num_warps), "--num-stages",
                    str(num_stages), "-o", out], check=True, env=env)
    seconds = time.perf_counter() - start
    metadata = json.load(open(out + ".json"))
    return TpxKernel(out, metadata), seconds


def time_ms(fn, budget_ms=2000.0, warm=True):
    """Median time of fn in ms; slow functions are run fewer times (one
    timed run past a second). `warm=False` when fn has just run."""
    if warm:
        fn()
        torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    torch.cuda.synchronize()
    first = start.elapsed_time(end)
    if first > 1000:
        return first
    if first > 50:
        reps = max(1, min(5, int(budget_ms / first)))
        times = [first]
        for _ in range(reps - 1):
            start.record()
            fn()
            end.record()
            torch.cuda.synchronize()
            times.append(start.elapsed_time(end))
        times.sort()
        return times[len(times) // 2]
    return triton.testing.do_bench(fn, warmup=25, rep=100)


# --------------------------------------------------------------------------
# Benchmarks: each returns the pieces the driver loop needs.
# --------------------------------------------------------------------------
def bench_vector_add(n=1 << 28):
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    block = 1024
    grid = (triton.cdiv(n, block),)
    args = (x, y, out, n)
    return dict(name=f"vector_add f32 n=2^{int(math.log2(n))}", unit="GB/s",
                kernel=kernels.vector_add, grid=grid, args=args,
                constexprs=dict(BLOCK=block), out=out,
                ref=lambda: x + y, torch=lambda: torch.add(x, y),
                work=3 * n * 4 / 1e9, tol=(0, 0))


def bench_softmax(rows=4096, cols=8192):
    x = torch.randn(rows, cols, device="cuda")
    out = torch.empty_like(x)
    block = triton.next_power_of_2(cols)
    return dict(name=f"softmax f32 {rows}x{cols}", unit="GB/s",
                kernel=kernels.softmax, grid=(rows,),
                args=(out, x, x.stride(0), cols), constexprs=dict(BLOCK=block),
                out=out, ref=lambda: torch.softmax(x, dim=1),
                torch=lambda: torch.softmax(x, dim=1),
                work=2 * rows * cols * 4 / 1e9, tol=(1e-5, 1e-6), num_warps=8)


def bench_layernorm(rows=4096, cols=8192):
    x = torch.randn(rows, cols, device="cuda")
    w = torch.randn(cols, device="cuda")
    b = torch.randn(cols, device="cuda")
    y = torch.empty_like(x)
    block = triton.next_power_of_2(cols)
    ln = lambda: torch.nn.functional.layer_norm(x, (cols,), w, b, 1e-5)
    return dict(name=f"layernorm f32 {rows}x{cols}", unit="GB/s",
                kernel=kernels.layernorm, grid=(rows,),
                args=(x, y, w, b, x.stride(0), cols, 1e-5),
                constexprs=dict(BLOCK=block), out=y, ref=ln, torch=ln,
                work=2 * rows * cols * 4 / 1e9, tol=(1e-4, 1e-4), num_warps=8)


def bench_matmul(m, n, k, dtype):
    a = torch.randn(m, k, device="cuda", dtype=dtype)
    b = torch.randn(k, n, device="cuda", dtype=dtype)
    c = torch.empty(m, n, device="cuda", dtype=dtype)
    bm, bn, bk = 128, 128, 64
    grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)
    tname = "bf16" if dtype == torch.bfloat16 else "fp16"
    return dict(name=f"matmul {tname} {m}x{n}x{k}", unit="TFLOP/s",
                kernel=kernels.matmul, grid=grid,
                args=(a, b, c, m, n, k, a.stride(0), b.stride(0), c.stride(0)),
                constexprs=dict(BM=bm, BN=bn, BK=bk, GROUP=8), out=c,
                ref=lambda: a @ b, torch=lambda: a @ b,
                work=2 * m * n * k / 1e12, tol=(2e-2, 2e-2), num_warps=8,
                num_stages=3, throughput=True)


def bench_attention(seq, d, batch_heads=32):
    q = torch.randn(batch_heads, seq, d, device="cuda", dtype=torch.bfloat16)
    kk = torch.randn_like(q)
    v = torch.randn_like(q)
    o = torch.empty_like(q)
    scale = 1.0 / math.sqrt(d)
    bm, bn = 128, 64
    sdpa = lambda: torch.nn.functional.scaled_dot_product_attention(
        q, kk, v, scale=scale)
    return dict(name=f"attention fwd bf16 D={d} seq={seq}", unit="TFLOP/s",
                kernel=kernels.attention, grid=(seq // bm, batch_heads),
                args=(q, kk, v, o, scale, q.stride(1), seq),
                constexprs=dict(BLOCK_M=bm, BLOCK_N=bn, D=d), out=o, ref=sdpa,
                torch=sdpa, work=4 * batch_heads * seq * seq * d / 1e12,
                tol=(2e-2, 2e-2), num_warps=8, num_stages=3)


def all_benchmarks(quick):
    if quick:
        return [lambda: bench_vector_add(1 << 24),
                lambda: bench_softmax(1024, 4096),
                lambda: bench_matmul(1024, 1024, 512, torch.float16)]
    return [bench_vector_add,
            lambda: bench_softmax(4096, 4096), lambda: bench_softmax(4096, 16384),
            lambda: bench_layernorm(4096, 4096),
            lambda: bench_layernorm(4096, 16384),
            lambda: bench_matmul(4096, 4096, 4096, torch.bfloat16),
            lambda: bench_matmul(4096, 4096, 4096, torch.float16),
            lambda: bench_matmul(8192, 8192, 8192, torch.bfloat16),
            lambda: bench_matmul(8192, 8192, 512, torch.bfloat16),
            lambda: bench_attention(1024, 64), lambda: bench_attention(4096, 128),
            lambda: bench_attention(8192, 64)]


def rate(spec, ms):
    return spec["work"] / (ms / 1e3)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tpx-bin", required=True)
    parser.add_argument("--out", default=None)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", default=None,
                        help="run the benchmarks whose name contains this")
    parser.add_argument("--index", type=int, default=None,
                        help="run only benchmark number INDEX (0-based)")
    parser.add_argument("--count", action="store_true",
                        help="print the number of benchmarks and exit")
    opts = parser.parse_args()
    if opts.count:
        print(len(all_benchmarks(opts.quick)))
        return
    torch.manual_seed(0)
    raise_device_heap()
    results, compile_times = [], []
    for index, make in enumerate(all_benchmarks(opts.quick)):
        if opts.index is not None and index != opts.index:
            continue
        spec = make()
        if opts.only and opts.only not in spec["name"]:
            continue
        warps = spec.get("num_warps", 4)
        stages = spec.get("num_stages", 3)
        kernel, grid = spec["kernel"], spec["grid"]
        # Stock Triton, cold: its own cache is a fresh directory.
        os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="triton-")
        start = time.perf_counter()
        compiled = kernel[grid](*spec["args"], **spec["constexprs"],
                                num_warps=warps, num_stages=stages)
        torch.cuda.synchronize()
        triton_cold = time.perf_counter() - start
        ttir = compiled.asm["ttir"]
        triton_ok = torch.allclose(spec["out"].float(), spec["ref"]().float(),
                                   rtol=spec["tol"][0] or 1e-6,
                                   atol=spec["tol"][1] or 1e-6)
        triton_ms = time_ms(lambda: kernel[grid](
            *spec["args"], **spec["constexprs"], num_warps=warps,
            num_stages=stages))
        torch_ms = time_ms(spec["torch"])
        # tpx: cold (fresh cache), then cached.
        cache = tempfile.mkdtemp(prefix="tpx-cache-")
        tpx_kernel, tpx_cold = tpx_compile(opts.tpx_bin, ttir, warps, stages,
                                           cache)
        _, tpx_cached = tpx_compile(opts.tpx_bin, ttir, warps, stages, cache)
        spec["out"].zero_()
        tpx_kernel(grid, *spec["args"])
        torch.cuda.synchronize()
        want = spec["ref"]().float()
        got = spec["out"].float()
        tpx_ok = torch.allclose(got, want, rtol=spec["tol"][0] or 1e-6,
                                atol=spec["tol"][1] or 1e-6)
        tpx_ms = time_ms(lambda: tpx_kernel(grid, *spec["args"]), warm=False)
        row = {"name": spec["name"], "unit": spec["unit"],
               "tpx": rate(spec, tpx_ms), "triton": rate(spec, triton_ms),
               "torch": rate(spec, torch_ms),
               "tpx_over_triton": triton_ms / tpx_ms,
               "tpx_over_torch": torch_ms / tpx_ms,
               "tpx_correct": bool(tpx_ok), "triton_correct": bool(triton_ok),
               "ms": {"tpx": tpx_ms, "triton": triton_ms, "torch": torch_ms}}
        results.append(row)
        compile_times.append({"name": spec["name"], "tpx_cold_s": tpx_cold,
                              "tpx_cached_s": tpx_cached,
                              "triton_cold_s": triton_cold})
        print(f"{row['name']:36s} {row['unit']:8s} tpx {row['tpx']:9.2f} "
              f"triton {row['triton']:9.2f} torch {row['torch']:9.2f}  "
              f"tpx/triton {row['tpx_over_triton']:.4f}  "
              f"ok tpx={tpx_ok} triton={triton_ok}  compile tpx "
              f"{tpx_cold:.2f}s/{tpx_cached:.3f}s triton {triton_cold:.2f}s",
              flush=True)
    report = {"date": datetime.date.today().isoformat(),
              "machine": torch.cuda.get_device_name(0),
              "torch": torch.__version__, "triton": triton.__version__,
              "results": results, "compile_times": compile_times}
    out = opts.out or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "results",
        f"{report['date']}-h200.json")
    with open(out, "w") as f:
        json.dump(report, f, indent=1)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
