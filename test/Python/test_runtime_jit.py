"""tpx.runtime.jit: binding, specialization, caching and launching (CPU)."""

import concurrent.futures
import time

import numpy as np
import pytest

import tpx
import tpx as triton
import tpx.language as tl
from tpx import _capi
from tpx.compiler.compiler import CompiledKernel
from tpx.compiler.spec import ArgSpec
from tpx.errors import CompilationError, LaunchError
from tpx.runtime.jit import JITFunction
from tpx.runtime.driver import CPUDriver, driver


@pytest.fixture(autouse=True)
def cpu_driver():
    """Every test here runs on the CPU driver, whatever the machine has."""
    saved = driver._active
    driver.set_active(CPUDriver())
    yield
    driver._active = saved
    _capi.bump_state_generation()


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, factor, BLOCK: tl.constexpr = 128):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) * factor,
             mask=mask)


@triton.jit(do_not_specialize=["n"], do_not_specialize_on_alignment=["m"])
def dns_kernel(x_ptr, n, m, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    tl.store(x_ptr + offsets, tl.load(x_ptr + offsets) + n + m)


@triton.jit
def fill_kernel(out_ptr, value, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.zeros((BLOCK,), tl.float32) + value,
             mask=offsets < n)


def _arrays(n=1000, dtype=np.float32):
    rng = np.random.default_rng(0)
    return (rng.random(n).astype(dtype), rng.random(n).astype(dtype),
            np.zeros(n, dtype))


def _specs(kernel, *args, **kwargs):
    _, key = kernel.specialization_key(*args, **kwargs)
    return kernel._specs(key)


def test_launch_and_result():
    x, y, out = _arrays()
    k = add_kernel[(triton.cdiv(len(x), 256),)](x, y, out, len(x),
                                                  BLOCK=256)
    assert isinstance(k, CompiledKernel)
    np.testing.assert_array_equal(out, x + y)


def test_second_launch_hits_the_cache(monkeypatch):
    x, y, out = _arrays()
    add_kernel[(4,)](x, y, out, len(x), BLOCK=256)
    calls = []
    original = JITFunction._compile

    def counting(self, *a, **k):
        calls.append(a)
        return original(self, *a, **k)
    monkeypatch.setattr(JITFunction, "_compile", counting)
    out[:] = 0
    k1 = add_kernel[(4,)](x, y, out, len(x), BLOCK=256)
    k2 = add_kernel[(4,)](x, y, out, len(x), BLOCK=256)
    assert calls == [] and k1 is k2
    np.testing.assert_array_equal(out, x + y)
    # another constexpr value is another kernel
    add_kernel[(8,)](x, y, out, len(x), BLOCK=128)
    assert len(calls) == 1


def test_target_pipeline_from_the_environment(monkeypatch):
    # TPX_TARGET_PIPELINE names the pipeline kernels compile on (read when
    # a kernel compiles); a name the target lacks is a compile error.
    @tpx.jit
    def copy_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, tl.load(x_ptr + offs))

    x = np.arange(64, dtype=np.float32)
    out = np.zeros_like(x)
    monkeypatch.setenv("TPX_TARGET_PIPELINE", "no-such-pipeline")
    with pytest.raises(CompilationError, match="has no pipeline "
                                               "'no-such-pipeline'"):
        copy_kernel[(1,)](x, out, BLOCK=64)
    monkeypatch.setenv("TPX_TARGET_PIPELINE", "default")
    k = copy_kernel[(1,)](x, out, BLOCK=32)
    assert k.metadata.pipeline == "default"
    np.testing.assert_array_equal(out[:32], x[:32])


def test_options_spelled_out_share_the_kernel(monkeypatch):
    x, y, out = _arrays()
    k1 = add_kernel[(4,)](x, y, out, len(x), BLOCK=256)
    calls = []
    monkeypatch.setattr(JITFunction, "_compile",
                        lambda *a, **k: calls.append(a))
    k2 = add_kernel[(4,)](x, y, out, len(x), BLOCK=256, num_warps=4,
                          num_stages=3)
    assert k1 is k2 and calls == []


def test_grid_callable_gets_the_meta_dict():
    x, y, out = _arrays(1000)
    seen = {}

    def grid(meta):
        seen.update(meta)
        return (triton.cdiv(meta["n"], meta["BLOCK"]),)
    add_kernel[grid](x, y, out, len(x), BLOCK=128, num_warps=2)
    np.testing.assert_array_equal(out, x + y)
    assert seen["n"] == 1000 and seen["BLOCK"] == 128
    assert seen["x_ptr"] is x and seen["num_warps"] == 2


@pytest.mark.parametrize("grid", [4, [4], (4, 1), (4, 1, 1),
                                  (np.int64(4),), lambda m: [4]])
def test_grid_forms(grid):
    x, y, out = _arrays(1000)
    add_kernel[grid](x, y, out, len(x), BLOCK=256)
    np.testing.assert_array_equal(out, x + y)


@pytest.mark.parametrize("grid, error", [
    ((-1,), ValueError), ((1, 2, 3, 4), ValueError), ("x", TypeError),
    ((1.5,), TypeError), (lambda m: None, TypeError), ({}, TypeError),
    ((1.0,), TypeError)])
def test_bad_grids(grid, error):
    x, y, out = _arrays(100)
    with pytest.raises(error):
        add_kernel[grid](x, y, out, len(x), BLOCK=128)


def test_zero_grid_launches_nothing():
    x, y, out = _arrays(100)
    out[:] = 5
    add_kernel[(0,)](x, y, out, len(x), BLOCK=128)
    assert (out == 5).all()


def test_defaults_and_keywords():
    x, _, out = _arrays(300)
    scale_kernel[(3,)](x, out, len(x), 2.0)
    np.testing.assert_allclose(out, x * 2)
    out[:] = 0
    scale_kernel[(5,)](x_ptr=x, out_ptr=out, n=len(x), factor=3.0, BLOCK=64)
    np.testing.assert_allclose(out, x * 3, rtol=1e-6)


def test_wrong_argument_count_names_kernel_and_parameters():
    x, y, out = _arrays(10)
    with pytest.raises(TypeError, match=r"kernel 'add_kernel': missing a "
                       r"required argument: 'BLOCK'; its parameters are "
                       r"\(x_ptr, y_ptr, out_ptr, n, BLOCK\)"):
        add_kernel[(1,)](x, y, out, 10)
    with pytest.raises(TypeError, match=r"kernel 'add_kernel': too many "
                       r"positional arguments; its parameters are"):
        add_kernel[(1,)](x, y, out, 10, 128, 5)


def test_unknown_keyword_is_an_error_and_backend_options_are_ignored():
    x, y, out = _arrays(10)
    with pytest.raises(TypeError, match="unexpected keyword argument "
                       "'BLOKC'"):
        add_kernel[(1,)](x, y, out, 10, BLOCK=128, BLOKC=3)
    add_kernel[(1,)](x, y, out, 10, BLOCK=128, num_ctas=1, maxnreg=128,
                     enable_fp_fusion=False, waves_per_eu=2,
                     matrix_instr_nonkdim=16, launch_pdl=False)
    np.testing.assert_array_equal(out, x + y)


@pytest.mark.parametrize("num_warps", [3, 0, 64, "4"])
def test_bad_num_warps(num_warps):
    x, y, out = _arrays(10)
    with pytest.raises(ValueError, match="num_warps must be a power of two"):
        add_kernel[(1,)](x, y, out, 10, BLOCK=128, num_warps=num_warps)


def test_specialization_of_pointers_and_ints():
    x, y, out = _arrays(64)
    specs = _specs(add_kernel, x, y, out, 64, BLOCK=32)
    assert specs == [
        ArgSpec("x_ptr", "*fp32", divisibility=16),
        ArgSpec("y_ptr", "*fp32", divisibility=16),
        ArgSpec("out_ptr", "*fp32", divisibility=16),
        ArgSpec("n", "i32", divisibility=16),
        ArgSpec("BLOCK", "constexpr", 32)]
    # an int equal to 1 is folded; an odd int has no divisibility
    assert _specs(add_kernel, x, y, out, 1, BLOCK=32)[3] == \
        ArgSpec("n", "constexpr", 1)
    assert _specs(add_kernel, x, y, out, 7, BLOCK=32)[3] == ArgSpec("n", "i32")
    # pointers off a 16-byte boundary lose divisibility
    assert _specs(add_kernel, x[1:], y, out, 7, BLOCK=32)[0] == \
        ArgSpec("x_ptr", "*fp32")
    # int types by range
    assert _specs(add_kernel, x, y, out, 2 ** 31, BLOCK=32)[3] == \
        ArgSpec("n", "i64", divisibility=16)
    assert _specs(add_kernel, x, y, out, -2 ** 31 - 1, BLOCK=32)[3] == \
        ArgSpec("n", "i64")
    assert _specs(add_kernel, x, y, out, 2 ** 63 + 1, BLOCK=32)[3] == \
        ArgSpec("n", "u64")
    with pytest.raises(ValueError, match="does not fit in 64 bits"):
        _specs(add_kernel, x, y, out, 2 ** 64, BLOCK=32)


def test_specialization_of_other_values():
    x, y, out = _arrays(64)
    assert _specs(scale_kernel, x, out, 8, True)[3] == ArgSpec("factor", "i1")
    assert _specs(scale_kernel, x, out, 8, 2.5)[3] == \
        ArgSpec("factor", "fp32")
    assert _specs(scale_kernel, x, out, 8, None)[3] == \
        ArgSpec("factor", "constexpr", None)
    assert _specs(scale_kernel, x, out, 8, tl.constexpr(4))[3] == \
        ArgSpec("factor", "constexpr", 4)
    assert _specs(scale_kernel, x, out, 8, np.int32(6))[3] == \
        ArgSpec("factor", "i32")
    assert _specs(scale_kernel, x, out, 8, np.float64(2.0))[3] == \
        ArgSpec("factor", "fp32")
    assert _specs(scale_kernel, x, out, 8, tl.float16)[3] == \
        ArgSpec("factor", "constexpr", tl.float16)
    assert _specs(scale_kernel, x, out, 8, "text")[3] == \
        ArgSpec("factor", "constexpr", "text")
    # the default of BLOCK
    assert _specs(scale_kernel, x, out, 8, 2.0)[4] == \
        ArgSpec("BLOCK", "constexpr", 128)
    # a list constexpr becomes a tuple (it is part of the key)
    assert _specs(scale_kernel, x, out, 8, 2.0, BLOCK=[1, 2])[4] == \
        ArgSpec("BLOCK", "constexpr", (1, 2))


@pytest.mark.parametrize("dtype, name", [
    (np.float32, "*fp32"), (np.float16, "*fp16"), (np.float64, "*fp64"),
    (np.int8, "*i8"), (np.int16, "*i16"), (np.int32, "*i32"),
    (np.int64, "*i64"), (np.uint8, "*u8"), (np.uint32, "*u32"),
    (np.bool_, "*i1")])
def test_pointer_types_from_numpy(dtype, name):
    a = np.zeros(16, dtype)
    assert _specs(scale_kernel, a, a, 8, 1.5)[0].type == name


def test_pointer_types_from_torch():
    torch = pytest.importorskip("torch")
    for dtype, name in [(torch.float32, "*fp32"), (torch.float16, "*fp16"),
                        (torch.bfloat16, "*bf16"), (torch.int8, "*i8"),
                        (torch.uint8, "*u8"), (torch.bool, "*i1"),
                        (torch.int64, "*i64")]:
        t = torch.zeros(16, dtype=dtype)
        assert _specs(scale_kernel, t, t, 8, 1.5)[0].type == name
    for attr, name in [("float8_e4m3fn", "*fp8e4nv"),
                       ("float8_e5m2", "*fp8e5")]:
        if hasattr(torch, attr):
            t = torch.zeros(16, dtype=getattr(torch, attr))
            assert _specs(scale_kernel, t, t, 8, 1.5)[0].type == name


def test_do_not_specialize():
    x = np.zeros(16, np.float32)
    specs = _specs(dns_kernel, x, 1, 32, BLOCK=16)
    assert specs[1] == ArgSpec("n", "i32")          # 1 stays a runtime i32
    assert specs[2] == ArgSpec("m", "i32")          # no divisibility
    assert _specs(dns_kernel, x, 32, 1, BLOCK=16)[2] == \
        ArgSpec("m", "constexpr", 1)                # value 1 still folded
    dns_kernel[(1,)](x, 1, 2, BLOCK=16)
    assert (x == 3).all()


def test_int_one_is_folded_and_runs():
    x, _, out = _arrays(100)
    scale_kernel[(1,)](x, out, 100, 1)
    np.testing.assert_array_equal(out, x)


def test_none_and_tuple_arguments():
    x, _, out = _arrays(8)
    with pytest.raises(TypeError, match="tuple arguments are not supported"):
        _specs(scale_kernel, x, out, 8, (1, 2))
    with pytest.raises(TypeError, match="cannot pass a dict"):
        _specs(scale_kernel, x, out, 8, {})


def test_unhashable_constexpr():
    x, _, out = _arrays(8)
    with pytest.raises(TypeError, match="argument 'BLOCK' of kernel "
                       "'scale_kernel' is a constexpr.*hashable"):
        _specs(scale_kernel, x, out, 8, 1.0, BLOCK={})


def test_scalar_float_and_bool_launch():
    out = np.zeros(100, np.float32)
    fill_kernel[(1,)](out, 2.5, 100, BLOCK=128)
    assert (out == 2.5).all()


def test_warmup_compiles_without_launching(monkeypatch):
    x, y, out = _arrays(64)
    out[:] = 9
    k = add_kernel.warmup(x, y, out, 64, BLOCK=64, grid=(1,))
    assert isinstance(k, CompiledKernel) and (out == 9).all()
    k2 = add_kernel.warmup(np.float32, np.float32, np.float32, 64, BLOCK=64,
                           grid=(1,))
    assert k2 is k     # dtypes stand for aligned tensors of that dtype
    assert any(k is v for v in add_kernel.cache[0].values())


def test_cache_per_device_and_per_dtype():
    a32 = np.zeros(16, np.float32)
    a16 = np.zeros(16, np.float16)
    scale_kernel.cache.clear()
    scale_kernel._entries.clear()
    scale_kernel._state = None
    scale_kernel.warmup(a32, a32, 16, 2.0)
    scale_kernel.warmup(a16, a16, 16, 2.0)
    assert list(scale_kernel.cache) == [0]
    assert len(scale_kernel.cache[0]) == 2


def test_configuration_change_drops_the_fast_cache(monkeypatch):
    x, y, out = _arrays(64)
    add_kernel[(1,)](x, y, out, 64, BLOCK=64)
    state = add_kernel._state
    calls = []
    monkeypatch.setattr(JITFunction, "_compile",
                        lambda *a, **k: calls.append(a))
    _capi.bump_state_generation()
    out[:] = 0
    add_kernel[(1,)](x, y, out, 64, BLOCK=64)
    assert add_kernel._state is not state     # rebuilt
    assert calls == []                        # same material: no recompile
    np.testing.assert_array_equal(out, x + y)


def test_front_end_and_compiled_signature_must_agree(monkeypatch):
    import runtime_corpus
    from tpx.compiler import frontend
    vadd = runtime_corpus.load("vadd_f32").ttir

    @triton.jit
    def other(a_ptr, n):
        pass
    monkeypatch.setattr(frontend, "compile_to_ttir", lambda *a: vadd)
    with pytest.raises(CompilationError, match="the compiled kernel takes 4 "
                       "arguments .* but the launch has 2 runtime"):
        other[(1,)](np.zeros(4, np.float32), 4)


def test_front_end_errors_propagate():
    @triton.jit
    def broken(x_ptr):
        tl.store(x_ptr, undefined_name)  # noqa: F821
    with pytest.raises(CompilationError):
        broken[(1,)](np.zeros(4, np.float32))


def test_torch_cpu_tensors_and_offset_views():
    torch = pytest.importorskip("torch")
    x = torch.rand(1000)
    y = torch.rand(1000)
    out = torch.zeros(1016)
    view = out[16:]
    add_kernel[(4,)](x, y, view, 1000, BLOCK=256)
    assert torch.equal(view, x + y) and not out[:16].any()


def test_a_cuda_tensor_on_the_cpu_driver_is_a_launch_error():
    class FakeCudaTensor:
        dtype = np.dtype(np.float32)
        __cuda_array_interface__ = {"data": (4096, False), "shape": (4,),
                                    "typestr": "<f4", "version": 2}
    x = np.zeros(4, np.float32)
    with pytest.raises(LaunchError, match="argument 'y_ptr' of kernel "
                       "'add_kernel' is device memory"):
        add_kernel[(1,)](x, FakeCudaTensor(), x, 4, BLOCK=4)


def test_concurrent_launches_from_threads():
    x, y, _ = _arrays(4096)
    add_kernel[(16,)](x, y, np.zeros_like(x), 4096, BLOCK=256)

    def one(_):
        out = np.zeros_like(x)
        add_kernel[(16,)](x, y, out, 4096, BLOCK=256)
        return np.array_equal(out, x + y)
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        assert all(pool.map(one, range(32)))


def test_helpers_cannot_be_called_directly():
    with pytest.raises(RuntimeError, match="can only be called from"):
        add_kernel(1, 2)


def test_key_computation_time(capsys):
    """The hot path's key computation, measured (reported, not asserted:
    timings depend on the machine)."""
    x, y, out = _arrays(64)
    add_kernel[(1,)](x, y, out, 64, BLOCK=64)
    binder = add_kernel._state.binder
    n = 2000
    start = time.perf_counter()
    for _ in range(n):
        binder(x, y, out, 64, BLOCK=64)
    per_key = (time.perf_counter() - start) / n * 1e6
    start = time.perf_counter()
    for _ in range(n):
        binder(1, 2, 3, 64, BLOCK=64)
    per_int_key = (time.perf_counter() - start) / n * 1e6
    with capsys.disabled():
        print("\n  key computation: %.2f us with 3 numpy arrays (pointer "
              "extraction dominates), %.2f us with ints" %
              (per_key, per_int_key))
    assert per_key > 0


def test_constexprs_of_equal_value_but_other_type_are_other_kernels():
    x, _, out = _arrays(8)
    keys = {scale_kernel.specialization_key(x, out, 8, 2.0, BLOCK=b)[1]
            for b in (1, 1.0, True)}
    assert len(keys) == 3
    assert _specs(scale_kernel, x, out, 8, 2.0, BLOCK=1.0)[4] == \
        ArgSpec("BLOCK", "constexpr", 1.0)
    nan = float("nan")
    assert scale_kernel.specialization_key(x, out, 8, 2.0, BLOCK=nan) == \
        scale_kernel.specialization_key(x, out, 8, 2.0, BLOCK=nan)


def test_numpy_dtype_keys_do_not_collide_with_markers():
    # numpy dtypes compare equal to strings ("i1" == int8): the key must
    # not hold them.
    a8 = np.zeros(16, np.int8)
    k8 = dns_kernel.specialization_key(a8, 3, 5, BLOCK=16)[1]
    assert all(not isinstance(part, np.dtype) for part in k8)


def test_cached_launches_take_the_generated_hot_path():
    x, y, out = _arrays(64)
    add_kernel[(1,)](x, y, out, 64, BLOCK=64)
    namespace = add_kernel._state.binder.tpx_namespace
    cold = namespace["_tpx_cold"]
    calls = []

    def counting(*a):
        calls.append(a)
        return cold(*a)
    namespace["_tpx_cold"] = counting
    try:
        out[:] = 0
        k = add_kernel[(1,)](x, y, out, 64, BLOCK=64)
        add_kernel[lambda meta: (1,)](x, y, out, 64, BLOCK=64)
        add_kernel[(1, 1, 1)](x, y, out, n=64, BLOCK=64)
        assert calls == [] and isinstance(k, CompiledKernel)
        np.testing.assert_array_equal(out, x + y)
        # the general path for what the hot path does not do
        add_kernel[(1,)](x, y, out, 64, BLOCK=64, enable_fp_fusion=1)
        add_kernel[(np.int64(1),)](x, y, out, 64, BLOCK=64)    # numpy int
        add_kernel[(1,)](x, y, out, 64, BLOCK=32)               # a miss
        assert len(calls) == 3
    finally:
        namespace["_tpx_cold"] = cold


@triton.jit
def desc_copy(in_desc, out_desc, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    tile = in_desc.load([pid * BLOCK])
    out_desc.store([pid * BLOCK], tile)


def test_tensor_descriptor_arguments():
    from tpx.tools.tensor_descriptor import TensorDescriptor
    x = np.arange(100, dtype=np.float32)
    out = np.zeros_like(x)
    d_in = TensorDescriptor(x, [100], [1], [32])
    d_out = TensorDescriptor(out, [100], [1], [32])
    specs = _specs(desc_copy, d_in, d_out, BLOCK=32)
    assert specs[0] == ArgSpec("in_desc", "tensordesc<fp32[32]>",
                               divisibility=16)
    nan = TensorDescriptor(x, [100], [1], [32], padding="nan")
    assert _specs(desc_copy, nan, d_out, BLOCK=32)[0] == \
        ArgSpec("in_desc", "tensordesc<fp32[32],nan>", divisibility=16)
    # any object with base/shape/strides/block_shape is a descriptor
    import types
    odd = types.SimpleNamespace(base=x[1:], shape=[99], strides=[1],
                                block_shape=[32])
    assert _specs(desc_copy, odd, d_out, BLOCK=32)[0] == \
        ArgSpec("in_desc", "tensordesc<fp32[32]>")
    odd.padding = "inf"
    with pytest.raises(ValueError, match="padding is 'zero' or 'nan'"):
        _specs(desc_copy, odd, d_out, BLOCK=32)
    desc_copy[(4,)](d_in, d_out, BLOCK=32)
    np.testing.assert_array_equal(out, x)


@triton.jit
def oob_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    tl.store(x_ptr + offsets + n, tl.zeros((BLOCK,), tl.float32))


def test_out_of_bounds_writes_are_launch_errors_on_the_cpu(monkeypatch):
    """A wrong index must not write into the interpreter's memory."""
    monkeypatch.delenv("TPX_CPU_BOUNDS_CHECK", raising=False)
    x = np.ones(16, np.float32)
    with pytest.raises(LaunchError, match="out-of-bounds write .* buffer "
                       "argument 'x_ptr'"):
        oob_kernel[(1,)](x, 1000, BLOCK=16)
    assert (x == 1).all()


@triton.jit
def pointer_table_kernel(table_ptr, out_ptr, BLOCK: tl.constexpr):
    # The grouped GEMM's pattern: addresses of buffers that are not kernel
    # arguments, loaded from a table and cast to pointers.
    g = tl.program_id(0)
    src = tl.load(table_ptr + g).to(tl.pointer_type(tl.float32))
    offsets = tl.arange(0, BLOCK)
    tl.store(out_ptr + g * BLOCK + offsets, tl.load(src + offsets) + g)


def test_pointers_from_integers_are_not_bounds_checked(monkeypatch):
    """The check knows the buffer arguments only: a pointer made from an
    integer may point anywhere the program owns, so its accesses run
    unchecked (argument-derived ones stay checked, as above)."""
    monkeypatch.delenv("TPX_CPU_BOUNDS_CHECK", raising=False)
    sources = [np.full(8, 10.0 * i, np.float32) for i in range(3)]
    table = np.array([a.ctypes.data for a in sources], np.int64)
    out = np.zeros(24, np.float32)
    pointer_table_kernel[(3,)](table, out, BLOCK=8)
    want = np.concatenate([a + i for i, a in enumerate(sources)])
    np.testing.assert_array_equal(out, want)


@tpx.jit
def _scaled_copy(out_ptr, x_ptr, n, SCALE: tl.constexpr,
                 BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * SCALE,
             mask=mask)


def test_compiled_kernel_takes_every_parameter_as_triton_does():
    # The fused-softmax tutorial's flow: warmup, _init_handles, n_regs, then
    # launch the compiled kernel with all arguments, constexprs included.
    x = np.arange(100, dtype=np.float32)
    out = np.zeros_like(x)
    kernel = _scaled_copy.warmup(out, x, 100, 3.0, 64, grid=(1,))
    kernel._init_handles()
    assert isinstance(kernel.n_regs, int)
    kernel[(2, 1, 1)](out, x, 100, 3.0, 64)
    np.testing.assert_allclose(out, x * 3)
    out[:] = 0
    kernel[(2,)](out, x, 100)          # the TTIR's own arguments still work
    np.testing.assert_allclose(out, x * 3)
