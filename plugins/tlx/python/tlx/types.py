"""TLX's value types: buffers and async tokens, as tpx.language types.

A buffer value is an ordinary kernel value (`tensor`) whose type is a
`buffered_tensor_type`; the type knows its shape and element type and how
the value is indexed (`buffers[i]`), so the value keeps working after it
was carried through loops or passed to helper functions.
"""

from tpx.language import core
from tpx.language.extra import mlir_type


class storage_kind:
    """Where `local_alloc` puts its buffers. Hopper has shared memory only
    (`tmem`, Blackwell's tensor memory, is rejected by local_alloc)."""
    smem = "smem"
    tmem = "tmem"


class buffered_tensor_type(mlir_type):
    """`!tlx.buffer<...>`: `num` buffers of `shape` (`num` None: one buffer,
    what local_view and indexing return)."""

    def __init__(self, shape, element_ty, num=None):
        self.block_shape = tuple(int(s) for s in shape)
        self.element_ty = element_ty
        self.num = num
        dims = ((num,) if num is not None else ()) + self.block_shape
        super().__init__("!tlx.buffer<%s>" % "x".join(
            [str(d) for d in dims] + [element_ty.to_ir()]))

    def view_type(self):
        return buffered_tensor_type(self.block_shape, self.element_ty)

    def with_shape(self, shape, element_ty=None):
        return buffered_tensor_type(shape, element_ty or self.element_ty)

    @property
    def nbytes(self):
        count = 1
        for s in self.block_shape:
            count *= s
        return count * max(1, self.element_ty.primitive_bitwidth // 8) * \
            (self.num or 1)

    def __tpx_getitem__(self, value, index, _semantic=None, _generator=None):
        from .mem_ops import local_view
        return local_view(value, index, _semantic=_semantic,
                          _generator=_generator)

    def __repr__(self):
        return "buffered_tensor_type(%s)" % self.name


class tensor_descriptor_ptr_type(buffered_tensor_type):
    """allocate_tensor_descriptor's storage: `num` slots of 128 bytes, as
    TLX has them, each holding one descriptor as 16 int64 words (the base
    address, the shape, the strides: see tma.py). It is a buffer of the
    program's local memory (`!tlx.buffer<num x 16 x i64>`), so writes and
    reads of a slot are ordered like those of any buffer, on every target;
    indexing selects a slot (`desc_ptrs[i]`, `i` a constexpr or a run-time
    integer)."""

    WORDS = 16

    def __init__(self, num=None):
        super().__init__((self.WORDS,), core.int64, num)

    def view_type(self):
        return tensor_descriptor_ptr_type()

    def __repr__(self):
        return "tensor_descriptor_ptr_type(%s)" % self.name


class async_token_type(mlir_type):
    """`!tlx.async_token`: an async copy, or a commit group, to wait for."""

    def __init__(self):
        super().__init__("!tlx.async_token")


class mbarrier_type(mlir_type):
    """`!tlx.mbarriers<count>`: barriers from alloc_barriers; indexing
    selects one (`bars[i]`)."""

    def __init__(self, count):
        self.count = int(count)
        super().__init__("!tlx.mbarriers<%d>" % self.count)

    def __tpx_getitem__(self, value, index, _semantic=None, _generator=None):
        from .barrier import barrier_view
        return barrier_view(value, index, _semantic, _generator)


class remote_mbarrier_type(mbarrier_type):
    """One barrier as it is in another CTA of the cluster (remote_view): the
    same IR type; the value carries the CTA's rank (`tpx_remote_rank`)."""

    def __init__(self):
        super().__init__(1)


# TLX's names for the values themselves: both are kernel values (tensors)
# of the types above.
buffered_tensor = core.tensor
tensor_descriptor_ptr = core.tensor
async_token = core.tensor
mbarrier = core.tensor


def is_buffer(value, single=None):
    """True for a buffer value; `single` True/False also checks whether it
    is one buffer (a view) or a multi-buffer allocation."""
    if not isinstance(value, core.tensor) or \
            not isinstance(value.type, buffered_tensor_type):
        return False
    return single is None or (value.type.num is None) == single
