"""TLX TMA: block copies through tensor descriptors, tracked by barriers."""

from tpx.language.descriptor import tensor_descriptor_base

from .barrier import _one_barrier
from .mem_ops import _check_buffer
from ._support import constexpr_int, emit, tlx_builtin, unwrap


@tlx_builtin
def make_tensor_descriptor(desc_ptr, base, shape, strides, block_shape,
                           padding_option="zero", _semantic=None,
                           _generator=None):
    """A TMA descriptor of the tensor at `base` (as tl.make_tensor_descriptor).
    Only `desc_ptr=None` (the compiler places the descriptor) is
    supported."""
    if unwrap(desc_ptr) is not None:
        raise ValueError("tlx.make_tensor_descriptor(): descriptors in "
                         "explicitly allocated global memory (desc_ptr=) are "
                         "not supported; pass desc_ptr=None")
    return _semantic.make_tensor_descriptor(base, shape, strides, block_shape,
                                            padding_option)


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


@tlx_builtin
def async_descriptor_load(desc, result, offsets, barrier, cache_modifier="",
                          eviction_policy="", is_volatile=False,
                          _semantic=None, _generator=None):
    """Copies the block of `desc` at `offsets` into buffer `result`; its
    bytes complete on `barrier` (expect them with barrier_expect_bytes)."""
    desc = _descriptor(desc, "tlx.async_descriptor_load()")
    result = unwrap(result)
    ty = _check_buffer(result, "tlx.async_descriptor_load() result")
    _check_block(desc, ty, "tlx.async_descriptor_load()")
    bar = _one_barrier(barrier, "tlx.async_descriptor_load()")
    offsets = _semantic.descriptor_offsets(desc, offsets)
    props = {"cache": _semantic._cache_modifier(cache_modifier, False),
             "evict": _semantic._eviction_policy(eviction_policy)}
    handles = [desc.handle] + [o.handle for o in offsets] + \
        [result.handle, bar.handle]
    _generator.module.select_pipeline_extension("tlx")
    _generator.builder.op("tlx.async_descriptor_load", handles, [],
                          props=props)


@tlx_builtin
def async_descriptor_store(desc, source, offsets, _semantic=None,
                           _generator=None):
    """Copies buffer `source` to the block of `desc` at `offsets`."""
    desc = _descriptor(desc, "tlx.async_descriptor_store()")
    source = unwrap(source)
    ty = _check_buffer(source, "tlx.async_descriptor_store() source")
    _check_block(desc, ty, "tlx.async_descriptor_store()")
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
