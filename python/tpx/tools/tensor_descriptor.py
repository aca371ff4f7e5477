"""Host tensor descriptors, as `triton.tools.tensor_descriptor`.

A `TensorDescriptor` passed as a kernel argument describes a strided tensor
in memory (a numpy array on the CPU, a torch tensor on a GPU) that the
kernel reads and writes in blocks of `block_shape` (`desc.load(...)`,
`desc.store(...)`); elements outside `shape` read as `padding` ("zero" or
"nan") and are not written.

For the runtime, two functions say what such an argument is:

* `signature(desc)`: its ArgSpec type, "tensordesc<fp16[64, 64]>" (Triton's
  signature string; ",nan" is added before ">" for NaN padding, which tpx
  compiles into the kernel);
* `launch_values(desc)`: the kernel arguments it expands to, in order: the
  base buffer, then `shape` (one int32 each), then `strides` (one int64
  each, in elements).

docs/python.md ("Block pointers and tensor descriptors") describes the
TTIR a descriptor parameter becomes.
"""

from dataclasses import dataclass
from typing import Any, List

TRITON_MAX_TENSOR_NUMEL = 1048576

# Element type names (numpy's dtype.name, torch's dtype without "torch.")
# -> signature strings.
_SIGNATURES = {
    "float16": "fp16", "float32": "fp32", "float64": "fp64",
    "bfloat16": "bf16", "int8": "i8", "int16": "i16", "int32": "i32",
    "int64": "i64", "uint8": "u8", "uint16": "u16", "uint32": "u32",
    "uint64": "u64", "bool": "i1", "float8_e5m2": "fp8e5",
    "float8_e4m3fn": "fp8e4nv", "float8_e4m3fnuz": "fp8e4b8",
    "float8_e5m2fnuz": "fp8e5b16",
}
_FLOATING = ("fp16", "fp32", "fp64", "bf16", "fp8e5", "fp8e4nv", "fp8e4b8",
             "fp8e5b16")


# The host checks a block shape exactly as kernels do.
from tpx.language.shape import validate_block_shape  # noqa: E402,F401

# Block shapes that passed validate_block_shape: a wrapper makes its
# descriptors on every call, with the same few block shapes.
_valid_blocks = set()


def _check_block_shape(block_shape):
    # Only plain ints are remembered ((8.0, 8) == (8, 8) but is invalid).
    key = tuple(block_shape)
    plain = all(type(d) is int for d in key)
    if plain and key in _valid_blocks:
        return
    validate_block_shape(block_shape)
    if plain:
        _valid_blocks.add(key)


def _data_ptr(base):
    if hasattr(base, "data_ptr"):           # torch
        return base.data_ptr()
    return base.ctypes.data                 # numpy


def _itemsize(base):
    if hasattr(base, "element_size"):       # torch
        return base.element_size()
    return base.dtype.itemsize


def _element_strides(base):
    if hasattr(base, "stride"):             # torch
        return list(base.stride())
    size = base.dtype.itemsize
    for s in base.strides:
        if s % size:
            raise ValueError("array strides %s are not multiples of its "
                             "element size %d" % (base.strides, size))
    return [s // size for s in base.strides]


def _dtype_signature(base):
    explicit = getattr(base, "tpx_signature", None)
    if explicit:
        return explicit
    name = str(base.dtype)
    name = name[len("torch."):] if name.startswith("torch.") else name
    if name not in _SIGNATURES:
        raise TypeError("a tensor descriptor cannot describe elements of "
                        "type %s" % (base.dtype,))
    return _SIGNATURES[name]


@dataclass
class TensorDescriptor:
    base: Any
    shape: List[int]
    strides: List[int]
    block_shape: List[int]
    padding: str = "zero"

    def __post_init__(self):
        rank = len(self.shape)
        assert len(self.strides) == rank, "rank mismatch: %s" % (self,)
        assert len(self.block_shape) == rank, "rank mismatch: %s" % (self,)
        assert rank > 0, "rank must not be zero"
        assert rank <= 5, "rank cannot be more than 5"
        assert _data_ptr(self.base) % 16 == 0, "base must be 16-byte aligned"
        _check_block_shape(self.block_shape)
        elem_bytes = _itemsize(self.base)
        for stride in self.strides[:-1]:
            assert (stride * elem_bytes) % 16 == 0, \
                "strides must be 16-byte aligned"
        assert self.strides[-1] == 1, "Last dimension must be contiguous"
        assert self.padding == "zero" or self.padding == "nan", \
            "Illegal value for padding"
        if self.padding == "nan":
            assert _dtype_signature(self.base) in _FLOATING, \
                "Padding option `nan` is only supported for floating point " \
                "tensors"

    @staticmethod
    def from_tensor(tensor, block_shape, padding="zero"):
        """The descriptor of all of `tensor` (its shape and strides)."""
        return TensorDescriptor(tensor, list(tensor.shape),
                                _element_strides(tensor), block_shape,
                                padding)


def signature(desc):
    """The ArgSpec type of `desc`: "tensordesc<fp16[64, 64]>", with ",div16"
    before ">" when its innermost extent is a multiple of 16 and then
    ",nan" when it pads with NaN."""
    text = "tensordesc<%s%s" % (_dtype_signature(desc.base),
                                [int(b) for b in desc.block_shape])
    if int(desc.shape[-1]) % 16 == 0:
        text += ",div16"
    if desc.padding == "nan":
        text += ",nan"
    return text + ">"


def launch_values(desc):
    """The kernel arguments `desc` expands to, in order: the base buffer,
    the shape (ints, passed as i32) and the strides (ints, in elements,
    passed as i64)."""
    return [desc.base] + [int(s) for s in desc.shape] + \
        [int(s) for s in desc.strides]
