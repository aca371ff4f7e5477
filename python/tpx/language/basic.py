"""Creation, memory, casts and selection: the core of `triton.language`."""

from tpx.language import core
from tpx.language.core import builtin, constexpr, tensor


from tpx.language.core import _unwrap_if_constexpr as _unwrap  # noqa


def _shape_list(shape):
    shape = _unwrap(shape)
    if isinstance(shape, (int, constexpr)):
        shape = [shape]
    return [_unwrap(s) for s in shape]


@builtin
def program_id(axis, _semantic=None):
    """The id of the current program along `axis` (0, 1 or 2)."""
    return _semantic.program_id(axis)


@builtin
def num_programs(axis, _semantic=None):
    """The number of programs launched along `axis`."""
    return _semantic.num_programs(axis)


@builtin
def arange(start, end, _semantic=None):
    """[start, end) as an int32 block; end - start a power of two."""
    return _semantic.arange(start, end)


@builtin
def full(shape, value, dtype, _semantic=None):
    """A block of `shape` filled with `value`."""
    return _semantic.full(_shape_list(shape), value, _unwrap(dtype))


@builtin
def zeros(shape, dtype, _semantic=None):
    return _semantic.full(_shape_list(shape), 0, _unwrap(dtype))


@builtin
def condition(arg1, disable_licm=False, _semantic=None):
    """A `while` loop's condition with compiler hints, as Triton has it
    (`while tl.condition(c, disable_licm=True):`): the loop runs while
    `arg1` holds. `disable_licm` asks that loop-invariant code stay in the
    loop; tpx takes it as a hint it does not act on (the loop computes the
    same values either way)."""
    if not isinstance(_unwrap(disable_licm), bool):
        raise TypeError("tl.condition(): disable_licm must be a constexpr "
                        "bool, got %r" % (disable_licm,))
    return _semantic.to_tensor(arg1)


@builtin
def zeros_like(input, _semantic=None):
    return _semantic.full(list(input.type.shape) if input.type.is_block()
                          else [], 0, input.dtype)


@builtin
def full_like(input, value, dtype=None, _semantic=None):
    dtype = _unwrap(dtype) or input.dtype
    return _semantic.full(list(input.type.shape) if input.type.is_block()
                          else [], value, dtype)


@builtin
def load(pointer, mask=None, other=None, boundary_check=(),
         padding_option="", cache_modifier="", eviction_policy="",
         volatile=False, _semantic=None):
    """Loads a block (or a scalar) from `pointer`; masked-off lanes read
    `other` (undefined when None)."""
    block_load = getattr(_semantic, "load_block_pointer", None)
    ptr = _unwrap(pointer)
    if block_load is not None and _semantic.is_block_pointer(ptr):
        return block_load(ptr, mask, other, boundary_check, padding_option,
                          cache_modifier, eviction_policy, volatile)
    return _semantic.load(ptr, mask, other, boundary_check, padding_option,
                          cache_modifier, eviction_policy, volatile)


@builtin
def store(pointer, value, mask=None, boundary_check=(), cache_modifier="",
          eviction_policy="", _semantic=None):
    """Stores `value` (broadcast to the pointer's shape) at `pointer`."""
    block_store = getattr(_semantic, "store_block_pointer", None)
    ptr = _unwrap(pointer)
    if block_store is not None and _semantic.is_block_pointer(ptr):
        return block_store(ptr, value, mask, boundary_check, cache_modifier,
                           eviction_policy)
    return _semantic.store(ptr, value, mask, boundary_check, cache_modifier,
                           eviction_policy)


@builtin
def where(condition, x, y, _semantic=None):
    """Elementwise `x if condition else y`, broadcast together."""
    return _semantic.where(condition, x, y)


@builtin
def cast(input, dtype, fp_downcast_rounding=None, bitcast=False,
         _semantic=None):
    input = _semantic.to_tensor(input)
    dtype = _unwrap(dtype)
    if _unwrap(bitcast):
        return _semantic.bitcast(input, dtype)
    return _semantic.cast(input, dtype, fp_downcast_rounding)


@builtin
def to_tensor(x, _semantic=None):
    return _semantic.to_tensor(x)


@builtin
def expand_dims(input, axis, _semantic=None):
    """Inserts size-1 dimensions at `axis` (an int or a sequence)."""
    input = _semantic.to_tensor(input)
    axis = _unwrap(axis)
    axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    axes = [_unwrap(a) for a in axes]
    rank = len(input.type.shape) if input.type.is_block() else 0
    new_rank = rank + len(axes)
    for a in axes:
        if not -new_rank <= a < new_rank:
            raise ValueError("invalid axis %d. Expected %d <= axis < %d" %
                             (a, -new_rank, new_rank))
    axes = sorted(a + new_rank if a < 0 else a for a in axes)
    if len(set(axes)) != len(axes):
        raise ValueError("expand_dims received duplicate axes, normalized "
                         "axes = %s" % axes)
    for a in axes:
        input = _semantic.expand_dims(input, a)
    return input


@builtin
def broadcast_to(input, *shape, _semantic=None):
    shape = _shape_list(shape[0] if len(shape) == 1 else shape)
    from tpx.language.shape import validate_block_shape
    validate_block_shape(shape)
    return _semantic.broadcast_impl_shape(_semantic.to_tensor(input), shape)


@builtin
def broadcast(input, other, _semantic=None):
    return _semantic.broadcast_impl_value(_semantic.to_tensor(input),
                                          _semantic.to_tensor(other))


@builtin
def reshape(input, *shape, can_reorder=False, _semantic=None):
    shape = _shape_list(shape[0] if len(shape) == 1 else shape)
    from tpx.language.shape import unsplat, validate_block_shape
    validate_block_shape(shape)
    if not shape:
        # A one-element tensor to a scalar, as Triton (tl.shape.unsplat).
        return unsplat(_semantic, _semantic.to_tensor(input))
    return _semantic.reshape(input, shape, _unwrap(can_reorder))


@builtin
def view(input, *shape, _semantic=None):
    shape = _shape_list(shape[0] if len(shape) == 1 else shape)
    from tpx.language.shape import validate_block_shape
    validate_block_shape(shape)
    return _semantic.reshape(input, shape, True)


@builtin
def minimum(x, y, propagate_nan=constexpr(0), _semantic=None):
    return _min_max(_semantic, x, y, "min", _unwrap(propagate_nan))


@builtin
def maximum(x, y, propagate_nan=constexpr(0), _semantic=None):
    return _min_max(_semantic, x, y, "max", _unwrap(propagate_nan))


class PropagateNan:
    NONE = constexpr(0)
    ALL = constexpr(0xFFFF)


def _min_max(sem, x, y, which, propagate_nan):
    from tpx.compiler.ir import Raw
    x, y = sem.binary_op_type_checking_impl(x, y)
    sca = x.type.scalar
    if sca.is_floating():
        # NaN-propagating maximumf/minimumf only when asked; otherwise the
        # number wins (maxnumf/minnumf), as Triton's default.
        name = ("arith.%simumf" if propagate_nan else "arith.%snumf") % which
        return sem.op(name, [x, y], x.type,
                      props={"fastmath": Raw("#arith.fastmath<none>")})
    if sca.is_int():
        sign = "s" if sca.is_int_signed() else "u"
        return sem.op("arith.%s%si" % (which, sign), [x, y], x.type)
    raise TypeError("unexpected type %s" % sca)


@builtin
def clamp(x, min, max, propagate_nan=constexpr(0), _semantic=None):
    return _min_max(_semantic, _min_max(_semantic, x, min, "max",
                                        _unwrap(propagate_nan)),
                    max, "min", _unwrap(propagate_nan))


# -- loops --------------------------------------------------------------------

class range:
    """`for i in tl.range(lo, hi, step, num_stages=..., ...)`: an scf.for
    whose pipelining/unrolling hints become loop attributes."""

    def __init__(self, arg1, arg2=None, step=None, num_stages=None,
                 loop_unroll_factor=None, disallow_acc_multi_buffer=False,
                 flatten=False, warp_specialize=False):
        raise RuntimeError("tl.range can only be used in a for loop of a "
                           "@tpx.jit function")

    _KEYWORDS = ("num_stages", "loop_unroll_factor",
                 "disallow_acc_multi_buffer", "flatten", "warp_specialize")

    @staticmethod
    def bounds(args, kwargs):
        args = list(args)
        if "step" in kwargs:
            args.append(kwargs["step"])
        return args

    @staticmethod
    def loop_attributes(args, kwargs):
        from tpx.compiler.ir import Raw
        attrs = {}
        for key, value in kwargs.items():
            if key == "step":
                continue
            if key not in range._KEYWORDS:
                raise TypeError("tl.range() got an unexpected keyword "
                                "argument '%s'" % key)
            value = _unwrap(value)
            if value is None or value is False:
                continue
            if key in ("num_stages", "loop_unroll_factor"):
                if not isinstance(value, int):
                    raise TypeError("%s must be a constexpr int" % key)
                attrs["tt." + key] = Raw("%d : i32" % value)
            else:
                attrs["tt." + key] = Raw("unit" if value is True else
                                         "true")
        return attrs


class static_range:
    """`for i in tl.static_range(...)`: unrolled when compiling; `i` is a
    constexpr in each copy of the body."""

    def __init__(self, arg1, arg2=None, step=None):
        raise RuntimeError("tl.static_range can only be used in a for loop "
                           "of a @tpx.jit function")


# -- tensor methods -----------------------------------------------------------

@builtin
def _tensor_to(self, dtype, fp_downcast_rounding=None, bitcast=False,
               _semantic=None):
    dtype = _unwrap(dtype)
    if _unwrap(bitcast):
        return _semantic.bitcast(self, dtype)
    return _semantic.cast(self, dtype, fp_downcast_rounding)


tensor.to = _tensor_to


@builtin
def _tensor_reshape(self, *shape, can_reorder=False, _semantic=None):
    return reshape(self, *shape, can_reorder=can_reorder,
                   _semantic=_semantic)


tensor.reshape = _tensor_reshape


@builtin
def _tensor_expand_dims(self, axis, _semantic=None):
    return expand_dims(self, axis, _semantic=_semantic)


tensor.expand_dims = _tensor_expand_dims


@builtin
def _tensor_broadcast_to(self, *shape, _semantic=None):
    return broadcast_to(self, *shape, _semantic=_semantic)


tensor.broadcast_to = _tensor_broadcast_to


@builtin
def _tensor_view(self, *shape, _semantic=None):
    return view(self, *shape, _semantic=_semantic)


tensor.view = _tensor_view


@builtin
def cdiv(x, div, _semantic=None):
    """ceil(x / div), C division semantics for tensors (as Triton's)."""
    if not isinstance(x, tensor) and not isinstance(div, tensor):
        x, div = _unwrap(x), _unwrap(div)
        return constexpr((x + div - 1) // div)
    return _semantic.floordiv(_semantic.sub(_semantic.add(x, div), 1), div)


def next_power_of_2(n):
    n = _unwrap(n)
    n -= 1
    n |= n >> 1
    n |= n >> 2
    n |= n >> 4
    n |= n >> 8
    n |= n >> 16
    n |= n >> 32
    return n + 1


# -- arithmetic as functions ----------------------------------------------------

@builtin
def add(x, y, sanitize_overflow=True, _semantic=None):
    """x + y with Triton's promotion (also pointer + offset)."""
    return _semantic.add(x, y, _unwrap(sanitize_overflow))


@builtin
def sub(x, y, sanitize_overflow=True, _semantic=None):
    return _semantic.sub(x, y, _unwrap(sanitize_overflow))


@builtin
def mul(x, y, sanitize_overflow=True, _semantic=None):
    return _semantic.mul(x, y, _unwrap(sanitize_overflow))


class const:
    """Marks a pointer parameter read-only (`x_ptr: tl.const`); stores
    through a const pointer are an error (signature `*k...`)."""
