"""`tpx.language.extra.libdevice` (also `tl.extra.libdevice`): the libdevice
functions Triton programs call, with Triton's names, argument types and
result types.

Each function dispatches on its argument dtypes like Triton's
`extern_elementwise` (fp32 -> `__nv_<name>f`, fp64 -> `__nv_<name>`, ...;
other types are promoted first and must then match, else `input arg type
does not match...`). What it emits is chosen so that the kernel runs on
every tpx target:

- `tt.extern_elementwise` of the libdevice symbol, as Triton, when the CPU
  backend maps that symbol to a math op (exp, log, tanh, pow, erf, ...; see
  `cpu_maps_symbol`); the NVIDIA target links libdevice itself;
- otherwise an equivalent built from `arith`/`math`/`tt` ops (isnan,
  isinf, signbit, hypot, exp10, the `_rn` arithmetic, conversions with a
  rounding mode, clz/popc, ...), which both targets compile;
- otherwise (the functions in NVIDIA_ONLY) `tt.extern_elementwise`, which
  only the NVIDIA target can resolve: on the CPU the compile fails with
  "the kernel calls '__nv_...', which is defined neither ...".
"""

import math as _pymath

from tpx.compiler.ir import Raw
from tpx.language import core
from tpx.language.core import builtin, constexpr
from tpx.language.elementwise import emit_extern, resolve_extern

_T = {"f32": core.float32, "f64": core.float64, "i32": core.int32,
      "i64": core.int64, "u32": core.uint32, "u64": core.uint64}
_NO_FASTMATH = {"fastmath": Raw("#arith.fastmath<none>")}

# -- the CPU backend's libdevice names ----------------------------------------

# Mirrors buildKnownMathCall in lib/Conversion/TTToCPU/ElementwisePatterns.cpp:
# the libdevice/ocml functions the CPU target turns into math ops, by base
# name and arity. Keep the two in sync.
_CPU_UNARY = frozenset(
    "exp exp2 expm1 log log2 log10 log1p sin cos tan asin acos atan sinh "
    "cosh tanh asinh acosh atanh sqrt rsqrt cbrt erf erfc floor ceil trunc "
    "round rint nearbyint fabs".split())
_CPU_BINARY = frozenset("pow atan2 fmod copysign fmax fmin".split())


def cpu_maps_symbol(symbol, nargs):
    """Whether the CPU target lowers `tt.extern_elementwise` of `symbol` to a
    math op (instead of calling a host function of that name)."""
    name = symbol
    for prefix in ("__nv_", "__ocml_"):
        if name.startswith(prefix):
            name = name[len(prefix):]
    for suffix in ("_f32", "_f64", "_f16"):
        if name.endswith(suffix):
            name = name[:-len(suffix)]
            break
    base = name
    if len(base) > 1 and base.endswith("f") and \
            base not in ("erf", "erfcf", "rsqrtf"):
        base = base[:-1]
    base = {"rsqrtf": "rsqrt", "erfcf": "erfc"}.get(base, base)
    if nargs == 1:
        return base in _CPU_UNARY
    if nargs == 2:
        return base in _CPU_BINARY
    return nargs == 3 and base == "fma"


# -- building blocks of the portable equivalents ------------------------------

def _shape(t):
    return list(t.type.shape) if t.type.is_block() else []


def _like(sem, value, x, dt=None):
    """A constant `value` with the shape of `x` (dtype `dt` or x's)."""
    return sem.full(_shape(x), value, dt or x.dtype)


def _math(sem, name, args, dt=None, fastmath=True):
    ty = args[0].type if dt is None else args[0].type.with_element_ty(dt)
    return sem.op(name, args, ty, props=_NO_FASTMATH if fastmath else None)


def _cmpf(sem, pred, x, y):
    return sem.op("arith.cmpf", [x, y], x.type.with_element_ty(core.int1),
                  props={"fastmath": Raw("#arith.fastmath<none>"),
                         "predicate": Raw("%d : i64" % pred)})


_OEQ, _ONE, _UNO = 1, 6, 14


def _convert(sem, op, x, dt):
    return sem.op(op, [x], x.type.with_element_ty(dt))


def _to_bool_int(sem, flag):
    """i1 -> int32 0/1."""
    return _convert(sem, "arith.extui", flag, core.int32)


def _isinf(sem, x):
    return _cmpf(sem, _OEQ, _math(sem, "math.absf", [x]),
                 _like(sem, _pymath.inf, x))


def _unsigned(dt):
    return core.uint32 if dt.primitive_bitwidth == 32 else core.uint64


# -- portable equivalents (sem, dispatched args, result dtype) -> tensor ------

def _c_math(name):
    def build(sem, args, rt):
        return _math(sem, name, args)
    return build


def _c_isnan(sem, args, rt):
    return _cmpf(sem, _UNO, args[0], args[0])


def _c_isinf(sem, args, rt):
    return _isinf(sem, args[0])


def _c_isfinite(sem, args, rt):
    x = args[0]
    finite = _cmpf(sem, _ONE, _math(sem, "math.absf", [x]),
                   _like(sem, _pymath.inf, x))
    return _to_bool_int(sem, finite)


def _c_signbit(sem, args, rt):
    x = args[0]
    bits = x.dtype.primitive_bitwidth
    top = sem.lshr(sem.bitcast(x, _unsigned(x.dtype)), bits - 1)
    return sem.cast(top, core.int32)


def _hypot(sem, x, y):
    inf = sem.logical_or(_isinf(sem, x), _isinf(sem, y))
    if x.dtype == core.float32:
        # Exact enough: squares of fp32 neither overflow nor underflow fp64.
        x64, y64 = sem.cast(x, core.float64), sem.cast(y, core.float64)
        r = _math(sem, "math.sqrt", [sem.add(sem.mul(x64, x64),
                                             sem.mul(y64, y64))])
        r = sem.cast(r, core.float32)
    else:
        a = _math(sem, "math.absf", [x])
        b = _math(sem, "math.absf", [y])
        big = _math(sem, "arith.maximumf", [a, b])
        small = _math(sem, "arith.minimumf", [a, b])
        ratio = sem.fdiv(small, big)
        r = sem.mul(big, _math(sem, "math.sqrt", [
            sem.add(_like(sem, 1.0, x), sem.mul(ratio, ratio))]))
        zero = _like(sem, 0.0, x)
        r = sem.where(_cmpf(sem, _OEQ, big, zero), zero, r)
    return sem.where(inf, _like(sem, _pymath.inf, x), r)


def _c_hypot(sem, args, rt):
    return _hypot(sem, args[0], args[1])


def _c_rhypot(sem, args, rt):
    h = _hypot(sem, args[0], args[1])
    return sem.fdiv(_like(sem, 1.0, h), h)


def _c_exp10(sem, args, rt):
    x = args[0]
    return _math(sem, "math.powf", [_like(sem, 10.0, x), x])


def _c_rcbrt(sem, args, rt):
    c = _math(sem, "math.cbrt", [args[0]])
    return sem.fdiv(_like(sem, 1.0, c), c)


def _c_normcdf(sem, args, rt):
    x = args[0]
    scaled = sem.mul(sem.minus(x), _like(sem, _pymath.sqrt(0.5), x))
    return sem.mul(_like(sem, 0.5, x), _math(sem, "math.erfc", [scaled]))


def _c_saturate(sem, args, rt):
    x = args[0]
    zero = _like(sem, 0.0, x)
    low = _math(sem, "arith.minnumf", [x, _like(sem, 1.0, x)])
    return sem.where(_cmpf(sem, 2, x, zero), low, zero)   # ogt


def _c_powi(sem, args, rt):
    x, n = args
    return _math(sem, "math.powf", [x, sem.cast(n, x.dtype)])


def _c_pow(sem, args, rt):
    if args[1].dtype.is_int():
        return _c_powi(sem, args, rt)
    return _math(sem, "math.powf", args)


def _c_fdim(sem, args, rt):
    x, y = args
    return sem.where(_cmpf(sem, 5, x, y), _like(sem, 0.0, x),   # ole
                     sem.sub(x, y))


def _c_div(sem, args, rt):
    x, y = args
    if x.dtype == core.float32:
        return sem.op("tt.precise_divf", [x, y], x.type)
    return sem.fdiv(x, y)


def _c_rcp(sem, args, rt):
    x = args[0]
    return _c_div(sem, [_like(sem, 1.0, x), x], rt)


def _c_sqrt_rn(sem, args, rt):
    x = args[0]
    if x.dtype == core.float32:
        return sem.op("tt.precise_sqrt", [x], x.type)
    return _math(sem, "math.sqrt", [x])


def _c_rsqrt_rn(sem, args, rt):
    x = sem.cast(args[0], core.float64)
    r = sem.fdiv(_like(sem, 1.0, x), _math(sem, "math.sqrt", [x]))
    return sem.cast(r, core.float32)


def _c_binary(method):
    def build(sem, args, rt):
        return getattr(sem, method)(args[0], args[1])
    return build


def _c_fma(sem, args, rt):
    return _math(sem, "math.fma", args)


_ROUNDING = {"rn": "math.roundeven", "rd": "math.floor", "ru": "math.ceil",
             "rz": None}


def _c_float_to_int(mode, signed):
    def build(sem, args, rt):
        x = args[0]
        if _ROUNDING[mode]:
            x = _math(sem, _ROUNDING[mode], [x])
        op = "arith.fptosi" if signed else "arith.fptoui"
        return _convert(sem, op, x, rt)
    return build


def _c_int_to_float(sem, args, rt):
    x = args[0]
    op = "arith.sitofp" if x.dtype.is_int_signed() else "arith.uitofp"
    return _convert(sem, op, x, rt)


def _c_round_to_int(rounding):
    def build(sem, args, rt):
        return _convert(sem, "arith.fptosi",
                        _math(sem, rounding, [args[0]]), rt)
    return build


def _c_bitcast(sem, args, rt):
    return sem.bitcast(args[0], rt)


def _c_truncf(sem, args, rt):
    return sem.cast(args[0], rt)


def _c_double_hi(sem, args, rt):
    bits = sem.bitcast(args[0], core.uint64)
    return sem.cast(sem.lshr(bits, 32), rt)


def _c_double_lo(sem, args, rt):
    return sem.cast(sem.bitcast(args[0], core.int64), rt)


def _c_hilo_to_double(sem, args, rt):
    hi, lo = (sem.cast(sem.cast(v, core.uint32), core.uint64)
              for v in args)
    return sem.bitcast(sem.or_(sem.shl(hi, 32), lo), core.float64)


def _c_abs_int(sem, args, rt):
    return _math(sem, "math.absi", [args[0]], fastmath=False)


def _c_bitcount(name):
    def build(sem, args, rt):
        return sem.cast(_math(sem, name, [args[0]], fastmath=False), rt)
    return build


def _c_ffs(sem, args, rt):
    x = args[0]
    tz = sem.add(_math(sem, "math.cttz", [x], fastmath=False), 1)
    zero = _like(sem, 0, x)
    return sem.cast(sem.where(sem.equal(x, zero), zero, tz), rt)


def _c_mulhi(sem, args, rt):
    x, y = args
    if x.dtype.is_int_unsigned():
        return sem.op("tt.mulhiui", [x, y], x.type)
    if x.dtype == core.int32:
        wide = sem.mul(sem.cast(x, core.int64), sem.cast(y, core.int64))
        return sem.cast(sem.ashr(wide, 32), core.int32)
    # Signed 64-bit: the unsigned high word, corrected for negative factors.
    hi = sem.op("tt.mulhiui", [x, y], x.type)
    zero = _like(sem, 0, x)
    hi = sem.sub(hi, sem.where(sem.less_than(x, zero), y, zero))
    return sem.sub(hi, sem.where(sem.less_than(y, zero), x, zero))


def _c_hadd(rounding_up):
    def build(sem, args, rt):
        x, y = args
        half = sem.ashr(sem.xor_(x, y), 1) if x.dtype.is_int_signed() else \
            sem.lshr(sem.xor_(x, y), 1)
        if rounding_up:
            return sem.sub(sem.or_(x, y), half)
        return sem.add(sem.and_(x, y), half)
    return build


# -- the table of functions ---------------------------------------------------

NVIDIA_ONLY = []      # names emitted as extern calls that only NVIDIA links


def _define(name, entries, composite=None, to_bool=False):
    """Defines libdevice function `name`; entries are (argument dtype names,
    symbol, result dtype name)."""
    table = {tuple(_T[a] for a in args): (symbol, _T[ret])
             for args, symbol, ret in entries}
    arity = len(entries[0][0])
    if composite is None and not all(cpu_maps_symbol(s, arity)
                                     for _, s, _ in entries):
        NVIDIA_ONLY.append(name)

    def fn(*args, _semantic=None):
        if len(args) != arity:
            raise TypeError("%s() takes %d positional argument%s but %d were "
                            "given" % (name, arity, "s" if arity > 1 else "",
                                       len(args)))
        sem = _semantic
        values, symbol, ret_type = resolve_extern(
            sem, [a.value if isinstance(a, constexpr) else a for a in args],
            table)
        if composite is not None and not cpu_maps_symbol(symbol, arity):
            result = composite(sem, values, ret_type.scalar)
        else:
            result = emit_extern(sem, values, symbol, ret_type, True)
        if to_bool:
            result = sem.cast(result, core.int1)
        return result
    fn.__name__ = name
    fn.__qualname__ = name
    fn.__doc__ = "libdevice `%s` (%s)." % (
        name, ", ".join(s for _, s, _ in entries))
    globals()[name] = builtin(fn)
    __all__.append(name)


__all__ = ["cpu_maps_symbol", "NVIDIA_ONLY"]


def _float_fn(name, composite=None, arity=1, ret=None):
    """A function of `arity` floats: fp32 -> __nv_<name>f, fp64 ->
    __nv_<name> (unless given); the result has the argument type unless
    `ret` names one."""
    _define(name, [(("f32",) * arity, "__nv_%sf" % name, ret or "f32"),
                   (("f64",) * arity, "__nv_%s" % name, ret or "f64")],
            composite)


# Unary float functions the CPU maps (extern calls on both targets).
for _name in ("acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt",
              "ceil", "cos", "cosh", "erf", "erfc", "exp", "exp2", "expm1",
              "floor", "log", "log10", "log1p", "log2", "nearbyint", "rint",
              "round", "rsqrt", "sin", "sinh", "sqrt", "tan", "tanh",
              "trunc"):
    _float_fn(_name)
# Binary float functions the CPU maps.
for _name in ("atan2", "copysign", "fmax", "fmin", "fmod"):
    _float_fn(_name, arity=2)
_float_fn("fma", arity=3)

# Portable equivalents.
_float_fn("exp10", _c_exp10)
_float_fn("rcbrt", _c_rcbrt)
_float_fn("normcdf", _c_normcdf)
_float_fn("hypot", _c_hypot, arity=2)
_float_fn("rhypot", _c_rhypot, arity=2)
_float_fn("fdim", _c_fdim, arity=2)
_define("pow", [(("f32", "i32"), "__nv_powif", "f32"),
                (("f64", "i32"), "__nv_powi", "f64"),
                (("f32", "f32"), "__nv_powf", "f32"),
                (("f64", "f64"), "__nv_pow", "f64")], _c_pow)
_define("isnan", [(("f32",), "__nv_isnanf", "i32"),
                  (("f64",), "__nv_isnand", "i32")], _c_isnan, to_bool=True)
_define("isinf", [(("f32",), "__nv_isinff", "i32"),
                  (("f64",), "__nv_isinfd", "i32")], _c_isinf, to_bool=True)
_define("signbit", [(("f32",), "__nv_signbitf", "i32"),
                    (("f64",), "__nv_signbitd", "i32")], _c_signbit)
_define("finitef", [(("f32",), "__nv_finitef", "i32")], _c_isfinite)
_define("isfinited", [(("f64",), "__nv_isfinited", "i32")], _c_isfinite)
_define("abs", [(("i32",), "__nv_abs", "i32"), (("i64",), "__nv_llabs", "i64"),
                (("f32",), "__nv_fabsf", "f32"),
                (("f64",), "__nv_fabs", "f64")], _c_abs_int)
_define("llrint", [(("f32",), "__nv_llrintf", "i64"),
                   (("f64",), "__nv_llrint", "i64")],
        _c_round_to_int("math.roundeven"))
_define("llround", [(("f32",), "__nv_llroundf", "i64"),
                    (("f64",), "__nv_llround", "i64")],
        _c_round_to_int("math.round"))

# Correctly rounded arithmetic (round to nearest); the other rounding modes
# are NVIDIA only.
_define("div_rn", [(("f32", "f32"), "__nv_fdiv_rn", "f32"),
                   (("f64", "f64"), "__nv_ddiv_rn", "f64")], _c_div)
_define("rcp_rn", [(("f32",), "__nv_frcp_rn", "f32"),
                   (("f64",), "__nv_drcp_rn", "f64")], _c_rcp)
_define("sqrt_rn", [(("f32",), "__nv_fsqrt_rn", "f32"),
                    (("f64",), "__nv_dsqrt_rn", "f64")], _c_sqrt_rn)
_define("rsqrt_rn", [(("f32",), "__nv_frsqrt_rn", "f32")], _c_rsqrt_rn)
for _op, _method in (("add", "add"), ("sub", "sub"), ("mul", "mul")):
    _define(_op + "_rn", [(("f32", "f32"), "__nv_f%s_rn" % _op, "f32"),
                          (("f64", "f64"), "__nv_d%s_rn" % _op, "f64")],
            _c_binary(_method))
_define("fma_rn", [(("f32",) * 3, "__nv_fmaf_rn", "f32"),
                   (("f64",) * 3, "__nv_fma_rn", "f64")], _c_fma)
for _mode in ("rz", "rd", "ru"):
    _define("div_" + _mode, [(("f32", "f32"), "__nv_fdiv_" + _mode, "f32"),
                             (("f64", "f64"), "__nv_ddiv_" + _mode, "f64")])
    _define("rcp_" + _mode, [(("f32",), "__nv_frcp_" + _mode, "f32"),
                             (("f64",), "__nv_drcp_" + _mode, "f64")])
    _define("sqrt_" + _mode, [(("f32",), "__nv_fsqrt_" + _mode, "f32"),
                              (("f64",), "__nv_dsqrt_" + _mode, "f64")])
    for _op in ("add", "sub", "mul"):
        _define(_op + "_" + _mode,
                [(("f32", "f32"), "__nv_f%s_%s" % (_op, _mode), "f32"),
                 (("f64", "f64"), "__nv_d%s_%s" % (_op, _mode), "f64")])
    _define("fma_" + _mode, [(("f32",) * 3, "__nv_fmaf_" + _mode, "f32"),
                             (("f64",) * 3, "__nv_fma_" + _mode, "f64")])

# Fast (approximate) fp32 variants: the plain math op on both targets.
for _name, _op in (("fast_sinf", "math.sin"), ("fast_cosf", "math.cos"),
                   ("fast_tanf", "math.tan"), ("fast_expf", "math.exp"),
                   ("fast_logf", "math.log"), ("fast_log2f", "math.log2"),
                   ("fast_log10f", "math.log10")):
    _define(_name, [(("f32",), "__nv_" + _name, "f32")], _c_math(_op))
_define("fast_exp10f", [(("f32",), "__nv_fast_exp10f", "f32")], _c_exp10)
_define("fast_powf", [(("f32", "f32"), "__nv_fast_powf", "f32")], _c_pow)
_define("fast_dividef", [(("f32", "f32"), "__nv_fast_fdividef", "f32")],
        _c_binary("fdiv"))
_define("saturatef", [(("f32",), "__nv_saturatef", "f32")], _c_saturate)

# Conversions with a rounding mode.
for _mode in ("rn", "rz", "rd", "ru"):
    for _src, _prefix in (("f32", "float"), ("f64", "double")):
        for _dst, _sym, _ret, _signed in (("int", "int", "i32", True),
                                          ("uint", "uint", "i32", False),
                                          ("ll", "ll", "i64", True),
                                          ("ull", "ull", "i64", False)):
            _define("%s2%s_%s" % (_prefix, _dst, _mode),
                    [((_src,), "__nv_%s2%s_%s" % (_prefix, _sym, _mode),
                      _ret)], _c_float_to_int(_mode, _signed))
_define("double2float_rn", [(("f64",), "__nv_double2float_rn", "f32")],
        _c_truncf)
for _mode in ("rz", "rd", "ru"):
    _define("double2float_" + _mode,
            [(("f64",), "__nv_double2float_" + _mode, "f32")])
for _mode in ("rn", "rz", "rd", "ru"):
    _build = _c_int_to_float if _mode == "rn" else None
    for _name, _src, _ret in (("int2float", "i32", "f32"),
                              ("uint2float", "u32", "f32"),
                              ("ll2float", "i64", "f32"),
                              ("ull2float", "u64", "f32"),
                              ("ll2double", "i64", "f64"),
                              ("ull2double", "u64", "f64")):
        _define("%s_%s" % (_name, _mode),
                [((_src,), "__nv_%s_%s" % (_name, _mode), _ret)], _build)
_define("int2double_rn", [(("i32",), "__nv_int2double_rn", "f64")],
        _c_int_to_float)
_define("uint2double_rn", [(("u32",), "__nv_uint2double_rn", "f64")],
        _c_int_to_float)
for _name, _src, _ret in (("int_as_float", "i32", "f32"),
                          ("float_as_int", "f32", "i32"),
                          ("uint_as_float", "u32", "f32"),
                          ("float_as_uint", "f32", "i32"),
                          ("longlong_as_double", "i64", "f64"),
                          ("double_as_longlong", "f64", "i64")):
    _define(_name, [((_src,), "__nv_" + _name, _ret)], _c_bitcast)
_define("double2hiint", [(("f64",), "__nv_double2hiint", "i32")],
        _c_double_hi)
_define("double2loint", [(("f64",), "__nv_double2loint", "i32")],
        _c_double_lo)
_define("hiloint2double", [(("i32", "i32"), "__nv_hiloint2double", "f64")],
        _c_hilo_to_double)

# Integer functions.
_define("clz", [(("i32",), "__nv_clz", "i32"),
                 (("i64",), "__nv_clzll", "i32")],
        _c_bitcount("math.ctlz"))
_define("popc", [(("i32",), "__nv_popc", "i32"),
                 (("i64",), "__nv_popcll", "i32")],
        _c_bitcount("math.ctpop"))
_define("ffs", [(("i32",), "__nv_ffs", "i32"),
                 (("i64",), "__nv_ffsll", "i32")],
        _c_ffs)
_define("mulhi", [(("i32", "i32"), "__nv_mulhi", "i32"),
                  (("u32", "u32"), "__nv_umulhi", "u32"),
                  (("i64", "i64"), "__nv_mul64hi", "i64"),
                  (("u64", "u64"), "__nv_umul64hi", "u64")], _c_mulhi)
_define("hadd", [(("i32", "i32"), "__nv_hadd", "i32"),
                 (("u32", "u32"), "__nv_uhadd", "u32")], _c_hadd(False))
_define("rhadd", [(("i32", "i32"), "__nv_rhadd", "i32"),
                  (("u32", "u32"), "__nv_urhadd", "u32")], _c_hadd(True))

# NVIDIA only: libdevice has them, the CPU target does not.
_define("brev", [(("i32",), "__nv_brev", "i32"),
                 (("i64",), "__nv_brevll", "i64")])
_define("byte_perm", [(("i32",) * 3, "__nv_byte_perm", "i32")])
_define("mul24", [(("i32", "i32"), "__nv_mul24", "i32"),
                  (("u32", "u32"), "__nv_umul24", "u32")])
_define("sad", [(("i32", "i32", "u32"), "__nv_sad", "i32"),
                (("u32", "u32", "u32"), "__nv_usad", "u32")])
for _name in ("cospi", "sinpi", "erfinv", "erfcinv", "erfcx", "normcdfinv",
              "lgamma", "tgamma", "j0", "j1", "y0", "y1", "cyl_bessel_i0",
              "cyl_bessel_i1", "logb"):
    _float_fn(_name)
_float_fn("ilogb", ret="i32")
for _name in ("nextafter", "remainder"):
    _float_fn(_name, arity=2)
for _name in ("norm3d", "rnorm3d"):
    _float_fn(_name, arity=3)
for _name in ("norm4d", "rnorm4d"):
    _float_fn(_name, arity=4)
_define("ldexp", [(("f32", "i32"), "__nv_ldexpf", "f32"),
                  (("f64", "i32"), "__nv_ldexp", "f64")])
_define("scalbn", [(("f32", "i32"), "__nv_scalbnf", "f32"),
                   (("f64", "i32"), "__nv_scalbn", "f64")])
_define("jn", [(("i32", "f32"), "__nv_jnf", "f32"),
               (("i32", "f64"), "__nv_jn", "f64")])
_define("yn", [(("i32", "f32"), "__nv_ynf", "f32"),
               (("i32", "f64"), "__nv_yn", "f64")])
_define("rcp64h", [(("f64",), "__nv_rcp64h", "f64")])

del _name, _op, _method, _mode, _src, _prefix, _dst, _sym, _ret, _signed, \
    _build
