"""TLX async tensor-core dots."""

import os

from tpx.language import core
from tpx.language.dot import _input_precision_enum

from .types import is_buffer
from ._support import constexpr_int, emit, tlx_builtin, unwrap


def _operand(value, what, semantic):
    value = unwrap(value)
    if is_buffer(value):
        if value.type.num is not None:
            raise TypeError("tlx.async_dot(): %s must be one buffer "
                            "(buffers[i]), not a whole allocation" % what)
        return value, list(value.type.block_shape), value.type.element_ty
    value = semantic.to_tensor(value)
    if not value.type.is_block():
        raise TypeError("tlx.async_dot(): %s must be a buffer or a 2-D "
                        "tensor, got %s" % (what, value.type))
    return value, list(value.type.shape), value.dtype


@tlx_builtin
def async_dot(A, B, acc=None, use_acc=None, pred=None, mBarriers=(),
              two_ctas=False, force_async=False, input_precision=None,
              out_dtype=core.float32, _semantic=None, _generator=None):
    """Starts `A @ B + acc` (`A @ B` without `acc`, or where `use_acc` is
    false): A a buffer or a tensor, B a buffer. Returns the result, which
    may be used after the async_dot_wait that retires the dot."""
    if list(unwrap(mBarriers) or []):
        raise ValueError("tlx.async_dot(): mBarriers (completion barriers) "
                         "are Blackwell's tcgen05 MMA; on Hopper wait with "
                         "tlx.async_dot_wait")
    if unwrap(two_ctas):
        raise ValueError("tlx.async_dot(): two_ctas is Blackwell-only")
    if unwrap(pred) is not None:
        raise ValueError("tlx.async_dot(): pred is not supported")
    a, a_shape, a_ty = _operand(A, "A", _semantic)
    b, b_shape, b_ty = _operand(B, "B", _semantic)
    if len(a_shape) != 2 or len(b_shape) != 2 or a_shape[1] != b_shape[0]:
        raise ValueError("tlx.async_dot(): shapes %s and %s cannot be "
                         "multiplied" % (tuple(a_shape), tuple(b_shape)))
    if a_ty != b_ty and not (a_ty.is_fp8() and b_ty.is_fp8()):
        raise TypeError("tlx.async_dot(): A and B must have one element type, "
                        "got %s and %s" % (a_ty, b_ty))
    shape = [a_shape[0], b_shape[1]]
    out_dtype = unwrap(out_dtype)
    acc = unwrap(acc)
    use_acc = unwrap(use_acc)
    if use_acc is False:
        acc = None
    if acc is None:
        acc = _semantic.full(shape, 0, out_dtype)
    else:
        acc = _semantic.to_tensor(acc)
        if list(acc.type.shape) != shape:
            raise ValueError("tlx.async_dot(): acc has shape %s, not %s" %
                             (tuple(acc.type.shape), tuple(shape)))
    operands = [a, b, acc]
    if use_acc is not None and use_acc is not True:
        flag = _semantic.to_tensor(use_acc)
        if flag.type.is_block():
            raise TypeError("tlx.async_dot(): use_acc must be a scalar")
        if not flag.dtype.is_bool():
            flag = _semantic.cast(flag, core.int1)
        operands.append(flag)
    precision = unwrap(input_precision)
    if precision is None:
        precision = os.environ.get("TRITON_F32_DEFAULT") or "tf32"
    props = {"inputPrecision": _input_precision_enum(precision),
             "maxNumImpreciseAcc": 0}
    return emit(_generator, "tlx.async_dot", operands, [acc.type],
                props=props)[0]


@tlx_builtin
def async_dot_wait(pendings, inp, _semantic=None, _generator=None):
    """Waits until at most `pendings` async dots are in flight; returns
    `inp` (a dot's result, or a tuple of them), now safe to use."""
    pendings = constexpr_int(pendings, "tlx.async_dot_wait() pendings")
    if pendings < 0:
        raise ValueError("tlx.async_dot_wait(): pendings must be >= 0")
    inp = unwrap(inp)
    values = list(inp) if isinstance(inp, (tuple, list)) else [inp]
    values = [_semantic.to_tensor(unwrap(v)) for v in values]
    results = emit(_generator, "tlx.async_dot_wait", values,
                   [v.type for v in values], props={"pendings": pendings})
    if isinstance(inp, (tuple, list)):
        return tuple(results)
    return results[0]
