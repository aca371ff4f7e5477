"""Specialization: launch arguments -> a cache key, ArgSpecs and launch values.

Triton 3.6's rules, which decide what a kernel is compiled for:

* a `tl.constexpr` parameter is folded in: its value is part of the key;
* an int equal to 1 becomes constexpr 1 (unless do_not_specialize);
  other ints are i32, i64 or u64 by value range, and divisible by 16 gives
  `divisibility=16` (unless do_not_specialize or
  do_not_specialize_on_alignment);
* a bool is i1, a float fp32;
* a tensor is a pointer to its element type ("*fp32", "*bf16", "*i1" for
  bool, ...), with divisibility 16 when its address is 16-byte aligned
  (same exceptions);
* None is constexpr None; constexpr-wrapped values, strings, dtypes and
  other hashable non-numbers are constexprs;
* a tensor descriptor (an object with base, shape, strides, block_shape
  and optionally padding) is "tensordesc<dtype[b0, b1]>" (",div16" before
  ">" when its innermost extent is a multiple of 16, then ",nan" when
  padded with NaN), with divisibility 16 when its base is
  16-byte aligned; it is launched as its base pointer, its shape (i32
  each) and its strides (i64 each), in that order.

Speed: `make_binder` generates, per kernel, one Python function with the
kernel's own parameters (so Python binds positional/keyword/default
arguments natively) that returns the key, the launch values and the bound
arguments in one pass. Common cases -- CUDA torch tensors, plain ints --
are inlined, tpx's TensorDescriptor goes straight to generic's descriptor
case; everything else goes through `generic`, which is written to
produce exactly the same key parts. The key is a flat tuple of two parts
per runtime parameter (a type marker and an alignment flag), one part per
constexpr parameter, then num_warps, num_stages, debug and ctas_per_cga as
given.
"""

import sys

from tpx.compiler.spec import ArgSpec
from tpx.errors import LaunchError
from tpx.runtime import arguments

__all__ = ["make_binder", "spec_from_key", "MockTensor", "wrap_dtype",
           "OPTION_NAMES", "IGNORED_OPTIONS"]

# Keyword-only launch options the binder names explicitly (they are in the
# key); the rest of Triton's options are accepted and ignored.
OPTION_NAMES = ("num_warps", "num_stages", "num_ctas", "maxnreg", "debug",
                "ctas_per_cga")
# The named options that shape the compile: the key ends with them.
KEY_OPTION_NAMES = ("num_warps", "num_stages", "debug", "ctas_per_cga")
IGNORED_OPTIONS = frozenset((
    "enable_fp_fusion", "launch_cooperative_grid", "launch_pdl",
    "waves_per_eu", "matrix_instr_nonkdim", "kpack", "instrumentation_mode",
    "sanitize_overflow", "extern_libs", "ir_override", "allowed_dot_input_precisions",
    "default_dot_input_precision", "max_num_imprecise_acc_default",
    "schedule_hint", "arch", "backend_name", "ptx_version", "ptx_options",
    "enable_reflect_ftz", "supported_fp8_dtypes", "deprecated_fp8_dtypes",
    "num_buffers_warp_spec", "num_consumer_groups",
    "reg_dec_producer", "reg_inc_consumer", "minRegAutoWS", "maxRegAutoWS",
    "pingpong_auto_ws",
))

_I32_MIN, _I32_MAX = -(1 << 31), (1 << 31) - 1
_I64_MIN, _I64_MAX = -(1 << 63), (1 << 63) - 1
_U64_MAX = (1 << 64) - 1


class MockTensor:
    """What `kernel.warmup(torch.float16, ...)` passes for a dtype: a
    pointer of that dtype at address 0 (so divisible by 16), never
    dereferenced because warmup does not launch."""
    tpx_host_buffer = (0, 0)
    tpx_device_pointer = 0

    def __init__(self, dtype):
        self.dtype = dtype

    @staticmethod
    def data_ptr():
        return 0

    def __repr__(self):
        return "MockTensor(%s)" % (self.dtype,)


def _is_dtype(obj):
    if isinstance(obj, type) and obj.__module__.split(".")[0] in (
            "numpy", "ml_dtypes"):
        return arguments.dtype_name(obj) is not None
    module = type(obj).__module__ or ""
    if module.startswith("torch") and type(obj).__name__ == "dtype":
        return True
    if module.startswith("numpy") and type(obj).__name__.startswith("dtype"):
        return True
    return False


def wrap_dtype(obj):
    """warmup's argument rule: a torch/numpy dtype stands for a tensor."""
    return MockTensor(obj) if _is_dtype(obj) else obj


def _constexpr_type():
    """tpx.language's constexpr class, once the front end has it."""
    core = sys.modules.get("tpx.language.core")
    if core is None:
        try:
            from tpx.language import core
        except Exception:
            return None
    return getattr(core, "constexpr", None)


def _is_constexpr_obj(obj):
    cls = _constexpr_type()
    if cls is not None and isinstance(obj, cls):
        return True
    return type(obj).__name__ == "constexpr" and hasattr(obj, "value")


class TypedConstant:
    """A constexpr that is a number other than an int, in a key.

    1, 1.0 and True are equal and hash alike in Python, but a kernel
    compiled for BLOCK=1 (int arithmetic) is not one for BLOCK=1.0; the key
    holds them as TypedConstant, equal only for the same type and value
    (NaN equals NaN, so such a key still hits the cache).
    """
    __slots__ = ("value", "_id")

    def __init__(self, value):
        self.value = value
        self._id = (type(value), repr(value) if isinstance(value, float)
                    else value)

    def __eq__(self, other):
        return type(other) is TypedConstant and other._id == self._id

    def __hash__(self):
        return hash(self._id)

    def __repr__(self):
        return repr(self.value)


def unwrap_constant(part):
    """The constexpr value of a key part."""
    return part.value if type(part) is TypedConstant else part


def constexpr_key(value, where):
    """The key part of a constexpr: unwrapped, lists made tuples so they
    hash, non-int numbers typed (TypedConstant); an unhashable value is a
    TypeError naming the parameter."""
    if _is_constexpr_obj(value):
        value = value.value
    if isinstance(value, list):
        value = tuple(value)
    try:
        hash(value)
    except TypeError:
        raise TypeError("%s is a constexpr, so its value is part of the "
                        "kernel cache key and must be hashable; got %s" %
                        (where, arguments.describe(value))) from None
    if type(value) is not int and isinstance(value, (bool, float, complex)) \
            or type(value).__module__ == "numpy":
        return TypedConstant(value)
    return value


def hash_ok(value):
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _int_parts(value, mode, where):
    if mode < 2 and value == 1:
        return "c1", None
    if _I32_MIN <= value <= _I32_MAX:
        kind = "i32"
    elif _I64_MIN <= value <= _I64_MAX:
        kind = "i64"
    elif 0 <= value <= _U64_MAX:
        kind = "u64"
    else:
        raise ValueError("%s: the integer %d does not fit in 64 bits" %
                         (where, value))
    return kind, (not value & 15) if mode == 0 else None


def _is_descriptor(obj):
    return (hasattr(obj, "base") and hasattr(obj, "block_shape") and
            hasattr(obj, "shape") and hasattr(obj, "strides"))


def make_generic(backend, where_of):
    """generic(value, mode, device, index) -> (kind, align, launch value).

    `mode` 0 specializes fully, 1 skips alignment (do_not_specialize_on_
    alignment), 2 skips both (do_not_specialize). `where_of(index)` names
    the parameter in messages.
    """
    if backend in ("cuda", "hip"):
        if backend == "cuda":
            from tpx.runtime.launch_cuda import device_pointer
        else:
            from tpx.runtime.launch_hip import device_pointer

        def pointer_of(obj, where, device):
            return device_pointer(obj, where, device)

        def address_of(value):
            return value
    else:
        from tpx.runtime.launch_cpu import host_buffer

        def pointer_of(obj, where, device):
            return host_buffer(obj, where)

        def address_of(value):
            return value[0]

    def generic(value, mode, device, index):
        if isinstance(value, bool):
            return "i1", None, int(value)
        if isinstance(value, int):
            kind, align = _int_parts(value, mode, where_of(index))
            return kind, align, value
        if isinstance(value, float):
            return "fp32", None, value
        if value is None:
            return "none", None, None
        module = type(value).__module__.split(".")[0]
        if module == "numpy" and getattr(value, "shape", None) == () and \
                not hasattr(value, "__len__"):
            # numpy scalars behave as the Python numbers they hold.
            kind = getattr(getattr(value, "dtype", None), "kind", "")
            if kind == "b":
                return "i1", None, int(bool(value))
            if kind in "iu":
                number = int(value)
                k, align = _int_parts(number, mode, where_of(index))
                return k, align, number
            if kind == "f":
                return "fp32", None, float(value)
        if _is_dtype(value):
            return "cx", value, None
        if arguments.is_torch_tensor(value) or hasattr(
                value, "__array_interface__") or hasattr(
                value, "__cuda_array_interface__") or (
                hasattr(value, "data_ptr") and hasattr(value, "dtype") and
                not _is_descriptor(value)):
            name = _element_type(value, where_of(index))
            launch = pointer_of(value, where_of(index), device)
            align = (not address_of(launch) & 15) if mode == 0 else None
            key = value.dtype if arguments.is_torch_tensor(value) else \
                "*" + name
            return key, align, launch
        if _is_constexpr_obj(value):
            return "cx", constexpr_key(value, where_of(index)), None
        if _is_descriptor(value):
            return _descriptor(value, mode, device, index)
        if module == "tpx" and hash_ok(value):
            # tl dtypes and other language objects.
            return "cx", value, None
        if isinstance(value, (tuple, list)):
            raise TypeError("%s: tuple arguments are not supported by tpx "
                            "yet (pass the elements separately, or make "
                            "the parameter a tl.constexpr)" %
                            where_of(index))
        if callable(value) or isinstance(value, str):
            return "cx", constexpr_key(value, where_of(index)), None
        raise TypeError("%s: cannot pass %s to a kernel (pass tensors, "
                        "numbers, bools, None or constexprs)" %
                        (where_of(index), arguments.describe(value)))

    gpu = backend in ("cuda", "hip")
    tensor_type = arguments.torch_tensor_type()

    def _descriptor(desc, mode, device, index):
        where = where_of(index)
        base = desc.base
        # A torch tensor on the kernel's GPU, the common case, is taken
        # without building the messages of the checked path.
        if gpu and type(base) is tensor_type and \
                base.get_device() == device:
            name = arguments.dtype_name(base.dtype)
            launch = base.data_ptr()
        else:
            name = launch = None
        if name is None:
            base_where = where + " (the descriptor's base)"
            name = _element_type(base, base_where)
            launch = pointer_of(base, base_where, device)
        block = tuple(map(int, desc.block_shape))
        shape = tuple(map(int, desc.shape))
        strides = tuple(map(int, desc.strides))
        if not len(block) == len(shape) == len(strides):
            raise ValueError("%s: a tensor descriptor needs as many shape, "
                             "stride and block entries (got %d, %d, %d)" %
                             (where, len(shape), len(strides), len(block)))
        padding = str(getattr(desc, "padding", "zero") or "zero")
        if padding not in ("zero", "nan"):
            raise ValueError("%s: a tensor descriptor's padding is 'zero' or "
                             "'nan', got %r" % (where, padding))
        align = (not address_of(launch) & 15) if mode == 0 else None
        # Rows of whole 16-element runs fill whole 16-byte chunks: the
        # descriptor may be stored with TMA (docs/python.md).
        key = ("desc", name, block, padding, shape[-1] % 16 == 0)
        return key, align, (launch,) + shape + strides

    # The binder calls it directly for tpx's own TensorDescriptor.
    generic.descriptor = _descriptor
    return generic


def _element_type(value, where):
    dtype = getattr(value, "dtype", None)
    if dtype is None:
        interface = getattr(value, "__cuda_array_interface__", None) or \
            getattr(value, "__array_interface__", None)
        dtype = interface.get("typestr") if isinstance(interface, dict) \
            else None
    name = arguments.dtype_name(dtype) if dtype is not None else None
    if name is None:
        raise TypeError("%s: tensors of element type %s cannot be passed "
                        "to a kernel" % (where, dtype))
    return name


def spec_from_key(name, kind, align, value):
    """The ArgSpec for one runtime parameter from its key parts."""
    divisibility = 16 if align else None
    if type(kind) is str:
        if kind[0] == "*":
            return ArgSpec(name, kind, divisibility=divisibility)
        if kind == "c1":
            return ArgSpec(name, "constexpr", 1)
        if kind in ("i32", "i64", "u64"):
            return ArgSpec(name, kind, divisibility=divisibility)
        if kind in ("i1", "fp32"):
            return ArgSpec(name, kind)
        if kind == "none":
            return ArgSpec(name, "constexpr", None)
        if kind == "cx":
            return ArgSpec(name, "constexpr", unwrap_constant(align))
        raise AssertionError("unknown key part %r" % (kind,))
    if type(kind) is tuple and kind[0] == "desc":
        # "tensordesc<fp16[64, 64]>", ",div16" for an innermost extent
        # that is a multiple of 16, ",nan" for NaN padding; divisibility is
        # the base pointer's.
        return ArgSpec(name, "tensordesc<%s[%s]%s%s>" % (
            kind[1], ", ".join(str(b) for b in kind[2]),
            ",div16" if kind[4] else "",
            ",nan" if kind[3] == "nan" else ""), divisibility=divisibility)
    element = arguments.dtype_name(kind)   # a torch dtype
    if element is None:
        raise TypeError("argument '%s': tensors of element type %s cannot be "
                        "passed to a kernel" % (name, kind))
    return ArgSpec(name, "*" + element, divisibility=divisibility)


def make_binder(fn, backend, get_device):
    """The generated bind-and-specialize function of @jit function `fn`.

    binder(*args, **kwargs) -> (device, key, values, bound, options):
      key      the flat key tuple (see the module doc)
      values   a launch value per parameter (None for constexpr ones)
      bound    every parameter's value, in order (for grid callables)
      options  the keyword arguments that are neither parameters nor the
               named options (validated by the caller, usually empty)

    binder.tpx_hot(grid, *args, **kwargs) is the whole launch of a cached
    kernel in one generated function (see the comment at its source); the
    runtime sets its globals (binder.tpx_namespace: _tpx_generation,
    _tpx_fast, _tpx_stream, _tpx_cold, _tpx_scope) and until then it always
    takes _tpx_cold. _tpx_fast is keyed by (device, _tpx_scope()), the
    pipeline extensions of the enclosing `with tpx.pipeline(...)` blocks.
    """
    params = fn.params
    names = [p.name for p in params]
    for name in names:
        if name.startswith("_tpx_"):
            raise ValueError("%s: parameter names starting with '_tpx_' are "
                             "reserved" % fn.__name__)
    options = [o for o in OPTION_NAMES if o not in names]
    where = ["argument '%s' of kernel '%s'" % (n, fn.__name__)
             for n in names]
    generic = make_generic(backend, where.__getitem__)
    namespace = {
        "_tpx_get_device": get_device,
        "_tpx_generic": generic,
        "_tpx_descriptor": generic.descriptor,
        "_tpx_Descriptor": _tensor_descriptor_type(),
        "_tpx_cx": lambda value, i: constexpr_key(value, where[i]),
        "_tpx_plain": frozenset((int, str, type(None))),
        "_tpx_Tensor": arguments.torch_tensor_type(),
        "_tpx_wrong_device": _wrong_device(where),
        "_tpx_ndarray": _numpy_ndarray(),
        "_tpx_np_buffer": _np_buffer,
        "_tpx_np_key": _np_key(where),
        "_tpx_torch_buffer": _cpu_torch_buffer(where),
    }
    signature = ", ".join(names)
    kw_only = ", ".join("%s=None" % o for o in options)
    header = "def %s(%s%s*, %s, **_tpx_options):" % (
        fn.__name__, signature, ", " if names else "", kw_only)
    lines = [header, "    _tpx_dev = _tpx_get_device()"]
    key_parts, value_parts = [], []
    for i, p in enumerate(params):
        v = p.name
        if p.is_constexpr:
            lines += ["    _tpx_x%d = %s" % (i, v),
                      "    if type(_tpx_x%d) not in _tpx_plain:" % i,
                      "        _tpx_x%d = _tpx_cx(_tpx_x%d, %d)" % (i, i, i)]
            key_parts.append("_tpx_x%d" % i)
            value_parts.append("None")
            continue
        mode = 2 if p.do_not_specialize else (
            1 if p.do_not_specialize_on_alignment else 0)
        k, a, pv = "_tpx_k%d" % i, "_tpx_a%d" % i, "_tpx_p%d" % i
        generic = "        %s, %s, %s = _tpx_generic(%s, %d, _tpx_dev, %d)" % (
            k, a, pv, v, mode, i)
        lines.append("    _tpx_t = type(%s)" % v)
        first = "if"
        if backend == "cpu":
            lines += [
                "    if _tpx_t is _tpx_ndarray:",
                "        %s = _tpx_np_buffer(%s)" % (pv, v),
                "        %s = _tpx_np_key(%s.dtype, %d)" % (k, v, i),
                "        %s = %s" % (a, ("not %s[0] & 15" % pv) if mode == 0
                                     else "None"),
                "    elif _tpx_t is _tpx_Tensor:",
                "        %s = _tpx_torch_buffer(%s, %d)" % (pv, v, i),
                "        %s = %s.dtype" % (k, v),
                "        %s = %s" % (a, ("not %s[0] & 15" % pv) if mode == 0
                                     else "None"),
            ]
            first = "elif"
        if backend in ("cuda", "hip"):
            lines += [
                "    if _tpx_t is _tpx_Tensor:",
                "        %s = %s.data_ptr()" % (pv, v),
                "        if %s.get_device() != _tpx_dev:" % v,
                "            _tpx_wrong_device(%d, %s, _tpx_dev)" % (i, v),
                "        %s = %s.dtype" % (k, v),
                "        %s = %s" % (a, ("not %s & 15" % pv) if mode == 0
                                     else "None"),
            ]
            first = "elif"
        lines += ["    %s _tpx_t is int:" % first,
                  "        %s = %s" % (pv, v)]
        if mode < 2:
            lines += ["        if %s == 1:" % v,
                      "            %s = 'c1'" % k,
                      "            %s = None" % a,
                      "        elif -2147483648 <= %s <= 2147483647:" % v,
                      "            %s = 'i32'" % k,
                      "            %s = %s" % (a, ("not %s & 15" % v)
                                             if mode == 0 else "None")]
        else:
            lines += ["        if -2147483648 <= %s <= 2147483647:" % v,
                      "            %s = 'i32'" % k,
                      "            %s = None" % a]
        # tpx's host descriptors skip generic's checks of other kinds
        # (after ints, which stay one test away).
        lines += ["        else:", "    " + generic,
                  "    elif _tpx_t is _tpx_Descriptor:",
                  "        %s, %s, %s = _tpx_descriptor(%s, %d, _tpx_dev, %d)"
                  % (k, a, pv, v, mode, i),
                  "    else:", generic]
        key_parts += [k, a]
        value_parts.append(pv)
    # (A list of cluster extents keys as its tuple: keys are hashed.)
    key_parts += [("(%s if type(%s) is not list else tuple(%s))" % (o, o, o)
                   if o == "ctas_per_cga" else o) if o in options else "None"
                  for o in KEY_OPTION_NAMES]
    key = "(%s,)" % ", ".join(key_parts)
    values = "(%s%s)" % (", ".join(value_parts),
                         "," if len(value_parts) == 1 else "")
    bound = "(%s%s)" % (", ".join(names), "," if len(names) == 1 else "")
    body = lines[1:]
    binder_lines = [header] + body + [
        "    return (_tpx_dev, %s, %s, %s, _tpx_options)" %
        (key, values, bound)]
    # The hot path: the binder's body, then the cache lookup, the grid and
    # the launch inline. Anything unusual (extra options, a cache miss, a
    # configuration change, an odd grid) goes to _tpx_cold, the general
    # path, with the arguments as bound.
    option_args = ", ".join(o for o in options)
    cold = "_tpx_cold(_tpx_grid, %s, (%s%s_tpx_options))" % (
        bound, option_args, ", " if option_args else "")
    meta = "{%s}" % ", ".join("%r: %s" % (n, n) for n in names)
    hot_lines = [
        "def %s(_tpx_grid, %s%s*, %s, **_tpx_options):" % (
            fn.__name__, signature, ", " if names else "", kw_only)] + body + [
        "    if _tpx_options or _tpx_capi.state_generation != "
        "_tpx_generation:",
        "        return " + cold,
        "    _tpx_f = _tpx_fast.get((_tpx_dev, _tpx_scope()))",
        "    _tpx_e = _tpx_f.get(%s) if _tpx_f is not None else None" % key,
        "    if _tpx_e is None:",
        "        return " + cold,
        "    if type(_tpx_grid) is not tuple:",
        "        if not callable(_tpx_grid):",
        "            return " + cold,
        "        _tpx_meta = %s" % meta]
    for o in options:
        hot_lines += ["        if %s is not None:" % o,
                      "            _tpx_meta[%r] = %s" % (o, o)]
    hot_lines += [
        "        _tpx_grid = _tpx_grid(_tpx_meta)",
        "        if type(_tpx_grid) is not tuple:",
        "            return " + cold,
        "    _tpx_n = len(_tpx_grid)",
        "    if _tpx_n == 1:",
        "        _tpx_gx = _tpx_grid[0]",
        "        _tpx_gy = _tpx_gz = 1",
        "    elif _tpx_n == 2:",
        "        _tpx_gx, _tpx_gy = _tpx_grid",
        "        _tpx_gz = 1",
        "    elif _tpx_n == 3:",
        "        _tpx_gx, _tpx_gy, _tpx_gz = _tpx_grid",
        "    else:",
        "        return " + cold,
        "    if type(_tpx_gx) is not int or type(_tpx_gy) is not int or "
        "type(_tpx_gz) is not int or (_tpx_gx | _tpx_gy | _tpx_gz) < 0:",
        "        return " + cold,
        "    _tpx_e[1](_tpx_gx, _tpx_gy, _tpx_gz, %s, _tpx_stream(_tpx_dev), "
        "_tpx_dev)" % values,
        "    return _tpx_e[0]",
    ]
    # Until the runtime installs the real ones, the hot path always takes
    # the general path.
    namespace.update(_tpx_capi=_capi_module(), _tpx_generation=None,
                     _tpx_fast={}, _tpx_stream=None, _tpx_cold=None,
                     _tpx_scope=tuple)
    made = {}
    for kind, text in (("binder", binder_lines), ("hot", hot_lines)):
        source = "\n".join(text)
        exec(compile(source, "<tpx %s %s>" % (kind, fn.__name__), "exec"),
             namespace)
        function = namespace.pop(fn.__name__)
        hot_defaults = _defaults(params)
        function.__defaults__ = hot_defaults
        function.__kwdefaults__ = {o: None for o in options}
        function.tpx_source = source
        made[kind] = function
    binder, hot = made["binder"], made["hot"]
    binder.tpx_hot = hot
    binder.tpx_namespace = namespace
    binder.tpx_option_names = tuple(options)
    return binder


def _capi_module():
    from tpx import _capi
    return _capi


def _tensor_descriptor_type():
    from tpx.tools.tensor_descriptor import TensorDescriptor
    return TensorDescriptor


def _numpy_ndarray():
    numpy = sys.modules.get("numpy")
    return numpy.ndarray if numpy is not None else arguments._Never


def _np_buffer(array):
    """(pointer, bytes) of an ndarray; quick for arrays owning their data,
    whose extent is just nbytes."""
    if array.base is None:
        return array.ctypes.data, array.nbytes
    return arguments.numpy_buffer(array)


def _np_key(where):
    """numpy dtype -> its key part "*fp32". Not the dtype itself: numpy
    dtypes compare equal to strings ("i1" == int8), which would let keys of
    different types collide."""
    names = {}

    def key(dtype, index):
        try:
            return names[dtype]
        except KeyError:
            name = arguments.dtype_name(dtype)
            if name is None:
                raise TypeError("%s: arrays of element type %s cannot be "
                                "passed to a kernel" % (where[index], dtype)) \
                    from None
            names[dtype] = "*" + name
            return names[dtype]
    return key


def _cpu_torch_buffer(where):
    from tpx.runtime.launch_cpu import host_buffer

    def buffer(tensor, index):
        return host_buffer(tensor, where[index])
    return buffer


def _defaults(params):
    """The trailing run of defaults, as Python wants them."""
    defaults = []
    for p in reversed(params):
        if not p.has_default:
            break
        defaults.append(p.default)
    return tuple(reversed(defaults)) or None


def _wrong_device(where):
    def fail(index, tensor, device):
        found = tensor.get_device()
        if found < 0:
            raise LaunchError(
                "%s is a torch tensor on %s, but the kernel runs on cuda:%d "
                "(move it with .cuda())" % (where[index], tensor.device,
                                             device))
        raise LaunchError(
            "%s is a torch tensor on cuda:%d, but the kernel runs on cuda:%d "
            "(the current device; use torch.cuda.device(%d) or move the "
            "tensor)" % (where[index], found, device, found))
    return fail
