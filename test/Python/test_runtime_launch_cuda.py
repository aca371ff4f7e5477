"""tpx.runtime.launch_cuda: the libcuda launcher.

The helpers are tested everywhere; the launches need an NVIDIA GPU, torch
with CUDA and ptxas (they are skipped otherwise, and run on the H200 by
bench/run-on-h200.sh-style device runs).
"""

import os
import struct
import subprocess
import sys

import numpy as np
import pytest

import runtime_corpus
from tpx.errors import LaunchError
from tpx.runtime import cuda
from tpx.runtime.arguments import float_value as _checked_float
from tpx.runtime.launch_cuda import (_bf16_bits, _checked_int,
                                     _f16_bits, device_pointer)

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "python"))

try:
    import torch
    HAVE_CUDA_TORCH = torch.cuda.is_available() and cuda.probe()[0]
except Exception:
    torch = None
    HAVE_CUDA_TORCH = False

gpu = pytest.mark.skipif(not HAVE_CUDA_TORCH,
                         reason="needs an NVIDIA GPU and torch with CUDA")


# -- helpers (no GPU needed) ------------------------------------------------

def test_cluster_launches_pass_the_cluster_and_check_the_grid():
    """A kernel compiled for thread-block clusters launches through
    cuLaunchKernelEx with the cluster-dimension attribute (checked here
    against a stand-in for the driver call: CUlaunchConfig's fields)."""
    import ctypes
    from tpx.runtime.launch_cuda import _ClusterLaunch, _CUlaunchConfig

    seen = []

    class FakeLaunch:
        def __call__(self, config, function, params, extra):
            c = ctypes.cast(config, ctypes.POINTER(_CUlaunchConfig)).contents
            attr = c.attrs[0]
            seen.append(((c.gridDimX, c.gridDimY, c.gridDimZ),
                         (c.blockDimX, c.blockDimY, c.blockDimZ),
                         c.sharedMemBytes, c.hStream, c.numAttrs, attr.id,
                         tuple(attr.value[0:3]), function, extra))
            return 0

    class FakeAPI:
        def function(self, name):
            assert name == "cuLaunchKernelEx"
            return FakeLaunch()

    launch = _ClusterLaunch(FakeAPI(), (2, 1, 1), "k")
    stream = ctypes.c_void_p(1234)
    assert launch("f", 132, 1, 1, 288, 1, 1, 200000, stream, None,
                  None) == 0
    # CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4
    assert seen == [((132, 1, 1), (288, 1, 1), 200000, 1234, 1, 4,
                     (2, 1, 1), "f", None)]
    with pytest.raises(LaunchError, match=r"grid \(133, 1, 1\) is not a "
                       r"whole number of clusters of \(2, 1, 1\) CTAs"):
        launch("f", 133, 1, 1, 288, 1, 1, 0, stream, None, None)


def test_half_and_bfloat16_bits():
    assert _f16_bits(1.0) == 0x3C00
    assert _f16_bits(-2.0) == 0xC000
    assert _bf16_bits(1.0) == 0x3F80
    assert _bf16_bits(-2.0) == 0xC000
    # round to nearest even: 1 + 2^-8 is halfway between two bf16 values
    assert _bf16_bits(1.0 + 2 ** -8) == 0x3F80
    assert _bf16_bits(1.0 + 3 * 2 ** -8) == 0x3F82
    assert _bf16_bits(float("inf")) == 0x7F80
    assert _bf16_bits(float("nan")) & 0x7FC0 == 0x7FC0
    assert struct.pack("<H", _f16_bits(65504.0)) == b"\xff\x7b"


def test_checked_scalars():
    where = "argument 3 'n' of kernel 'k'"
    assert _checked_int(5, where, "i32") == 5
    assert _checked_int(True, where, "i1") == 1
    assert _checked_int(np.int64(7), where, "i64") == 7
    assert _checked_int(2 ** 32 - 1, where, "i32") == 2 ** 32 - 1
    with pytest.raises(LaunchError, match="is i32 but 4294967296 does not "
                       "fit"):
        _checked_int(2 ** 32, where, "i32")
    with pytest.raises(LaunchError, match="is i8 but -129 does not fit"):
        _checked_int(-129, where, "i8")
    with pytest.raises(LaunchError, match="is i1 but 2 does not fit"):
        _checked_int(2, where, "i1")
    with pytest.raises(LaunchError, match=r"is i32 but a floating-point value \(1.5\) was given"):
        _checked_int(1.5, where, "i32")
    assert _checked_float(2, where, "f32") == 2.0
    assert _checked_float(np.float16(0.5), where, "f16") == 0.5
    with pytest.raises(LaunchError, match="is f32 but a str was given"):
        _checked_float("x", where, "f32")


def test_host_memory_is_rejected_by_name():
    where = "argument 0 'x' of kernel 'k'"
    with pytest.raises(LaunchError, match="argument 0 'x' of kernel 'k' is "
                       "host memory \\(a numpy array\\), but the kernel runs "
                       "on cuda:0"):
        device_pointer(np.zeros(4), where, 0)
    with pytest.raises(LaunchError, match="None was given"):
        device_pointer(None, where, 0)
    with pytest.raises(LaunchError, match="an int is not device memory"):
        device_pointer(5, where, 0)


def test_cpu_torch_tensor_is_rejected_by_name():
    torch = pytest.importorskip("torch")
    with pytest.raises(LaunchError, match="argument 1 'y' of kernel 'k' is a "
                       "torch tensor on cpu, but the kernel runs on cuda:0"):
        device_pointer(torch.zeros(4), "argument 1 'y' of kernel 'k'", 0)


# -- launches on a GPU ------------------------------------------------------

def _cuda_args(case):
    out = []
    for a in case.args():
        out.append(torch.from_numpy(a).cuda() if isinstance(a, np.ndarray)
                   else a)
    return out


@gpu
@pytest.mark.parametrize("name", runtime_corpus.names())
def test_corpus_case_on_the_gpu(name):
    from tpx.compiler.compiler import compile_ttir
    from tpx.runtime.driver import driver
    case = runtime_corpus.load(name)
    k = compile_ttir(case.ttir, driver.active.compile_target(),
                     num_warps=case.num_warps, num_stages=case.num_stages)
    args = _cuda_args(case)
    k[case.grid](*args)
    torch.cuda.synchronize()
    case.check([a.cpu().numpy() if hasattr(a, "cpu") else a for a in args])
    assert k.function is not None and k.n_regs > 0


@gpu
def test_gpu_launch_errors_name_the_argument():
    from tpx.compiler.compiler import compile_ttir
    case = runtime_corpus.load("vadd_f32")
    k = compile_ttir(case.ttir, "sm_90a")
    x, y, z, n = _cuda_args(case)
    with pytest.raises(LaunchError, match="argument 1 'y_ptr' of kernel "
                       "'vadd' is a torch tensor on cpu"):
        k[case.grid](x, y.cpu(), z, n)
    with pytest.raises(LaunchError, match="argument 2 'z_ptr' of kernel "
                       "'vadd' is host memory"):
        k[case.grid](x, y, np.zeros(4, np.float32), n)
    with pytest.raises(LaunchError, match="takes 4 arguments"):
        k[case.grid](x, y, z)


@gpu
def test_gpu_launch_on_a_given_stream_and_cuda_array_interface():
    from tpx.compiler.compiler import compile_ttir
    case = runtime_corpus.load("vadd_f32")
    k = compile_ttir(case.ttir, "sm_90a")
    x, y, z, n = _cuda_args(case)

    class Wrapped:
        def __init__(self, t):
            self.t = t
            self.__cuda_array_interface__ = t.__cuda_array_interface__
    stream = torch.cuda.Stream()
    z.zero_()
    torch.cuda.synchronize()
    k.run(case.grid, Wrapped(x), y, z, n, stream=stream.cuda_stream)
    stream.synchronize()
    assert torch.equal(z, x + y)


@gpu
def test_gpu_without_torch_uses_the_driver_alone():
    """A fresh process that cannot import torch: the CUDA driver makes the
    primary context current itself and launches on stream 0."""
    cupy = pytest.importorskip("cupy")
    del cupy
    code = r"""
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            raise ImportError("blocked")
sys.meta_path.insert(0, Block())
import cupy, numpy as np
from tpx.runtime import driver
from tpx.compiler.compiler import compile_ttir
assert driver.active.backend == "cuda", driver.active
src = open(sys.argv[1]).read()
k = compile_ttir(src, driver.active.compile_target())
x = cupy.arange(10007, dtype=cupy.float32)
y = cupy.ones(10007, dtype=cupy.float32)
z = cupy.zeros(10007, dtype=cupy.float32)
k[(10,)](x, y, z, 10007)
cupy.cuda.Device().synchronize()
assert bool((z == x + y).all())
print("ok", driver.active.get_active_torch_device())
"""
    path = os.path.join(runtime_corpus.load("vadd_f32").dir, "kernel.ttir")
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
    result = subprocess.run([sys.executable, "-c", code, path], env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok cuda:0"


@gpu
def test_gpu_tensor_map_kernels_launch_on_the_fast_path():
    """A kernel that takes TMA tensor maps launches through the JIT's fast
    path, which encodes the maps only when the tensors change: launches
    alternating between two buffers each write their own."""
    import tpx
    import tpx.language as tl
    from tpx.tools.tensor_descriptor import TensorDescriptor

    @tpx.jit
    def desc_bump(src, dst, BLOCK: tl.constexpr):
        pid = tl.program_id(0)
        dst.store([pid * BLOCK], src.load([pid * BLOCK]) + 1)

    xs = [torch.arange(256, device="cuda", dtype=torch.float32) * (i + 1)
          for i in range(2)]
    ys = [torch.zeros_like(x) for x in xs]
    pairs = [(TensorDescriptor.from_tensor(x, [64]),
              TensorDescriptor.from_tensor(y, [64])) for x, y in zip(xs, ys)]
    desc_bump[(4,)](*pairs[0], BLOCK=64)           # compiles
    torch.cuda.synchronize()
    for step in range(6):
        i = step % 2
        desc_bump[(4,)](*pairs[i], BLOCK=64)
        # The first launch of a descriptor pair and a relaunch on it.
        desc_bump[(4,)](TensorDescriptor.from_tensor(ys[i], [64]),
                        TensorDescriptor.from_tensor(ys[i], [64]), BLOCK=64)
    torch.cuda.synchronize()
    for x, y in zip(xs, ys):
        assert torch.equal(y, x + 2)
