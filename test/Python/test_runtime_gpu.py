"""The runtime on an NVIDIA GPU: @jit launches with torch CUDA tensors,
streams, autotuning, benchmarking, and the launch overhead (measured and
printed next to stock Triton's when Triton is installed). Skipped without a
GPU."""

import time

import numpy as np
import pytest

import tpx
import tpx.language as tl
from tpx.errors import LaunchError
from tpx.runtime import cuda

try:
    import torch
    HAVE_GPU = torch.cuda.is_available() and cuda.probe()[0]
except Exception:
    torch = None
    HAVE_GPU = False

pytestmark = pytest.mark.skipif(not HAVE_GPU, reason="needs an NVIDIA GPU "
                                "and torch with CUDA")


@pytest.fixture(autouse=True)
def cuda_driver():
    from tpx import _capi
    from tpx.runtime.driver import CUDADriver, driver
    saved = driver._active
    driver.set_active(CUDADriver())
    yield
    driver._active = saved
    _capi.bump_state_generation()


@tpx.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


@tpx.jit
def axpy_kernel(x_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets,
             tl.load(x_ptr + offsets, mask=mask) * alpha, mask=mask)


def _grid(meta):
    return (tpx.cdiv(meta["n"], meta["BLOCK"]),)


def test_driver_on_the_gpu():
    from tpx.runtime.driver import driver
    d = driver.active
    assert d.backend == "cuda"
    assert d.get_current_device() == torch.cuda.current_device()
    assert d.get_active_torch_device() == torch.device(
        "cuda", torch.cuda.current_device())
    target = d.get_current_target()
    major, minor = torch.cuda.get_device_capability()
    assert target.arch == major * 10 + minor
    props = d.utils.get_device_properties(d.get_current_device())
    assert props["multiprocessor_count"] == \
        torch.cuda.get_device_properties(0).multi_processor_count
    assert d.get_current_stream() == torch.cuda.current_stream().cuda_stream
    print("\n  target", target, d.compile_target(), props)


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_jit_add(dtype):
    dtype = getattr(torch, dtype)
    n = 98432
    x = torch.rand(n, device="cuda").to(dtype)
    y = torch.rand(n, device="cuda").to(dtype)
    out = torch.empty_like(x)
    k = add_kernel[_grid](x, y, out, n, BLOCK=1024)
    torch.cuda.synchronize()
    assert torch.equal(out, x + y)
    assert k.metadata.target.startswith("sm_") and k.function
    assert k.n_regs > 0


def test_jit_scalars_and_specialization():
    n = 5000
    x = torch.rand(n, device="cuda")
    out = torch.empty_like(x)
    axpy_kernel[_grid](x, out, n, 2.5, BLOCK=256)
    torch.cuda.synchronize()
    torch.testing.assert_close(out, x * 2.5)
    axpy_kernel[_grid](x, out, n, 1, BLOCK=256)     # alpha folded to 1
    torch.cuda.synchronize()
    torch.testing.assert_close(out, x)
    # an offset view: not 16-byte aligned, another specialization
    axpy_kernel[_grid](x[1:], out[1:], n - 1, 3.0, BLOCK=256)
    torch.cuda.synchronize()
    torch.testing.assert_close(out[1:], x[1:] * 3)


def test_jit_argument_device_errors():
    x = torch.rand(64, device="cuda")
    with pytest.raises(LaunchError, match="argument 'y_ptr' of kernel "
                       "'add_kernel' is a torch tensor on cpu, but the "
                       "kernel runs on cuda:0"):
        add_kernel[(1,)](x, torch.rand(64), x, 64, BLOCK=64)
    with pytest.raises(LaunchError, match="argument 'out_ptr' of kernel "
                       "'add_kernel' is host memory"):
        add_kernel[(1,)](x, x, np.zeros(64, np.float32), 64, BLOCK=64)


def test_jit_runs_on_the_current_stream():
    n = 1 << 20
    x = torch.rand(n, device="cuda")
    out = torch.zeros_like(x)
    stream = torch.cuda.Stream()
    torch.cuda.synchronize()
    with torch.cuda.stream(stream):
        add_kernel[_grid](x, x, out, n, BLOCK=1024)
    stream.synchronize()
    assert torch.equal(out, 2 * x)


def test_autotune_on_the_gpu():
    @tpx.autotune(configs=[tpx.Config({"BLOCK": 256}, num_warps=2),
                           tpx.Config({"BLOCK": 1024}, num_warps=4),
                           tpx.Config({"BLOCK": 4096}, num_warps=8)],
                  key=["n"])
    @tpx.jit
    def copy(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out_ptr + o, tl.load(x_ptr + o, mask=o < n), mask=o < n)
    n = 1 << 22
    x = torch.rand(n, device="cuda")
    out = torch.empty_like(x)
    copy[_grid](x, out, n)
    torch.cuda.synchronize()
    assert torch.equal(out, x)
    print("\n  autotune: best %s after %.2fs; timings %s" % (
        copy.best_config, copy.bench_time,
        {str(c.kwargs): round(t[0], 4) for c, t in
         copy.configs_timings.items()}))


def test_do_bench_and_cudagraph_on_the_gpu():
    n = 1 << 24
    x = torch.rand(n, device="cuda")
    out = torch.empty_like(x)
    ms = tpx.testing.do_bench(lambda: add_kernel[_grid](x, x, out, n,
                                                        BLOCK=1024))
    ms_graph = tpx.testing.do_bench_cudagraph(
        lambda: add_kernel[_grid](x, x, out, n, BLOCK=1024))
    torch_ms = tpx.testing.do_bench(lambda: torch.add(x, x, out=out))
    gbps = 3 * 4 * n / ms * 1e-6
    print("\n  vadd 2^24 f32: tpx %.4f ms (%.0f GB/s), in a CUDA graph %.4f "
          "ms, torch %.4f ms" % (ms, gbps, ms_graph, torch_ms))
    assert 0 < ms < 100 and 0 < ms_graph < 100
    tpx.testing.assert_close(out, 2 * x)


def _per_launch(fn, n=5000):
    fn()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(n):
        fn()
    issued = time.perf_counter()
    torch.cuda.synchronize()
    done = time.perf_counter()
    return (issued - start) / n * 1e6, (done - start) / n * 1e6


def test_launch_overhead():
    """Python launch cost of a cached kernel, next to stock Triton's."""
    x = torch.rand(1024, device="cuda")
    out = torch.empty_like(x)
    lines = []
    for label, grid in (("tuple grid", (1,)), ("callable grid", _grid)):
        issue, total = _per_launch(
            lambda: add_kernel[grid](x, x, out, 1024, BLOCK=1024))
        lines.append("tpx %s: %.2f us issued, %.2f us with the GPU" %
                     (label, issue, total))
    state = add_kernel._state
    binder = state.binder
    n = 20000
    start = time.perf_counter()
    for _ in range(n):
        binder(x, x, out, 1024, BLOCK=1024)
    lines.append("  of which key computation: %.2f us" %
                 ((time.perf_counter() - start) / n * 1e6))
    _, key, values, _, _ = binder(x, x, out, 1024, BLOCK=1024)
    kernel, launch = state.fast[(0, ())][key]
    stream = torch.cuda.current_stream().cuda_stream
    issue, _ = _per_launch(lambda: launch(1, 1, 1, values, stream, 0))
    lines.append("  of which the launcher (slots + cuLaunchKernel): %.2f us"
                 % issue)
    issue, _ = _per_launch(lambda: torch.add(x, x, out=out))
    lines.append("torch.add (for scale): %.2f us" % issue)
    try:
        import triton
        import triton.language as ttl

        @triton.jit
        def triton_add(x_ptr, y_ptr, out_ptr, n, BLOCK: ttl.constexpr):
            offsets = ttl.program_id(0) * BLOCK + ttl.arange(0, BLOCK)
            mask = offsets < n
            ttl.store(out_ptr + offsets, ttl.load(x_ptr + offsets, mask=mask)
                      + ttl.load(y_ptr + offsets, mask=mask), mask=mask)
        issue, total = _per_launch(
            lambda: triton_add[(1,)](x, x, out, 1024, BLOCK=1024))
        lines.append("stock Triton %s, tuple grid: %.2f us issued, %.2f us "
                     "with the GPU" % (triton.__version__, issue, total))
    except ImportError:
        lines.append("stock Triton not installed")
    print("\n  " + "\n  ".join(lines))


def test_launch_from_a_fresh_thread():
    """A new thread has no current CUDA context until something sets one:
    the fast path's launch fails there and is redone after making the
    device's primary context current."""
    import threading
    n = 4096
    x = torch.rand(n, device="cuda")
    out = torch.zeros_like(x)
    add_kernel[_grid](x, x, out, n, BLOCK=1024)       # loaded, cached
    torch.cuda.synchronize()
    out.zero_()
    torch.cuda.synchronize()
    errors = []

    def work():
        try:
            add_kernel[_grid](x, x, out, n, BLOCK=1024)
            cuda.synchronize()
        except Exception as e:
            errors.append(e)
    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert errors == []
    torch.cuda.synchronize()
    assert torch.equal(out, 2 * x)


def test_concurrent_launches_on_the_gpu():
    import concurrent.futures
    n = 1 << 16
    x = torch.rand(n, device="cuda")
    outs = [torch.zeros_like(x) for _ in range(16)]
    add_kernel[_grid](x, x, outs[0], n, BLOCK=1024)
    torch.cuda.synchronize()

    def one(out):
        for _ in range(50):
            add_kernel[_grid](x, x, out, n, BLOCK=1024)
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        list(pool.map(one, outs))
    torch.cuda.synchronize()
    assert all(torch.equal(o, 2 * x) for o in outs)
