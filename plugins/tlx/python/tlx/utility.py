"""TLX's compile-time helpers."""

from tpx.language import core
from tpx.language.core import constexpr

from .types import buffered_tensor_type
from .barrier import cluster_size
from ._support import emit, tlx_builtin, unwrap


@tlx_builtin
def dtype_of(v, _semantic=None, _generator=None):
    """The element type of a pointer (or tensor of pointers), a tensor, a
    buffer or a tensor descriptor, as a constexpr dtype."""
    v = unwrap(v)
    if isinstance(v, core.dtype):
        return constexpr(v)
    ty = getattr(v, "type", None)
    if isinstance(ty, buffered_tensor_type):
        return constexpr(ty.element_ty)
    dtype = getattr(v, "dtype", None)
    if isinstance(dtype, core.dtype):
        if dtype.is_ptr():
            return constexpr(dtype.element_ty)
        return constexpr(dtype)
    raise TypeError("tlx.dtype_of() takes a pointer, a tensor, a buffer or a "
                    "tensor descriptor, got %r" % (v,))


@tlx_builtin
def size_of(dtype, _semantic=None, _generator=None):
    """The size of one element of `dtype` in bytes, as a constexpr."""
    dtype = unwrap(dtype)
    if not isinstance(dtype, core.dtype):
        raise TypeError("tlx.size_of() takes a dtype, got %r" % (dtype,))
    return constexpr(max(1, dtype.primitive_bitwidth // 8))


@tlx_builtin
def clock64(_semantic=None, _generator=None):
    """A 64-bit clock (cycles on a GPU; nanoseconds on the CPU)."""
    return emit(_generator, "tlx.clock64", [], [core.int64])[0]


@tlx_builtin
def thread_id(axis, _semantic=None, _generator=None):
    """The executing thread's index in its block along `axis` (0, 1 or 2):
    threadIdx on a GPU; on the CPU, where a task runs as one thread, the
    first thread of the task's warps (0 outside tasks)."""
    axis = unwrap(axis)
    if not isinstance(axis, int) or isinstance(axis, bool) or \
            axis not in (0, 1, 2):
        raise ValueError("tlx.thread_id(): axis must be 0, 1 or 2, got %r"
                         % (axis,))
    return emit(_generator, "tlx.thread_id", [], [core.int32],
                props={"axis": axis})[0]


@tlx_builtin
def vote_ballot_sync(mask, pred, _semantic=None, _generator=None):
    """The warp's ballot (vote.sync.ballot.b32): bit n set where lane n is
    in `mask` (a constexpr, 0xFFFFFFFF for the whole warp) and its `pred`
    (a scalar; nonzero is true) holds. A scalar is the same in every lane
    on the CPU, where a program runs as one thread: there it is `mask` or
    0. A tensor predicate's ballot depends on how the GPU spreads the
    tensor over lanes, which tpx does not fix: it is an error."""
    what = "tlx.vote_ballot_sync()"
    raw = unwrap(mask)
    if isinstance(raw, bool) or not isinstance(raw, int) or \
            not 0 <= raw <= 0xFFFFFFFF:
        raise ValueError("%s: mask must be a constexpr 32-bit lane mask, got "
                         "%r" % (what, raw))
    pred = unwrap(pred)
    if isinstance(pred, (bool, int)):
        pred = _semantic.constant(bool(pred), core.int1)
    if not isinstance(pred, core.tensor) or pred.type.is_block():
        raise TypeError("%s takes a scalar predicate (a tensor's ballot "
                        "depends on the GPU's layout of it), got %r"
                        % (what, pred))
    if pred.dtype != core.int1:
        pred = _semantic.not_equal(pred, _semantic.constant(0, pred.dtype))
    signed = raw - (1 << 32) if raw >= 1 << 31 else raw
    return emit(_generator, "tlx.vote_ballot_sync", [pred], [core.int32],
                props={"mask": signed})[0]


@tlx_builtin
def cluster_cta_rank(_semantic=None, _generator=None):
    """This CTA's rank in its thread-block cluster (x fastest): 0 to
    cluster_size_1d() - 1; 0 without clusters and on the CPU."""
    if cluster_size(_semantic) < 2:
        return _semantic.constant(0, core.int32)
    return emit(_generator, "tlx.cluster_cta_rank", [], [core.int32])[0]


@tlx_builtin
def cluster_size_1d(_semantic=None, _generator=None):
    """The CTAs of this kernel's thread-block cluster (the product of its
    ctas_per_cga; 1 without clusters), a compile-time constant."""
    return _semantic.constant(cluster_size(_semantic), core.int32)
