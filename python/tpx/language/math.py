"""`tl.math`: elementwise math of `triton.language` (also at `tl.` level).

Each function emits the op Triton's builder emits (`math.exp`,
`tt.precise_sqrt`, `tt.mulhiui`, ...). Like Triton, the transcendental
functions accept only the dtypes libdevice has (fp32/fp64): an fp16 or bf16
argument is an error (`Expected dtype ['fp32', 'fp64'] but got fp16`), not
an implicit upcast, so programs must `.to(tl.float32)` first exactly as on
Triton. Python numbers are converted with Triton's rules (2.0 -> fp32).
"""

import functools

from tpx.compiler.ir import Raw
from tpx.language import core
from tpx.language.core import builtin, constexpr, tensor

_NO_FASTMATH = {"fastmath": Raw("#arith.fastmath<none>")}


from tpx.language.core import _unwrap_if_constexpr as _unwrap  # noqa


def _check_dtype(dtypes):
    """Rejects tensor arguments whose element type is not in `dtypes` (the
    libdevice convention Triton follows), before any conversion."""
    def decorator(fn):
        @functools.wraps(fn)
        def check(*args, **kwargs):
            for arg in list(args) + list(kwargs.values()):
                if isinstance(arg, tensor) and \
                        arg.type.scalar.name not in dtypes:
                    raise ValueError("Expected dtype %s but got %s" %
                                     (list(dtypes), arg.type.scalar.name))
            return fn(*args, **kwargs)
        return check
    return decorator


def _member(fn):
    """Makes the builtin `fn` a tensor method too (`x.exp()`), as Triton's
    `_tensor_member_fn` does."""
    setattr(tensor, fn.__name__, fn)
    return fn


def _unary(sem, x, name, fastmath=True):
    x = sem.to_tensor(x)
    return sem.op(name, [x], x.type,
                  props=_NO_FASTMATH if fastmath else None)


def _legalize(sem, x, y):
    """Triton's binary_op_type_legalization: promote and broadcast."""
    return sem.binary_op_type_checking_impl(x, y)


# -- integer ------------------------------------------------------------------

@builtin
@_check_dtype(["int32", "int64", "uint32", "uint64"])
def umulhi(x, y, _semantic=None):
    """The most significant N bits of the 2N-bit product of `x` and `y`."""
    x = _semantic.to_tensor(x)
    y = _semantic.to_tensor(y)
    x, y = _legalize(_semantic, x, y)
    return _semantic.op("tt.mulhiui", [x, y], x.type)


# -- transcendental and rounding ----------------------------------------------

@_member
@builtin
@_check_dtype(["fp32", "fp64"])
def exp(x, _semantic=None):
    """Elementwise e**x."""
    return _unary(_semantic, x, "math.exp")


@_member
@builtin
@_check_dtype(["fp32", "fp64"])
def exp2(x, _semantic=None):
    """Elementwise 2**x."""
    return _unary(_semantic, x, "math.exp2")


@_member
@builtin
@_check_dtype(["fp32", "fp64"])
def log(x, _semantic=None):
    """Elementwise natural logarithm."""
    return _unary(_semantic, x, "math.log")


@_member
@builtin
@_check_dtype(["fp32", "fp64"])
def log2(x, _semantic=None):
    """Elementwise base-2 logarithm."""
    return _unary(_semantic, x, "math.log2")


@_member
@builtin
@_check_dtype(["fp32", "fp64"])
def cos(x, _semantic=None):
    """Elementwise cosine."""
    return _unary(_semantic, x, "math.cos")


@_member
@builtin
@_check_dtype(["fp32", "fp64"])
def sin(x, _semantic=None):
    """Elementwise sine."""
    return _unary(_semantic, x, "math.sin")


@_member
@builtin
@_check_dtype(["fp32", "fp64"])
def sqrt(x, _semantic=None):
    """Elementwise (fast) square root."""
    return _unary(_semantic, x, "math.sqrt")


@_member
@builtin
@_check_dtype(["fp32"])
def sqrt_rn(x, _semantic=None):
    """Elementwise square root rounded to nearest (IEEE)."""
    x = _semantic.to_tensor(x)
    return _semantic.op("tt.precise_sqrt", [x], x.type)


@_member
@builtin
@_check_dtype(["fp32", "fp64"])
def rsqrt(x, _semantic=None):
    """Elementwise 1 / sqrt(x)."""
    return _unary(_semantic, x, "math.rsqrt")


@_member
@builtin
@_check_dtype(["fp32", "fp64"])
def erf(x, _semantic=None):
    """Elementwise error function."""
    return _unary(_semantic, x, "math.erf")


@_member
@builtin
@_check_dtype(["fp32", "fp64"])
def floor(x, _semantic=None):
    """Elementwise floor."""
    return _unary(_semantic, x, "math.floor")


@_member
@builtin
@_check_dtype(["fp32", "fp64"])
def ceil(x, _semantic=None):
    """Elementwise ceiling."""
    return _unary(_semantic, x, "math.ceil")


@_member
@builtin
def abs(x, _semantic=None):
    """Elementwise absolute value; unsigned integers are returned as is."""
    sem = _semantic
    x = sem.to_tensor(x)
    dt = x.dtype
    if dt.is_fp8():
        # Clear the sign bit on the byte, as Triton does for fp8e4b15; every
        # fp8 format keeps its sign in the top bit.
        bits = sem.bitcast(x, core.int8)
        mask = sem.full(list(x.type.shape) if x.type.is_block() else [],
                        0x7F, core.int8)
        return sem.bitcast(sem.and_(bits, mask), dt)
    if dt.is_floating():
        return _unary(sem, x, "math.absf")
    if dt.is_int_signed():
        return _unary(sem, x, "math.absi", fastmath=False)
    if dt.is_int_unsigned():
        return x
    raise AssertionError("Unexpected dtype %s" % dt)


# -- division and fma ---------------------------------------------------------

@builtin
def fdiv(x, y, ieee_rounding=False, _semantic=None):
    """Fast floating-point division (`ieee_rounding` is accepted and, as in
    Triton, does not change the op)."""
    sem = _semantic
    x = sem.to_tensor(x)
    y = sem.to_tensor(y)
    if not x.type.scalar.is_floating() or not y.type.scalar.is_floating():
        raise TypeError("both operands of fdiv must have floating scalar type")
    return sem.fdiv(x, y, _unwrap(ieee_rounding))


@builtin
@_check_dtype(["fp32"])
def div_rn(x, y, _semantic=None):
    """Division rounded to nearest (IEEE)."""
    sem = _semantic
    x, y = _legalize(sem, sem.to_tensor(x), sem.to_tensor(y))
    return sem.op("tt.precise_divf", [x, y], x.type)


@builtin
def fma(x, y, z, _semantic=None):
    """Fused multiply-add x * y + z, promoted to a common type."""
    sem = _semantic
    x, y, z = sem.to_tensor(x), sem.to_tensor(y), sem.to_tensor(z)
    x, y = _legalize(sem, x, y)
    z, x = _legalize(sem, z, x)
    z, y = _legalize(sem, z, y)
    if not x.type.scalar.is_floating():
        raise TypeError("fma requires floating-point operands, got %s" %
                        x.type.scalar)
    return sem.op("math.fma", [x, y, z], x.type, props=_NO_FASTMATH)


__all__ = ["abs", "ceil", "cos", "div_rn", "erf", "exp", "exp2", "fdiv",
           "floor", "fma", "log", "log2", "rsqrt", "sin", "sqrt", "sqrt_rn",
           "umulhi"]
