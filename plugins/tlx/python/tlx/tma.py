"""TLX TMA: block copies through tensor descriptors, tracked by barriers."""

from tpx.language import core
from tpx.language.descriptor import tensor_descriptor_base
from tpx.language.reduction import reduce_impl

from tpx.compiler.ir import Raw

from .barrier import (_i32, _local_barrier, _pred,
                      cluster_size)
from .mem_ops import _check_buffer, local_load, local_store, local_view
from .types import tensor_descriptor_ptr_type
from ._support import constexpr_int, emit, int_list, tlx_builtin, unwrap

# A descriptor in a tensor_descriptor_ptr slot: int64 words. The last
# stride is always 1 (make_tensor_descriptor checks it) and is not stored.
_BASE, _SHAPE, _STRIDES = 0, 1, 6


@tlx_builtin
def allocate_tensor_descriptor(num, _semantic=None, _generator=None):
    """Storage for `num` tensor descriptors (128 bytes each, as in TLX) in
    the program's local memory; `desc_ptrs[i]` is slot i, which
    make_tensor_descriptor(desc_ptr=...) writes and
    reinterpret_tensor_descriptor reads."""
    if not isinstance(num, core.constexpr):
        raise ValueError("tlx.allocate_tensor_descriptor(): `num` must be a "
                         "constexpr")
    num = constexpr_int(num, "tlx.allocate_tensor_descriptor() num")
    if num < 1:
        raise ValueError("tlx.allocate_tensor_descriptor(): `num` must be "
                         "positive, got %d" % num)
    return emit(_generator, "tlx.local_alloc", [],
                [tensor_descriptor_ptr_type(num)])[0]


def _slot(desc_ptr, what, _semantic, _generator):
    """One slot of descriptor storage: a slot itself, or slot 0 of an
    allocation (TLX's pointer to the first descriptor)."""
    desc_ptr = unwrap(desc_ptr)
    ty = getattr(desc_ptr, "type", None)
    if not isinstance(ty, tensor_descriptor_ptr_type):
        raise TypeError("%s: desc_ptr must come from "
                        "tlx.allocate_tensor_descriptor(), got %r" %
                        (what, desc_ptr))
    if ty.num is None:
        return desc_ptr
    return local_view(desc_ptr, 0, _semantic=_semantic, _generator=_generator)


def _pack(words, _semantic):
    """A 16-word int64 tensor holding `words` ({index: int64 scalar})."""
    index = _semantic.arange(0, tensor_descriptor_ptr_type.WORDS)
    packed = _semantic.full([tensor_descriptor_ptr_type.WORDS], 0,
                            core.int64)
    for k, word in words.items():
        packed = _semantic.where(_semantic.equal(index, k), word, packed)
    return packed


def _unpacker(packed, _semantic):
    """word(k): word `k` of a packed descriptor, as an int64 scalar (the
    index and zero tensors are made once for all words)."""
    index = _semantic.arange(0, tensor_descriptor_ptr_type.WORDS)
    zeros = _semantic.full([tensor_descriptor_ptr_type.WORDS], 0, core.int64)

    def word(k):
        picked = _semantic.where(_semantic.equal(index, k), packed, zeros)
        return reduce_impl(_semantic, (picked,), 0,
                           lambda args: _semantic.add(args[0], args[1]))[0]
    return word


@tlx_builtin
def make_tensor_descriptor(desc_ptr, base, shape, strides, block_shape,
                           padding_option="zero", _semantic=None,
                           _generator=None):
    """A TMA descriptor of the tensor at `base` (as tl.make_tensor_descriptor).
    With `desc_ptr` (a slot of allocate_tensor_descriptor's storage) the
    descriptor is also written there, for reinterpret_tensor_descriptor."""
    desc = _semantic.make_tensor_descriptor(base, shape, strides, block_shape,
                                            padding_option)
    if unwrap(desc_ptr) is None:
        return desc
    what = "tlx.make_tensor_descriptor()"
    slot = _slot(desc_ptr, what, _semantic, _generator)
    if unwrap(padding_option) == "nan":
        raise ValueError("%s: a descriptor with NaN padding cannot be stored "
                         "through desc_ptr on tpx (reinterpret_tensor_"
                         "descriptor, which has no padding argument, reads "
                         "zero padding)" % what)
    words = {_BASE: _semantic.cast(_semantic.to_tensor(unwrap(base)),
                                   core.int64)}
    for i, extent in enumerate(desc.shape):
        words[_SHAPE + i] = _semantic.cast(extent, core.int64)
    for i, stride in enumerate(desc.strides[:-1]):
        words[_STRIDES + i] = _semantic.cast(stride, core.int64)
    local_store(slot, _pack(words, _semantic), _semantic=_semantic,
                _generator=_generator)
    return desc


@tlx_builtin
def reinterpret_tensor_descriptor(desc_ptr, block_shape, dtype,
                                  _semantic=None, _generator=None):
    """The descriptor make_tensor_descriptor last wrote into slot
    `desc_ptr`, read as one of `block_shape` blocks of `dtype` elements
    (the rank of `block_shape` must be the stored descriptor's; an element
    type of another size reads the same words, as TLX reads the same
    tensor map)."""
    what = "tlx.reinterpret_tensor_descriptor()"
    slot = _slot(desc_ptr, what, _semantic, _generator)
    dtype = unwrap(dtype)
    if not isinstance(dtype, core.dtype) or dtype.is_ptr() or \
            dtype.is_block():
        raise TypeError("%s: dtype must be a scalar dtype, got %r" %
                        (what, dtype))
    rank = len(int_list(block_shape, "%s block_shape" % what))
    if not 1 <= rank <= 5:
        raise ValueError("%s: expected 1 <= ndim <= 5 but got %d dimensions"
                         % (what, rank))
    word = _unpacker(local_load(slot, _semantic=_semantic,
                                _generator=_generator), _semantic)
    base = _semantic.cast(word(_BASE), core.pointer_type(dtype))
    shape = [_semantic.cast(word(_SHAPE + i), core.int32)
             for i in range(rank)]
    strides = [word(_STRIDES + i) for i in range(rank - 1)] + \
        [core.constexpr(1)]
    return _semantic.make_tensor_descriptor(base, shape, strides, block_shape)


def _descriptor(desc, what):
    desc = unwrap(desc)
    if not isinstance(desc, tensor_descriptor_base):
        raise TypeError("%s takes a tensor descriptor, got %r" % (what, desc))
    return desc


def _check_block(desc, buffer_ty, what):
    block = desc.block_type
    if list(block.shape) != list(buffer_ty.block_shape) or \
            block.element_ty != buffer_ty.element_ty:
        raise ValueError("%s: the descriptor's %s block does not fit the "
                         "buffer of %s %s" % (
                             what, "x".join(map(str, block.shape)),
                             "x".join(map(str, buffer_ty.block_shape)),
                             buffer_ty.element_ty))


def _eviction(policy, what):
    policy = unwrap(policy)
    if policy not in ("", "evict_first", "evict_last"):
        raise ValueError("%s: eviction_policy must be '', 'evict_first', or "
                         "'evict_last', got %r" % (what, policy))
    return policy


def _when(pred, what, _semantic, _generator, body):
    """Emits `body()` where `pred` (None/True: always; a scalar: an scf.if
    around it) holds."""
    if unwrap(pred) is False:
        return
    condition = _pred(pred, what, _semantic)
    if not condition:
        body()
        return
    pred = condition[0]
    builder = _generator.builder
    then, other = builder.new_block(), builder.new_block()
    with builder.at(then):
        body()
        builder.op("scf.yield", [], [], terminator=True)
    with builder.at(other):
        builder.op("scf.yield", [], [], terminator=True)
    builder.op("scf.if", [pred.handle], [], regions=[[then], [other]])


def _multicast_mask(targets, what, semantic):
    """The i32 mask (bit r: CTA r of the cluster) of `multicast_targets`,
    or None for none; constant ranks are checked against the cluster."""
    targets = unwrap(targets)
    if targets is None:
        return None
    if not isinstance(targets, (list, tuple)):
        targets = [targets]
    targets = list(targets)
    if not targets:
        return None
    size = cluster_size(semantic)
    if size < 2:
        raise ValueError("%s: multicast_targets needs a kernel launched in "
                         "thread-block clusters (ctas_per_cga); this one runs "
                         "clusters of one CTA" % what)
    constant, dynamic = 0, []
    for target in targets:
        raw = unwrap(target)
        if isinstance(raw, int) and not isinstance(raw, bool):
            if not 0 <= raw < size:
                raise ValueError("%s: multicast target %d names no CTA of a "
                                 "cluster of %d" % (what, raw, size))
            constant |= 1 << raw
        else:
            dynamic.append(target)
    mask = semantic.constant(constant, core.int32)
    one = semantic.constant(1, core.int32)
    for target in dynamic:
        rank = _i32(target, what + " multicast target", semantic)
        mask = semantic.or_(mask, semantic.shl(one, rank))
    return mask


@tlx_builtin
def async_descriptor_load(desc, result, offsets, barrier, pred=None,
                          cache_modifier="", eviction_policy="",
                          multicast_targets=(), is_volatile=False,
                          _semantic=None, _generator=None):
    """Copies the block of `desc` at `offsets` into buffer `result`; its
    bytes complete on `barrier` (expect them with barrier_expect_bytes).
    With `pred` false nothing is copied (and no bytes arrive)."""
    what = "tlx.async_descriptor_load()"
    desc = _descriptor(desc, what)
    result = unwrap(result)
    ty = _check_buffer(result, "tlx.async_descriptor_load() result")
    _check_block(desc, ty, what)
    bar = _local_barrier(barrier, what)
    mask = _multicast_mask(multicast_targets, what, _semantic)
    _eviction(eviction_policy, what)
    offsets = _semantic.descriptor_offsets(desc, offsets)
    props = {"cache": _semantic._cache_modifier(cache_modifier, False),
             "evict": _semantic._eviction_policy(eviction_policy),
             "operandSegmentSizes": Raw("array<i32: 1, %d, 1, 1, %d>" % (
                 len(offsets), 0 if mask is None else 1))}
    handles = [desc.handle] + [o.handle for o in offsets] + \
        [result.handle, bar.handle] + ([] if mask is None else [mask.handle])
    _generator.module.select_pipeline_extension("tlx")
    _when(pred, what, _semantic, _generator,
          lambda: _generator.builder.op("tlx.async_descriptor_load", handles,
                                        [], props=props))


@tlx_builtin
def async_descriptor_prefetch_tensor(desc, offsets, pred=None,
                                     eviction_policy="", _semantic=None,
                                     _generator=None):
    """A hint to bring the block of `desc` at `offsets` into L2. It has no
    effect a program can observe; tpx checks the arguments and issues no
    prefetch (docs/tlx.md)."""
    what = "tlx.async_descriptor_prefetch_tensor()"
    desc = _descriptor(desc, what)
    _eviction(eviction_policy, what)
    _semantic.descriptor_offsets(desc, offsets)
    if unwrap(pred) is not False:
        _pred(pred, what, _semantic)


@tlx_builtin
def async_descriptor_store(desc, source, offsets, eviction_policy="",
                           store_reduce="", _semantic=None, _generator=None):
    """Copies buffer `source` to the block of `desc` at `offsets`."""
    what = "tlx.async_descriptor_store()"
    desc = _descriptor(desc, what)
    source = unwrap(source)
    ty = _check_buffer(source, "tlx.async_descriptor_store() source")
    _check_block(desc, ty, what)
    # A cache hint: the stores are issued with the default policy.
    _eviction(eviction_policy, what)
    reduce = unwrap(store_reduce)
    if reduce not in ("", "add", "min", "max", "and", "or", "xor"):
        raise ValueError("%s: store_reduce must be '', 'add', 'min', 'max', "
                         "'and', 'or', or 'xor', got %r" % (what, reduce))
    if reduce:
        raise ValueError("%s: store_reduce=%r (TMA reductions) is not "
                         "supported by tpx; store plainly or use "
                         "desc.atomic_add" % (what, reduce))
    offsets = _semantic.descriptor_offsets(desc, offsets)
    handles = [desc.handle] + [o.handle for o in offsets] + [source.handle]
    _generator.module.select_pipeline_extension("tlx")
    _generator.builder.op("tlx.async_descriptor_store", handles, [])


@tlx_builtin
def async_descriptor_store_wait(pendings, _semantic=None, _generator=None):
    """Waits until at most `pendings` descriptor stores are in flight."""
    pendings = constexpr_int(pendings, "tlx.async_descriptor_store_wait()")
    if pendings < 0:
        raise ValueError("tlx.async_descriptor_store_wait(): pendings must be "
                         ">= 0")
    emit(_generator, "tlx.async_descriptor_store_wait", [], [],
         props={"pendings": pendings})
