"""Reductions and scans: `tl.reduce`, `tl.sum`, `tl.max`, `tl.cumsum`, ...

Names, signatures, defaults and type rules are those of Triton 3.6's
`triton.language`:

- `tl.reduce(input, axis, combine_fn, keep_dims=False)` emits `tt.reduce`
  whose combine region takes two groups of scalars (the accumulated values
  and the next ones, one per input) and ends with `tt.reduce.return`;
  `axis=None` reduces every dimension by reshaping to 1-D first. A reduced
  1-D tensor is a scalar.
- `tl.associative_scan(input, axis, combine_fn, reverse=False)` emits
  `tt.scan` (an inclusive scan).
- The library reductions follow Triton's accumulate types: `sum` and
  `cumsum` add signed integers narrower than 32 bits in int32 and unsigned
  ones (bool included) in uint32, floats in their own type unless `dtype=`
  says otherwise; `max`/`min` without indices compute narrow floats in fp32
  and narrow integers in int32; bf16 inputs of max/min/cumsum/cumprod are
  promoted to fp32. `max`/`min` ignore NaNs (`arith.maxnumf`), as Triton's
  default `tl.maximum` does.
- `sort`/`topk` are bitonic networks over the tensor seen as a hypercube of
  2s (`[2] * log2(numel)`): partners are found with an xor reduction along
  one size-2 dimension, exactly the ops Triton's standard library uses.

A user `combine_fn` is a @tpx.jit function called with scalar tensors; it
becomes a private `tt.func` and a `tt.call` inside the region, which the
`ttir` stage inlines. The library combines emit their ops directly.
"""

import builtins as _py

from tpx.language import core
from tpx.language.core import builtin, constexpr, tensor


from tpx.language.core import _unwrap_if_constexpr as _unwrap  # noqa


def _needs_generator(fn):
    fn.__tpx_needs_generator__ = True
    return fn


def _rank(t):
    return len(t.type.shape) if t.type.is_block() else 0


def wrap_axis(axis, ndim):
    """`axis` in [-ndim, ndim) made non-negative (Triton's _wrap_axis)."""
    axis = _unwrap(axis)
    if not isinstance(axis, int) or isinstance(axis, bool):
        raise TypeError("axis must be a constexpr int, got %r" % (axis,))
    if not -ndim <= axis < ndim:
        raise ValueError("invalid axis %d. Expected %d <= axis < %d" %
                         (axis, -ndim, ndim))
    return axis + ndim if axis < 0 else axis


# -- combine regions ----------------------------------------------------------

def _region_block(sem, scalar_types, body, terminator):
    """A block taking two scalars per input; `body(args)` gives the values
    its `terminator` op yields (checked against the input element types)."""
    types = list(scalar_types) * 2
    builder = sem.builder
    block = builder.new_block([t.to_ir() for t in types])
    with builder.at(block):
        args = [tensor(h, t) for h, t in zip(block.args, types)]
        results = body(args)
        if not isinstance(results, (tuple, list)):
            results = [results]
        results = [sem.to_tensor(r) for r in results]
        if len(results) != len(scalar_types):
            raise TypeError(
                "combine_fn must return %d value%s (one per input), got %d" %
                (len(scalar_types), "" if len(scalar_types) == 1 else "s",
                 len(results)))
        for i, (r, t) in enumerate(zip(results, scalar_types)):
            if r.type != t:
                raise TypeError(
                    "combine_fn returned %s at position %d but the input's "
                    "element type is %s" % (r.type, i, t))
        builder.op(terminator, [r.handle for r in results], [],
                   terminator=True)
    return block


def _user_combine(gen, combine_fn):
    """A region body that calls the user's @jit combine function."""
    node = gen.current_node

    def body(args):
        return gen.call_function(combine_fn, list(args), {}, node)
    return body


def _as_inputs(input):
    input = _unwrap(input)
    if isinstance(input, tensor):
        return (input,), True
    if isinstance(input, (tuple, list)) and input and all(
            isinstance(_unwrap(t), tensor) for t in input):
        return tuple(_unwrap(t) for t in input), False
    raise TypeError("input must be a tensor or a tuple of tensors, got %r" %
                    (input,))


def reduce_impl(sem, inputs, axis, body, keep_dims=False):
    """tt.reduce of `inputs` (tensors of one shape) along `axis` (None: all
    dimensions); `body(args)` builds the combine region. Returns a tuple."""
    inputs = tuple(sem.to_tensor(t) for t in inputs)
    ndim = _rank(inputs[0])
    if axis is not None:
        axis = wrap_axis(axis, ndim)
    shape = inputs[0].type.shape if ndim else ()
    for t in inputs:
        if (t.type.shape if t.type.is_block() else ()) != shape:
            raise AssertionError("all reduction inputs must have the same "
                                 "shape")
    flat = inputs
    red_axis = axis
    if axis is None:
        numel = inputs[0].type.numel if ndim else 1
        flat = tuple(sem.reshape(t, [numel], True) for t in inputs)
        red_axis = 0
    src_shape = list(flat[0].type.shape)
    out_shape = [s for i, s in enumerate(src_shape) if i != red_axis]
    scalars = [t.type.scalar for t in flat]
    out_types = [core.block_type(s, out_shape) if out_shape else s
                 for s in scalars]
    block = _region_block(sem, scalars, body, "tt.reduce.return")
    handles = sem.builder.op(
        "tt.reduce", [t.handle for t in flat], [t.to_ir() for t in out_types],
        props={"axis": red_axis}, regions=[[block]])
    results = tuple(tensor(h, t) for h, t in zip(handles, out_types))
    if _unwrap(keep_dims):
        if axis is not None:
            results = tuple(sem.expand_dims(r, axis) for r in results)
        else:
            for _ in _py.range(ndim):
                results = tuple(sem.expand_dims(r, 0) for r in results)
    return results


def scan_impl(sem, inputs, axis, body, reverse=False):
    """tt.scan of `inputs` along `axis`; returns a tuple."""
    inputs = tuple(sem.to_tensor(t) for t in inputs)
    axis = wrap_axis(axis, _rank(inputs[0]))
    shape = inputs[0].type.shape
    for t in inputs:
        if t.type.shape != shape:
            raise AssertionError("all scan inputs must have the same shape")
    scalars = [t.type.scalar for t in inputs]
    block = _region_block(sem, scalars, body, "tt.scan.return")
    from tpx.compiler.ir import Raw
    handles = sem.builder.op(
        "tt.scan", [t.handle for t in inputs],
        [t.type.to_ir() for t in inputs],
        props={"axis": axis,
               "reverse": Raw("true" if _unwrap(reverse) else "false")},
        regions=[[block]])
    return tuple(tensor(h, t.type) for h, t in zip(handles, inputs))


# -- the generic builtins -----------------------------------------------------

@_needs_generator
@builtin
def reduce(input, axis, combine_fn, keep_dims=False, _semantic=None,
           _generator=None):
    """Combines the elements of `input` (a tensor or a tuple of tensors of
    one shape) along `axis` with the @jit function `combine_fn`."""
    inputs, single = _as_inputs(input)
    results = reduce_impl(_semantic, inputs, _unwrap(axis),
                          _user_combine(_generator, _unwrap(combine_fn)),
                          keep_dims)
    return results[0] if single else results


@_needs_generator
@builtin
def associative_scan(input, axis, combine_fn, reverse=False, _semantic=None,
                     _generator=None):
    """Inclusive scan of `input` (a tensor or a tuple of tensors) along
    `axis` with the @jit function `combine_fn`, backwards when `reverse`."""
    inputs, single = _as_inputs(input)
    results = scan_impl(_semantic, inputs, _unwrap(axis),
                        _user_combine(_generator, _unwrap(combine_fn)),
                        reverse)
    return results[0] if single else results


# -- library combines ---------------------------------------------------------

def _combine_add(sem):
    return lambda args: sem.add(args[0], args[1])


def _combine_mul(sem):
    return lambda args: sem.mul(args[0], args[1])


def _combine_xor(sem):
    return lambda args: sem.xor_(args[0], args[1])


def _combine_or(sem):
    return lambda args: sem.or_(args[0], args[1])


def _combine_min_max(sem, which):
    from tpx.language.basic import _min_max
    return lambda args: _min_max(sem, args[0], args[1], which, 0)


def _combine_arg(sem, which, tie_break_left):
    """(value, index) pairs: keeps the larger (smaller) value; with
    tie_break_left, the lower index among equal values."""
    def body(args):
        v1, i1, v2, i2 = args
        better = sem.greater_than(v1, v2) if which == "max" else \
            sem.less_than(v1, v2)
        if tie_break_left:
            tie = sem.logical_and(sem.equal(v1, v2), sem.less_than(i1, i2))
            better = sem.logical_or(better, tie)
        return (sem.where(better, v1, v2), sem.where(better, i1, i2))
    return body


# -- promotion rules ----------------------------------------------------------

def promote_bf16(sem, t):
    """bf16 -> fp32 (Triton's _promote_bfloat16_to_float32)."""
    if t.type.scalar.is_bf16():
        return sem.cast(t, core.float32)
    return t


def pick_sum_dtype(in_dtype, dtype):
    """The type sum/cumsum accumulate in: `dtype` if given, else int32
    (uint32) for signed (unsigned, bool) integers narrower than 32 bits,
    else None (the input's own type)."""
    dtype = _unwrap(dtype)
    if dtype is not None:
        return dtype
    if in_dtype.is_int_signed() and in_dtype.int_bitwidth < 32:
        return core.int32
    if in_dtype.is_int_unsigned() and in_dtype.int_bitwidth < 32:
        return core.uint32
    return None


def _check_dtype_arg(dtype):
    dtype = _unwrap(dtype)
    if dtype is not None and not isinstance(dtype, core.dtype):
        raise TypeError("dtype must be a tl.dtype, got %r" % (dtype,))
    return dtype


# -- library reductions -------------------------------------------------------

@builtin
def sum(input, axis=None, keep_dims=False, dtype=None, _semantic=None):
    """The sum of `input` along `axis` (all dimensions when None)."""
    sem = _semantic
    input = sem.to_tensor(input)
    out = pick_sum_dtype(input.type.scalar, _check_dtype_arg(dtype))
    if out is not None:
        input = sem.cast(input, out)
    return reduce_impl(sem, (input,), _unwrap(axis), _combine_add(sem),
                       keep_dims)[0]


def _reduce_with_indices(sem, input, axis, which, tie_break_left, keep_dims):
    axis = _unwrap(axis)
    ndim = _rank(input)
    if axis is None:
        raise ValueError("%s with return_indices=True needs an axis" % which)
    axis = wrap_axis(axis, ndim)
    n = input.type.shape[axis]
    index = sem.arange(0, n)
    if ndim > 1:
        for d in _py.range(ndim):
            if d != axis:
                index = sem.expand_dims(index, d)
        index = sem.broadcast_impl_shape(index, input.type.shape)
    return reduce_impl(sem, (input, index), axis,
                       _combine_arg(sem, which, tie_break_left), keep_dims)


def _min_max_reduction(sem, input, axis, return_indices, tie_break_left,
                       keep_dims, which):
    input = promote_bf16(sem, sem.to_tensor(input))
    if _unwrap(return_indices):
        return _reduce_with_indices(sem, input, axis, which,
                                    bool(_unwrap(tie_break_left)), keep_dims)
    sca = input.type.scalar
    if sca.primitive_bitwidth < 32:
        if sca.is_floating():
            input = sem.cast(input, core.float32)
        elif sca.is_int():
            input = sem.cast(input, core.int32)
        else:
            raise AssertionError("Expecting input to be integer type")
    return reduce_impl(sem, (input,), _unwrap(axis),
                       _combine_min_max(sem, which), keep_dims)[0]


@builtin
def max(input, axis=None, return_indices=False,
        return_indices_tie_break_left=True, keep_dims=False, _semantic=None):
    """The maximum of `input` along `axis`; with `return_indices`, also its
    index (the left-most among ties when `return_indices_tie_break_left`)."""
    return _min_max_reduction(_semantic, input, axis, return_indices,
                              return_indices_tie_break_left, keep_dims, "max")


@builtin
def min(input, axis=None, return_indices=False,
        return_indices_tie_break_left=True, keep_dims=False, _semantic=None):
    """The minimum of `input` along `axis` (see `max`)."""
    return _min_max_reduction(_semantic, input, axis, return_indices,
                              return_indices_tie_break_left, keep_dims, "min")


@builtin
def argmax(input, axis, tie_break_left=True, keep_dims=False,
           _semantic=None):
    """The index of the maximum of `input` along `axis`."""
    return _min_max_reduction(_semantic, input, axis, True, tie_break_left,
                              keep_dims, "max")[1]


@builtin
def argmin(input, axis, tie_break_left=True, keep_dims=False,
           _semantic=None):
    """The index of the minimum of `input` along `axis`."""
    return _min_max_reduction(_semantic, input, axis, True, tie_break_left,
                              keep_dims, "min")[1]


def _int_only(input, name):
    if not input.type.scalar.is_int():
        raise TypeError("%s only supported for integers" % name)


@builtin
def xor_sum(input, axis=None, keep_dims=False, _semantic=None):
    """The bitwise xor of the (integer) elements of `input` along `axis`."""
    input = _semantic.to_tensor(input)
    _int_only(input, "xor_sum")
    return reduce_impl(_semantic, (input,), _unwrap(axis),
                       _combine_xor(_semantic), keep_dims)[0]


@builtin
def reduce_or(input, axis, keep_dims=False, _semantic=None):
    """The bitwise or of the (integer) elements of `input` along `axis`."""
    input = _semantic.to_tensor(input)
    _int_only(input, "reduce_or")
    return reduce_impl(_semantic, (input,), _unwrap(axis),
                       _combine_or(_semantic), keep_dims)[0]


# -- library scans ------------------------------------------------------------

@builtin
def cumsum(input, axis=0, reverse=False, dtype=None, _semantic=None):
    """Inclusive prefix sums of `input` along `axis` (suffix sums when
    `reverse`), accumulated as `sum` does."""
    sem = _semantic
    input = promote_bf16(sem, sem.to_tensor(input))
    out = pick_sum_dtype(input.type.scalar, _check_dtype_arg(dtype))
    if out is not None:
        input = sem.cast(input, out)
    return scan_impl(sem, (input,), _unwrap(axis), _combine_add(sem),
                     reverse)[0]


@builtin
def cumprod(input, axis=0, reverse=False, _semantic=None):
    """Inclusive prefix products of `input` along `axis`."""
    sem = _semantic
    input = promote_bf16(sem, sem.to_tensor(input))
    return scan_impl(sem, (input,), _unwrap(axis), _combine_mul(sem),
                     reverse)[0]


# -- histogram and gather -----------------------------------------------------

@builtin
def histogram(input, num_bins, mask=None, _semantic=None):
    """Counts of the values 0 .. num_bins-1 in the 1-D integer `input`
    (bins of width 1 from 0); masked-off elements are not counted."""
    sem = _semantic
    input = sem.to_tensor(input)
    num_bins = _unwrap(num_bins)
    mask = _unwrap(mask)
    if _rank(input) != 1:
        raise AssertionError("histogram only supports 1D input")
    if not input.type.scalar.is_int():
        raise AssertionError("histogram only supports integer input")
    if not isinstance(num_bins, int) or isinstance(num_bins, bool):
        raise TypeError("num_bins must be a constexpr int, got %r" %
                        (num_bins,))
    operands = [input]
    if mask is not None:
        mask = sem.broadcast_impl_shape(sem.to_tensor(mask),
                                        input.type.shape)
        if not mask.type.scalar.is_bool():
            raise ValueError("Mask must have boolean scalar type")
        operands.append(mask)
    return sem.op("tt.histogram", operands,
                  core.block_type(core.int32, [num_bins]))


@builtin
def gather(src, index, axis, _semantic=None):
    """result[i][j] = src[index[i][j]][j] for axis 0 (likewise for other
    axes): `index` has src's rank and src's sizes except along `axis`."""
    sem = _semantic
    src, index = sem.to_tensor(src), sem.to_tensor(index)
    axis = _unwrap(axis)
    if not index.type.scalar.is_int():
        raise AssertionError("index must be an integer tensor")
    rank = _rank(src)
    if _rank(index) != rank:
        raise AssertionError("source and index tensors must have the same "
                             "rank")
    if not isinstance(axis, int) or not -rank <= axis < rank:
        raise AssertionError("gather axis %s must be < source rank (%d)" %
                             (axis, rank))
    if axis < 0:
        axis += rank
    for d in _py.range(rank):
        if d != axis and index.type.shape[d] != src.type.shape[d]:
            raise AssertionError("index dim %d must match the corresponding "
                                 "source dim" % axis)
    return sem.op("tt.gather", [src, index],
                  core.block_type(src.type.scalar, index.type.shape),
                  props={"axis": axis})


# -- tensor methods -----------------------------------------------------------

def _method(fn):
    """`x.name(...)` for the builtin `fn(x, ...)`."""
    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    method.__name__ = fn.__name__
    method.__doc__ = fn.__doc__
    method.__tpx_builtin__ = True
    if getattr(fn, "__tpx_needs_generator__", False):
        method.__tpx_needs_generator__ = True
    return method


for _fn in (reduce, associative_scan, sum, max, min, argmax, argmin,
            xor_sum, reduce_or, cumsum, cumprod, histogram, gather):
    setattr(tensor, _fn.__name__, _method(_fn))
