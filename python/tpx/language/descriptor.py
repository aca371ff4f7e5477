"""Block pointers and tensor descriptors: Triton's structured memory access.

Two ways for a kernel to address a 2-D (or n-D) tile of a strided tensor in
global memory without building a tensor of pointers:

* block pointers, `tl.make_block_ptr(base, shape, strides, offsets,
  block_shape, order)`: a value of type `pointer_type(block_type)`, TTIR
  `!tt.ptr<tensor<64x64xf16>>` (`tt.make_tensor_ptr`), moved with
  `tl.advance` and read/written with `tl.load`/`tl.store`, whose
  `boundary_check` masks the dimensions that may leave the tensor and whose
  `padding_option` fills what a load reads outside ("zero" or "nan"). A block
  pointer is an ordinary `tensor` (a scalar of pointer type), so it is
  carried through `for`/`while`/`if` like any other value.

* tensor descriptors, `tl.make_tensor_descriptor(base, shape, strides,
  block_shape, padding_option="zero")` in the kernel or a host
  `tpx.tools.tensor_descriptor.TensorDescriptor` passed as an argument:
  `!tt.tensordesc<tensor<64x64xf16>>`, read and written whole blocks at a
  time (`desc.load(offsets)`, `desc.store(offsets, value)`, row gathers and
  scatters, atomic reductions). Out-of-bounds elements read as the
  descriptor's padding and are not written.

A `tensor_descriptor` is made of several IR values, as in Triton: the
descriptor handle, its shape (`i32` each) and its strides (`i64` each). It
crosses regions, loops and calls as these parts (the code generator's
`__tpx_flatten__` / `__tpx_unflatten__` protocol), so `desc.shape` stays
available everywhere.

A host descriptor passed as a kernel argument becomes, in the kernel's TTIR
signature, its base pointer followed by its shape (`i32`) and strides
(`i64`) — Triton's own argument list for a host descriptor with the
descriptor slot replaced by its base pointer — and the kernel starts with a
`tt.make_tensor_descriptor` of these arguments. tpx's launchers cannot pass
a `!tt.tensordesc` argument and its lowerings (CPU, and the GPU's
`tpxgpu-lower-tensor-descriptors`) handle descriptors made in the kernel;
see docs/python.md, "Block pointers and tensor descriptors".

The Semantic methods that build the IR are defined here and attached to
`tpx.language.semantic.Semantic` (`load`/`store` in basic.py dispatch to
`load_block_pointer`/`store_block_pointer` for block pointers).
"""

import re

from tpx.compiler.ir import Raw
from tpx.language import core as tl
from tpx.language.core import (block_type, builtin, constexpr, dtype,
                               pointer_type, tensor)
from tpx.language.semantic import Semantic

# tt.PaddingOption and tt.DescriptorReduceKind values (TTAttrs.td).
PAD_ZERO, PAD_NAN = 1, 2
_PADDING = {"zero": PAD_ZERO, "nan": PAD_NAN}
_REDUCE_KIND = {"add": 1, "min": 2, "max": 3, "and": 6, "or": 7, "xor": 8}


from tpx.language.core import _unwrap_if_constexpr as _unwrap  # noqa


def _as_list(x):
    """A shape/offsets argument as a list: tuples and lists are taken
    apart, anything else (an int, a scalar tensor) is one element."""
    x = _unwrap(x)
    if isinstance(x, (list, tuple)):
        return list(x)
    return [x]


def _i32_array(values):
    if not values:
        return Raw("array<i32>")
    return Raw("array<i32: %s>" % ", ".join(str(int(v)) for v in values))


# -- types --------------------------------------------------------------------

class tensor_descriptor_base_type(dtype):
    """The type of a descriptor handle: `!tt.tensordesc<tensor<...>>`."""

    def __init__(self, block_type):
        self.block_type = block_type
        self.name = "tensor_descriptor<%s>" % (block_type,)
        self.primitive_bitwidth = 0

    def to_ir(self, builder=None):
        # Integer blocks are signless in tpx's tt dialect (Triton's TTIR
        # spells signed ones `si32`; tpx's descriptor ops want `i32`).
        return "!tt.tensordesc<%s>" % self.block_type.to_ir()

    def __eq__(self, other):
        other = _unwrap(other)
        return type(other) is type(self) and \
            self.block_type == other.block_type

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(("tensordesc", self.block_type))

    def __str__(self):
        return self.name

    __repr__ = __str__


class tensor_descriptor_type(tensor_descriptor_base_type):
    """A descriptor with its shape (int32 each) and strides (int64 each)."""

    def __init__(self, block_type, shape_type=None, strides_type=None):
        super().__init__(block_type)
        rank = len(block_type.shape)
        self.shape_type = tuple(shape_type or [tl.int32] * rank)
        self.strides_type = tuple(strides_type or [tl.int64] * rank)


# -- values -----------------------------------------------------------------

class tensor_descriptor_base(tensor):
    """A tensor descriptor: reads and writes blocks of a global tensor."""

    def __init__(self, handle, block_type):
        # Not tensor.__init__: `dtype` is the block's element type here.
        self.handle = handle
        self.type = tensor_descriptor_base_type(block_type)

    @property
    def block_type(self):
        return self.type.block_type

    @property
    def block_shape(self):
        return self.type.block_type.shape

    @property
    def dtype(self):
        return self.type.block_type.element_ty

    def __str__(self):
        return str(self.type)

    def __repr__(self):
        return "tensor_descriptor(%s)" % (self.type.block_type,)

    @builtin
    def load(self, offsets, _semantic=None):
        """The block at element `offsets`; elements outside the tensor
        read as the descriptor's padding (zero unless "nan")."""
        return _semantic.descriptor_load(self, offsets, "", "")

    @builtin
    def store(self, offsets, value, _semantic=None):
        """Stores `value` (the block's shape, cast to its element type) at
        element `offsets`; elements outside the tensor are not written."""
        return _semantic.descriptor_store(self, value, offsets)

    @builtin
    def atomic_add(self, offsets, value, _semantic=None):
        return _semantic.descriptor_atomic(self, "add", value, offsets)

    @builtin
    def atomic_min(self, offsets, value, _semantic=None):
        return _semantic.descriptor_atomic(self, "min", value, offsets)

    @builtin
    def atomic_max(self, offsets, value, _semantic=None):
        return _semantic.descriptor_atomic(self, "max", value, offsets)

    @builtin
    def atomic_and(self, offsets, value, _semantic=None):
        return _semantic.descriptor_atomic(self, "and", value, offsets)

    @builtin
    def atomic_or(self, offsets, value, _semantic=None):
        return _semantic.descriptor_atomic(self, "or", value, offsets)

    @builtin
    def atomic_xor(self, offsets, value, _semantic=None):
        return _semantic.descriptor_atomic(self, "xor", value, offsets)

    @builtin
    def gather(self, *args, _semantic=None):
        """Rows `x_offsets` (a 1-D int32 tensor), columns from `y_offset`,
        of a descriptor whose block is one row (1 x N)."""
        assert len(args) == 2, "descriptor gather only supports 2D " \
            "indexing, but got %d" % len(args)
        return _semantic.descriptor_gather(self, args[0], args[1], "", "")

    @builtin
    def scatter(self, value, *args, _semantic=None):
        """Writes the rows of `value` at rows `x_offsets`, columns from
        `y_offset` (the inverse of gather)."""
        assert len(args) == 2, "descriptor scatter only supports 2D " \
            "indexing, but got %d" % len(args)
        return _semantic.descriptor_scatter(self, value, args[0], args[1])


class tensor_descriptor(tensor_descriptor_base):
    """A descriptor together with its global shape and strides (tensors)."""

    def __init__(self, handle, shape, strides, block_type):
        super().__init__(handle, block_type)
        self.shape = tuple(shape)
        self.strides = tuple(strides)
        self.type = tensor_descriptor_type(
            block_type, [s.type for s in self.shape],
            [s.type for s in self.strides])

    # The code generator carries a descriptor as its IR parts.
    def __tpx_flatten__(self):
        handle = tensor(self.handle, tensor_descriptor_base_type(
            self.block_type))
        return [handle] + list(self.shape) + list(self.strides)

    def __tpx_unflatten__(self, leaves):
        rank = len(self.block_shape)
        return tensor_descriptor(leaves[0].handle, leaves[1:1 + rank],
                                 leaves[1 + rank:1 + 2 * rank],
                                 self.block_type)


class _host_tensor_descriptor(tensor_descriptor):
    """The kernel parameter of a host TensorDescriptor: its arguments are the
    base pointer, the shape (i32) and the strides (i64); the function starts
    with a tt.make_tensor_descriptor of them."""

    def __init__(self, block_type, padding, divisibility=None,
                 inner_div16=False):
        rank = len(block_type.shape)
        super().__init__(None, [tensor(None, tl.int32)] * rank,
                         [tensor(None, tl.int64)] * rank, block_type)
        self._base = tensor(None, pointer_type(block_type.element_ty))
        self._padding = padding
        self._divisibility = divisibility
        self._inner_div16 = inner_div16

    def __tpx_flatten__(self):
        return [self._base] + list(self.shape) + list(self.strides)

    def __tpx_arg_attrs__(self):
        """Argument attributes of the kernel arguments, in order."""
        base = {"tt.divisibility": self._divisibility} \
            if self._divisibility else {}
        rank = len(self.block_shape)
        shape = [{} for _ in range(rank)]
        if self._inner_div16:
            shape[-1] = {"tt.divisibility": 16}
        # TensorDescriptor requires 16-byte aligned strides (as Triton's
        # does, for TMA): the leading strides divide by 16 bytes' worth of
        # elements, which lets a target that copies the blocks itself (AMD)
        # use 16-byte loads. The last stride is the constant 1.
        elem_bytes = max(1, self.block_type.element_ty.primitive_bitwidth // 8)
        strides = [{} for _ in range(rank)]
        if elem_bytes < 16:
            for d in range(rank - 1):
                strides[d] = {"tt.divisibility": 16 // elem_bytes}
        return [base] + shape + strides

    def __tpx_bind_parameter__(self, leaves, _semantic):
        # The host descriptor's last stride is 1 (TensorDescriptor checks
        # it, as Triton's does): the descriptor uses the constant, so the
        # compiler sees a contiguous innermost dimension (TMA needs it).
        # The argument stays in the signature.
        rank = len(self.block_shape)
        strides = list(leaves[1 + rank:])
        strides[-1] = _semantic.constant(1, tl.int64)
        return _semantic.emit_tensor_descriptor(
            leaves[0], leaves[1:1 + rank], strides, self.block_type,
            self._padding)


_SPEC = re.compile(r"^tensordesc<\s*([A-Za-z0-9_]+)\s*\[([0-9,\s]*)\]"
                   r"((?:\s*,\s*(?:zero|nan|div16))*)\s*>$")


def descriptor_value_from_spec(spec):
    """The kernel parameter for ArgSpec type "tensordesc<fp16[64, 64]>"
    (",div16" before ">" when the innermost extent is a multiple of 16,
    which puts tt.divisibility = 16 on that shape argument; ",nan" for a
    descriptor padded with NaN)."""
    match = _SPEC.match(spec.type.strip())
    if match is None:
        raise TypeError("unknown signature type %r: a tensor descriptor is "
                        "\"tensordesc<DTYPE[B0, B1, ...]>\" or "
                        "\"tensordesc<DTYPE[B0, ...],nan>\"" % (spec.type,))
    element = tl.str_to_ty(match.group(1))
    shape = [int(s) for s in match.group(2).split(",") if s.strip()]
    if not 1 <= len(shape) <= 5:
        raise TypeError("%r: a tensor descriptor has 1 to 5 dimensions" %
                        (spec.type,))
    flags = [f.strip() for f in match.group(3).split(",") if f.strip()]
    padding = "nan" if "nan" in flags else "zero"
    if padding == "nan" and not element.is_floating():
        raise TypeError("%r: Padding option `nan` is only supported for "
                        "floating point tensors" % (spec.type,))
    return _host_tensor_descriptor(block_type(element, shape),
                                   _PADDING[padding], spec.divisibility,
                                   "div16" in flags)


# -- semantics ----------------------------------------------------------------

class _DescriptorSemantic:
    """Methods attached to Semantic (see the end of this module)."""

    # -- shared helpers ------------------------------------------------------

    def is_block_pointer(self, ptr):
        ptr = _unwrap(ptr)
        return isinstance(ptr, tensor) and ptr.type.is_ptr() and \
            ptr.type.element_ty.is_block()

    def convert_block_index(self, elem, require_i64):
        """A shape/stride (i64) or offset (i32) operand, as Triton converts
        the elements of make_block_ptr/advance/descriptor arguments."""
        elem = _unwrap(elem)
        if isinstance(elem, int):
            if require_i64:
                assert -2 ** 63 <= elem < 2 ** 63, (
                    "Block pointers only support 64 bit `shape/strides`, "
                    "got a value %d which is out of the range" % elem)
                return self.constant(elem, tl.int64)
            assert -2 ** 31 <= elem < 2 ** 31, (
                "Block pointers only support 32 bit `offsets/block_shape`, "
                "got a value %d which is out of the range" % elem)
            return self.constant(elem, tl.int32)
        if isinstance(elem, tensor) and not isinstance(
                elem, tensor_descriptor_base):
            assert not elem.type.is_block() and not elem.dtype.is_ptr(), \
                "Expected a scalar in shape/strides/offsets"
            assert elem.dtype.is_int(), \
                "Expected an integer scalar type in shape/strides/offsets"
            if require_i64:
                return self.cast(elem, tl.int64)
            assert elem.dtype.int_bitwidth < 64, (
                "Block pointers only support 32 bit `offsets/block_shape`, "
                "add a `.to(tl.int32)` or use regular indexing for 64 bit "
                "support")
            if elem.dtype.int_bitwidth != 32:
                elem = self.cast(elem, tl.int32)
            return elem
        assert False, "Unsupported element type in shape/strides/offsets: " \
            "%s" % (type(elem),)

    def canonicalize_boundary_check(self, boundary_check, block_shape):
        boundary_check = _unwrap(boundary_check)
        if not boundary_check:
            return []
        if not isinstance(boundary_check, (list, tuple)):
            boundary_check = [boundary_check]
        boundary_check = [_unwrap(d) for d in boundary_check]
        for dim in boundary_check:
            assert isinstance(dim, int) and 0 <= dim < len(block_shape), \
                "boundary_check dimension %r is not a dimension of a " \
                "rank-%d block" % (dim, len(block_shape))
        assert len(boundary_check) == len(set(boundary_check)), \
            "Duplicate dimension in `boundary_check`"
        return sorted(boundary_check)

    @staticmethod
    def padding_option(padding_option):
        padding_option = _unwrap(padding_option)
        if not padding_option:
            return None
        if padding_option not in _PADDING:
            raise ValueError("Padding option %s not supported" %
                             (padding_option,))
        return _PADDING[padding_option]

    def make_scalar(self, value, dt):
        value = _unwrap(value)
        if isinstance(value, tensor):
            assert value.numel.value == 1 and not value.type.is_block(), \
                "only accepts size-1 tensor"
            return self.cast(value, dt)
        return self.constant(value, dt)

    # -- block pointers ------------------------------------------------------

    def make_block_ptr(self, base, shape, strides, offsets, block_shape,
                       order):
        shape = [self.convert_block_index(s, True) for s in _as_list(shape)]
        strides = [self.convert_block_index(s, True)
                   for s in _as_list(strides)]
        offsets = [self.convert_block_index(o, False)
                   for o in _as_list(offsets)]
        base = self.to_tensor(base)
        if not base.type.is_ptr() or base.type.element_ty.is_block():
            raise ValueError("Expected `base` to be a pointer type (but not a "
                             "block pointer type or others)")
        if base.type.element_ty == tl.int1:
            # Booleans are bytes in memory.
            base = self.cast(base, tl.pointer_type(
                tl.int8, base.type.address_space))
        block_shape = [_unwrap(s) for s in _as_list(block_shape)]
        assert all(isinstance(s, int) and -2 ** 31 <= s < 2 ** 31
                   for s in block_shape), \
            "Expected a list of constant integers (`int32_t` range) in " \
            "`block_shape`"
        order = [_unwrap(o) for o in _as_list(order)]
        assert sorted(order) == list(range(len(order))), \
            "Expected a permutation of (0, 1, ..., len(order)-1) in order"
        assert all(len(block_shape) == len(x)
                   for x in (shape, strides, offsets, order)), \
            "Expected shape/strides/offsets/block_shape to have the same " \
            "length"
        result = tl.pointer_type(block_type(base.type.element_ty,
                                            block_shape))
        return self.op("tt.make_tensor_ptr",
                       [base] + shape + strides + offsets, result,
                       props={"order": _i32_array(order)})

    def advance(self, base, offsets):
        offsets = [self.convert_block_index(o, False)
                   for o in _as_list(offsets)]
        base = _unwrap(base)
        if not self.is_block_pointer(base):
            raise ValueError("tl.advance expects a block pointer (made by "
                             "tl.make_block_ptr), got %s" %
                             (getattr(base, "type", type(base)),))
        rank = len(base.type.element_ty.shape)
        if len(offsets) != rank:
            raise ValueError("tl.advance needs %d offsets for a rank-%d "
                             "block pointer, got %d" %
                             (rank, rank, len(offsets)))
        return self.op("tt.advance", [base] + offsets, base.type)

    def load_block_pointer(self, ptr, mask, other, boundary_check,
                           padding_option, cache_modifier, eviction_policy,
                           is_volatile):
        cache = self._cache_modifier(cache_modifier, False)
        evict = self._eviction_policy(eviction_policy)
        padding = self.padding_option(padding_option)
        if _unwrap(mask) is not None or _unwrap(other) is not None:
            raise ValueError("`mask` and `other` arguments cannot be "
                             "specified for loading block pointers")
        block = ptr.type.element_ty
        element = block.element_ty
        assert element != tl.int1, \
            "`tl.int1` should be rewritten in `tl.make_block_ptr`"
        if element.is_int() and padding == PAD_NAN:
            raise ValueError("Padding option `nan` is not supported for "
                             "integer block pointers")
        checked = self.canonicalize_boundary_check(boundary_check,
                                                   block.shape)
        props = {
            "boundaryCheck": _i32_array(checked), "cache": cache,
            "evict": evict,
            "isVolatile": Raw("true" if _unwrap(is_volatile) else "false"),
            "operandSegmentSizes": Raw("array<i32: 1, 0, 0>")}
        if padding is not None:
            props["padding"] = Raw("%d : i32" % padding)
        return self.op("tt.load", [ptr], block, props=props)

    def store_block_pointer(self, ptr, value, mask, boundary_check,
                            cache_modifier, eviction_policy):
        cache = self._cache_modifier(cache_modifier, True)
        evict = self._eviction_policy(eviction_policy)
        value = self.to_tensor(value)
        if _unwrap(mask) is not None:
            raise ValueError("`mask` and `other` arguments cannot be "
                             "specified for loading block pointers")
        block = ptr.type.element_ty
        if not value.type.is_block():
            value = self.broadcast_impl_shape(value, block.shape)
        assert block.shape == value.type.shape, \
            "Block shape(%s) and value shape(%s) mismatch" % (
                block.shape, value.type.shape)
        assert block.element_ty == value.type.element_ty, \
            "Block element type(%s) and value element type(%s) mismatch" % (
                block.element_ty, value.type.element_ty)
        assert block.element_ty != tl.int1, \
            "`tl.int1` should be rewritten in `tl.make_block_ptr`"
        checked = self.canonicalize_boundary_check(boundary_check,
                                                   block.shape)
        self.builder.op("tt.store", [ptr.handle, value.handle], [], props={
            "boundaryCheck": _i32_array(checked), "cache": cache,
            "evict": evict})
        return None

    # -- tensor descriptors --------------------------------------------------

    def emit_tensor_descriptor(self, base, shape, strides, block_ty,
                               padding):
        """tt.make_tensor_descriptor of i32 `shape` and i64 `strides`."""
        handle = self.builder.op1(
            "tt.make_tensor_descriptor",
            [base.handle] + [s.handle for s in shape] +
            [s.handle for s in strides],
            tensor_descriptor_base_type(block_ty).to_ir(),
            props={"padding": Raw("%d : i32" % padding)})
        return tensor_descriptor(handle, shape, strides, block_ty)

    def make_tensor_descriptor(self, base, shape, strides, block_shape,
                               padding_option="zero"):
        shape, strides = _as_list(shape), _as_list(strides)
        block_shape = _as_list(block_shape)
        ndim = len(shape)
        if not 1 <= ndim <= 5:
            raise ValueError("Expected 1 <= ndim <= 5 but got %d dimensions"
                             % ndim)
        if len(strides) != ndim:
            raise ValueError("Expected %d strides but got %d" %
                             (ndim, len(strides)))
        if len(block_shape) != ndim:
            # (Triton's message counts the strides here too.)
            raise ValueError("Expected block_shape to have %d dimensions but "
                             "got %d" % (ndim, len(strides)))
        base = self.to_tensor(base)
        assert isinstance(base.dtype, tl.pointer_type) and \
            not base.type.is_block() and \
            not base.dtype.element_ty.is_block(), \
            "make_tensor_descriptor's base must be a pointer to scalars, " \
            "got %s" % (base.type,)
        element = base.dtype.element_ty
        block_shape = [_unwrap(s) for s in block_shape]
        for i, s in enumerate(block_shape):
            if not isinstance(s, int) or isinstance(s, bool):
                raise TypeError("Shape element %d must have type "
                                "`constexpr[int]`, got `constexpr[%s]`" %
                                (i, type(s)))
        elem_size = element.primitive_bitwidth // 8
        contig = block_shape[-1]
        if contig * elem_size < 16:
            raise ValueError(
                "Descriptor block shape must have at least 16 bytes in the "
                "last dimension, but got %d * %d = %d bytes" %
                (contig, elem_size, contig * elem_size))
        last_stride = _unwrap(strides[-1])
        if isinstance(last_stride, tensor) or last_stride != 1:
            raise ValueError("Tensor descriptor last dim must be 1 but got %s"
                             % ("a tensor (it must be the constexpr 1)"
                                if isinstance(last_stride, tensor)
                                else last_stride))
        shape = [self.make_scalar(s, tl.int32) for s in shape]
        strides = [self.make_scalar(s, tl.int64) for s in strides]
        block_ty = block_type(element, block_shape)
        padding = self.padding_option(padding_option)
        if element.is_int() and padding == PAD_NAN:
            raise ValueError("Padding option `nan` is not supported for "
                             "integer blocks")
        return self.emit_tensor_descriptor(base, shape, strides, block_ty,
                                           padding or PAD_ZERO)

    def descriptor_offsets(self, desc, offsets):
        offsets = _as_list(offsets)
        ndim = len(desc.block_shape)
        assert len(offsets) == ndim, "expected %d offsets, but got %d" % (
            ndim, len(offsets))
        return [self.convert_block_index(o, False) for o in offsets]

    def descriptor_load(self, desc, offsets, cache_modifier,
                        eviction_policy):
        assert isinstance(desc, tensor_descriptor_base)
        offsets = self.descriptor_offsets(desc, offsets)
        return self.op("tt.descriptor_load", [desc] + offsets,
                       desc.block_type, props={
                           "cache": self._cache_modifier(cache_modifier,
                                                         False),
                           "evict": self._eviction_policy(eviction_policy)})

    def validate_store_like(self, desc, value, offsets):
        assert isinstance(desc, tensor_descriptor_base)
        offsets = self.descriptor_offsets(desc, offsets)
        value = self.to_tensor(value)
        assert [_unwrap(s) for s in value.shape] == list(desc.block_shape)
        return value, offsets

    def descriptor_store(self, desc, value, offsets):
        value, offsets = self.validate_store_like(desc, value, offsets)
        value = self.cast(value, desc.dtype)
        self.builder.op("tt.descriptor_store",
                        [desc.handle, value.handle] +
                        [o.handle for o in offsets], [])
        return None

    _ATOMIC_INTS = (tl.uint32, tl.int32, tl.uint64, tl.int64)

    def descriptor_atomic(self, desc, kind, value, offsets):
        value, offsets = self.validate_store_like(desc, value, offsets)
        allowed = {
            "add": (tl.uint32, tl.int32, tl.uint64, tl.float32, tl.float16,
                    tl.bfloat16),
            "min": self._ATOMIC_INTS + (tl.float16, tl.bfloat16),
            "max": self._ATOMIC_INTS + (tl.float16, tl.bfloat16),
        }.get(kind, self._ATOMIC_INTS)
        assert desc.dtype in allowed, "Unsupported dtype"
        value = self.cast(value, desc.dtype)
        self.builder.op("tt.descriptor_reduce",
                        [desc.handle, value.handle] +
                        [o.handle for o in offsets], [],
                        props={"kind": Raw("%d : i32" % _REDUCE_KIND[kind])})
        return None

    def _row_transfer_checks(self, desc, x_offsets, what):
        assert isinstance(desc, tensor_descriptor_base)
        block = desc.block_shape
        assert len(block) == 2, "descriptor must be 2D, but got %s" % (
            list(block),)
        assert block[0] == 1, "descriptor block must have 1 row, but got " \
            "%s" % (list(block),)
        x_offsets = self.to_tensor(x_offsets)
        assert len(x_offsets.shape) == 1, "x offsets must be 1D, but got " \
            "%s" % (list(x_offsets.shape),)
        rows = _unwrap(x_offsets.shape[0])
        assert rows >= 8, "descriptor %s must have at least 8 rows, but " \
            "got %s" % (what, [rows])
        min_cols = 32 // desc.dtype.primitive_bitwidth * 8
        assert block[1] >= min_cols, "descriptor %s of %s must have at " \
            "least %d columns, but got %d" % (what, desc.dtype, min_cols,
                                              block[1])
        if not x_offsets.dtype.is_int():
            raise TypeError("descriptor %s: x offsets must be integers, got "
                            "%s" % (what, x_offsets.dtype))
        if x_offsets.dtype.int_bitwidth == 64:
            raise TypeError("descriptor %s only supports 32 bit x offsets; "
                            "add a `.to(tl.int32)`" % what)
        if x_offsets.dtype != tl.int32:
            x_offsets = self.cast(x_offsets, tl.int32)
        return x_offsets, rows

    def descriptor_gather(self, desc, x_offsets, y_offset, cache_modifier,
                          eviction_policy):
        assert not _unwrap(cache_modifier), \
            "cache modifier is not supported yet"
        assert not _unwrap(eviction_policy), \
            "eviction policy is not supported yet"
        x_offsets, rows = self._row_transfer_checks(desc, x_offsets,
                                                    "gather")
        y_offset = self.convert_block_index(y_offset, False)
        result = block_type(desc.dtype, [rows, desc.block_shape[1]])
        return self.op("tt.descriptor_gather", [desc, x_offsets, y_offset],
                       result)

    def descriptor_scatter(self, desc, value, x_offsets, y_offset):
        x_offsets, rows = self._row_transfer_checks(desc, x_offsets,
                                                    "scatter")
        y_offset = self.convert_block_index(y_offset, False)
        value = self.to_tensor(value)
        expected = [rows, desc.block_shape[1]]
        assert [_unwrap(s) for s in value.shape] == expected, \
            "descriptor scatter value must have shape %s, but got %s" % (
                expected, [_unwrap(s) for s in value.shape])
        value = self.cast(value, desc.dtype)
        self.builder.op("tt.descriptor_scatter",
                        [desc.handle, x_offsets.handle, y_offset.handle,
                         value.handle], [])
        return None


for _name, _fn in list(vars(_DescriptorSemantic).items()):
    if not _name.startswith("__"):
        setattr(Semantic, _name, _fn)


# -- the language functions ---------------------------------------------------

def must_use_result(message):
    """Marks a builtin whose result must be used (the code generator rejects
    a call whose value is thrown away, with `message`)."""
    def mark(fn):
        fn._must_use_result = message
        return fn
    return mark


@builtin
def make_block_ptr(base, shape, strides, offsets, block_shape, order,
                   _semantic=None):
    """A pointer to the `block_shape` block at `offsets` of the tensor at
    `base` with `shape` and `strides` (in elements); `order` lists the
    dimensions from the fastest-varying (a hint, kept in the IR)."""
    return _semantic.make_block_ptr(base, shape, strides, offsets,
                                    block_shape, order)


_ADVANCE_NOTE = ("Note that tl.advance does not have any side effects. To "
                 "move the block pointer, you need to assign the result of "
                 "tl.advance to a variable.")


@must_use_result(_ADVANCE_NOTE)
@builtin
def advance(base, offsets, _semantic=None):
    """The block pointer `base` moved by `offsets` elements per dimension."""
    return _semantic.advance(base, offsets)


@must_use_result(_ADVANCE_NOTE)
@builtin
def _tensor_advance(self, offsets, _semantic=None):
    return _semantic.advance(self, offsets)


tensor.advance = _tensor_advance


@builtin
def make_tensor_descriptor(base, shape, strides, block_shape,
                           padding_option="zero", _semantic=None):
    """A descriptor of the tensor at `base` (shape, strides in elements;
    the last stride must be 1), read and written in `block_shape` blocks;
    out-of-bounds elements read as zero or NaN (`padding_option`)."""
    return _semantic.make_tensor_descriptor(base, shape, strides,
                                            block_shape, padding_option)


@builtin
def load_tensor_descriptor(desc, offsets, _semantic=None):
    """desc.load(offsets)."""
    return desc.load(offsets, _semantic=_semantic)


@builtin
def store_tensor_descriptor(desc, offsets, value, _semantic=None):
    """desc.store(offsets, value)."""
    return desc.store(offsets, value, _semantic=_semantic)
