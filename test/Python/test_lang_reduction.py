"""Reductions and scans (tpx.language.reduction) against numpy on the CPU."""

import numpy as np
import pytest

import tpx
import tpx.language as tl
from tpx.errors import CompilationError

import frontend_harness as h


# -- helpers ------------------------------------------------------------------

@tpx.jit
def load_2d(ptr, M: tl.constexpr, N: tl.constexpr):
    return tl.load(ptr + tl.arange(0, M)[:, None] * N +
                   tl.arange(0, N)[None, :])


@tpx.jit
def store_nd(ptr, r):
    """Stores a scalar, 1-D or 2-D result row-major at `ptr`."""
    if len(r.shape) == 0:
        tl.store(ptr, r)
    elif len(r.shape) == 1:
        tl.store(ptr + tl.arange(0, r.shape[0]), r)
    else:
        tl.store(ptr + tl.arange(0, r.shape[0])[:, None] * r.shape[1] +
                 tl.arange(0, r.shape[1])[None, :], r)


def np_reduce(fn, x, axis, keep):
    return fn(x, axis=axis, keepdims=keep)


def run_2d(kernel, x, out_shape, out_dtype, **constexprs):
    out = np.zeros(out_shape, out_dtype)
    h.run(kernel, (1,), x, out, M=x.shape[0], N=x.shape[1], **constexprs)
    return out


def out_shape_of(shape, axis, keep):
    if axis is None:
        return (1,) * len(shape) if keep else (1,)
    shape = list(shape)
    if keep:
        shape[axis] = 1
    else:
        del shape[axis]
    return tuple(shape) if shape else (1,)


def int_data(shape, lo=-50, hi=50, dtype=np.int32, seed=0):
    return np.random.RandomState(seed).randint(lo, hi, shape).astype(dtype)


def float_data(shape, dtype=np.float32, seed=0):
    return np.random.RandomState(seed).randn(*shape).astype(dtype)


class Bf16Array(np.ndarray):
    """A uint16 buffer the harness passes as a `*bf16` argument."""
    tpx_signature = "bf16"


def bf16_zeros(n):
    return np.zeros(n, np.uint16).view(Bf16Array)


def compile_error(kernel, *args, **constexprs):
    with pytest.raises(CompilationError) as e:
        h.ttir(kernel, *args, **constexprs)
    return str(e.value)


# -- sum ----------------------------------------------------------------------

@tpx.jit
def sum_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, AXIS:
               tl.constexpr, KEEP: tl.constexpr):
    x = load_2d(x_ptr, M, N)
    store_nd(out_ptr, tl.sum(x, axis=AXIS, keep_dims=KEEP))


@pytest.mark.parametrize("axis", [0, 1, -1, None])
@pytest.mark.parametrize("keep", [False, True])
def test_sum_2d_float(axis, keep):
    x = float_data((8, 16))
    out = run_2d(sum_kernel, x, out_shape_of(x.shape, axis, keep),
                 np.float32, AXIS=axis, KEEP=keep)
    ref = np.sum(x, axis=axis, keepdims=keep).reshape(out.shape)
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("axis", [0, 1, None])
def test_sum_2d_int(axis):
    x = int_data((4, 32))
    out = run_2d(sum_kernel, x, out_shape_of(x.shape, axis, False),
                 np.int32, AXIS=axis, KEEP=False)
    np.testing.assert_array_equal(
        out, np.sum(x, axis=axis).reshape(out.shape))


@tpx.jit
def sum_1d_kernel(x_ptr, out_ptr, N: tl.constexpr, KEEP: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    s = tl.sum(x, 0, keep_dims=KEEP)
    if KEEP:
        assert len(s.shape) == 1
    else:
        assert len(s.shape) == 0
    store_nd(out_ptr, s)


@pytest.mark.parametrize("keep", [False, True])
def test_sum_1d_is_scalar_unless_keep_dims(keep):
    x = float_data((64,))
    out = np.zeros(1, np.float32)
    h.run(sum_1d_kernel, (1,), x, out, N=64, KEEP=keep)
    np.testing.assert_allclose(out[0], x.sum(), rtol=1e-5)


@tpx.jit
def sum_typed_kernel(x_ptr, out_ptr, N: tl.constexpr, DTYPE: tl.constexpr,
                     EXPECT: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    s = tl.sum(x, axis=0, dtype=DTYPE)
    assert s.dtype == EXPECT
    tl.store(out_ptr, s)


@pytest.mark.parametrize("np_dtype,dtype,expect,out_dtype", [
    (np.int8, None, tl.int32, np.int32),
    (np.int16, None, tl.int32, np.int32),
    (np.uint8, None, tl.uint32, np.uint32),
    (np.bool_, None, tl.uint32, np.uint32),
    (np.int64, None, tl.int64, np.int64),
    (np.float16, None, tl.float16, np.float16),
    (np.float16, tl.float32, tl.float32, np.float32),
    (np.int8, tl.int8, tl.int8, np.int8),
    (np.int32, tl.float32, tl.float32, np.float32),
])
def test_sum_accumulate_type(np_dtype, dtype, expect, out_dtype):
    rs = np.random.RandomState(1)
    if np_dtype == np.bool_:
        x = rs.randint(0, 2, 128).astype(np.bool_)
    elif np.issubdtype(np_dtype, np.integer):
        info = np.iinfo(np_dtype)
        x = rs.randint(max(info.min, -120), min(info.max, 120) + 1,
                       128).astype(np_dtype)
        x[:64] = min(info.max, 120)  # overflows any 8-bit accumulator
    else:
        x = rs.rand(128).astype(np_dtype)
    out = np.zeros(1, out_dtype)
    h.run(sum_typed_kernel, (1,), x, out, N=128, DTYPE=dtype, EXPECT=expect)
    ref = x.astype(np.float64 if out_dtype in (np.float16, np.float32)
                   else np.int64).sum()
    if out_dtype == np.int8:
        ref = np.array(ref).astype(np.int8)  # wraps, as the int8 adds do
    if np.issubdtype(out_dtype, np.floating):
        np.testing.assert_allclose(out[0], ref, rtol=2e-2 if
                                   out_dtype == np.float16 else 1e-5)
    else:
        assert out[0] == ref


def bf16_from_float(values):
    bits = np.asarray(values, np.float32).view(np.uint32) >> 16
    return bits.astype(np.uint16).view(Bf16Array)


@tpx.jit
def bf16_reduce_kernel(x_ptr, out_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.store(out_ptr, tl.sum(x, 0).to(tl.float32))
    tl.store(out_ptr + 1, tl.max(x, 0))
    tl.store(out_ptr + 2 + tl.arange(0, N), tl.cumsum(x, 0))


def test_bf16_reductions_run():
    x = np.arange(16, dtype=np.float32) - 4  # exact in bf16, sums too
    out = np.zeros(18, np.float32)
    h.run(bf16_reduce_kernel, (1,), bf16_from_float(x), out, N=16)
    assert out[0] == x.sum() and out[1] == x.max()
    np.testing.assert_array_equal(out[2:], np.cumsum(x))


def test_sum_bf16_accumulates_in_bf16():
    text = h.ttir(sum_typed_kernel, bf16_zeros(8), np.zeros(1, np.float32),
                  N=8, DTYPE=None, EXPECT=tl.bfloat16)
    assert "(tensor<8xbf16>) -> (bf16)" in text


@tpx.jit
def sum_in_loop(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr,
                STEPS: tl.constexpr):
    acc = tl.zeros([M], dtype=tl.float32)
    total = 0.0
    best = tl.zeros([M], dtype=tl.int32)
    scan = tl.zeros([M, N], dtype=tl.float32)
    for i in range(STEPS):
        x = tl.load(x_ptr + i * M * N + tl.arange(0, M)[:, None] * N +
                    tl.arange(0, N)[None, :])
        acc += tl.sum(x, axis=1)
        total += tl.max(x)
        best += tl.argmax(x, 1)
        scan += tl.cumsum(x, 1)
    tl.store(out_ptr + tl.arange(0, M), acc)
    tl.store(out_ptr + M, total)
    tl.store(out_ptr + M + 1 + tl.arange(0, M), best)
    tl.store(out_ptr + 2 * M + 1 + tl.arange(0, M)[:, None] * N +
             tl.arange(0, N)[None, :], scan)


def test_reductions_inside_a_loop():
    x = float_data((3, 4, 8))
    out = np.zeros(9 + 32, np.float32)
    h.run(sum_in_loop, (1,), x, out, M=4, N=8, STEPS=3)
    np.testing.assert_allclose(out[:4], x.sum(axis=(0, 2)), rtol=1e-5)
    np.testing.assert_allclose(out[4], x.max(axis=(1, 2)).sum(), rtol=1e-5)
    np.testing.assert_array_equal(out[5:9], x.argmax(2).sum(0))
    np.testing.assert_allclose(out[9:], np.cumsum(x, 2).sum(0).reshape(-1),
                               rtol=1e-5, atol=1e-5)


# -- max / min ----------------------------------------------------------------

@tpx.jit
def max_min_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr,
                   AXIS: tl.constexpr, KEEP: tl.constexpr, MAX: tl.constexpr):
    x = load_2d(x_ptr, M, N)
    if MAX:
        r = tl.max(x, axis=AXIS, keep_dims=KEEP)
    else:
        r = tl.min(x, axis=AXIS, keep_dims=KEEP)
    store_nd(out_ptr, r)


@pytest.mark.parametrize("axis", [0, 1, None])
@pytest.mark.parametrize("keep", [False, True])
@pytest.mark.parametrize("is_max", [True, False])
def test_max_min_float(axis, keep, is_max):
    x = float_data((8, 16), seed=3)
    out = run_2d(max_min_kernel, x, out_shape_of(x.shape, axis, keep),
                 np.float32, AXIS=axis, KEEP=keep, MAX=is_max)
    fn = np.max if is_max else np.min
    np.testing.assert_array_equal(
        out, fn(x, axis=axis, keepdims=keep).reshape(out.shape))


@pytest.mark.parametrize("np_dtype", [np.int32, np.int8, np.uint8,
                                      np.int64])
@pytest.mark.parametrize("is_max", [True, False])
def test_max_min_int(np_dtype, is_max):
    lo = 0 if np_dtype == np.uint8 else -100
    x = int_data((4, 16), lo, 100, np_dtype, seed=4)
    out = run_2d(max_min_kernel, x, (16,), np_dtype, AXIS=0, KEEP=False,
                 MAX=is_max)
    fn = np.max if is_max else np.min
    np.testing.assert_array_equal(out, fn(x, axis=0))


@tpx.jit
def max_dtype_kernel(x_ptr, out_ptr, N: tl.constexpr, EXPECT: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    m = tl.max(x, 0)
    assert m.dtype == EXPECT
    v, i = tl.max(x, 0, return_indices=True)
    assert v.dtype == x.dtype
    tl.store(out_ptr, m)


@pytest.mark.parametrize("np_dtype,expect", [
    (np.int8, tl.int32), (np.int16, tl.int32), (np.uint8, tl.int32),
    (np.float16, tl.float32), (np.float32, tl.float32), (np.int64, tl.int64),
])
def test_max_computes_narrow_types_in_32_bits(np_dtype, expect):
    x = np.arange(16).astype(np_dtype)
    out = np.zeros(1, np_dtype)
    h.run(max_dtype_kernel, (1,), x, out, N=16, EXPECT=expect)
    assert out[0] == 15


@tpx.jit
def max_bf16_kernel(x_ptr, out_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    m = tl.max(x, 0)
    v, i = tl.min(x, 0, return_indices=True)
    assert m.dtype == tl.float32
    assert v.dtype == tl.float32
    tl.store(out_ptr, m + v)


def test_max_min_promote_bf16_to_fp32():
    text = h.ttir(max_bf16_kernel, bf16_zeros(8), np.zeros(1, np.float32),
                  N=8)
    assert "(tensor<8xbf16>) -> (tensor<8xf32>)" in text
    assert "maxnumf" in text


def test_max_min_ignore_nan():
    x = float_data((4, 8), seed=5)
    x[1, 3] = np.nan
    x[2, :] = np.nan
    for is_max, fn in ((True, np.nanmax), (False, np.nanmin)):
        out = run_2d(max_min_kernel, x, (4,), np.float32, AXIS=1, KEEP=False,
                     MAX=is_max)
        with np.errstate(all="ignore"), pytest.warns(RuntimeWarning):
            ref = fn(x, axis=1)
        np.testing.assert_array_equal(out, ref)


@tpx.jit
def max_indices_kernel(x_ptr, val_ptr, idx_ptr, M: tl.constexpr,
                       N: tl.constexpr, AXIS: tl.constexpr,
                       KEEP: tl.constexpr, LEFT: tl.constexpr,
                       MAX: tl.constexpr):
    x = load_2d(x_ptr, M, N)
    if MAX:
        v, i = tl.max(x, AXIS, return_indices=True,
                      return_indices_tie_break_left=LEFT, keep_dims=KEEP)
    else:
        v, i = tl.min(x, AXIS, return_indices=True,
                      return_indices_tie_break_left=LEFT, keep_dims=KEEP)
    assert i.dtype == tl.int32
    store_nd(val_ptr, v)
    store_nd(idx_ptr, i)


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("keep", [False, True])
@pytest.mark.parametrize("is_max", [True, False])
def test_max_min_return_indices_tie_break_left(axis, keep, is_max):
    # Few distinct values: many ties, the left-most index must win.
    x = int_data((8, 16), 0, 3, np.int32, seed=6)
    shape = out_shape_of(x.shape, axis, keep)
    vals = np.zeros(shape, np.int32)
    idx = np.zeros(shape, np.int32)
    h.run(max_indices_kernel, (1,), x, vals, idx, M=8, N=16, AXIS=axis,
          KEEP=keep, LEFT=True, MAX=is_max)
    vfn, ifn = (np.max, np.argmax) if is_max else (np.min, np.argmin)
    np.testing.assert_array_equal(vals.reshape(-1), vfn(x, axis).reshape(-1))
    np.testing.assert_array_equal(idx.reshape(-1), ifn(x, axis).reshape(-1))


def test_max_return_indices_without_tie_break():
    x = int_data((8, 16), 0, 3, np.float32, seed=7)
    vals = np.zeros(8, np.float32)
    idx = np.zeros(8, np.int32)
    h.run(max_indices_kernel, (1,), x, vals, idx, M=8, N=16, AXIS=1,
          KEEP=False, LEFT=False, MAX=True)
    np.testing.assert_array_equal(vals, x.max(1))
    # Any index of a maximal element is right.
    np.testing.assert_array_equal(x[np.arange(8), idx], x.max(1))


@tpx.jit
def argmax_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr,
                  AXIS: tl.constexpr, KEEP: tl.constexpr, MAX: tl.constexpr):
    x = load_2d(x_ptr, M, N)
    if MAX:
        r = tl.argmax(x, AXIS, keep_dims=KEEP)
    else:
        r = tl.argmin(x, axis=AXIS, tie_break_left=True, keep_dims=KEEP)
    store_nd(out_ptr, r)


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("is_max", [True, False])
def test_argmax_argmin(axis, is_max):
    x = float_data((8, 16), seed=8)
    x[2, 5] = x[2, 9] = 100.0 if is_max else -100.0  # a tie in row 2
    out = run_2d(argmax_kernel, x, out_shape_of(x.shape, axis, False),
                 np.int32, AXIS=axis, KEEP=False, MAX=is_max)
    fn = np.argmax if is_max else np.argmin
    np.testing.assert_array_equal(out, fn(x, axis=axis))


def test_argmax_keep_dims():
    x = int_data((8, 16), seed=9)
    out = run_2d(argmax_kernel, x, (8, 1), np.int32, AXIS=1, KEEP=True,
                 MAX=True)
    np.testing.assert_array_equal(out, np.argmax(x, 1)[:, None])


# -- xor_sum / reduce_or ------------------------------------------------------

@tpx.jit
def bitwise_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr,
                   AXIS: tl.constexpr, OR: tl.constexpr):
    x = load_2d(x_ptr, M, N)
    if OR:
        r = tl.reduce_or(x, AXIS)
    else:
        r = tl.xor_sum(x, AXIS)
    store_nd(out_ptr, r)


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("use_or", [False, True])
@pytest.mark.parametrize("np_dtype", [np.int32, np.uint8])
def test_xor_sum_and_reduce_or(axis, use_or, np_dtype):
    x = int_data((4, 8), 0, 256, np_dtype, seed=10)
    out = run_2d(bitwise_kernel, x, out_shape_of(x.shape, axis, False),
                 np_dtype, AXIS=axis, OR=use_or)
    fn = np.bitwise_or if use_or else np.bitwise_xor
    np.testing.assert_array_equal(out, fn.reduce(x, axis=axis))


def test_xor_sum_all_dims():
    x = int_data((4, 8), 0, 1000, seed=11)
    out = run_2d(bitwise_kernel, x, (1,), np.int32, AXIS=None, OR=False)
    assert out[0] == np.bitwise_xor.reduce(x.reshape(-1))


@pytest.mark.parametrize("use_or,name", [(False, "xor_sum"),
                                         (True, "reduce_or")])
def test_bitwise_reductions_reject_floats(use_or, name):
    message = compile_error(bitwise_kernel, np.zeros((4, 8), np.float32),
                            np.zeros(8, np.float32), M=4, N=8, AXIS=0,
                            OR=use_or)
    assert "%s only supported for integers" % name in message


# -- tl.reduce with a user combine function -----------------------------------

@tpx.jit
def combine_mul(a, b):
    return a * b


@tpx.jit
def reduce_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr,
                  AXIS: tl.constexpr, KEEP: tl.constexpr):
    x = load_2d(x_ptr, M, N)
    store_nd(out_ptr, tl.reduce(x, AXIS, combine_mul, keep_dims=KEEP))


@pytest.mark.parametrize("axis", [0, 1, None])
@pytest.mark.parametrize("keep", [False, True])
def test_reduce_user_combine(axis, keep):
    x = (np.random.RandomState(12).rand(4, 8) + 0.5).astype(np.float32)
    out = run_2d(reduce_kernel, x, out_shape_of(x.shape, axis, keep),
                 np.float32, AXIS=axis, KEEP=keep)
    ref = np.prod(x, axis=axis, keepdims=keep).reshape(out.shape)
    np.testing.assert_allclose(out, ref, rtol=1e-5)


def test_reduce_combine_is_a_call_inlined_later():
    text = h.ttir(reduce_kernel, np.zeros((4, 8), np.float32),
                  np.zeros(4, np.float32), M=4, N=8, AXIS=1, KEEP=False)
    assert '"tt.call"' in text and '"tt.reduce.return"' in text


@tpx.jit
def combine_argmin_pair(v1, i1, v2, i2):
    take_first = (v1 < v2) | ((v1 == v2) & (i1 < i2))
    return tl.where(take_first, v1, v2), tl.where(take_first, i1, i2)


@tpx.jit
def reduce_tuple_kernel(x_ptr, val_ptr, idx_ptr, M: tl.constexpr,
                        N: tl.constexpr):
    x = load_2d(x_ptr, M, N)
    i = tl.broadcast_to(tl.arange(0, N)[None, :], (M, N))
    v, j = tl.reduce((x, i), 1, combine_argmin_pair)
    tl.store(val_ptr + tl.arange(0, M), v)
    tl.store(idx_ptr + tl.arange(0, M), j)


def test_reduce_tuple_of_tensors():
    x = int_data((8, 16), 0, 4, np.int32, seed=13)
    vals = np.zeros(8, np.int32)
    idx = np.zeros(8, np.int32)
    h.run(reduce_tuple_kernel, (1,), x, vals, idx, M=8, N=16)
    np.testing.assert_array_equal(vals, x.min(1))
    np.testing.assert_array_equal(idx, x.argmin(1))


@tpx.jit
def combine_wrong_type(a, b):
    return (a + b).to(tl.float32)


@tpx.jit
def combine_two_results(a, b):
    return a, b


@tpx.jit
def bad_reduce_kernel(x_ptr, out_ptr, WHICH: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    if WHICH == 0:
        r = tl.reduce(x, 0, combine_wrong_type)
    elif WHICH == 1:
        r = tl.reduce(x, 0, combine_two_results)
    elif WHICH == 2:
        r = tl.reduce(x, 1, combine_mul)
    elif WHICH == 3:
        r = tl.reduce((x, tl.arange(0, 16)), 0, combine_argmin_pair)
    elif WHICH == 4:
        r = tl.sum(x, axis=-2)
    else:
        r = tl.argmax(x, axis=None)
    tl.store(out_ptr, r)


@pytest.mark.parametrize("which,message", [
    (0, "combine_fn returned fp32 at position 0 but the input's element "
        "type is int32"),
    (1, "combine_fn must return 1 value (one per input), got 2"),
    (2, "ValueError: invalid axis 1. Expected -1 <= axis < 1"),
    (3, "all reduction inputs must have the same shape"),
    (4, "ValueError: invalid axis -2. Expected -1 <= axis < 1"),
    (5, "max with return_indices=True needs an axis"),
])
def test_reduce_errors(which, message):
    text = compile_error(bad_reduce_kernel, np.zeros(8, np.int32),
                         np.zeros(1, np.int32), WHICH=which)
    assert message in text
    assert "test_lang_reduction.py" in text


# -- scans --------------------------------------------------------------------

@tpx.jit
def cumsum_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr,
                  AXIS: tl.constexpr, REVERSE: tl.constexpr,
                  PROD: tl.constexpr):
    x = load_2d(x_ptr, M, N)
    if PROD:
        r = tl.cumprod(x, AXIS, reverse=REVERSE)
    else:
        r = tl.cumsum(x, axis=AXIS, reverse=REVERSE)
    store_nd(out_ptr, r)


def np_scan(fn, x, axis, reverse):
    if reverse:
        return np.flip(fn(np.flip(x, axis), axis=axis), axis)
    return fn(x, axis=axis)


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("reverse", [False, True])
def test_cumsum_float(axis, reverse):
    x = float_data((8, 16), seed=14)
    out = run_2d(cumsum_kernel, x, x.shape, np.float32, AXIS=axis,
                 REVERSE=reverse, PROD=False)
    np.testing.assert_allclose(out, np_scan(np.cumsum, x, axis, reverse),
                               rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("reverse", [False, True])
def test_cumprod(reverse):
    x = (np.random.RandomState(15).rand(4, 8) + 0.5).astype(np.float32)
    out = run_2d(cumsum_kernel, x, x.shape, np.float32, AXIS=1,
                 REVERSE=reverse, PROD=True)
    np.testing.assert_allclose(out, np_scan(np.cumprod, x, 1, reverse),
                               rtol=1e-5)


def test_cumsum_int8_accumulates_in_int32():
    x = np.full((4, 32), 100, np.int8)
    out = run_2d(cumsum_kernel, x, x.shape, np.int32, AXIS=1, REVERSE=False,
                 PROD=False)
    np.testing.assert_array_equal(out, np.cumsum(x.astype(np.int32), 1))


@tpx.jit
def cumsum_1d_kernel(x_ptr, out_ptr, N: tl.constexpr, DTYPE: tl.constexpr,
                     EXPECT: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    r = x.cumsum(0, dtype=DTYPE)
    assert r.dtype == EXPECT
    tl.store(out_ptr + tl.arange(0, N), r)


def test_cumsum_dtype_argument():
    x = np.random.RandomState(16).randint(0, 1000, 64).astype(np.int32)
    out = np.zeros(64, np.float64)
    h.run(cumsum_1d_kernel, (1,), x, out, N=64, DTYPE=tl.float64,
          EXPECT=tl.float64)
    np.testing.assert_allclose(out, np.cumsum(x.astype(np.float64)))


def test_cumsum_promotes_bf16_to_fp32():
    text = h.ttir(cumsum_1d_kernel, bf16_zeros(8), np.zeros(8, np.float32),
                  N=8, DTYPE=None, EXPECT=tl.float32)
    assert '"tt.scan"' in text and "reverse = false" in text


@tpx.jit
def combine_max_pair(v1, i1, v2, i2):
    keep = v1 >= v2
    return tl.where(keep, v1, v2), tl.where(keep, i1, i2)


@tpx.jit
def scan_kernel(x_ptr, mul_ptr, val_ptr, idx_ptr, N: tl.constexpr,
                REVERSE: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    offs = tl.arange(0, N)
    tl.store(mul_ptr + offs, tl.associative_scan(x, 0, combine_mul,
                                                 reverse=REVERSE))
    v, i = tl.associative_scan((x, offs), 0, combine_max_pair,
                               reverse=REVERSE)
    tl.store(val_ptr + offs, v)
    tl.store(idx_ptr + offs, i)


@pytest.mark.parametrize("reverse", [False, True])
def test_associative_scan_user_combine_and_tuples(reverse):
    x = (np.random.RandomState(17).rand(32) + 0.5).astype(np.float32)
    prod = np.zeros(32, np.float32)
    vals = np.zeros(32, np.float32)
    idx = np.zeros(32, np.int32)
    h.run(scan_kernel, (1,), x, prod, vals, idx, N=32, REVERSE=reverse)
    np.testing.assert_allclose(prod, np_scan(np.cumprod, x, 0, reverse),
                               rtol=1e-5)
    np.testing.assert_array_equal(
        vals, np_scan(np.maximum.accumulate, x, 0, reverse))
    np.testing.assert_array_equal(x[idx], vals)


@tpx.jit
def bad_scan_kernel(x_ptr, WHICH: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    if WHICH == 0:
        x = tl.cumsum(x, 1)
    elif WHICH == 1:
        x = tl.associative_scan(tl.sum(x), 0, combine_mul)
    else:
        x = tl.associative_scan(x, 0, combine_wrong_type)
    tl.store(x_ptr + tl.arange(0, 8), x)


@pytest.mark.parametrize("which,message", [
    (0, "invalid axis 1. Expected -1 <= axis < 1"),
    (1, "invalid axis 0. Expected 0 <= axis < 0"),
    (2, "combine_fn returned fp32 at position 0"),
])
def test_scan_errors(which, message):
    assert message in compile_error(bad_scan_kernel, np.zeros(8, np.int32),
                                    WHICH=which)


# -- histogram and gather -----------------------------------------------------

@tpx.jit
def histogram_kernel(x_ptr, out_ptr, n, N: tl.constexpr, BINS: tl.constexpr,
                     MASKED: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    if MASKED:
        hist = tl.histogram(x, BINS, mask=offs < n)
    else:
        hist = x.histogram(BINS)
    assert hist.dtype == tl.int32
    tl.store(out_ptr + tl.arange(0, BINS), hist)


@pytest.mark.parametrize("masked", [False, True])
def test_histogram(masked):
    x = np.random.RandomState(18).randint(0, 16, 128).astype(np.int32)
    out = np.zeros(16, np.int32)
    n = 77 if masked else 128
    h.run(histogram_kernel, (1,), x, out, n, N=128, BINS=16, MASKED=masked)
    np.testing.assert_array_equal(out, np.bincount(x[:n], minlength=16))


@tpx.jit
def histogram_u8_kernel(x_ptr, out_ptr, N: tl.constexpr):
    tl.store(out_ptr + tl.arange(0, 256),
             tl.histogram(tl.load(x_ptr + tl.arange(0, N)), 256))


@pytest.mark.xfail(strict=True, reason=(
    "CPU backend: tt.histogram sign-extends its i8 source, so uint8 values "
    ">= 128 (valid bins of a 256-bin histogram) are not counted"))
def test_histogram_of_uint8_counts_high_values():
    x = np.arange(0, 256, 2).astype(np.uint8)
    out = np.zeros(256, np.int32)
    h.run(histogram_u8_kernel, (1,), x, out, N=128)
    np.testing.assert_array_equal(out, np.bincount(x, minlength=256))


@tpx.jit
def bad_histogram_kernel(x_ptr, out_ptr, WHICH: tl.constexpr):
    if WHICH == 0:
        x = tl.load(x_ptr + tl.arange(0, 4)[:, None] + tl.arange(0, 4))
        hist = tl.histogram(x, 8)
    elif WHICH == 1:
        x = tl.load(x_ptr + tl.arange(0, 16)).to(tl.float32)
        hist = tl.histogram(x, 8)
    else:
        x = tl.load(x_ptr + tl.arange(0, 16))
        hist = tl.histogram(x, 8, mask=x)
    tl.store(out_ptr + tl.arange(0, 8), hist)


@pytest.mark.parametrize("which,message", [
    (0, "histogram only supports 1D input"),
    (1, "histogram only supports integer input"),
    (2, "Mask must have boolean scalar type"),
])
def test_histogram_errors(which, message):
    assert message in compile_error(bad_histogram_kernel,
                                    np.zeros(16, np.int32),
                                    np.zeros(8, np.int32), WHICH=which)


@tpx.jit
def gather_kernel(src_ptr, idx_ptr, out_ptr, M: tl.constexpr,
                  N: tl.constexpr, K: tl.constexpr, AXIS: tl.constexpr):
    src = load_2d(src_ptr, M, N)
    if AXIS == 0:
        idx = load_2d(idx_ptr, K, N)
    else:
        idx = load_2d(idx_ptr, M, K)
    store_nd(out_ptr, tl.gather(src, idx, AXIS))


@pytest.mark.parametrize("axis", [0, 1])
def test_gather(axis):
    rs = np.random.RandomState(19)
    src = rs.randn(4, 8).astype(np.float32)
    shape = (16, 8) if axis == 0 else (4, 16)
    idx = rs.randint(0, src.shape[axis], shape).astype(np.int32)
    out = np.zeros(shape, np.float32)
    h.run(gather_kernel, (1,), src, idx, out, M=4, N=8, K=16, AXIS=axis)
    np.testing.assert_array_equal(out, np.take_along_axis(src, idx, axis))


@tpx.jit
def bad_gather_kernel(x_ptr, WHICH: tl.constexpr):
    src = tl.load(x_ptr + tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4))
    if WHICH == 0:
        r = tl.gather(src, tl.arange(0, 4), 0)
    elif WHICH == 1:
        r = tl.gather(src, src.to(tl.float32), 0)
    elif WHICH == 2:
        r = tl.gather(src, src, 2)
    else:
        r = tl.gather(src, tl.zeros([4, 8], tl.int32), 0)
    tl.store(x_ptr, tl.sum(r))


@pytest.mark.parametrize("which,message", [
    (0, "source and index tensors must have the same rank"),
    (1, "index must be an integer tensor"),
    (2, "gather axis 2 must be < source rank (2)"),
    (3, "index dim 0 must match the corresponding source dim"),
])
def test_gather_errors(which, message):
    assert message in compile_error(bad_gather_kernel,
                                    np.zeros(16, np.int32), WHICH=which)


# -- tensor methods -----------------------------------------------------------

@tpx.jit
def methods_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    x = load_2d(x_ptr, M, N)
    o = out_ptr
    store_nd(o, x.sum(1))
    store_nd(o + M, x.max(0))
    store_nd(o + M + N, x.min(axis=1))
    store_nd(o + 2 * M + N, x.argmax(1).to(tl.float32))
    store_nd(o + 3 * M + N, x.argmin(0).to(tl.float32))
    store_nd(o + 3 * M + 2 * N, x.reduce(1, combine_mul))
    store_nd(o + 4 * M + 2 * N, x.cumsum(1))
    store_nd(o + 4 * M + 2 * N + M * N, x.cumprod(0, reverse=True))
    store_nd(o + 4 * M + 2 * N + 2 * M * N,
             x.associative_scan(1, combine_mul))
    v, i = x.max(1, return_indices=True)
    store_nd(o + 4 * M + 2 * N + 3 * M * N, v + i)


def test_tensor_methods():
    M, N = 4, 8
    x = (np.random.RandomState(20).rand(M, N) + 0.5).astype(np.float32)
    out = np.zeros(5 * M + 2 * N + 3 * M * N, np.float32)
    h.run(methods_kernel, (1,), x, out, M=M, N=N)
    parts = [x.sum(1), x.max(0), x.min(1), x.argmax(1), x.argmin(0),
             x.prod(1), np.cumsum(x, 1).reshape(-1),
             np_scan(np.cumprod, x, 0, True).reshape(-1),
             np.cumprod(x, 1).reshape(-1), x.max(1) + x.argmax(1)]
    np.testing.assert_allclose(out, np.concatenate(parts), rtol=1e-5)


@tpx.jit
def int_methods_kernel(x_ptr, out_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.store(out_ptr, x.xor_sum(0))
    tl.store(out_ptr + 1, x.reduce_or(0))
    tl.store(out_ptr + 2 + tl.arange(0, N),
             x.gather(N - 1 - tl.arange(0, N), 0))


def test_integer_tensor_methods():
    x = np.random.RandomState(21).randint(0, 1 << 20, 16).astype(np.int32)
    out = np.zeros(18, np.int32)
    h.run(int_methods_kernel, (1,), x, out, N=16)
    assert out[0] == np.bitwise_xor.reduce(x)
    assert out[1] == np.bitwise_or.reduce(x)
    np.testing.assert_array_equal(out[2:], x[::-1])


# -- rank 3, 64-bit types -----------------------------------------------------

@tpx.jit
def rank3_kernel(x_ptr, idx_ptr, s_ptr, c_ptr, m_ptr, g_ptr,
                 AXIS: tl.constexpr):
    offs = (tl.arange(0, 2)[:, None, None] * 4 +
            tl.arange(0, 4)[None, :, None]) * 8 + \
        tl.arange(0, 8)[None, None, :]
    x = tl.load(x_ptr + offs)
    s = tl.sum(x, AXIS, keep_dims=True)
    tl.store(s_ptr + tl.arange(0, s.numel), tl.reshape(s, s.numel))
    tl.store(c_ptr + offs, tl.cumsum(x, AXIS, reverse=True))
    m = tl.argmax(x, AXIS, keep_dims=True)
    tl.store(m_ptr + tl.arange(0, m.numel), tl.reshape(m, m.numel))
    tl.store(g_ptr + offs, tl.gather(x, tl.load(idx_ptr + offs), AXIS))


@pytest.mark.parametrize("axis", [0, 1, 2])
@pytest.mark.parametrize("np_dtype", [np.float64, np.int64])
def test_rank3_reductions_scans_gather(axis, np_dtype):
    rs = np.random.RandomState(22)
    x = (rs.rand(2, 4, 8) * 1000).astype(np_dtype)
    idx = rs.randint(0, x.shape[axis], x.shape).astype(np.int64)
    s = np.zeros(x.size // x.shape[axis], np_dtype)
    c = np.zeros(x.shape, np_dtype)
    m = np.zeros(s.shape, np.int32)
    g = np.zeros(x.shape, np_dtype)
    h.run(rank3_kernel, (1,), x, idx, s, c, m, g, AXIS=axis)
    np.testing.assert_allclose(s, x.sum(axis).reshape(-1), rtol=1e-12)
    np.testing.assert_allclose(c, np_scan(np.cumsum, x, axis, True),
                               rtol=1e-12)
    np.testing.assert_array_equal(m, x.argmax(axis).reshape(-1))
    np.testing.assert_array_equal(g, np.take_along_axis(x, idx, axis))
