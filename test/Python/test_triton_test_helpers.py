"""Names Triton programs and Triton's own tests use beyond the kernel
language: `triton.constexpr_function`, `tl.target_info`, `tl.str_to_ty`,
`triton.reinterpret` / `TensorWrapper`, and `triton._internal_testing`'s
data helpers (dtype lists, numpy_random, to_triton, to_numpy)."""

import numpy as np
import pytest

import tpx as triton
import tpx.language as tl
from tpx import _internal_testing as it

import frontend_harness as h

pytestmark = h.cpu_only("runs kernels on the CPU target")


@triton.constexpr_function
def doubled(n):
    return 2 * n


@triton.jit
def constexpr_function_kernel(out_ptr, BLOCK: tl.constexpr):
    WIDE: tl.constexpr = doubled(BLOCK)
    offs = tl.arange(0, WIDE)
    tl.store(out_ptr + offs, offs)


def test_constexpr_functions_run_at_compile_time():
    assert doubled(3) == 6      # on the host, the plain function
    out = np.zeros(16, np.int32)
    constexpr_function_kernel[(1,)](out, BLOCK=8)
    np.testing.assert_array_equal(out, np.arange(16))


@triton.jit
def target_kernel(out_ptr):
    if tl.target_info.is_cuda():
        tl.store(out_ptr, 1)
    elif tl.target_info.is_hip():
        tl.store(out_ptr, 2)
    else:
        tl.store(out_ptr, 3)
    tl.static_assert(not tl.target_info.cuda_capability_geq(9, 0))


def test_target_info_names_the_compile_target():
    out = np.zeros(1, np.int32)
    target_kernel[(1,)](out)
    assert out[0] == 3


def test_str_to_ty():
    assert tl.str_to_ty("fp16", None) == tl.float16
    assert tl.str_to_ty("*i32") == tl.pointer_type(tl.int32)
    assert it.str_to_triton_dtype("bfloat16") == tl.bfloat16
    assert it.str_to_triton_dtype("u8") == tl.uint8


@triton.jit
def halve_kernel(x_ptr, y_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs) // 2)


def test_reinterpret_makes_signed_storage_unsigned():
    raw = np.array([-56, 100, -1, 7], np.int8)       # 200, 100, 255, 7
    x = triton.reinterpret(raw, tl.uint8)
    assert isinstance(x, triton.TensorWrapper) and x.dtype == tl.uint8
    y = np.zeros_like(raw)
    halve_kernel[(1,)](x, triton.reinterpret(y, tl.uint8), N=4)
    np.testing.assert_array_equal(y.view(np.uint8), [100, 50, 127, 3])
    # Signed, the same bytes halve differently.
    halve_kernel[(1,)](raw, y, N=4)
    np.testing.assert_array_equal(y, [-28, 50, 0, 3])
    assert triton.reinterpret(x, tl.uint16).dtype == tl.uint16
    with pytest.raises(TypeError):
        triton.reinterpret(3, tl.uint8)


@triton.jit
def add_one_kernel(x_ptr, y_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs) + 1)


@pytest.mark.parametrize("dtype_str", ["uint16", "int32", "float32",
                                       "bfloat16"])
def test_to_triton_and_back(dtype_str):
    x = it.numpy_random((8,), dtype_str, low=0, high=1000)
    src = it.to_triton(x, dst_type=dtype_str)
    dst = it.to_triton(np.zeros_like(x), dst_type=dtype_str)
    add_one_kernel[(1,)](src, dst, N=8)
    got = it.to_numpy(dst)
    np.testing.assert_allclose(got, it.to_numpy(src) + 1, rtol=1e-2)
    if dtype_str == "uint16":
        assert isinstance(src, triton.TensorWrapper)
        assert got.dtype == np.uint16


def test_numpy_random_and_the_dtype_lists():
    x = it.numpy_random((4, 5), "int8")
    assert x.shape == (4, 5) and x.dtype == np.int8 and (x != 0).all()
    # The same seed without a RandomState: the same data.
    np.testing.assert_array_equal(x, it.numpy_random((4, 5), "int8"))
    assert it.numpy_random(3, "float16").dtype == np.float16
    assert it.numpy_random(3, "bool").dtype == np.bool_
    bf16 = it.numpy_random(16, "bfloat16")
    assert (bf16.view(np.uint32) & 0xFFFF == 0).all()
    assert it.numpy_random(6, "float8e4nv").dtype == np.int8
    with pytest.raises(RuntimeError, match="Unknown dtype"):
        it.numpy_random(2, "complex64")
    assert "uint64" in it.integral_dtypes and "bfloat16" in \
        it.dtypes_with_bfloat16
    assert "float64" not in it.tma_dtypes
    assert it.get_arch() == str(it.get_current_target().arch)
    assert not it.is_hip_mi300() and not it.is_xpu()
    assert it.torch_dtype_name(tl.int64) == "int64"


@triton.jit
def halving_kernel(x_ptr, out_ptr):
    n = tl.load(x_ptr)
    steps = 0
    while tl.condition(n > 1, disable_licm=True):
        n = n // 2
        steps += 1
    tl.store(out_ptr, steps)


def test_condition_is_a_while_loops_condition():
    out = np.zeros(1, np.int32)
    halving_kernel[(1,)](np.array([1000], np.int32), out)
    assert out[0] == 9


def test_a_host_wrapper_is_not_device_memory():
    # What the GPU launchers read of a wrapper (device_pointer): host data
    # is a LaunchError naming it, not a host address handed to the GPU.
    from tpx.runtime.launch_gpu import device_pointer
    wrapped = triton.reinterpret(np.zeros(4, np.int8), tl.uint8)
    with pytest.raises(triton.LaunchError, match="TensorWrapper of host "
                       "memory"):
        device_pointer(wrapped, "argument 0 'x' of kernel 'k'", 0)
