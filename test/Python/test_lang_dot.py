"""tl.dot and tl.dot_scaled: Triton's type and shape rules, the tt.dot
properties, and numerical results against numpy on the CPU target."""

import numpy as np
import pytest

import tpx
import tpx.language as tl
from tpx.compiler.frontend import compile_to_ttir
from tpx.compiler.spec import CompileSpec
from tpx.errors import CompilationError

import frontend_harness as h


@tpx.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr,
               K: tl.constexpr, OUT: tl.constexpr, PRECISION: tl.constexpr):
    m = tl.arange(0, M)[:, None]
    n = tl.arange(0, N)[None, :]
    k = tl.arange(0, K)
    a = tl.load(a_ptr + m * K + k[None, :])
    b = tl.load(b_ptr + k[:, None] * N + n)
    c = tl.dot(a, b, input_precision=PRECISION, out_dtype=OUT)
    tl.store(c_ptr + m * N + n, c)


def _rand(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-100, 100, shape).astype(dtype)
    return rng.uniform(-1, 1, shape).astype(dtype)


def run_dot(a, b, out_dtype=np.float32, out=tl.float32, precision=None):
    m, k = a.shape
    n = b.shape[1]
    c = np.zeros((m, n), out_dtype)
    text = h.run(dot_kernel, (1,), a, b, c, M=m, N=n, K=k, OUT=out,
                 PRECISION=precision)
    return c, text


@pytest.mark.parametrize("m, n, k", [(16, 16, 16), (32, 16, 64), (1, 8, 16),
                                     (64, 32, 32)])
def test_fp32_dot(m, n, k):
    a, b = _rand((m, k), np.float32), _rand((k, n), np.float32, 1)
    c, text = run_dot(a, b)
    assert '"tt.dot"' in text
    # f32 dots default to tf32, as in Triton: the CPU computes them in f32,
    # Hopper's tensor cores (wgmma .tf32, where the tile allows) with inputs
    # rounded to 10 mantissa bits.
    tol = 2e-2 if h.TARGET == "cuda" else 1e-5
    np.testing.assert_allclose(c, a @ b, rtol=tol, atol=tol)


def test_fp16_dot_accumulates_in_out_dtype():
    a, b = _rand((32, 32), np.float16), _rand((32, 16), np.float16, 1)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    c, text = run_dot(a, b)
    assert "tensor<32x16xf32>" in text
    np.testing.assert_allclose(c, ref, rtol=1e-3, atol=1e-3)
    c16, text = run_dot(a, b, np.float16, tl.float16)
    assert "-> (tensor<32x16xf16>)" in text
    np.testing.assert_allclose(c16.astype(np.float32), ref, rtol=1e-2,
                               atol=1e-2)


def test_fp32_dot_ignores_out_dtype_fp16():
    # As in Triton: fp32 (and bf16) operands always give fp32.
    a, b = _rand((16, 16), np.float32), _rand((16, 16), np.float32, 1)
    c, text = run_dot(a, b, np.float16, tl.float16)
    assert "-> (tensor<16x16xf32>)" in text
    np.testing.assert_allclose(c, (a @ b).astype(np.float16), rtol=1e-3,
                               atol=1e-3)


def test_int8_dot_gives_int32():
    a, b = _rand((16, 32), np.int8), _rand((32, 16), np.int8, 1)
    c, text = run_dot(a, b, np.int32)
    assert "tensor<16x16xi32>" in text
    np.testing.assert_array_equal(c, a.astype(np.int32) @ b.astype(np.int32))


def test_fp64_dot():
    a, b = _rand((16, 16), np.float64), _rand((16, 8), np.float64, 1)
    c, _ = run_dot(a, b, np.float64)
    np.testing.assert_allclose(c, a @ b, rtol=1e-12)


@tpx.jit
def bf16_dot_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr,
                    K: tl.constexpr):
    m = tl.arange(0, M)[:, None]
    n = tl.arange(0, N)[None, :]
    k = tl.arange(0, K)
    a = tl.load(a_ptr + m * K + k[None, :]).to(tl.bfloat16, bitcast=True)
    b = tl.load(b_ptr + k[:, None] * N + n).to(tl.bfloat16, bitcast=True)
    tl.store(c_ptr + m * N + n, tl.dot(a, b))


def _bf16_bits(x):
    return (x.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)


def _bf16_value(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def test_bf16_dot():
    a = _bf16_bits(_rand((16, 16), np.float32))
    b = _bf16_bits(_rand((16, 16), np.float32, 1))
    c = np.zeros((16, 16), np.float32)
    h.run(bf16_dot_kernel, (1,), a, b, c, M=16, N=16, K=16)
    np.testing.assert_allclose(c, _bf16_value(a) @ _bf16_value(b), rtol=1e-5,
                               atol=1e-5)


@tpx.jit
def fp8_dot_kernel(a_ptr, b_ptr, c_ptr, N: tl.constexpr, K: tl.constexpr,
                   MAX_IMPRECISE: tl.constexpr):
    m = tl.arange(0, N)[:, None]
    n = tl.arange(0, N)[None, :]
    k = tl.arange(0, K)
    a = tl.load(a_ptr + m * K + k[None, :]).to(tl.float8e5, bitcast=True)
    b = tl.load(b_ptr + k[:, None] * N + n).to(tl.float8e5, bitcast=True)
    tl.store(c_ptr + m * N + n,
             tl.dot(a, b, max_num_imprecise_acc=MAX_IMPRECISE))


def _e5m2_bits(x):
    # fp8e5 is the top byte of fp16: truncate (values chosen exactly).
    return (x.astype(np.float16).view(np.uint16) >> 8).astype(np.uint8)


def _e5m2_value(bits):
    return (bits.astype(np.uint16) << 8).view(np.float16).astype(np.float32)


def test_fp8_dot():
    rng = np.random.default_rng(4)
    values = np.array([0, 0.5, 1, 1.5, 2, -1, -0.25, 3], np.float16)
    a = _e5m2_bits(rng.choice(values, (16, 32)))
    b = _e5m2_bits(rng.choice(values, (32, 16)))
    c = np.zeros((16, 16), np.float32)
    text = h.run(fp8_dot_kernel, (1,), a, b, c, N=16, K=32,
                 MAX_IMPRECISE=None)
    assert "maxNumImpreciseAcc = 0 : i32" in text
    np.testing.assert_array_equal(c, _e5m2_value(a) @ _e5m2_value(b))


def test_fp8_max_num_imprecise_acc():
    a = np.zeros((16, 32), np.uint8)
    b = np.zeros((32, 16), np.uint8)
    c = np.zeros((16, 16), np.float32)
    # Triton's NVIDIA backend defaults to 2**30 on Hopper.
    specs = h.arg_specs(fp8_dot_kernel, [a, b, c, 16, 32, None],
                        {"N": 16, "K": 32, "MAX_IMPRECISE": None})
    text = compile_to_ttir(fp8_dot_kernel, specs,
                           CompileSpec(target="sm_90a"))
    assert "maxNumImpreciseAcc = 1073741824 : i32" in text
    text = h.run(fp8_dot_kernel, (1,), a, b, c, N=16, K=32, MAX_IMPRECISE=16)
    assert "maxNumImpreciseAcc = 16 : i32" in text
    with pytest.raises(CompilationError, match=r"ValueError: "
                       r"max_num_imprecise_acc \(64\) must be <= K \(32\)"):
        h.run(fp8_dot_kernel, (1,), a, b, c, N=16, K=32, MAX_IMPRECISE=64)


@tpx.jit
def acc_dot_kernel(a_ptr, b_ptr, c_ptr, N: tl.constexpr, OUT: tl.constexpr):
    i = tl.arange(0, N)
    offs = i[:, None] * N + i[None, :]
    acc = tl.load(c_ptr + offs)
    acc = tl.dot(tl.load(a_ptr + offs), tl.load(b_ptr + offs), acc,
                 out_dtype=OUT)
    acc = tl.dot(tl.load(a_ptr + offs), tl.load(b_ptr + offs), acc=acc,
                 out_dtype=OUT)
    tl.store(c_ptr + offs, acc)


def acc_dot(a, b, c, out=tl.float32):
    h.run(acc_dot_kernel, (1,), a, b, c, N=a.shape[0], OUT=out)
    return c


def test_dot_with_accumulator():
    a, b = _rand((16, 16), np.float32), _rand((16, 16), np.float32, 1)
    c0 = _rand((16, 16), np.float32, 2)
    c = acc_dot(a, b, c0.copy())
    np.testing.assert_allclose(c, c0 + 2 * (a @ b), rtol=1e-5, atol=1e-5)


def test_int8_dot_with_int32_accumulator_needs_out_dtype_int32():
    a, b = _rand((32, 32), np.int8), _rand((32, 32), np.int8, 1)
    c0 = _rand((32, 32), np.int32, 2)
    c = acc_dot(a, b, c0.copy(), out=tl.int32)
    ref = c0 + 2 * (a.astype(np.int32) @ b.astype(np.int32))
    np.testing.assert_array_equal(c, ref)
    with pytest.raises(CompilationError, match="AssertionError"):
        acc_dot(a, b, c0.copy())   # out_dtype defaults to float32


@tpx.jit
def batched_kernel(a_ptr, b_ptr, c_ptr, B: tl.constexpr, N: tl.constexpr):
    bi = tl.arange(0, B)[:, None, None]
    r = tl.arange(0, N)[None, :, None]
    col = tl.arange(0, N)[None, None, :]
    offs = bi * N * N + r * N + col
    tl.store(c_ptr + offs, tl.dot(tl.load(a_ptr + offs),
                                  tl.load(b_ptr + offs)))


def test_batched_3d_dot():
    a, b = _rand((2, 16, 16), np.float32), _rand((2, 16, 16), np.float32, 1)
    c = np.zeros((2, 16, 16), np.float32)
    text = h.run(batched_kernel, (1,), a, b, c, B=2, N=16)
    assert "tensor<2x16x16xf32>" in text
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("precision, enum", [(None, 0), ("tf32", 0),
                                             ("tf32x3", 1), ("ieee", 2),
                                             ("bf16x3", 3), ("bf16x6", 4)])
def test_input_precision_property(precision, enum):
    a, b = _rand((16, 16), np.float32), _rand((16, 16), np.float32, 1)
    c, text = run_dot(a, b, precision=precision)
    assert "inputPrecision = %d : i32" % enum in text
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5)


@tpx.jit
def tf32_kernel(a_ptr, c_ptr, ALLOW: tl.constexpr):
    i = tl.arange(0, 16)
    offs = i[:, None] * 16 + i[None, :]
    a = tl.load(a_ptr + offs)
    tl.store(c_ptr + offs, tl.dot(a, a, allow_tf32=ALLOW))


def test_allow_tf32_and_triton_f32_default(monkeypatch):
    a = np.eye(16, dtype=np.float32)
    c = np.zeros_like(a)
    assert "inputPrecision = 2 : i32" in h.run(tf32_kernel, (1,), a, c,
                                                ALLOW=False)
    assert "inputPrecision = 0 : i32" in h.run(tf32_kernel, (1,), a, c,
                                                ALLOW=True)
    monkeypatch.setenv("TRITON_F32_DEFAULT", "ieee")
    assert "inputPrecision = 2 : i32" in h.run(tf32_kernel, (1,), a, c,
                                                ALLOW=None)
    np.testing.assert_array_equal(c, a)


def _dot_error(a, b, match, **kw):
    with pytest.raises(CompilationError, match=match):
        run_dot(a, b, **kw)


def test_dot_errors():
    f32 = np.ones((16, 16), np.float32)
    _dot_error(f32, np.ones((16, 16), np.float16),
               "AssertionError: Both operands must be same dtype. Got fp32 "
               "and fp16")
    _dot_error(np.ones((16, 8), np.float32), np.ones((8, 16), np.float32),
               r"AssertionError: Input shapes should have M >= 1, N >= 1 and "
               r"K >= 16")
    _dot_error(np.ones((16, 16), np.int8), np.ones((16, 16), np.int8),
               r"K >= 32", out_dtype=np.int32)
    _dot_error(np.ones((16, 32), np.uint8), np.ones((32, 16), np.uint8),
               "AssertionError: only int8 supported!", out_dtype=np.int32)
    _dot_error(np.ones((16, 16), np.int16), np.ones((16, 16), np.int16),
               "AssertionError: Unsupported lhs dtype int16")
    _dot_error(np.ones((16, 16), np.float16), np.ones((16, 16), np.float16),
               r"ValueError: out_dtype=bfloat16 is unsupported. Please use "
               r"out_dtype=float32/float16 and cast with `.to\(tl.bfloat16\)`",
               out=tl.bfloat16)
    _dot_error(f32, f32, r"AssertionError: input_precision must be one of "
               r"\('tf32', 'tf32x3', 'ieee', 'bf16x3', 'bf16x6'\). Got hf32",
               precision="hf32")
    _dot_error(np.ones((16, 8), np.float64), np.ones((8, 16), np.float64),
               r"K >= 16", out_dtype=np.float64)


@tpx.jit
def bad_dot_kernel(p, WHICH: tl.constexpr):
    i = tl.arange(0, 16)
    a = tl.load(p + i[:, None] * 16 + i[None, :])
    if WHICH == 0:
        tl.dot(a, a, input_precision="ieee", allow_tf32=True)
    elif WHICH == 1:
        tl.dot(tl.load(p + i), tl.load(p + i))
    elif WHICH == 2:
        tl.dot(a, tl.reshape(a, [32, 8]))


def test_dot_argument_and_shape_errors():
    p = np.zeros(256, np.float32)
    with pytest.raises(CompilationError, match="Only one of input_precision "
                       "and allow_tf32 can be specified"):
        h.run(bad_dot_kernel, (1,), p, WHICH=0)
    with pytest.raises(CompilationError, match="input and other must have "
                       "equal ranks >= 2"):
        h.run(bad_dot_kernel, (1,), p, WHICH=1)
    with pytest.raises(CompilationError, match="input and other must have "
                       "equal reduction dimensions"):
        h.run(bad_dot_kernel, (1,), p, WHICH=2)


# -- dot_scaled ---------------------------------------------------------------

_E2M1 = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4,
                  -6], np.float32)


def _e4m3_value(bits):
    bits = bits.astype(np.int64)
    sign = np.where(bits & 0x80, -1.0, 1.0)
    exp = (bits >> 3) & 0xF
    man = bits & 0x7
    value = np.where(exp == 0, man / 8.0 * 2.0 ** -6,
                     (1 + man / 8.0) * 2.0 ** (exp - 7))
    return (sign * value).astype(np.float32)


def _unpack_e2m1(packed, axis):
    lo = _E2M1[packed & 0xF]
    hi = _E2M1[packed >> 4]
    out = np.stack([lo, hi], axis=axis + 1)
    shape = list(packed.shape)
    shape[axis] *= 2
    return out.reshape(shape)


@tpx.jit
def scaled_kernel(a_ptr, sa_ptr, b_ptr, sb_ptr, c_ptr, M: tl.constexpr,
                  N: tl.constexpr, K: tl.constexpr, A_FMT: tl.constexpr,
                  B_FMT: tl.constexpr):
    A_K: tl.constexpr = K // 2 if A_FMT == "e2m1" else K
    B_K: tl.constexpr = K // 2 if B_FMT == "e2m1" else K
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    a = tl.load(a_ptr + m[:, None] * A_K + tl.arange(0, A_K)[None, :])
    b = tl.load(b_ptr + tl.arange(0, B_K)[:, None] * N + n[None, :])
    g = tl.arange(0, K // 32)
    sa = tl.load(sa_ptr + m[:, None] * (K // 32) + g[None, :])
    sb = tl.load(sb_ptr + n[:, None] * (K // 32) + g[None, :])
    c = tl.dot_scaled(a, sa, A_FMT, b, sb, B_FMT)
    tl.store(c_ptr + m[:, None] * N + n[None, :], c)


@pytest.mark.parametrize("a_fmt, b_fmt", [("e2m1", "e2m1"), ("e4m3", "e2m1"),
                                          ("e2m1", "e4m3")])
def test_dot_scaled(a_fmt, b_fmt):
    m, n, k = 16, 16, 64
    rng = np.random.default_rng(11)

    def operand(fmt, shape, axis):
        if fmt == "e2m1":
            packed_shape = list(shape)
            packed_shape[axis] //= 2
            bits = rng.integers(0, 256, packed_shape).astype(np.uint8)
            return bits, _unpack_e2m1(bits, axis)
        bits = rng.integers(0, 0x78, shape).astype(np.uint8)  # finite e4m3
        bits |= rng.integers(0, 2, shape).astype(np.uint8) << 7
        return bits, _e4m3_value(bits)
    a, a_val = operand(a_fmt, (m, k), 1)
    b, b_val = operand(b_fmt, (k, n), 0)
    sa = rng.integers(124, 130, (m, k // 32)).astype(np.uint8)
    sb = rng.integers(124, 130, (n, k // 32)).astype(np.uint8)
    c = np.zeros((m, n), np.float32)
    text = h.run(scaled_kernel, (1,), a, sa, b, sb, c, M=m, N=n, K=k,
                 A_FMT=a_fmt, B_FMT=b_fmt)
    assert '"tt.dot_scaled"' in text
    scale_a = np.repeat(2.0 ** (sa.astype(np.float64) - 127), 32, axis=1)
    scale_b = np.repeat(2.0 ** (sb.astype(np.float64) - 127), 32, axis=1).T
    ref = (a_val * scale_a) @ (b_val * scale_b)
    np.testing.assert_allclose(c, ref.astype(np.float32), rtol=1e-5,
                               atol=1e-5)


@tpx.jit
def scaled_error_kernel(a_ptr, WHICH: tl.constexpr):
    i = tl.arange(0, 32)
    a = tl.load(a_ptr + i[:, None] * 32 + i[None, :])
    if WHICH == 0:
        tl.dot_scaled(a, None, "e4m3", a, None, "e9m9")
    elif WHICH == 1:
        tl.dot_scaled(a, None, "e2m3", a, None, "e4m3")
    elif WHICH == 2:
        tl.dot_scaled(a, None, "e4m3", a, None, "e4m3", out_dtype=tl.float16)
    elif WHICH == 3:
        tl.dot_scaled(a, a, "e4m3", a, None, "e4m3")


def test_dot_scaled_errors():
    a = np.zeros(32 * 32, np.uint8)
    for which, match in ((0, "ValueError: Invalid float format: e9m9."),
                         (1, "AssertionError: NYI: lhs_format e2m3"),
                         (2, "Only float32 is supported for out_dtype at the "
                             "moment"),
                         (3, r"lhs_scale must be a tensor of shape \[32, 1\]. "
                             r"Got \[32, 32\]")):
        with pytest.raises(CompilationError, match=match):
            h.run(scaled_error_kernel, (1,), a, WHICH=which)


def test_dot_scaled_without_scales_ttir():
    @tpx.jit
    def kernel(a_ptr, c_ptr):
        i = tl.arange(0, 32)
        offs = i[:, None] * 32 + i[None, :]
        a = tl.load(a_ptr + offs)
        tl.store(c_ptr + offs, tl.dot_scaled(a, None, "e5m2", a, None,
                                              "e5m2"))
    a = np.full(32 * 32, 0x3C, np.uint8)    # 1.0 in e5m2
    c = np.zeros(32 * 32, np.float32)
    text = h.run(kernel, (1,), a, c)
    assert "operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>" in text
    np.testing.assert_array_equal(c, np.full(32 * 32, 32.0, np.float32))
