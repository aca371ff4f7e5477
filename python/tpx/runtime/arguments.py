"""What launch arguments are: element types, host buffers, device pointers.

One place knows how to read an argument object, so the specializer (the
cache key and ArgSpecs), the CPU launcher and the CUDA launcher agree:

* torch tensors: `data_ptr()`, `dtype`, `get_device()` (-1 on the host);
* numpy arrays and anything with `__array_interface__` (host memory);
* anything with `__cuda_array_interface__` (device memory: CuPy, Numba, JAX
  through DLPack wrappers, ...);
* other objects with `data_ptr()` and `dtype` (Triton's TensorWrapper,
  tpx's warmup stand-ins) are taken at their word.

Element types are named with Triton's signature vocabulary ("fp32", "bf16",
"fp8e4nv", "i1", ...) -- see tpx/compiler/spec.py.
"""

import sys

from tpx.errors import LaunchError

# Triton's names for torch dtypes, by str(dtype): str() is stable across
# torch versions, and newer dtypes (uint16, float8_*) simply appear when
# the installed torch has them.
_TORCH_NAMES = {
    "torch.float32": "fp32", "torch.float": "fp32",
    "torch.float16": "fp16", "torch.half": "fp16",
    "torch.bfloat16": "bf16",
    "torch.float64": "fp64", "torch.double": "fp64",
    "torch.int8": "i8", "torch.int16": "i16", "torch.int32": "i32",
    "torch.int64": "i64",
    "torch.uint8": "u8", "torch.uint16": "u16", "torch.uint32": "u32",
    "torch.uint64": "u64",
    "torch.bool": "i1",
    "torch.float8_e4m3fn": "fp8e4nv",
    "torch.float8_e5m2": "fp8e5",
    "torch.float8_e4m3fnuz": "fp8e4b8",
    "torch.float8_e5m2fnuz": "fp8e5b16",
}

# numpy dtype.name (ml_dtypes adds bfloat16 and the float8 types).
_NUMPY_NAMES = {
    "float32": "fp32", "float16": "fp16", "float64": "fp64",
    "bfloat16": "bf16",
    "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
    "bool": "i1",
    "float8_e4m3fn": "fp8e4nv", "float8_e5m2": "fp8e5",
    "float8_e4m3fnuz": "fp8e4b8", "float8_e5m2fnuz": "fp8e5b16",
    "float8_e4m3b11fnuz": "fp8e4b15",
}

# __array_interface__ / __cuda_array_interface__ typestr without the byte
# order character.
_TYPESTR_NAMES = {
    "f4": "fp32", "f2": "fp16", "f8": "fp64",
    "i1": "i8", "i2": "i16", "i4": "i32", "i8": "i64",
    "u1": "u8", "u2": "u16", "u4": "u32", "u8": "u64",
    "b1": "i1",
}

# Triton names of element types by their Triton dtype names (tpx.language
# dtypes print as "fp32", "int32", ...).
_TL_NAMES = {
    "int1": "i1", "int8": "i8", "int16": "i16", "int32": "i32",
    "int64": "i64", "uint8": "u8", "uint16": "u16", "uint32": "u32",
    "uint64": "u64", "float16": "fp16", "float32": "fp32",
    "float64": "fp64", "bfloat16": "bf16",
    "float8e4nv": "fp8e4nv", "float8e5": "fp8e5", "float8e4b8": "fp8e4b8",
    "float8e5b16": "fp8e5b16", "float8e4b15": "fp8e4b15",
}
_TL_NAMES.update({v: v for v in set(_TORCH_NAMES.values())})

_cache = {}


def dtype_name(dtype):
    """Triton's name of an element type: a torch or numpy dtype, a numpy
    typestr, a tpx.language dtype or a Triton name; None if unknown."""
    try:
        return _cache[dtype]
    except (KeyError, TypeError):
        pass
    name = _dtype_name_slow(dtype)
    try:
        if name is not None:
            _cache[dtype] = name
    except TypeError:
        pass
    return name


def _dtype_name_slow(dtype):
    text = str(dtype)
    if text.startswith("torch."):
        return _TORCH_NAMES.get(text)
    module = type(dtype).__module__ or ""
    if module.startswith("numpy") or hasattr(dtype, "itemsize") and hasattr(
            dtype, "kind") and hasattr(dtype, "name"):
        name = _NUMPY_NAMES.get(getattr(dtype, "name", ""))
        if name:
            return name
    if isinstance(dtype, type):
        # numpy scalar types (np.float32) and ml_dtypes' classes.
        name = _NUMPY_NAMES.get(getattr(dtype, "__name__", ""))
        if name:
            return name
    if isinstance(dtype, str):
        if len(dtype) >= 2 and dtype[0] in "<>|=" and dtype[1:] in \
                _TYPESTR_NAMES:
            return _TYPESTR_NAMES[dtype[1:]]
        return _TL_NAMES.get(dtype) or _NUMPY_NAMES.get(dtype)
    return _TL_NAMES.get(text)


def element_size(name):
    """Bytes of one element of a Triton element type name."""
    if name == "i1":
        return 1
    digits = "".join(c for c in name if c.isdigit())
    if name.startswith("fp8"):
        return 1
    return max(1, int(digits) // 8) if digits else 1


def _byte_extent(pointer, shape, strides, itemsize):
    """(lowest, highest + 1) byte addresses an array view touches."""
    if any(s == 0 for s in shape):
        return pointer, pointer
    low = high = pointer
    for size, stride in zip(shape, strides):
        span = (size - 1) * stride
        if span < 0:
            low += span
        else:
            high += span
    return low, high + itemsize


def _contiguous_strides(shape, itemsize):
    strides = []
    step = itemsize
    for size in reversed(shape):
        strides.append(step)
        step *= max(1, size)
    return tuple(reversed(strides))


def interface_buffer(interface):
    """(pointer, bytes from the pointer to the end of the view, typestr)
    of an __array_interface__ / __cuda_array_interface__ dict."""
    data = interface.get("data")
    if isinstance(data, tuple):
        pointer = int(data[0] or 0)
    elif data is None:
        raise TypeError("the array interface exposes no data pointer "
                        "(a buffer-protocol object; pass a numpy array)")
    else:
        raise TypeError("the array interface's data is not a pointer")
    typestr = interface.get("typestr", "|u1")
    try:
        itemsize = int(typestr[2:])
    except ValueError:
        itemsize = 1
    shape = tuple(interface.get("shape", ()))
    strides = interface.get("strides") or _contiguous_strides(shape, itemsize)
    offset = interface.get("offset", 0) or 0
    pointer += offset
    _, high = _byte_extent(pointer, shape, strides, itemsize)
    return pointer, max(0, high - pointer), typestr


def numpy_buffer(array):
    """(pointer, bytes) of a numpy array: bytes from the data pointer to the
    end of the memory of the array it views, so a kernel may reach past a
    slice into its parent (as it may on a GPU)."""
    interface = array.__array_interface__
    pointer = interface["data"][0] or 0
    root = array
    while True:
        base = getattr(root, "base", None)
        if base is None or not hasattr(base, "__array_interface__") or \
                type(base).__module__.split(".")[0] != "numpy":
            break
        root = base
    if root is array:
        _, high = _byte_extent(pointer, array.shape,
                               array.strides, array.itemsize)
    else:
        ri = root.__array_interface__
        _, high = _byte_extent(ri["data"][0] or 0, root.shape, root.strides,
                               root.itemsize)
    return pointer, max(0, high - pointer)


def torch_buffer(tensor):
    """(pointer, bytes) of a host torch tensor: from its data pointer to the
    end of its storage, so offset views (x[1:], x[:, 3]) keep the whole
    allocation in reach."""
    pointer = tensor.data_ptr()
    storage_fn = getattr(tensor, "untyped_storage", None)
    try:
        storage = storage_fn() if storage_fn is not None else \
            tensor.storage()
        start = storage.data_ptr()
        nbytes = storage.nbytes()
    except (RuntimeError, NotImplementedError, AttributeError):
        # Tensors without storage (some subclasses, meta tensors).
        return pointer, tensor.numel() * tensor.element_size()
    return pointer, max(0, start + nbytes - pointer)


def is_torch_tensor(obj):
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(obj, torch.Tensor)


def torch_tensor_type():
    """torch.Tensor when torch is imported, else a type nothing is."""
    torch = sys.modules.get("torch")
    return torch.Tensor if torch is not None else _Never


class _Never:
    """Stands in for torch.Tensor when torch is absent."""


def describe(obj):
    """A short description of an argument for error messages."""
    if is_torch_tensor(obj):
        return "a torch tensor on %s" % obj.device
    if type(obj).__module__.split(".")[0] == "numpy" and hasattr(
            obj, "shape"):
        return "a numpy array"
    name = type(obj).__name__
    return "%s %s" % ("an" if name[:1].lower() in "aeiou" else "a", name)


def int_value(obj, where, type_name):
    """A scalar launch argument as a Python int (bools, ints, numpy and
    torch integers); a LaunchError naming `where` otherwise."""
    if isinstance(obj, bool):
        return int(obj)
    if isinstance(obj, int):
        return obj
    index = getattr(type(obj), "__index__", None)
    if index is not None and not isinstance(obj, float):
        return index(obj)
    if isinstance(obj, float) or hasattr(obj, "__float__"):
        raise LaunchError("%s is %s but a floating-point value (%r) was "
                          "given" % (where, type_name, obj))
    raise LaunchError("%s is %s but %s was given" %
                      (where, type_name, describe(obj)))


def float_value(obj, where, type_name):
    """A scalar launch argument as a Python float."""
    if isinstance(obj, (int, float)):
        return float(obj)
    # numpy scalars and 0-d arrays, not whole arrays or tensors.
    if hasattr(type(obj), "__float__") and getattr(obj, "shape", ()) == ():
        return float(obj)
    raise LaunchError("%s is %s but %s was given" %
                      (where, type_name, describe(obj)))


def convert_all(launcher, args, pointer, integer):
    """The launch values of a generic launch: `args` checked against the
    launcher's ABI (its name, kernel signature, kinds, types and `wheres`
    descriptions), pointers converted by `pointer(obj, where)`, integers
    by `integer(obj, where, type_name)`."""
    if len(args) != len(launcher.kinds):
        names = ", ".join(a.get("name", "?")
                          for a in launcher.kernel.signature)
        raise LaunchError(
            "kernel '%s' takes %d arguments (%s) but %d were given" %
            (launcher.name, len(launcher.kinds), names, len(args)))
    values = []
    for obj, kind, type_name, where in zip(args, launcher.kinds,
                                           launcher.types, launcher.wheres):
        if kind == "pointer":
            values.append(pointer(obj, where))
        elif kind == "int":
            values.append(integer(obj, where, type_name))
        else:
            values.append(float_value(obj, where, type_name))
    return values
