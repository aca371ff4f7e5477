"""tl.math / tl.* math functions, libdevice and the elementwise extras
(extern_elementwise, inline_asm_elementwise, map_elementwise, sigmoid),
checked numerically against numpy on the CPU target."""

import math

import numpy as np
import pytest

import tpx
import tpx.language as tl
from tpx.errors import CompilationError
from tpx.language.extra import libdevice

import frontend_harness as h

N = 64


def _inputs(dtype, low=0.1, high=4.0, seed=0):
    rng = np.random.default_rng(seed)
    return rng.uniform(low, high, N).astype(dtype)


@tpx.jit
def unary_kernel(x_ptr, out_ptr, FN: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(out_ptr + offs, FN(tl.load(x_ptr + offs)))


@tpx.jit
def binary_kernel(x_ptr, y_ptr, out_ptr, FN: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(out_ptr + offs, FN(x, y))


def run_unary(fn, x, out_dtype=None):
    out = np.zeros(x.shape, out_dtype or x.dtype)
    text = h.run(unary_kernel, (1,), x, out, FN=fn, N=x.size)
    return out, text


def run_binary(fn, x, y, out_dtype=None):
    out = np.zeros(x.shape, out_dtype or x.dtype)
    h.run(binary_kernel, (1,), x, y, out, FN=fn, N=x.size)
    return out


_UNARY = [
    (tl.exp, np.exp, "math.exp"), (tl.exp2, np.exp2, "math.exp2"),
    (tl.log, np.log, "math.log"), (tl.log2, np.log2, "math.log2"),
    (tl.cos, np.cos, "math.cos"), (tl.sin, np.sin, "math.sin"),
    (tl.sqrt, np.sqrt, "math.sqrt"),
    (tl.rsqrt, lambda v: 1 / np.sqrt(v), "math.rsqrt"),
    (tl.erf, np.vectorize(math.erf), "math.erf"),
    (tl.floor, np.floor, "math.floor"), (tl.ceil, np.ceil, "math.ceil"),
    (tl.abs, np.abs, "math.absf"),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("fn, ref, op", _UNARY,
                         ids=[f[2] for f in _UNARY])
def test_unary_math(fn, ref, op, dtype):
    x = _inputs(dtype, -3.0 if op in ("math.cos", "math.sin", "math.erf",
                                      "math.floor", "math.ceil",
                                      "math.absf") else 0.1)
    out, text = run_unary(fn, x)
    assert '"%s"' % op in text
    tol = 2e-6 if dtype == np.float32 else 1e-13
    np.testing.assert_allclose(out, ref(x).astype(dtype), rtol=tol,
                               atol=tol)


def test_math_namespace_and_methods_are_the_same_functions():
    for name in ("exp", "exp2", "log", "log2", "cos", "sin", "sqrt",
                 "sqrt_rn", "rsqrt", "abs", "erf", "floor", "ceil", "fdiv",
                 "div_rn", "fma", "umulhi"):
        assert getattr(tl.math, name) is getattr(tl, name), name
    for name in ("exp", "log", "sqrt", "abs", "floor", "ceil", "erf",
                 "sigmoid"):
        assert hasattr(tl.tensor, name), name


@tpx.jit
def method_kernel(x_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x.exp() + x.sqrt() + x.log2() + x.abs())


def test_tensor_methods():
    x = _inputs(np.float32)
    out = np.zeros_like(x)
    h.run(method_kernel, (1,), x, out, N=N)
    np.testing.assert_allclose(out, np.exp(x) + np.sqrt(x) + np.log2(x) + x,
                               rtol=2e-6)


def test_sqrt_rn_and_div_rn_are_correctly_rounded():
    x = _inputs(np.float32, 0.001, 1000.0)
    y = _inputs(np.float32, 0.001, 1000.0, seed=1)
    out, text = run_unary(tl.sqrt_rn, x)
    assert "tt.precise_sqrt" in text
    np.testing.assert_array_equal(out, np.sqrt(x))
    np.testing.assert_array_equal(run_binary(tl.div_rn, x, y), x / y)
    np.testing.assert_allclose(run_binary(tl.fdiv, x, y), x / y, rtol=1e-6)


@tpx.jit
def fma_kernel(x_ptr, y_ptr, z_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(out_ptr + offs, tl.fma(tl.load(x_ptr + offs),
                                    tl.load(y_ptr + offs),
                                    tl.load(z_ptr + offs)))


def test_fma_is_fused():
    x = np.float32([1 + 2 ** -12] * N)
    y = np.float32([1 - 2 ** -12] * N)
    z = np.float32([-1] * N)
    out = np.zeros(N, np.float32)
    h.run(fma_kernel, (1,), x, y, z, out, N=N)
    # x*y = 1 - 2**-24 exactly; an unfused multiply would round it to 1.
    np.testing.assert_array_equal(out, np.float32([-2 ** -24] * N))


@pytest.mark.parametrize("dtype", [np.uint32, np.int32, np.int64, np.uint64])
def test_umulhi(dtype):
    info = np.iinfo(dtype)
    rng = np.random.default_rng(3)
    x = rng.integers(info.min, info.max, N, dtype=dtype, endpoint=True)
    y = rng.integers(info.min, info.max, N, dtype=dtype, endpoint=True)
    out = run_binary(tl.umulhi, x, y)
    bits = info.bits
    mask = (1 << bits) - 1
    ref = [((int(a) & mask) * (int(b) & mask)) >> bits for a, b in zip(x, y)]
    np.testing.assert_array_equal(out.view("u%d" % (bits // 8)),
                                  np.array(ref, "u%d" % (bits // 8)))


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint32, np.float16])
def test_abs_of_integers_and_fp16(dtype):
    x = np.arange(-N // 2, N // 2).astype(dtype)
    out, text = run_unary(tl.abs, x)
    np.testing.assert_array_equal(out, np.abs(x) if dtype != np.uint32
                                  else x)
    if dtype == np.uint32:
        assert "math.abs" not in text


@tpx.jit
def fp8_abs_kernel(x_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs).to(tl.float8e5, bitcast=True)
    tl.store(out_ptr + offs, tl.abs(x).to(tl.uint8, bitcast=True))


def test_abs_of_fp8_clears_the_sign_bit():
    x = np.arange(0, 256, 4, dtype=np.uint8)
    out = np.zeros_like(x)
    h.run(fp8_abs_kernel, (1,), x, out, N=N)
    np.testing.assert_array_equal(out, x & 0x7F)


@pytest.mark.parametrize("fn", [tl.exp, tl.log, tl.sqrt, tl.cos, tl.erf,
                                tl.rsqrt, tl.floor])
def test_transcendental_rejects_int_and_fp16(fn):
    with pytest.raises(CompilationError,
                       match=r"ValueError: Expected dtype \['fp32', 'fp64'\] "
                             r"but got int32"):
        run_unary(fn, np.arange(N, dtype=np.int32))
    with pytest.raises(CompilationError,
                       match=r"Expected dtype \['fp32', 'fp64'\] but got "
                             r"fp16"):
        run_unary(fn, np.ones(N, np.float16))


def test_fp32_only_functions_reject_fp64():
    with pytest.raises(CompilationError,
                       match=r"Expected dtype \['fp32'\] but got fp64"):
        run_unary(tl.sqrt_rn, np.ones(N, np.float64))
    with pytest.raises(CompilationError,
                       match=r"Expected dtype \['int32', 'int64', 'uint32', "
                             r"'uint64'\] but got fp32"):
        run_binary(tl.umulhi, np.ones(N, np.float32), np.ones(N, np.float32))


def test_fdiv_requires_floats():
    with pytest.raises(CompilationError, match="both operands of fdiv must "
                                               "have floating scalar type"):
        run_binary(tl.fdiv, np.ones(N, np.int32), np.ones(N, np.float32))


@tpx.jit
def scalar_math_kernel(out_ptr):
    tl.store(out_ptr, tl.exp(1.0) + tl.sqrt(4.0))


def test_python_numbers_become_fp32():
    out = np.zeros(1, np.float32)
    h.run(scalar_math_kernel, (1,), out)
    np.testing.assert_allclose(out, [math.e + 2], rtol=1e-6)


def test_sigmoid():
    x = _inputs(np.float32, -6, 6)
    out, _ = run_unary(tl.sigmoid, x)
    np.testing.assert_allclose(out, 1 / (1 + np.exp(-x)), rtol=1e-6)
    with pytest.raises(CompilationError, match="but got fp16"):
        run_unary(tl.sigmoid, x.astype(np.float16))


@tpx.jit
def softmax_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rows * N + cols)
    tl.store(out_ptr + rows * N + cols, tl.softmax(x, 1, keep_dims=True))


def test_softmax():
    x = np.random.default_rng(0).normal(size=(8, 16)).astype(np.float32)
    out = np.zeros_like(x)
    h.run(softmax_kernel, (1,), x, out, M=8, N=16)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(out, e / e.sum(axis=1, keepdims=True),
                               rtol=1e-5)


# -- libdevice ----------------------------------------------------------------

def _ldexp_free_range(name):
    return {"log1p": (-0.9, 3), "acos": (-0.99, 0.99), "asin": (-0.99, 0.99),
            "atanh": (-0.9, 0.9), "acosh": (1.1, 5), "erfc": (-2, 2),
            "expm1": (-2, 2), "tanh": (-4, 4), "nearbyint": (-6, 6),
            "rint": (-6, 6), "round": (-6, 6), "trunc": (-6, 6),
            "cbrt": (-8, 8), "exp10": (-3, 3), "normcdf": (-3, 3),
            "rcbrt": (0.1, 8)}.get(name, (0.1, 3))


_LIBDEVICE_UNARY = {
    "tanh": np.tanh, "exp": np.exp, "log1p": np.log1p, "expm1": np.expm1,
    "erf": np.vectorize(math.erf), "erfc": np.vectorize(math.erfc),
    "acos": np.arccos, "asin": np.arcsin, "atan": np.arctan,
    "atanh": np.arctanh, "acosh": np.arccosh, "asinh": np.arcsinh,
    "cosh": np.cosh, "sinh": np.sinh, "tan": np.tan, "log10": np.log10,
    "cbrt": np.cbrt, "trunc": np.trunc, "rint": np.rint,
    "nearbyint": np.rint,
    "round": lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5),
    "exp10": lambda v: np.power(10.0, v),
    "rcbrt": lambda v: 1 / np.cbrt(v),
    "normcdf": np.vectorize(lambda v: 0.5 * math.erfc(-v / math.sqrt(2))),
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(_LIBDEVICE_UNARY))
def test_libdevice_unary(name, dtype):
    low, high = _ldexp_free_range(name)
    x = _inputs(dtype, low, high)
    if name in ("rint", "nearbyint", "round"):
        x[:8] = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.5, -3.5], dtype)
    out, _ = run_unary(getattr(libdevice, name), x)
    tol = 5e-6 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(out, _LIBDEVICE_UNARY[name](x).astype(dtype),
                               rtol=tol, atol=tol)


_LIBDEVICE_BINARY = {
    "pow": np.power, "atan2": np.arctan2, "fmod": np.fmod,
    "hypot": np.hypot, "copysign": np.copysign, "fmax": np.fmax,
    "fmin": np.fmin, "fdim": lambda a, b: np.where(a > b, a - b, 0),
    "div_rn": np.divide, "add_rn": np.add, "mul_rn": np.multiply,
    "rhypot": lambda a, b: 1 / np.hypot(a, b),
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(_LIBDEVICE_BINARY))
def test_libdevice_binary(name, dtype):
    x = _inputs(dtype, -4, 4)
    y = _inputs(dtype, -4, 4, seed=1)
    if name == "pow":
        x = np.abs(x)
    out = run_binary(getattr(libdevice, name), x, y)
    tol = 5e-6 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(out, _LIBDEVICE_BINARY[name](x, y).astype(
        dtype), rtol=tol, atol=tol)


def test_hypot_edge_cases():
    for dtype in (np.float32, np.float64):
        inf, nan = np.inf, np.nan
        x = np.array([3, 0, inf, nan, -inf, 1e30, 1e-30, 0] * 8, dtype)
        y = np.array([4, 0, nan, inf, 2, 1e30, 1e-30, -5] * 8, dtype)
        out = run_binary(libdevice.hypot, x, y)
        np.testing.assert_allclose(out, np.hypot(x, y), rtol=1e-7)


@tpx.jit
def powi_kernel(x_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, libdevice.pow(x, 3) + libdevice.pow(x, -2))


def test_pow_with_an_integer_exponent():
    x = _inputs(np.float32, -3, 3)
    out = np.zeros_like(x)
    text = h.run(powi_kernel, (1,), x, out, N=N)
    assert "__nv_powif" not in text        # a portable equivalent
    np.testing.assert_allclose(out, x ** 3 + x ** -2.0, rtol=1e-5)


@tpx.jit
def predicates_kernel(x_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    nan = libdevice.isnan(x).to(tl.int32)
    inf = libdevice.isinf(x).to(tl.int32)
    sign = libdevice.signbit(x)
    fin = libdevice.finitef(x).to(tl.int32)
    tl.store(out_ptr + offs, nan + 2 * inf + 4 * sign + 8 * fin)


def test_float_predicates():
    x = np.array([0.0, -0.0, 1.5, -2.0, np.inf, -np.inf, np.nan, -np.nan] * 8,
                 np.float32)
    out = np.zeros(x.shape, np.int32)
    text = h.run(predicates_kernel, (1,), x, out, N=N)
    assert "__nv_isnanf" not in text
    ref = (np.isnan(x) + 2 * np.isinf(x) + 4 * np.signbit(x) +
           8 * np.isfinite(x))
    np.testing.assert_array_equal(out, ref)


def test_isnan_returns_int1():
    @tpx.jit
    def kernel(x_ptr, out_ptr):
        tl.static_assert(libdevice.isnan(tl.load(x_ptr)).dtype == tl.int1)
        tl.static_assert(libdevice.signbit(tl.load(x_ptr)).dtype == tl.int32)
        # As stock Triton 3.6 (checked on an H200).
        tl.static_assert(libdevice.finitef(tl.load(x_ptr)).dtype == tl.int1)
        tl.static_assert(libdevice.isfinited(tl.load(x_ptr).to(tl.float64))
                         .dtype == tl.int1)
        tl.static_assert(libdevice.isinf(tl.load(x_ptr)).dtype == tl.int1)
        tl.store(out_ptr, 1.0)
    h.run(kernel, (1,), np.zeros(1, np.float32), np.zeros(1, np.float32))


_CONVERSIONS = {
    "float2int_rn": (np.int32, np.rint), "float2int_rz": (np.int32, np.trunc),
    "float2int_rd": (np.int32, np.floor), "float2int_ru": (np.int32, np.ceil),
    "float2ll_rn": (np.int64, np.rint), "llrint": (np.int64, np.rint),
    "llround": (np.int64, lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5)),
}


@pytest.mark.parametrize("name", sorted(_CONVERSIONS))
def test_libdevice_rounding_conversions(name):
    x = np.concatenate([np.float32([0.5, 1.5, 2.5, -0.5, -1.5, -2.7, 3.2,
                                    -3.9]), _inputs(np.float32, -50, 50)])[:N]
    dtype, ref = _CONVERSIONS[name]
    out, _ = run_unary(getattr(libdevice, name), x, dtype)
    np.testing.assert_array_equal(out, ref(x).astype(dtype))


@pytest.mark.parametrize("name, dtype, ref", [
    ("clz", np.int32, lambda v: [32 - int(a).bit_length() for a in v]),
    ("popc", np.int32, lambda v: [bin(int(a)).count("1") for a in v]),
    ("ffs", np.int32, lambda v: [(int(a) & -int(a)).bit_length() for a in v]),
    ("clz", np.int64, lambda v: [64 - int(a).bit_length() for a in v]),
    ("abs", np.int32, np.abs),
])
def test_libdevice_integer(name, dtype, ref):
    x = np.random.default_rng(5).integers(0, 2 ** 30, N).astype(dtype)
    x[:3] = [0, 1, 2 ** 20]
    if name == "abs":
        x[3:10] = -x[3:10]
    out, _ = run_unary(getattr(libdevice, name), x, np.int32 if name != "abs"
                       else dtype)
    np.testing.assert_array_equal(out, np.array(ref(x), np.int32 if
                                                name != "abs" else dtype))


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint32])
def test_libdevice_mulhi(dtype):
    info = np.iinfo(dtype)
    rng = np.random.default_rng(9)
    x = rng.integers(info.min, info.max, N, dtype=dtype, endpoint=True)
    y = rng.integers(info.min, info.max, N, dtype=dtype, endpoint=True)
    out = run_binary(libdevice.mulhi, x, y)
    ref = [(int(a) * int(b)) >> info.bits for a, b in zip(x, y)]
    ref = [r & ((1 << info.bits) - 1) for r in ref]
    np.testing.assert_array_equal(out.view("u%d" % (info.bits // 8)),
                                  np.array(ref, "u%d" % (info.bits // 8)))


@tpx.jit
def bits_kernel(x_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    hi = libdevice.double2hiint(x)
    lo = libdevice.double2loint(x)
    tl.store(out_ptr + offs, libdevice.hiloint2double(hi, lo) +
             libdevice.longlong_as_double(libdevice.double_as_longlong(x)))


def test_libdevice_bit_reinterpretation():
    x = _inputs(np.float64, -100, 100)
    out = np.zeros_like(x)
    h.run(bits_kernel, (1,), x, out, N=N)
    np.testing.assert_array_equal(out, 2 * x)


def test_libdevice_keeps_triton_extern_calls_the_cpu_maps():
    _, text = run_unary(libdevice.tanh, _inputs(np.float32))
    assert 'symbol = "__nv_tanhf"' in text
    _, text = run_unary(libdevice.exp, _inputs(np.float64))
    assert 'symbol = "__nv_exp"' in text


def test_libdevice_dispatch_errors():
    with pytest.raises(CompilationError, match=r"input arg type does not "
                       r"match.Expect one of dict_keys\(\[\(tpx.language."
                       r"float32,\), \(tpx.language.float64,\)\]\), got "
                       r"\(tpx.language.float16\)"):
        run_unary(libdevice.tanh, np.ones(N, np.float16))
    # As stock Triton 3.6: unlisted types are not promoted.
    with pytest.raises(CompilationError, match=r"got \(tpx.language.float32, "
                       r"tpx.language.int64\)"):
        run_binary(libdevice.pow, np.ones(N, np.float32),
                   np.ones(N, np.int64))
    with pytest.raises(CompilationError, match=r"got \(tpx.language.float64, "
                       r"tpx.language.int32\)"):
        run_binary(libdevice.atan2, np.ones(N, np.float64),
                   np.ones(N, np.int32))


@tpx.jit
def broadcast_kernel(x_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    # A scalar argument is broadcast to the block's shape.
    tl.store(out_ptr + offs, libdevice.atan2(x, 1.0) + libdevice.pow(2.0, x))


def test_libdevice_broadcasts_scalar_arguments():
    x = _inputs(np.float32, -3, 3)
    out = np.zeros_like(x)
    h.run(broadcast_kernel, (1,), x, out, N=N)
    # atol: libdevice's atan2/exp2 are within an ulp or two, which is more
    # than rtol near the result's zero crossing.
    np.testing.assert_allclose(out, np.arctan2(x, 1.0) + 2.0 ** x,
                               rtol=1e-5, atol=1e-6)


@h.cpu_only("tests the CPU target's error for an NVIDIA-only function")
def test_nvidia_only_function_fails_on_the_cpu_naming_the_symbol():
    assert "lgamma" in libdevice.NVIDIA_ONLY
    assert "tanh" not in libdevice.NVIDIA_ONLY
    with pytest.raises(tpx.TpxError, match="__nv_lgammaf"):
        run_unary(libdevice.lgamma, _inputs(np.float32))


def test_tl_extra_libdevice_alias():
    assert tl.extra.libdevice is libdevice
    assert tl.extra.libdevice.pow is libdevice.pow
    from tpx.language.extra.libdevice import isnan
    assert isnan is libdevice.isnan


# -- extern_elementwise, inline asm, map_elementwise --------------------------

@tpx.jit
def libm_kernel(x_ptr, y_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    r = tl.extern_elementwise("", "", [x, y], {
        (tl.float32, tl.float32): ("hypotf", tl.float32),
        (tl.float64, tl.float64): ("hypot", tl.float64)}, is_pure=True)
    tl.store(out_ptr + offs, r)


@h.cpu_only("calls a function of the host's C library")
def test_extern_elementwise_calls_a_host_function_on_the_cpu():
    x, y = _inputs(np.float32), _inputs(np.float32, seed=2)
    out = np.zeros_like(x)
    text = h.run(libm_kernel, (1,), x, y, out, N=N)
    assert 'symbol = "hypotf"' in text
    np.testing.assert_allclose(out, np.hypot(x, y), rtol=1e-6)


@tpx.jit
def asm_kernel(x_ptr, out_ptr, out2_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    doubled = tl.inline_asm_elementwise("mov $1, $0; add $1, $0", "=r,r",
                                        [x], dtype=tl.int32, is_pure=True,
                                        pack=1)
    a, b = tl.inline_asm_elementwise("mov $2, $0; mov $2, $1; add $3, $1",
                                     "=r,=r,r,r", [x, 5], dtype=(tl.int32,
                                                                 tl.int32),
                                     is_pure=True, pack=1)
    tl.store(out_ptr + offs, doubled)
    tl.store(out2_ptr + offs, a * 1000 + b)


@h.cpu_only("x86 inline assembly")
def test_inline_asm_elementwise_on_the_cpu():
    x = np.arange(N, dtype=np.int32)
    out, out2 = np.zeros_like(x), np.zeros_like(x)
    text = h.run(asm_kernel, (1,), x, out, out2, N=N)
    assert "tt.elementwise_inline_asm" in text
    np.testing.assert_array_equal(out, 2 * x)
    np.testing.assert_array_equal(out2, x * 1000 + x + 5)


@tpx.jit
def asm_pack_kernel(x_ptr, out_ptr, N: tl.constexpr):
    # Four int8 per 32-bit register: one operand each for the result and
    # the argument (as in Triton; wider types take one per element).
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.inline_asm_elementwise(
        "mov $1, $0", "=r,r", [x], dtype=tl.int8, is_pure=True, pack=4))


@h.cpu_only("the CPU target's refusal; sm_90a runs packed asm")
def test_inline_asm_pack_is_refused_on_the_cpu():
    x = np.arange(N, dtype=np.int8)
    with pytest.raises(tpx.TpxError, match="only 1"):
        h.run(asm_pack_kernel, (1,), x, np.zeros_like(x), N=N)


@tpx.jit
def selu_scalar(x, alpha):
    if x > 0:
        r = x
    else:
        r = alpha * (tl.exp(x) - 1)
    return r


@tpx.jit
def map_kernel(x_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.map_elementwise(selu_scalar, x, 1.5))


def test_map_elementwise():
    x = _inputs(np.float32, -3, 3)
    out = np.zeros_like(x)
    text = h.run(map_kernel, (1,), x, out, N=N)
    assert "tt.map_elementwise" in text
    np.testing.assert_allclose(out, np.where(x > 0, x, 1.5 * (np.exp(x) - 1)),
                               rtol=1e-6)


@tpx.jit
def swap_pairs(a, b, c, d):
    return b, a, c + d, c - d


@tpx.jit
def map_pack_kernel(x_ptr, y_ptr, o1_ptr, o2_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    r1, r2 = tl.map_elementwise(swap_pairs, tl.load(x_ptr + offs),
                                tl.load(y_ptr + offs), pack=2)
    tl.store(o1_ptr + offs, r1)
    tl.store(o2_ptr + offs, r2)


def test_map_elementwise_with_pack():
    x = np.arange(N, dtype=np.int32)
    y = 100 * np.arange(N, dtype=np.int32)
    o1, o2 = np.zeros_like(x), np.zeros_like(x)
    h.run(map_pack_kernel, (1,), x, y, o1, o2, N=N)
    # Each call sees (x[i], x[i+1], y[i], y[i+1]) for even i.
    np.testing.assert_array_equal(o1, x.reshape(-1, 2)[:, ::-1].reshape(-1))
    ref = np.stack([y[0::2] + y[1::2], y[0::2] - y[1::2]], 1).reshape(-1)
    np.testing.assert_array_equal(o2, ref)
