"""TLX buffers and async copies: local_alloc, views, loads, stores."""

from tpx.compiler.ir import Raw
from tpx.language import core

from .types import async_token_type, buffered_tensor_type, is_buffer, \
    mbarrier_type, storage_kind
from ._support import constexpr_int, emit, int_list, tlx_builtin, unwrap


def _check_buffer(value, what, single=True):
    if not is_buffer(value):
        raise TypeError("%s must be a TLX buffer (from tlx.local_alloc), got "
                        "%r" % (what, value))
    if single and value.type.num is not None:
        raise TypeError("%s must be one buffer: select it with "
                        "tlx.local_view(buffers, i) or buffers[i] (got %d "
                        "buffers of %s)" % (what, value.type.num,
                                            "x".join(map(str, value.type.
                                                         block_shape))))
    return value.type


@tlx_builtin
def local_alloc(shape, dtype, num, storage=storage_kind.smem, reuse=None,
                layout=None, _semantic=None, _generator=None):
    """`num` buffers of `shape` and `dtype` in the program's local memory
    (shared memory on a GPU). With `reuse`, they alias the bytes of an
    earlier allocation, which must be at least as large."""
    shape = int_list(shape, "tlx.local_alloc() shape")
    num = constexpr_int(num, "tlx.local_alloc() num")
    dtype = unwrap(dtype)
    if not isinstance(dtype, core.dtype) or dtype.is_ptr() or \
            dtype.is_block():
        raise TypeError("tlx.local_alloc() dtype must be a scalar dtype "
                        "(tl.float16, ...), got %r" % (dtype,))
    if num < 1 or not shape or any(s < 1 for s in shape):
        raise ValueError("tlx.local_alloc() needs a positive number of "
                         "buffers and positive dimensions, got shape %s and "
                         "num %d" % (tuple(shape), num))
    storage = unwrap(storage)
    if storage != storage_kind.smem:
        raise ValueError("tlx.local_alloc(): storage %r is not available on "
                         "tpx's targets (Hopper, MI350 and the CPU have "
                         "shared memory only: storage_kind.smem)" % (storage,))
    if unwrap(layout) is not None:
        raise ValueError("tlx.local_alloc(): explicit layouts are not "
                         "supported; the lowering chooses the layout")
    ty = buffered_tensor_type(shape, dtype, num)
    operands = []
    if unwrap(reuse) is not None:
        reuse = unwrap(reuse)
        _check_buffer(reuse, "tlx.local_alloc() reuse", single=False)
        if reuse.type.nbytes < ty.nbytes:
            raise ValueError("tlx.local_alloc(): reuse= has %d bytes, fewer "
                             "than the %d the new buffers need" %
                             (reuse.type.nbytes, ty.nbytes))
        operands = [reuse]
    return emit(_generator, "tlx.local_alloc", operands, [ty])[0]


@tlx_builtin
def local_view(local_allocated_buffers, buffer_idx, _semantic=None,
               _generator=None):
    """Buffer `buffer_idx` of an allocation (also `buffers[buffer_idx]`)."""
    buffers = unwrap(local_allocated_buffers)
    if isinstance(getattr(buffers, "type", None), mbarrier_type):
        from .barrier import barrier_view
        return barrier_view(buffers, buffer_idx, _semantic, _generator)
    ty = _check_buffer(buffers, "tlx.local_view()", single=False)
    if ty.num is None:
        raise TypeError("tlx.local_view() takes a local_alloc's buffers, "
                        "not one buffer (it is already a view)")
    index = unwrap(buffer_idx)
    if isinstance(index, int) and not isinstance(index, bool):
        if not 0 <= index < ty.num:
            raise IndexError("tlx.local_view(): index %d is out of range for "
                             "%d buffers" % (index, ty.num))
    index = _semantic.to_tensor(index)
    if index.type.is_block() or not index.dtype.is_int():
        raise TypeError("tlx.local_view(): the index must be a scalar "
                        "integer, got %s" % (index.type,))
    if index.dtype != core.int32:
        index = _semantic.cast(index, core.int32)
    return emit(_generator, "tlx.local_view", [buffers, index],
                [ty.view_type()])[0]


@tlx_builtin
def local_load(src, token=None, _semantic=None, _generator=None):
    """The buffer's contents as a tensor."""
    src = unwrap(src)
    ty = _check_buffer(src, "tlx.local_load()")
    operands = [src]
    token = unwrap(token)
    if token is not None:
        if not isinstance(getattr(token, "type", None), async_token_type):
            raise TypeError("tlx.local_load(): token must come from an async "
                            "copy or a wait, got %r" % (token,))
        operands.append(token)
    return emit(_generator, "tlx.local_load", operands,
                [core.block_type(ty.element_ty, list(ty.block_shape))])[0]


@tlx_builtin
def local_store(dst, src, _semantic=None, _generator=None):
    """Writes tensor `src` (cast to the buffer's element type and broadcast
    to its shape, as tl.store does) into buffer `dst`."""
    dst = unwrap(dst)
    ty = _check_buffer(dst, "tlx.local_store()")
    value = _semantic.to_tensor(unwrap(src))
    if value.dtype != ty.element_ty:
        value = _semantic.cast(value, ty.element_ty)
    value = _semantic.broadcast_impl_shape(value, list(ty.block_shape))
    _generator.module.select_pipeline_extension("tlx")
    _generator.builder.op("tlx.local_store", [dst.handle, value.handle], [])


@tlx_builtin
def local_trans(input, dims=(1, 0), _semantic=None, _generator=None):
    """A view of the buffer with its dimensions permuted by `dims`."""
    input = unwrap(input)
    ty = _check_buffer(input, "tlx.local_trans()")
    order = int_list(dims, "tlx.local_trans() dims")
    if sorted(order) != list(range(len(ty.block_shape))):
        raise ValueError("tlx.local_trans(): dims %s is not a permutation of "
                         "the buffer's %d dimensions" %
                         (tuple(order), len(ty.block_shape)))
    shape = [ty.block_shape[d] for d in order]
    return emit(_generator, "tlx.local_trans", [input], [ty.with_shape(shape)],
                props={"order": Raw("array<i32: %s>" %
                                    ", ".join(map(str, order)))})[0]


@tlx_builtin
def local_slice(buffer, offsets, shapes, _semantic=None, _generator=None):
    """A view of the `shapes` part of the buffer starting at `offsets`."""
    buffer = unwrap(buffer)
    ty = _check_buffer(buffer, "tlx.local_slice()")
    offsets = int_list(offsets, "tlx.local_slice() offsets")
    shapes = int_list(shapes, "tlx.local_slice() shapes")
    rank = len(ty.block_shape)
    if len(offsets) != rank or len(shapes) != rank:
        raise ValueError("tlx.local_slice(): offsets and shapes need %d "
                         "entries, one per dimension" % rank)
    for d, (o, s, full) in enumerate(zip(offsets, shapes, ty.block_shape)):
        if o < 0 or s < 1 or o + s > full:
            raise ValueError("tlx.local_slice(): [%d, %d) of dimension %d "
                             "lies outside its %d elements" %
                             (o, o + s, d, full))
    return emit(_generator, "tlx.local_slice", [buffer],
                [ty.with_shape(shapes)],
                props={"offsets": Raw("array<i64: %s>" %
                                      ", ".join(map(str, offsets)))})[0]


@tlx_builtin
def local_reinterpret(src, dtype, shape=None, _semantic=None,
                      _generator=None):
    """The buffer's bytes seen as `dtype` elements of `shape` (default: the
    same shape)."""
    src = unwrap(src)
    ty = _check_buffer(src, "tlx.local_reinterpret()")
    dtype = unwrap(dtype)
    if not isinstance(dtype, core.dtype) or dtype.is_ptr() or \
            dtype.is_block():
        raise TypeError("tlx.local_reinterpret() dtype must be a scalar "
                        "dtype, got %r" % (dtype,))
    shape = ty.block_shape if unwrap(shape) is None else \
        int_list(shape, "tlx.local_reinterpret() shape")
    result = ty.with_shape(shape, dtype)
    if result.nbytes > ty.nbytes:
        raise ValueError("tlx.local_reinterpret(): %s needs %d bytes but the "
                         "buffer has %d" % (result.name, result.nbytes,
                                            ty.nbytes))
    return emit(_generator, "tlx.local_reinterpret", [src], [result])[0]


# -- async copies ------------------------------------------------------------

@tlx_builtin
def async_load(src, result, mask=None, other=None, cache_modifier="",
               eviction_policy="", is_volatile=False, _semantic=None,
               _generator=None):
    """Starts copying `*src` (a tensor of pointers of the buffer's shape)
    into buffer `result`; masked-off elements get `other` (zero when None).
    Returns a token; the data may be read after the async_load_wait_group
    that completes its commit group."""
    result = unwrap(result)
    ty = _check_buffer(result, "tlx.async_load() result")
    src = _semantic.to_tensor(unwrap(src))
    if not src.type.is_block() or not src.dtype.is_ptr():
        raise TypeError("tlx.async_load() src must be a tensor of pointers, "
                        "got %s" % (src.type,))
    shape = list(ty.block_shape)
    if list(src.type.shape) != shape:
        raise ValueError("tlx.async_load(): the pointers' shape %s is not the "
                         "buffer's %s" % (tuple(src.type.shape),
                                          tuple(shape)))
    if src.dtype.element_ty != ty.element_ty:
        raise TypeError("tlx.async_load(): pointers to %s cannot fill a "
                        "buffer of %s" % (src.dtype.element_ty,
                                          ty.element_ty))
    operands = [src, result]
    mask, other = unwrap(mask), unwrap(other)
    if other is not None and mask is None:
        raise ValueError("tlx.async_load(): `other` needs a `mask`")
    if mask is not None:
        mask = _semantic.broadcast_impl_shape(_semantic.to_tensor(mask),
                                              shape)
        if not mask.dtype.is_bool():
            mask = _semantic.cast(mask, core.int1)
        operands.append(mask)
    if other is not None:
        other = _semantic.cast(_semantic.to_tensor(other), ty.element_ty)
        other = _semantic.broadcast_impl_shape(other, shape)
        operands.append(other)
    props = {
        "cache": _semantic._cache_modifier(cache_modifier, False),
        "evict": _semantic._eviction_policy(eviction_policy),
        "isVolatile": Raw("true" if unwrap(is_volatile) else "false"),
        "operandSegmentSizes": Raw("array<i32: 1, 1, %d, %d>" % (
            mask is not None, other is not None)),
    }
    return emit(_generator, "tlx.async_load", operands, [async_token_type()],
                props=props)[0]


def _tokens(tokens, what):
    tokens = unwrap(tokens)
    if tokens is None:
        return []
    if not isinstance(tokens, (list, tuple)):
        tokens = [tokens]
    out = []
    for t in tokens:
        t = unwrap(t)
        if not isinstance(getattr(t, "type", None), async_token_type):
            raise TypeError("%s: tokens must come from tlx.async_load or a "
                            "commit group, got %r" % (what, t))
        out.append(t)
    return out


@tlx_builtin
def async_load_commit_group(tokens=(), _semantic=None, _generator=None):
    """Closes the group of async copies started since the last commit;
    returns a token for the group."""
    tokens = _tokens(tokens, "tlx.async_load_commit_group()")
    return emit(_generator, "tlx.async_commit_group", tokens,
                [async_token_type()])[0]


@tlx_builtin
def async_load_wait_group(pendings, tokens=(), _semantic=None,
                          _generator=None):
    """Waits until at most `pendings` commit groups are still in flight."""
    pendings = constexpr_int(pendings, "tlx.async_load_wait_group() pendings")
    if pendings < 0:
        raise ValueError("tlx.async_load_wait_group(): pendings must be >= 0, "
                         "got %d" % pendings)
    tokens = _tokens(tokens, "tlx.async_load_wait_group()")
    return emit(_generator, "tlx.async_wait_group", tokens,
                [async_token_type()],
                props={"pendings": pendings})[0]
