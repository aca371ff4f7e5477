"""Shape operations: permute/trans, join/split, cat, interleave, flip, ravel,
sort and topk.

Names, signatures, defaults and errors follow Triton 3.6's
`triton.language`:

- `permute(x, *dims)` / `trans(x, *dims)` are `tt.trans` with `order`;
  `trans` with no dims swaps the two dimensions of a 2-D tensor. Dims may be
  given as one tuple or as separate arguments.
- `join(a, b)` stacks two tensors (broadcast together) along a new minor
  dimension of size 2 (`tt.join`); two scalars give a 2-element tensor.
  `split(a)` is its inverse (`tt.split`); splitting a 2-element 1-D tensor
  gives two scalars.
- `cat(a, b, can_reorder)` is `tt.cat` of two 1-D tensors of one type; as in
  Triton, the order of the result's elements is unspecified, so
  `can_reorder=True` is required.
- `flip(x, dim)` reverses one dimension, `sort(x, dim, descending)` and
  `topk(x, k, dim)` sort along the last dimension with a bitonic network;
  all three view the tensor as a hypercube of 2s (the dimension's size must
  be a power of two) and find partner elements with an xor reduction over a
  size-2 dimension, as Triton's standard library does.
"""

import builtins as _py

from tpx.language import core
from tpx.language.core import builtin, tensor
from tpx.language.reduction import (
    _combine_xor, _method, _min_max_reduction, _rank, _unwrap,
    reduce_impl, wrap_axis)


def _dims_arg(dims):
    """`f(x, (1, 0))` and `f(x, 1, 0)` alike -> a tuple of ints."""
    dims = tuple(_unwrap(d) for d in dims)
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = tuple(_unwrap(d) for d in dims[0])
    return dims


def _shape(t):
    return list(t.type.shape) if t.type.is_block() else []


def _log2(n):
    return n.bit_length() - 1


def _is_power_of_two(n):
    return n > 0 and n & (n - 1) == 0


_INT_OF_WIDTH = {1: core.int1, 8: core.int8, 16: core.int16,
                 32: core.int32, 64: core.int64}


def _int_of_width(dt):
    if dt.primitive_bitwidth not in _INT_OF_WIDTH:
        raise ValueError("Unsupported dtype %s" % dt)
    return _INT_OF_WIDTH[dt.primitive_bitwidth]


def validate_block_shape(shape):
    """Checks a user-given block shape as Triton does: constexpr ints,
    powers of two, at most TRITON_MAX_TENSOR_NUMEL elements."""
    numel = 1
    for i, d in enumerate(shape):
        d = _unwrap(d)
        if not isinstance(d, int) or isinstance(d, bool):
            raise TypeError("Shape element %d must have type "
                            "`constexpr[int]`, got `constexpr[%s]`" %
                            (i, type(d).__name__))
        if not _is_power_of_two(d):
            raise ValueError("Shape element %d must be a power of 2" % i)
        numel *= d
    if numel > core.TRITON_MAX_TENSOR_NUMEL:
        raise ValueError("numel (%d) exceeds triton maximum tensor numel "
                         "(%d)" % (numel, core.TRITON_MAX_TENSOR_NUMEL))
    return numel


def unsplat(sem, x):
    """The only element of a one-element tensor, as a scalar (a reduction
    that keeps its first operand, as Triton does)."""
    if not x.type.is_block():
        return x
    if x.type.numel != 1:
        raise AssertionError("can only unsplat single-element tensors")
    if _rank(x) >= 2:
        x = sem.reshape(x, [1])
    return reduce_impl(sem, (x,), 0, lambda args: args[0])[0]


# -- permutations -------------------------------------------------------------

def permute_impl(sem, input, dims):
    input = sem.to_tensor(input)
    shape = _shape(input)
    if len(shape) != len(dims):
        raise ValueError("permute dims must have the same length as input "
                         "shape")
    if sorted(dims) != list(_py.range(len(dims))):
        raise ValueError("permute dims must be a permutation of 0, 1, ..., "
                         "n-1, but were %s" % (tuple(dims),))
    from tpx.compiler.ir import Raw
    return sem.op("tt.trans", [input],
                  core.block_type(input.type.scalar, [shape[d] for d in dims]),
                  props={"order": Raw("array<i32: %s>" % ", ".join(
                      str(d) for d in dims))})


@builtin
def permute(input, *dims, _semantic=None):
    """Permutes the dimensions of `input`: result dimension i is input
    dimension dims[i]."""
    return permute_impl(_semantic, input, _dims_arg(dims))


@builtin
def trans(input, *dims, _semantic=None):
    """Like `permute`; with no dims, a (1, 0) permutation (a transpose)."""
    dims = _dims_arg(dims)
    return permute_impl(_semantic, input, dims or (1, 0))


# -- join, split, cat, interleave ---------------------------------------------

def join_impl(sem, a, b):
    a, b = sem.broadcast_impl_value(sem.to_tensor(a), sem.to_tensor(b))
    if a.type.scalar != b.type.scalar:
        raise TypeError("join: both inputs must have the same dtype, got %s "
                        "and %s" % (a.type.scalar, b.type.scalar))
    scalars = not a.type.is_block()
    if scalars:
        a, b = sem.expand_dims(a, 0), sem.expand_dims(b, 0)
    result = sem.op("tt.join", [a, b],
                    core.block_type(a.type.scalar, _shape(a) + [2]))
    if scalars:
        result = sem.reshape(result, [2])
    return result


@builtin
def join(a, b, _semantic=None):
    """Stacks `a` and `b` (broadcast together) along a new minor dimension
    of size 2."""
    return join_impl(_semantic, a, b)


@builtin
def split(a, _semantic=None):
    """Splits `a` along its last dimension, which must have size 2, into
    two tensors (two scalars for a 2-element 1-D tensor)."""
    sem = _semantic
    a = sem.to_tensor(a)
    shape = _shape(a)
    if not shape:
        raise AssertionError("split needs a tensor of rank at least 1")
    if shape[-1] != 2:
        raise AssertionError("split: the last dimension must have size 2, "
                             "got shape %s" % shape)
    was_rank_1 = len(shape) == 1
    if was_rank_1:
        a = sem.expand_dims(a, 0)
    out_ty = core.block_type(a.type.scalar, _shape(a)[:-1])
    lhs, rhs = sem.builder.op("tt.split", [a.handle],
                              [out_ty.to_ir(), out_ty.to_ir()])
    lhs, rhs = tensor(lhs, out_ty), tensor(rhs, out_ty)
    if was_rank_1:
        lhs, rhs = unsplat(sem, lhs), unsplat(sem, rhs)
    return lhs, rhs


@builtin
def cat(input, other, can_reorder=False, _semantic=None):
    """Concatenates two 1-D tensors of one type. The order of the result's
    elements is unspecified, so Triton only accepts `can_reorder=True`."""
    sem = _semantic
    input, other = sem.to_tensor(input), sem.to_tensor(other)
    if not _unwrap(can_reorder):
        raise AssertionError("current implementation of `cat` always may "
                             "reorder elements")
    if _rank(input) != 1 or _rank(other) != 1:
        raise AssertionError("cat only supports 1-D tensors, got %s and %s"
                             % (input.type, other.type))
    if input.type != other.type:
        raise TypeError("cat: both inputs must have the same type, got %s "
                        "and %s" % (input.type, other.type))
    n = input.type.shape[0] + other.type.shape[0]
    return sem.op("tt.cat", [input, other],
                  core.block_type(input.type.scalar, [n]))


@builtin
def interleave(a, b, _semantic=None):
    """Interleaves `a` and `b` along their last dimension:
    `join(a, b).reshape(a.shape[:-1] + [2 * a.shape[-1]])`."""
    sem = _semantic
    c = join_impl(sem, a, b)
    shape = _shape(c)
    if len(shape) == 1:
        return c
    return sem.reshape(c, shape[:-2] + [2 * shape[-2]])


@builtin
def ravel(x, can_reorder=False, _semantic=None):
    """`x` flattened to 1-D (row-major unless `can_reorder`)."""
    x = _semantic.to_tensor(x)
    numel = x.type.numel if x.type.is_block() else 1
    return _semantic.reshape(x, [numel], bool(_unwrap(can_reorder)))


# -- hypercube networks: flip, sort, topk -------------------------------------

def _partner(sem, ix, axis):
    """Each element's partner along the size-2 dimension `axis` of the
    integer tensor `ix`: ix ^ (xor of both elements)."""
    both = reduce_impl(sem, (ix,), axis, _combine_xor(sem), keep_dims=True)[0]
    return sem.xor_(ix, both)


def _bit_indicator(sem, n_dims, bit):
    """A [1, .., 2, .., 1] int32 tensor holding bit `bit` of the flat index
    of a rank-n_dims hypercube (its dimension n_dims - 1 - bit)."""
    return sem.reshape(sem.arange(0, 2),
                       [1] * (n_dims - bit - 1) + [2] + [1] * bit)


def _compare_and_swap(sem, x, flip, bit):
    """One bitonic step between elements whose flat indices differ in
    `bit`: the lower one keeps the smaller value unless `flip` says the
    block is descending."""
    n_dims = _log2(x.type.numel)
    idt = _int_of_width(x.type.scalar)
    ix = sem.bitcast(x, idt)
    y = sem.bitcast(_partner(sem, ix, n_dims - 1 - bit), x.type.scalar)
    is_right = _bit_indicator(sem, n_dims, bit)
    swap = sem.not_equal(sem.greater_than(x, y), sem.xor_(flip, is_right))
    return sem.where(swap, y, x)


def _bitonic_merge(sem, h, stage, order):
    """Merges bitonic runs of 2**stage elements: ascending (order 0),
    descending (1) or alternating by bit `stage` of the index (2)."""
    if stage == 0:
        return h
    n_dims = _log2(h.type.numel)
    flip = _bit_indicator(sem, n_dims, stage) if order == 2 else order
    for i in _py.range(stage):
        h = _compare_and_swap(sem, h, flip, stage - 1 - i)
    return h


def _minor_dim(x, dim):
    rank = _rank(x)
    dim = _unwrap(dim)
    if dim is None:
        dim = rank - 1
    if dim != rank - 1:
        raise ValueError("only minor dimension is currently supported")
    return dim


def sort_impl(sem, x, k=None, dim=None, descending=0):
    x = sem.to_tensor(x)
    if not x.type.is_block():
        raise TypeError("sort needs a tensor, got a scalar")
    dim = _minor_dim(x, dim)
    descending = int(bool(_unwrap(descending)))
    n = x.type.shape[dim]
    if not _is_power_of_two(n):
        raise ValueError("the sorted dimension must have a power-of-two "
                         "size, got %d" % n)
    log_n = _log2(n)
    k = _unwrap(k)
    if k is not None:
        if not isinstance(k, int) or not _is_power_of_two(k) or k > n:
            raise ValueError("k must be a power of two no larger than the "
                             "sorted dimension (%d), got %r" % (n, k))
    log_k = log_n if k is None else _log2(k)
    n_dims = _log2(x.type.numel)
    out_shape = _shape(x)[:-1] + [2 ** log_k]
    if n_dims == 0:
        return x
    h = sem.reshape(x, [2] * n_dims)
    for i in _py.range(1, log_k + 1):
        h = _bitonic_merge(sem, h, i, 2 if i < log_n else descending)
    # Top-k: the elementwise max (min) of two sorted runs of k holds the k
    # largest (smallest) of both; merge it again.
    for i in _py.range(log_k + 1, log_n + 1):
        axis = _log2(h.type.numel) - 1 - log_k
        h = _min_max_reduction(sem, h, axis, False, True, False,
                               "max" if descending else "min")
        h = _bitonic_merge(sem, h, log_k, 2 if i < log_n else descending)
    return sem.reshape(h, out_shape)


@builtin
def sort(x, dim=None, descending=0, _semantic=None):
    """`x` sorted along its last dimension (`dim` must be None or the last
    dimension), ascending unless `descending`."""
    return sort_impl(_semantic, x, None, dim, descending)


@builtin
def topk(x, k, dim=None, _semantic=None):
    """The `k` largest elements along the last dimension, in descending
    order (`k` a power of two)."""
    return sort_impl(_semantic, x, k, dim, True)


@builtin
def flip(x, dim=None, _semantic=None):
    """`x` reversed along `dim` (the last dimension when None)."""
    sem = _semantic
    x = sem.to_tensor(x)
    rank = _rank(x)
    if rank == 0:
        raise TypeError("flip needs a tensor, got a scalar")
    dim = _unwrap(dim)
    dim = rank - 1 if dim is None else wrap_axis(dim, rank)
    shape = _shape(x)
    if not _is_power_of_two(shape[dim]):
        raise ValueError("the flipped dimension must have a power-of-two "
                         "size, got %d" % shape[dim])
    steps = _log2(shape[dim])
    if steps == 0:
        return x
    y = sem.bitcast(x, _int_of_width(x.type.scalar))
    y = sem.reshape(y, shape[:dim] + [2] * steps + shape[dim + 1:])
    for i in _py.range(steps):
        y = _partner(sem, y, dim + i)
    return sem.bitcast(sem.reshape(y, shape), x.type.scalar)


@builtin
def _item(input, _semantic=None):
    """The only element of a one-element tensor, as a scalar."""
    return unsplat(_semantic, _semantic.to_tensor(input))


# -- tensor methods -----------------------------------------------------------

for _fn in (permute, trans, split, ravel, flip, sort):
    setattr(tensor, _fn.__name__, _method(_fn))
tensor.item = _method(_item)
