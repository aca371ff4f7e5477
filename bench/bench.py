#!/usr/bin/env python3
"""tpx vs stock Triton vs torch, side by side in one process, on one GPU.

For every benchmark: stock Triton compiles a kernel from bench/kernels.py and
runs it; the very TTIR Triton printed (`compiled.asm["ttir"]`) is compiled by
tpx (`tpx-compile --target sm_90a`, same num_warps/num_stages) and the cubin
is launched through the CUDA driver (ctypes, on torch's stream); torch runs
the same computation. Every output is checked against torch; a row whose
check fails (or whose compile or launch raises) is reported as failed and
the run goes on. Prints a table and writes bench/results/<date>-h200.json
(see bench/results/README.md for its fields).

A tpx kernel that compiled on the one-thread path (`tpx.codegen = "scalar"`
in its ttgir; docs/nvidia-target.md) runs about three orders of magnitude
slower than the SIMT code: it is launched once, that launch is both the
check and the time, and the row says `one-thread path`.

usage: bench.py --tpx-bin DIR [--out FILE] [--quick] [--only TEXT[|TEXT...]]
                [--index N]
       bench.py [--quick] [--only ...] --list | --count
"""
import argparse
import ctypes
import datetime
import functools
import inspect
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback

import torch
import triton
import triton.testing

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernels  # noqa: E402

ONE_THREAD = "one-thread"
SIMT = "simt"
# Where the benchmarks' tensors live; a dry run of the harness's plumbing
# without a GPU sets "cpu".
DEVICE = "cuda"

# --------------------------------------------------------------------------
# Launching tpx cubins through the driver API.
# --------------------------------------------------------------------------
_cuda = None


def _driver():
    """libcuda, opened on first use (so that --list/--count need no GPU)."""
    global _cuda
    if _cuda is None:
        _cuda = ctypes.CDLL("libcuda.so.1")
    return _cuda


def _check(result, what):
    if result != 0:
        name = ctypes.c_char_p()
        _driver().cuGetErrorName(result, ctypes.byref(name))
        raise RuntimeError(f"{what} failed: {name.value.decode()}")


def raise_device_heap(megabytes=32768):
    """tpx's one-thread NVIDIA path keeps tensors in device-malloc'ed
    buffers (see docs/nvidia-target.md); its own launcher raises the heap
    limit, and so must this one. Must run before the first kernel that
    calls malloc."""
    torch.cuda.init()
    torch.zeros(1, device="cuda")
    CU_LIMIT_MALLOC_HEAP_SIZE = 2
    _check(_driver().cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE,
                                   ctypes.c_size_t(megabytes << 20)),
           "cuCtxSetLimit")


def _is_specialized_away(value):
    """Arguments Triton turns into constants, which its TTIR signature then
    lacks: None and integers equal to 1 (a unit stride, say)."""
    if value is None:
        return True
    return isinstance(value, int) and not isinstance(value, bool) \
        and value == 1


def bind_arguments(signature_args, names, args):
    """The harness's positional kernel arguments in the order of the tpx
    signature. Stock Triton's TTIR names its arguments (`loc("a_ptr")`), so
    they are matched by name; TTIR without names (`%arg0`) is matched by
    position after dropping what Triton specialized away."""
    by_name = dict(zip(names, args))
    wanted = [arg["name"] for arg in signature_args]
    if all(name in by_name for name in wanted):
        return [by_name[name] for name in wanted]
    kept = [arg for arg in args if not _is_specialized_away(arg)]
    if len(kept) != len(signature_args):
        raise ValueError(
            f"tpx signature {wanted} does not match the arguments "
            f"{list(names)}")
    return kept


def _scalar(spec, value):
    if spec["type"].startswith("f"):
        return ctypes.c_float(value)
    if spec["type"] == "i64":
        return ctypes.c_int64(value)
    return ctypes.c_int32(value)


class TpxKernel:
    """A tpx artifact (cubin + metadata JSON) loaded into torch's context."""

    def __init__(self, cubin_path, metadata, arg_names):
        self.metadata = metadata
        self.arg_names = arg_names
        cuda = _driver()
        with open(cubin_path, "rb") as f:
            data = f.read()
        self.module = ctypes.c_void_p()
        _check(cuda.cuModuleLoadData(ctypes.byref(self.module), data),
               "cuModuleLoadData")
        self.function = ctypes.c_void_p()
        _check(cuda.cuModuleGetFunction(
            ctypes.byref(self.function), self.module,
            metadata["entry_point"].encode()), "cuModuleGetFunction")
        # SIMT kernels run num_warps * 32 threads per block; the one-thread
        # path (kernels the SIMT code generator does not cover) runs 1.
        self.block = [metadata.get("block_threads", 1), 1, 1]
        self.shared = metadata.get("shared_memory", 0)
        if self.shared > 0:
            # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8: needed
            # past 48 KiB of dynamic shared memory.
            _check(cuda.cuFuncSetAttribute(self.function, 8, self.shared),
                   "cuFuncSetAttribute")

    def attribute(self, which):
        """cuFuncGetAttribute(which) of the loaded entry."""
        value = ctypes.c_int()
        _check(_driver().cuFuncGetAttribute(ctypes.byref(value), which,
                                            self.function),
               "cuFuncGetAttribute")
        return value.value

    def bind(self, grid, *args):
        """A launch of this kernel on `grid` with `args`, as a function of
        no arguments: the kernelParams array, the stream and the grid are
        built here, once, so that a timed call is one cuLaunchKernel. The
        harness's own Python per call must not be what a row measures: a
        launcher that converted the arguments on every call took 30-110 us
        of host time (session 20), more than a 30 us kernel, and turned
        the 2048^3 matmul and D=64 seq 1024 attention rows into launch
        benchmarks (Triton's compiled launcher takes 18-25 us). The tensors
        in `args` must stay alive and in place while the launch is used."""
        signature = self.metadata["signature"]["args"]
        values = []
        for spec, arg in zip(signature,
                             bind_arguments(signature, self.arg_names, args)):
            if spec["kind"] == "pointer":
                values.append(ctypes.c_uint64(arg.data_ptr()))
            else:
                values.append(_scalar(spec, arg))
        params = (ctypes.c_void_p * max(1, len(values)))(
            *[ctypes.cast(ctypes.pointer(v), ctypes.c_void_p) for v in values])
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
        gx, gy, gz = list(grid) + [1] * (3 - len(grid))
        launch_kernel, function = _driver().cuLaunchKernel, self.function
        block, shared = self.block, self.shared

        def launch():
            _check(launch_kernel(function, gx, gy, gz, block[0], block[1],
                                 block[2], shared, stream, params, None),
                   "cuLaunchKernel")
        launch.keep_alive = (values, params)
        return launch

    def __call__(self, grid, *args):
        self.bind(grid, *args)()


# --------------------------------------------------------------------------
# Compiling with tpx-compile.
# --------------------------------------------------------------------------
def _tpx_compile_cmd(tpx_bin, src, num_warps, num_stages, out, *extra):
    return [os.path.join(tpx_bin, "tpx-compile"), src, "--target", "sm_90a",
            "--num-warps", str(num_warps), "--num-stages", str(num_stages),
            "-o", out, *extra]


def _run_tool(cmd, env):
    """Runs a tpx tool; its diagnostics go into the exception."""
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        tool, stderr = os.path.basename(cmd[0]), done.stderr.strip()
        raise RuntimeError(
            f"{tool} failed ({done.returncode}): {stderr[-2000:]}")


def tpx_compile(tpx_bin, src, out, num_warps, num_stages, cache_dir):
    """Compiles a TTIR file with tpx into `out` (+ `out`.json); returns
    (metadata, seconds of the whole tpx-compile process)."""
    env = dict(os.environ, TPX_CACHE_DIR=cache_dir)
    start = time.perf_counter()
    _run_tool(_tpx_compile_cmd(tpx_bin, src, num_warps, num_stages, out), env)
    seconds = time.perf_counter() - start
    with open(out + ".json") as f:
        metadata = json.load(f)
    return metadata, seconds


_CODEGEN_ATTR = re.compile(r'\btpx(?:gpu)?\.codegen"?\s*=\s*"(\w+)"')


def parse_codegen(ttgir):
    """The code generator the NVIDIA pipeline chose, from the module
    attribute `tpx.codegen` (being renamed `tpxgpu.codegen`): "simt",
    "scalar" (the one-thread path) or None when absent."""
    found = _CODEGEN_ATTR.search(ttgir)
    return found.group(1) if found else None


def tpx_codegen(tpx_bin, src, num_warps, num_stages, metadata):
    """"simt" or "scalar". The artifact's metadata says it if it ever gains
    a `codegen` field; else the ttgir stage's module attribute (a compile
    stopped after ttgir, uncached so that it really runs); else the block
    size (the one-thread path launches blocks of one thread)."""
    if metadata.get("codegen"):
        return metadata["codegen"]
    out = src + ".ttgir"
    try:
        _run_tool(_tpx_compile_cmd(tpx_bin, src, num_warps, num_stages, out,
                                   "--stop-after=ttgir", "--no-cache"),
                  dict(os.environ))
        with open(out) as f:
            codegen = parse_codegen(f.read())
        if codegen:
            return codegen
    except (OSError, RuntimeError):
        pass
    return "scalar" if metadata.get("block_threads", 1) == 1 else "simt"


# --------------------------------------------------------------------------
# Timing and checking.
# --------------------------------------------------------------------------
def _event_ms(fn):
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end)


def time_ms(fn, budget_ms=2000.0, warm=True):
    """Median time of fn in ms; slow functions are run fewer times (one
    timed run past a second). `warm=False` when fn has just run."""
    if warm:
        fn()
        torch.cuda.synchronize()
    first = _event_ms(fn)
    if first > 1000:
        return first
    if first > 50:
        reps = max(1, min(5, int(budget_ms / first)))
        times = sorted([first] + [_event_ms(fn) for _ in range(reps - 1)])
        return times[len(times) // 2]
    return triton.testing.do_bench(fn, warmup=25, rep=100)


def check_close(got, want, tol, atol_scale=None):
    """(ok, max abs error). `atol_scale="rms"` scales atol by the
    reference's root mean square: fp8 products summed over K have errors
    proportional to the output's magnitude, not to each element."""
    rtol, atol = tol[0] or 1e-6, tol[1] or 1e-6
    got, want = got.float(), want.float()
    if atol_scale == "rms":
        atol *= want.pow(2).mean().sqrt().item()
    error = (got - want).abs().max().item()
    return bool(torch.allclose(got, want, rtol=rtol, atol=atol)), error


def torch_kernel_names(fn):
    """Names of the CUDA kernels fn launches (torch's profiler), to show
    which library kernel the torch baseline ran; None if it cannot tell."""
    try:
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            fn()
            torch.cuda.synchronize()
        names = {e.key for e in prof.key_averages()
                 if getattr(e, "device_type", None) is not None
                 and "CUDA" in str(e.device_type)}
        return [name[:160] for name in sorted(names)[:4]] or None
    except Exception:  # the profiler is evidence only, never a failure
        return None


# --------------------------------------------------------------------------
# Benchmarks: each returns the pieces the driver loop needs (a spec dict):
# kernel, grid, args, constexprs, out (written by the kernels), ref (the
# output to check against), torch (the baseline), work (GB or TFLOP),
# tol (rtol, atol), and optionally num_warps, num_stages, atol_scale,
# torch_backend, profile_torch.
# --------------------------------------------------------------------------
def bench_vector_add(n=1 << 28):
    x = torch.randn(n, device=DEVICE)
    y = torch.randn(n, device=DEVICE)
    out = torch.empty_like(x)
    block = 1024
    return dict(unit="GB/s", kernel=kernels.vector_add,
                grid=(triton.cdiv(n, block),), args=(x, y, out, n),
                constexprs=dict(BLOCK=block), out=out,
                ref=lambda: x + y, torch=lambda: torch.add(x, y),
                work=3 * n * 4 / 1e9, tol=(0, 0))


def bench_softmax(rows, cols):
    x = torch.randn(rows, cols, device=DEVICE)
    out = torch.empty_like(x)
    return dict(unit="GB/s", kernel=kernels.softmax, grid=(rows,),
                args=(out, x, x.stride(0), cols),
                constexprs=dict(BLOCK=triton.next_power_of_2(cols)),
                out=out, ref=lambda: torch.softmax(x, dim=1),
                torch=lambda: torch.softmax(x, dim=1),
                work=2 * rows * cols * 4 / 1e9, tol=(1e-5, 1e-6), num_warps=8)


def bench_layernorm(rows, cols):
    x = torch.randn(rows, cols, device=DEVICE)
    w = torch.randn(cols, device=DEVICE)
    b = torch.randn(cols, device=DEVICE)
    y = torch.empty_like(x)

    def ln():
        return torch.nn.functional.layer_norm(x, (cols,), w, b, 1e-5)
    return dict(unit="GB/s", kernel=kernels.layernorm, grid=(rows,),
                args=(x, y, w, b, x.stride(0), cols, 1e-5),
                constexprs=dict(BLOCK=triton.next_power_of_2(cols)), out=y,
                ref=ln, torch=ln, work=2 * rows * cols * 4 / 1e9,
                tol=(1e-4, 1e-4), num_warps=8)


_MATMUL_TILE = dict(BM=128, BN=128, BK=64, GROUP=8)


def _matmul_grid(m, n):
    return (triton.cdiv(m, _MATMUL_TILE["BM"])
            * triton.cdiv(n, _MATMUL_TILE["BN"]),)


def bench_matmul(m, n, k, dtype):
    a = torch.randn(m, k, device=DEVICE, dtype=dtype)
    b = torch.randn(k, n, device=DEVICE, dtype=dtype)
    c = torch.empty(m, n, device=DEVICE, dtype=dtype)
    return dict(unit="TFLOP/s", kernel=kernels.matmul, grid=_matmul_grid(m, n),
                args=(a, b, c, m, n, k, a.stride(0), b.stride(0), c.stride(0)),
                constexprs=dict(_MATMUL_TILE), out=c,
                ref=lambda: a @ b, torch=lambda: a @ b,
                work=2 * m * n * k / 1e12, tol=(2e-2, 2e-2), num_warps=8,
                num_stages=3, torch_backend="cuBLAS",
                profile_torch=True)


def bench_matmul_fp8(m, n, k):
    """e4m3 A [M,K] row-major times B [K,N] column-major (the transpose of a
    row-major [N,K]: what torch._scaled_mm takes, and K-major as fp8 wgmma
    wants), f32 accumulation, bf16 out. Unit scales. The check compares with
    _scaled_mm within 5e-2 relative plus 5e-2 of the output's RMS: both sum
    the same exactly representable products, but in different orders and,
    for Triton's default fp8 dot on sm_90 (max_num_imprecise_acc), with
    wgmma's reduced-precision accumulation."""
    fp8 = torch.float8_e4m3fn
    a = torch.randn(m, k, device=DEVICE).to(fp8)
    b = torch.randn(n, k, device=DEVICE).to(fp8).t()
    c = torch.empty(m, n, device=DEVICE, dtype=torch.bfloat16)
    one = torch.tensor(1.0, device=DEVICE)

    def scaled_mm():
        out = torch._scaled_mm(a, b, scale_a=one, scale_b=one,
                               out_dtype=torch.bfloat16)
        # Older torch returned (out, amax).
        return out[0] if isinstance(out, tuple) else out
    return dict(unit="TFLOP/s", kernel=kernels.matmul_strided,
                grid=_matmul_grid(m, n),
                args=(a, b, c, m, n, k, a.stride(0), b.stride(0), b.stride(1),
                      c.stride(0)),
                constexprs=dict(_MATMUL_TILE), out=c, ref=scaled_mm,
                torch=scaled_mm, work=2 * m * n * k / 1e12,
                tol=(5e-2, 5e-2), atol_scale="rms", num_warps=8,
                num_stages=3, torch_backend="_scaled_mm",
                profile_torch=True)


def flash_sdpa(q, k, v, scale, causal):
    """torch's attention on the flash backend only: where flash cannot run
    this raises instead of falling back to the math kernel."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
        return torch.nn.functional.scaled_dot_product_attention(
            q, k, v, scale=scale, is_causal=causal)


def bench_attention(seq, d, causal, heads=32):
    """(1, H, S, D) contiguous tensors for torch (the layout its flash
    kernel takes); the kernels read the same storage as (H, S, D) views."""
    q = torch.randn(1, heads, seq, d, device=DEVICE, dtype=torch.bfloat16)
    k = torch.randn_like(q)
    v = torch.randn_like(q)
    o = torch.empty_like(q)
    q3, k3, v3, o3 = (t.view(heads, seq, d) for t in (q, k, v, o))
    scale = 1.0 / math.sqrt(d)
    bm, bn = 128, 64

    def sdpa():
        return flash_sdpa(q, k, v, scale, causal)
    flops = 4 * heads * seq * seq * d / 1e12
    return dict(unit="TFLOP/s", kernel=kernels.attention,
                grid=(seq // bm, heads),
                args=(q3, k3, v3, o3, scale, q3.stride(1), seq),
                constexprs=dict(BLOCK_M=bm, BLOCK_N=bn, D=d, CAUSAL=causal),
                out=o, ref=sdpa, torch=sdpa,
                work=flops / 2 if causal else flops, tol=(2e-2, 2e-2),
                num_warps=8, num_stages=3, torch_backend="flash",
                profile_torch=True)


# --- Op families (issue: every TTIR op on the SIMT path) ---
def bench_complex_mul(n=1 << 25):
    x = torch.randn(n, 2, device=DEVICE)
    y = torch.randn(n, 2, device=DEVICE)
    out = torch.empty_like(x)

    def ref():
        return torch.view_as_real(torch.view_as_complex(x)
                                  * torch.view_as_complex(y))
    block = 1024
    return dict(unit="GB/s", kernel=kernels.complex_mul,
                grid=(n // block,), args=(x, y, out),
                constexprs=dict(BLOCK=block), out=out, ref=ref, torch=ref,
                work=3 * n * 8 / 1e9, tol=(1e-5, 1e-5))


def bench_gather(rows=16384, cols=1024):
    x = torch.randn(rows, cols, device=DEVICE)
    idx64 = torch.argsort(torch.rand(rows, cols, device=DEVICE), dim=1)
    idx = idx64.to(torch.int32)
    out = torch.empty_like(x)
    return dict(unit="GB/s", kernel=kernels.row_gather, grid=(rows,),
                args=(x, idx, out), constexprs=dict(BLOCK=cols), out=out,
                ref=lambda: torch.gather(x, 1, idx64),
                torch=lambda: torch.gather(x, 1, idx64),
                work=3 * rows * cols * 4 / 1e9, tol=(0, 0))


def bench_histogram(n=1 << 26, bins=256):
    x = torch.randint(0, bins, (n,), device=DEVICE, dtype=torch.int32)
    counts = torch.zeros(bins, device=DEVICE, dtype=torch.int32)
    block = 4096
    return dict(unit="GB/s", kernel=kernels.histogram, grid=(n // block,),
                args=(x, counts), constexprs=dict(BLOCK=block, BINS=bins),
                out=counts,
                ref=lambda: torch.bincount(x, minlength=bins).to(torch.int32),
                torch=lambda: torch.bincount(x, minlength=bins),
                work=n * 4 / 1e9, tol=(0, 0))


def bench_cast_to_fp8(n=1 << 28):
    x = torch.randn(n, device=DEVICE) * 64
    out = torch.empty(n, device=DEVICE, dtype=torch.float8_e4m3fn)
    block = 1024
    return dict(unit="GB/s", kernel=kernels.cast_to_fp8,
                grid=(triton.cdiv(n, block),), args=(x, out, n),
                constexprs=dict(BLOCK=block), out=out,
                ref=lambda: x.to(torch.float8_e4m3fn),
                torch=lambda: x.to(torch.float8_e4m3fn),
                work=n * 5 / 1e9, tol=(0, 0))


def bench_cast_from_fp8(n=1 << 28):
    x = (torch.randn(n, device=DEVICE) * 64).to(torch.float8_e4m3fn)
    out = torch.empty(n, device=DEVICE, dtype=torch.float16)
    block = 1024
    return dict(unit="GB/s", kernel=kernels.cast_from_fp8,
                grid=(triton.cdiv(n, block),), args=(x, out, n),
                constexprs=dict(BLOCK=block), out=out,
                ref=lambda: x.to(torch.float16),
                torch=lambda: x.to(torch.float16),
                work=n * 3 / 1e9, tol=(0, 0))


def bench_matmul_mxfp8(m=4096, n=4096, k=4096):
    """tl.dot_scaled e4m3 x e4m3 with e8m0 scales per 32 of K; torch
    dequantizes and multiplies in f32 (the reference and the baseline)."""
    fp8 = torch.float8_e4m3fn
    a = torch.randn(m, k, device=DEVICE).to(fp8)
    b = torch.randn(k, n, device=DEVICE).to(fp8)
    sa = torch.randint(122, 132, (m, k // 32), device=DEVICE,
                       dtype=torch.uint8)
    sb = torch.randint(122, 132, (n, k // 32), device=DEVICE,
                       dtype=torch.uint8)
    c = torch.empty(m, n, device=DEVICE, dtype=torch.bfloat16)

    def ref():
        fa = a.float() * torch.exp2(sa.float() - 127).repeat_interleave(32, 1)
        fb = b.float() * torch.exp2(sb.float() - 127).repeat_interleave(
            32, 1).t()
        return (fa @ fb).to(torch.bfloat16)
    tile = dict(BM=128, BN=128, BK=128)
    return dict(unit="TFLOP/s", kernel=kernels.matmul_mxfp8,
                grid=(m // tile["BM"], n // tile["BN"]),
                args=(a, sa, b, sb, c, m, n, k), constexprs=tile, out=c,
                ref=ref, torch=ref, work=2 * m * n * k / 1e12,
                tol=(5e-2, 5e-2), atol_scale="rms", num_warps=8,
                num_stages=3, torch_backend="dequantize + f32 matmul")


def bench_batched_dot(batches=1 << 16, m=16, n=16, k=16):
    a = torch.randn(batches, m, k, device=DEVICE)
    b = torch.randn(batches, k, n, device=DEVICE)
    c = torch.empty(batches, m, n, device=DEVICE)
    bb = 8
    return dict(unit="TFLOP/s", kernel=kernels.batched_dot,
                grid=(batches // bb,), args=(a, b, c),
                constexprs=dict(BB=bb, M=m, N=n, K=k), out=c,
                ref=lambda: torch.bmm(a, b), torch=lambda: torch.bmm(a, b),
                work=2 * batches * m * n * k / 1e12, tol=(1e-4, 1e-4))


def _op_family_rows():
    return [("op join/split complex mul f32 n=2^25", bench_complex_mul),
            ("op gather f32 16384x1024", bench_gather),
            ("op histogram i32 n=2^26 256 bins", bench_histogram),
            ("op fp8 cast f32->e4m3 n=2^28", bench_cast_to_fp8),
            ("op fp8 cast e4m3->f16 n=2^28", bench_cast_from_fp8),
            ("op dot_scaled mxfp8 4096^3", bench_matmul_mxfp8),
            ("op 3-D dot f32 65536x16x16x16", bench_batched_dot)]


def _attention_rows(shapes):
    return [(f"attention fwd bf16 D={d} seq={seq}"
             + (" causal" if causal else ""), bench_attention, seq, d, causal)
            for seq, d in shapes for causal in (False, True)]


def _matmul_rows(sizes):
    names = {torch.bfloat16: "bf16", torch.float16: "fp16"}
    return [(f"matmul {names[dtype]} {m}x{n}x{k}", bench_matmul, m, n, k,
             dtype) for m, n, k, dtype in sizes]


def _fp8_rows(sizes):
    return [(f"matmul fp8e4m3 {m}x{n}x{k}", bench_matmul_fp8, m, n, k)
            for m, n, k in sizes]


def all_benchmarks(quick):
    """[(name, builder, *builder arguments)]: names are known without a GPU
    (--list, --count, --only build nothing)."""
    if quick:
        return ([("vector_add f32 n=2^24", bench_vector_add, 1 << 24),
                 ("softmax f32 1024x4096", bench_softmax, 1024, 4096)]
                + _matmul_rows([(1024, 1024, 512, torch.float16)])
                + _attention_rows([(1024, 64)])
                # Last: --quick is one process, and the one-thread path
                # (fp8 today) is the likeliest to lose the CUDA context.
                + _fp8_rows([(1024, 1024, 512)]))
    bf16, fp16 = torch.bfloat16, torch.float16
    return ([("vector_add f32 n=2^28", bench_vector_add, 1 << 28)]
            + [(f"softmax f32 4096x{c}", bench_softmax, 4096, c)
               for c in (4096, 16384)]
            + [(f"layernorm f32 4096x{c}", bench_layernorm, 4096, c)
               for c in (4096, 16384)]
            + _matmul_rows([(2048, 2048, 2048, bf16),
                            (4096, 4096, 4096, bf16),
                            (4096, 4096, 4096, fp16),
                            (8192, 8192, 8192, bf16),
                            (8192, 8192, 512, bf16),
                            (16384, 16384, 1024, bf16)])
            + _fp8_rows([(4096, 4096, 4096), (8192, 8192, 8192)])
            + _attention_rows([(1024, 64), (4096, 128), (8192, 64),
                               (8192, 128)])
            + _op_family_rows())


# --------------------------------------------------------------------------
# One row: Triton, torch, tpx; each part's failure is recorded, not raised.
# --------------------------------------------------------------------------
def _error_text(exc):
    text = f"{type(exc).__name__}: {exc}"
    return text if len(text) < 3000 else text[:3000] + " ..."


def _triton_resources(compiled):
    """Registers, spill bytes and shared bytes of a Triton CompiledKernel
    (n_regs/n_spills are filled when its handles are loaded)."""
    try:
        compiled._init_handles()
    except Exception:
        pass
    metadata = getattr(compiled, "metadata", None)
    shared = getattr(metadata, "shared", None)
    if shared is None and isinstance(metadata, dict):
        shared = metadata.get("shared")
    return {"regs": getattr(compiled, "n_regs", None),
            "spills": getattr(compiled, "n_spills", None), "shared": shared}


def _triton_launch(spec):
    return dict(spec["constexprs"], num_warps=spec["num_warps"],
                num_stages=spec["num_stages"])


def compile_triton(spec, row, times):
    """Stock Triton's first launch, cold (its cache is a fresh directory);
    returns the CompiledKernel, whose TTIR tpx compiles."""
    os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="triton-")
    start = time.perf_counter()
    compiled = spec["kernel"][spec["grid"]](*spec["args"],
                                            **_triton_launch(spec))
    torch.cuda.synchronize()
    times["triton_cold_s"] = time.perf_counter() - start
    row["resources"]["triton"] = _triton_resources(compiled)
    return compiled


def _check_output(spec, row, who, ref):
    """Checks spec["out"] (just written by `who`) against the reference."""
    if ref is None:
        raise RuntimeError("no reference output to check against")
    ok, error = check_close(spec["out"], ref, spec["tol"],
                            spec.get("atol_scale"))
    row[f"{who}_correct"], row["max_error"][who] = ok, error


def check_and_time_triton(spec, row, ref):
    _check_output(spec, row, "triton", ref)
    kernel, grid, launch = spec["kernel"], spec["grid"], _triton_launch(spec)
    row["ms"]["triton"] = time_ms(lambda: kernel[grid](*spec["args"],
                                                       **launch))


def run_torch(spec, row):
    row["torch_backend"] = spec.get("torch_backend", "torch")
    row["ms"]["torch"] = time_ms(spec["torch"])


def _kernel_arg_names(kernel):
    names = getattr(kernel, "arg_names", None)
    if names:
        return list(names)
    return list(inspect.signature(kernel.fn).parameters)


def _driver_resources(kernel, res):
    """What the driver says of the loaded kernel: the registers where the
    artifact does not know them (-1: a cubin from an override directory),
    and the local memory per thread (spills plus stack)."""
    CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, CU_FUNC_ATTRIBUTE_NUM_REGS = 3, 4
    if res.get("regs") in (None, -1):
        res["regs"] = kernel.attribute(CU_FUNC_ATTRIBUTE_NUM_REGS)
    res["local_bytes"] = kernel.attribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)


def run_tpx(spec, row, times, ttir, tpx_bin, ref):
    warps, stages = spec["num_warps"], spec["num_stages"]
    work = tempfile.mkdtemp(prefix="tpx-bench-")
    src = os.path.join(work, "kernel.ttir")
    with open(src, "w") as f:
        f.write(ttir)
    # Cold (fresh cache), then cached.
    cache = tempfile.mkdtemp(prefix="tpx-cache-")
    cubin = os.path.join(work, "kernel.cubin")
    metadata, times["tpx_cold_s"] = tpx_compile(
        tpx_bin, src, cubin, warps, stages, cache)
    _, times["tpx_cached_s"] = tpx_compile(
        tpx_bin, src, os.path.join(work, "cached.cubin"), warps, stages,
        cache)
    row["resources"]["tpx"] = {"regs": metadata.get("num_regs"),
                               "spills": metadata.get("num_spills"),
                               "shared": metadata.get("shared_memory")}
    codegen = tpx_codegen(tpx_bin, src, warps, stages, metadata)
    row["path"] = ONE_THREAD if codegen == "scalar" else SIMT
    kernel = TpxKernel(cubin, metadata, _kernel_arg_names(spec["kernel"]))
    _driver_resources(kernel, row["resources"]["tpx"])

    launch = kernel.bind(spec["grid"], *spec["args"])
    spec["out"].zero_()
    if row["path"] == ONE_THREAD:
        # ~1000x slower than SIMT code: one launch, timed, is the check too.
        row["ms"]["tpx"] = _event_ms(launch)
        row["note"] = "one-thread path: timed over a single launch"
    else:
        launch()
        torch.cuda.synchronize()
    _check_output(spec, row, "tpx", ref)
    if row["path"] != ONE_THREAD:
        row["ms"]["tpx"] = time_ms(launch, warm=False)


def _attempt(row, part, fn, *args):
    """Runs one part of a row; an exception is recorded under
    row["errors"][part] and the row goes on with the next part."""
    try:
        return fn(*args)
    except Exception as exc:  # every failure is a reported result
        row["errors"][part] = _error_text(exc)
        traceback.print_exc()
        return None


def _rates(spec, row):
    ms = row["ms"]
    for who in ("tpx", "triton", "torch"):
        row[who] = spec["work"] / (ms[who] / 1e3) if ms.get(who) else None
    for other in ("triton", "torch"):
        row[f"tpx_over_{other}"] = (ms[other] / ms["tpx"]
                                    if ms.get("tpx") and ms.get(other)
                                    else None)


def new_row(index, name, unit=None):
    """A row as written before anything runs: a process that dies on this
    benchmark (a timeout, a lost CUDA context) leaves it 'did not finish'."""
    return {"index": index, "name": name, "unit": unit,
            "status": "did not finish", "path": None,
            "tpx": None, "triton": None, "torch": None,
            "tpx_over_triton": None, "tpx_over_torch": None,
            "tpx_correct": False, "triton_correct": False,
            "max_error": {}, "ms": {}, "resources": {"tpx": {}, "triton": {}},
            "torch_backend": None, "errors": {}}


def _run_parts(spec, row, times, tpx_bin, save):
    """Triton, torch and tpx on one spec; the report is saved after each
    part, so that a process that dies in the next keeps what finished."""
    spec.setdefault("num_warps", 4)
    spec.setdefault("num_stages", 3)
    row["unit"] = spec["unit"]
    # The reference once, kept: a failing one (the flash backend
    # unavailable, say) fails the checks, not the other parts.
    ref = _attempt(row, "reference", spec["ref"])
    compiled = _attempt(row, "triton compile", compile_triton, spec, row,
                        times)
    if compiled is not None:
        _attempt(row, "triton", check_and_time_triton, spec, row, ref)
    _attempt(row, "torch", run_torch, spec, row)
    _rates(spec, row)
    save(row, times)
    if compiled is not None:
        _attempt(row, "tpx", run_tpx, spec, row, times,
                 compiled.asm["ttir"], tpx_bin, ref)
        _rates(spec, row)
        save(row, times)
    if spec.get("profile_torch"):
        # Last: the profiler's CUPTI hooks must not slow the timed launches.
        row["torch_kernels"] = torch_kernel_names(spec["torch"])


def run_benchmark(index, entry, tpx_bin, save):
    name, builder, *params = entry
    row, times = new_row(index, name), {"index": index, "name": name}
    save(row, times)
    spec = _attempt(row, "setup", builder, *params)
    if spec is not None:
        _run_parts(spec, row, times, tpx_bin, save)
    # A wrong Triton result or a missing baseline voids the comparison too.
    passed = row["tpx_correct"] and row["triton_correct"]
    row["status"] = "ok" if passed and not row["errors"] else "failed"
    save(row, times)
    return row, times


# --------------------------------------------------------------------------
# Output.
# --------------------------------------------------------------------------
def _fmt(value, spec):
    return format(value, spec) if value is not None else "-"


def _fmt_resources(res):
    if not res or res.get("regs") is None:
        return "-"
    return f"{res['regs']}r/{res.get('spills')}s/{res.get('shared')}B"


def print_row(row, times):
    path = " [one-thread path]" if row["path"] == ONE_THREAD else ""
    print(f"{row['name']:40s} {row['unit'] or '':8s} "
          f"tpx {_fmt(row['tpx'], '9.2f')} "
          f"triton {_fmt(row['triton'], '9.2f')} "
          f"torch {_fmt(row['torch'], '9.2f')}  "
          f"tpx/triton {_fmt(row['tpx_over_triton'], '.4f')}  "
          f"ok tpx={row['tpx_correct']} triton={row['triton_correct']}  "
          f"res tpx {_fmt_resources(row['resources']['tpx'])} "
          f"triton {_fmt_resources(row['resources']['triton'])}  compile tpx "
          f"{_fmt(times.get('tpx_cold_s'), '.2f')}s/"
          f"{_fmt(times.get('tpx_cached_s'), '.3f')}s triton "
          f"{_fmt(times.get('triton_cold_s'), '.2f')}s  {row['status']}{path}",
          flush=True)
    for part, error in row["errors"].items():
        print(f"  {part} error: {error.splitlines()[0][:300]}", flush=True)


@functools.lru_cache(maxsize=None)
def _machine():
    # Asked once, at the first save: after a kernel fault the context is
    # gone and the report must still be written.
    return torch.cuda.get_device_name(0)


def write_report(path, results, compile_times):
    report = {"date": datetime.date.today().isoformat(),
              "machine": _machine(),
              "torch": torch.__version__, "triton": triton.__version__,
              "results": results, "compile_times": compile_times}
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(report, f, indent=1)
    os.replace(tmp, path)


def _parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tpx-bin")
    parser.add_argument("--out", default=None)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", default=None,
                        help="run the benchmarks whose name contains this "
                        "(or one of several texts separated by '|')")
    parser.add_argument("--index", type=int, default=None,
                        help="run only benchmark number INDEX (0-based)")
    parser.add_argument("--count", action="store_true",
                        help="print the number of benchmarks and exit")
    parser.add_argument("--list", action="store_true",
                        help="print INDEX<tab>NAME per benchmark and exit")
    opts = parser.parse_args()
    if not (opts.count or opts.list or opts.tpx_bin):
        parser.error("--tpx-bin is required")
    return opts


def _selected(opts):
    for index, entry in enumerate(all_benchmarks(opts.quick)):
        if opts.index is not None and index != opts.index:
            continue
        if opts.only and not any(text in entry[0]
                                 for text in opts.only.split("|")):
            continue
        yield index, entry


def main():
    opts = _parse_args()
    if opts.count:
        print(len(all_benchmarks(opts.quick)))
        return
    if opts.list:
        for index, entry in _selected(opts):
            print(f"{index}\t{entry[0]}")
        return
    torch.manual_seed(0)
    raise_device_heap()
    out = opts.out or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "results",
        f"{datetime.date.today().isoformat()}-h200.json")
    results, compile_times = [], []

    def save(row, times):
        # The report is rewritten after every step of a row, so that what
        # finished survives a process that dies on the next one.
        if not results or results[-1] is not row:
            results.append(row)
            compile_times.append(times)
        write_report(out, results, compile_times)
    for index, entry in _selected(opts):
        row, times = run_benchmark(index, entry, opts.tpx_bin, save)
        print_row(row, times)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
