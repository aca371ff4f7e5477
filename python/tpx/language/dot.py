"""`tl.dot` and `tl.dot_scaled`: Triton's matrix products as `tt.dot` and
`tt.dot_scaled`.

The rules are Triton 3.6's on NVIDIA (tpx emits one TTIR for every
target): operands 2-D or batched 3-D of one of int8, uint8, fp16, bf16,
fp32, fp64 (both the same) or any two fp8 types; K >= 16 (>= 32 for
8-bit); int8 accumulates in int32, fp32/bf16 in fp32, fp64 in fp64,
fp16/fp8 in `out_dtype`; fp8e4b15/fp8e4b8/fp8e5b16 operands are upcast to
fp16. `input_precision` (default `tf32`, or `$TRITON_F32_DEFAULT`;
`allow_tf32=False` means `ieee`) becomes `tt.dot`'s `inputPrecision`; the
CPU target computes every precision in IEEE fp32.
"""

import os
import warnings

from tpx.compiler.ir import Raw
from tpx.language import core
from tpx.language.core import block_type, builtin, constexpr

ALLOWED_INPUT_PRECISIONS = ("tf32", "tf32x3", "ieee", "bf16x3", "bf16x6")
DEFAULT_INPUT_PRECISION = "tf32"
# tt.dot's InputPrecision enum (TTAttrs.td).
_PRECISION_ENUM = {"tf32": 0, "tf32x3": 1, "ieee": 2, "bf16x3": 3,
                   "bf16x6": 4}
# tt.dot_scaled's ScaleDotElemType enum.
_SCALE_FORMATS = {"e4m3": 0, "e5m2": 1, "e2m3": 2, "e3m2": 3, "e2m1": 4,
                  "bf16": 5, "fp16": 6}
_DOT_DTYPES = ("int8", "uint8", "fp16", "bf16", "fp32", "fp64")


from tpx.language.core import _unwrap_if_constexpr as _unwrap  # noqa


def _check(cond, message=None):
    """Triton states these rules as asserts: same exception, same text."""
    if not cond:
        raise AssertionError(message) if message is not None else \
            AssertionError()


def _shape_text(t):
    return "[%s]" % ", ".join(repr(s) for s in t.shape)


def _target(sem):
    options = getattr(sem, "options", None)
    return getattr(options, "target", "cpu") or "cpu"


def min_dot_size(lhs_type, rhs_type):
    """(M, N, K) lower bounds of tt.dot operands, as on Triton's NVIDIA
    backend."""
    lhs_bits = lhs_type.scalar.primitive_bitwidth
    rhs_bits = rhs_type.scalar.primitive_bitwidth
    _check(lhs_bits == rhs_bits, "lhs and rhs bitwidth must be the same")
    if lhs_bits == 8:
        return (1, 1, 32)
    return (1, 1, 16)


def _input_precision_enum(precision):
    _check(precision.lower() in ALLOWED_INPUT_PRECISIONS,
           "input_precision must be one of %s. Got %s" %
           (ALLOWED_INPUT_PRECISIONS, precision))
    return _PRECISION_ENUM[precision.lower()]


def _max_num_imprecise_acc_default(sem):
    # Triton's NVIDIA backend: 2**30 on sm_90 (Hopper), 0 elsewhere.
    return 2 ** 30 if _target(sem).startswith("sm_90") else 0


def dot_impl(sem, lhs, rhs, acc, input_precision, max_num_imprecise_acc,
             out_dtype):
    """Triton's semantic.dot: checks, result type, accumulator, tt.dot."""
    _check(lhs.type.is_block() and rhs.type.is_block())
    if not (lhs.dtype.is_fp8() and rhs.dtype.is_fp8()):
        _check(lhs.dtype.name in _DOT_DTYPES,
               "Unsupported lhs dtype %s" % lhs.dtype)
        _check(rhs.dtype.name in _DOT_DTYPES,
               "Unsupported rhs dtype %s" % rhs.dtype)
        _check(lhs.dtype == rhs.dtype,
               "Both operands must be same dtype. Got %s and %s" %
               (lhs.dtype, rhs.dtype))
    if lhs.dtype.is_fp8e4b15() or rhs.dtype.is_fp8e4b15():
        warnings.warn("the use of fp8e4b15 is deprecated on Hopper and later "
                      "architectures and can cause significant slow down. It "
                      "will be removed in a future triton release")
        lhs = sem.cast(lhs, core.float16)
        rhs = sem.cast(rhs, core.float16)
    for name, test in (("fp8e4b8", core.dtype.is_fp8e4b8),
                       ("fp8e5b16", core.dtype.is_fp8e5b16)):
        if test(lhs.dtype) or test(rhs.dtype):
            warnings.warn("%s is AMD gfx942 specific and not supported on "
                          "this target so it's upcasted to fp16 and can cause "
                          "significant slow down." % name)
            lhs = sem.cast(lhs, core.float16)
            rhs = sem.cast(rhs, core.float16)
    if input_precision is None:
        input_precision = DEFAULT_INPUT_PRECISION
    precision = _input_precision_enum(input_precision)

    # Triton 3.6's texts (stock Triton on an H200).
    lhs_rank, rhs_rank = len(lhs.shape), len(rhs.shape)
    _check(lhs_rank == rhs_rank and lhs_rank in (2, 3),
           "input and other must have equal ranks >= 2")
    _check(lhs.shape[-1].value == rhs.shape[-2].value,
           "input and other must have equal reduction dimensions")
    min_m, min_n, min_k = min_dot_size(lhs.type, rhs.type)
    _check(lhs.shape[-2].value >= min_m and lhs.shape[-1].value >= min_k
           and rhs.shape[-1].value >= min_n,
           "Input shapes should have M >= %d, N >= %d and K >= %d" %
           (min_m, min_n, min_k))
    if lhs.dtype.is_int():
        _check(lhs.dtype == core.int8, "only int8 supported!")
        ret_scalar = core.int32
    elif out_dtype.is_bf16():
        raise ValueError("out_dtype=bfloat16 is unsupported. Please use "
                         "out_dtype=float32/float16 and cast with "
                         "`.to(tl.bfloat16)`")
    elif lhs.dtype.is_fp32() or lhs.dtype.is_bf16():
        ret_scalar = core.float32
    elif lhs.dtype.is_fp64():
        ret_scalar = core.float64
    else:
        ret_scalar = out_dtype
    m, n, k = lhs.type.shape[-2], rhs.type.shape[-1], lhs.type.shape[-1]
    shape = [lhs.type.shape[0], m, n] if lhs_rank == 3 else [m, n]
    ret_ty = block_type(ret_scalar, shape)
    if acc is None:
        acc = sem.constant(0, ret_scalar, shape)
    else:
        acc = sem.to_tensor(acc)
        _check(acc.type.is_block() and
               list(acc.type.shape) == list(ret_ty.shape) and
               acc.type.element_ty == out_dtype)
    if max_num_imprecise_acc is None:
        if lhs.dtype.is_fp8() and rhs.dtype.is_fp8():
            max_num_imprecise_acc = _max_num_imprecise_acc_default(sem)
        else:
            max_num_imprecise_acc = 0
    elif lhs.dtype.is_fp8() and rhs.dtype.is_fp8() and \
            max_num_imprecise_acc > k:
        raise ValueError("max_num_imprecise_acc (%d) must be <= K (%d)" %
                         (max_num_imprecise_acc, k))
    return sem.op("tt.dot", [lhs, rhs, acc], ret_ty, props={
        "inputPrecision": Raw("%d : i32" % precision),
        "maxNumImpreciseAcc": Raw("%d : i32" % max_num_imprecise_acc)})


@builtin
def dot(input, other, acc=None, input_precision=None, allow_tf32=None,
        max_num_imprecise_acc=None, out_dtype=core.float32, _semantic=None):
    """The matrix product of two 2-D blocks (or batched 3-D blocks), plus
    `acc` when given."""
    input_precision = _unwrap(input_precision)
    allow_tf32 = _unwrap(allow_tf32)
    _check(input_precision is None or allow_tf32 is None,
           "Only one of input_precision and allow_tf32 can be specified")
    if input_precision is None:
        supports_tf32 = "tf32" in ALLOWED_INPUT_PRECISIONS
        input_precision = os.environ.get("TRITON_F32_DEFAULT") or (
            "tf32" if supports_tf32 and (allow_tf32 or allow_tf32 is None)
            else "ieee")
    sem = _semantic
    return dot_impl(sem, sem.to_tensor(_unwrap(input)),
                    sem.to_tensor(_unwrap(other)), _unwrap(acc),
                    input_precision, _unwrap(max_num_imprecise_acc),
                    _unwrap(out_dtype))


# -- dot_scaled ---------------------------------------------------------------

def _as_format(sem, value, fmt):
    """Triton's _bitcast_to_fp_type: e2m1 stays packed uint8; the others
    become their float type (bitcast from uint8/uint16 when given so)."""
    float_ty = {"e5m2": core.float8e5, "e4m3": core.float8e4nv,
                "bf16": core.bfloat16, "fp16": core.float16}.get(fmt)
    if float_ty is None:
        _check(fmt == "e2m1",
               "Internal Error: Unexpected float format: %s" % fmt)
        _check(value.dtype == core.uint8,
               "e2m1 format must be packed as uint8. Got %s" % value.dtype)
        return value
    if value.dtype == float_ty:
        return value
    unsigned = {"e5m2": core.uint8, "e4m3": core.uint8, "bf16": core.uint16,
                "fp16": core.uint16}[fmt]
    _check(value.dtype == unsigned,
           "Unexpected dtype for %s. Got %s" % (fmt, value.dtype))
    return sem.bitcast(value, float_ty)


def _check_scale_shape(name, scale, rows, k):
    if scale is None:
        return
    factor = 16 if scale.dtype.is_fp8e4nv() else 32
    shape = list(scale.type.shape) if scale.type.is_block() else []
    _check(shape == [rows, k // factor],
           "%s must be a tensor of shape [%d, %d]. Got %s" %
           (name, rows, k // factor, shape))


@builtin
def dot_scaled(lhs, lhs_scale, lhs_format, rhs, rhs_scale, rhs_format,
               acc=None, fast_math=False, lhs_k_pack=True, rhs_k_pack=True,
               out_dtype=core.float32, _semantic=None):
    """The product of two blocks in microscaling formats (e2m1 packed two
    per uint8, e4m3/e5m2 as uint8 or fp8, bf16/fp16), each scaled by e8m0
    (uint8) factors per 32 elements of K."""
    sem = _semantic
    out_dtype = _unwrap(out_dtype)
    _check(out_dtype == core.float32,
           "Only float32 is supported for out_dtype at the moment")
    lhs = sem.to_tensor(_unwrap(lhs))
    rhs = sem.to_tensor(_unwrap(rhs))
    _check(lhs.type.is_block() and rhs.type.is_block())
    lhs_rank, rhs_rank = len(lhs.shape), len(rhs.shape)
    _check(lhs_rank == rhs_rank == 2 or lhs_rank == rhs_rank == 3,
           "Both inputs must be either 2D or 3D; (lhs: %s vs rhs: %s)" %
           (_shape_text(lhs), _shape_text(rhs)))
    lhs_format = _unwrap(lhs_format)
    rhs_format = _unwrap(rhs_format)
    for fmt in (lhs_format, rhs_format):
        if not isinstance(fmt, str) or fmt.lower() not in _SCALE_FORMATS:
            raise ValueError("Invalid float format: %s." % (fmt,))
    allowed = ("e2m1", "e4m3", "e5m2", "bf16", "fp16")
    _check(lhs_format in allowed, "NYI: lhs_format %s" % lhs_format)
    _check(rhs_format in allowed, "NYI: rhs_format %s" % rhs_format)
    lhs_scale = _unwrap(lhs_scale)
    rhs_scale = _unwrap(rhs_scale)
    lhs_scale = None if lhs_scale is None else sem.to_tensor(lhs_scale)
    rhs_scale = None if rhs_scale is None else sem.to_tensor(rhs_scale)
    lhs = _as_format(sem, lhs, lhs_format)
    rhs = _as_format(sem, rhs, rhs_format)
    lhs_k_pack = bool(_unwrap(lhs_k_pack))
    rhs_k_pack = bool(_unwrap(rhs_k_pack))
    _check(lhs_k_pack or lhs_format == "e2m1",
           "only mxfp4 inputs can be packed along a dimension different than "
           "K")
    _check(rhs_k_pack or rhs_format == "e2m1",
           "only mxfp4 inputs can be packed along a dimension different than "
           "K")
    m, k_lhs = lhs.type.shape[-2:]
    k_rhs, n = rhs.type.shape[-2:]
    packed_a = 2 if lhs_format == "e2m1" else 1
    packed_b = 2 if rhs_format == "e2m1" else 1
    dim_a = packed_a * k_lhs if lhs_k_pack else k_lhs
    dim_b = packed_b * k_rhs if rhs_k_pack else k_rhs
    _check(dim_a == dim_b,
           "Reduction dimension should pack the same number of elements; "
           "(lhs: %s vs rhs: %s)" % (_shape_text(lhs), _shape_text(rhs)))
    k = k_lhs
    if not lhs_k_pack:
        m = m * packed_a
    else:
        k = k * packed_a
    if not rhs_k_pack:
        n = n * packed_b
    shape = [lhs.type.shape[0], m, n] if lhs_rank == 3 else [m, n]
    ret_ty = block_type(out_dtype, shape)
    acc = _unwrap(acc)
    if acc is None:
        acc = sem.constant(0, core.float32, shape)
    else:
        acc = sem.to_tensor(acc)
        _check(acc.type.is_block() and
               list(acc.type.shape) == list(ret_ty.shape) and
               acc.type.element_ty == out_dtype)
    _check_scale_shape("lhs_scale", lhs_scale, m, k)
    _check_scale_shape("rhs_scale", rhs_scale, n, k)

    # e2m1 operands travel as their packed bytes (i8), as in Triton's TTIR.
    operands = [lhs, rhs, acc]
    if lhs_scale is not None:
        operands.append(lhs_scale)
    if rhs_scale is not None:
        operands.append(rhs_scale)
    return sem.op("tt.dot_scaled", operands, ret_ty, props={
        "a_elem_type": Raw("%d : i32" % _SCALE_FORMATS[lhs_format]),
        "b_elem_type": Raw("%d : i32" % _SCALE_FORMATS[rhs_format]),
        "fastMath": Raw("true" if _unwrap(fast_math) else "false"),
        "lhs_k_pack": Raw("true" if lhs_k_pack else "false"),
        "operandSegmentSizes": Raw("array<i32: 1, 1, 1, %d, %d>" % (
            lhs_scale is not None, rhs_scale is not None)),
        "rhs_k_pack": Raw("true" if rhs_k_pack else "false")})


__all__ = ["dot", "dot_scaled"]
