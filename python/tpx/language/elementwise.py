"""Elementwise extras of `triton.language`: external functions, inline
assembly, `map_elementwise`, `sigmoid` and `softmax`.

`extern_elementwise` dispatches on the argument dtypes through a table
{(dtype, ...): (symbol, result dtype)} as Triton 3.6's does (the arguments
are broadcast together; their types must be a key) and emits
`tt.extern_elementwise`. `inline_asm_elementwise` emits
`tt.elementwise_inline_asm`; `map_elementwise` compiles a @jit scalar
function into the region of `tt.map_elementwise`.
"""

import builtins as _py

from tpx.compiler.ir import Raw
from tpx.language.core import block_type, builtin, constexpr, tensor


from tpx.language.core import _unwrap_if_constexpr as _unwrap  # noqa


# -- external functions -------------------------------------------------------

def _types_text(types):
    """Argument types as Triton 3.6 shows them: `(fp32, int64)` spelled with
    the dtypes' reprs, no trailing comma for one."""
    return "(%s)" % ", ".join(repr(t) for t in types)


def resolve_extern(sem, args, arg_type_symbol_dict):
    """Triton 3.6's dispatch rules for an extern elementwise call.

    The arguments are broadcast together but keep their types, which must be
    a key of the table (checked on stock Triton 3.6: `libdevice.pow(fp32,
    int64)` is an error there, not a promotion). Returns (the broadcast
    arguments, symbol, result type); raises Triton's errors for an empty
    table, a wrong argument count or unlisted argument types.
    """
    dispatch_args = [sem.to_tensor(_unwrap(a)) for a in args]
    if len(arg_type_symbol_dict) == 0:
        raise ValueError("arg_type_symbol_dict is empty")
    num_args = len(list(arg_type_symbol_dict.keys())[0])
    if len(dispatch_args) != num_args:
        raise ValueError("length of input args does not match.Expect %d, got "
                         "%d" % (len(dispatch_args), num_args))
    arg_types = tuple(a.dtype for a in dispatch_args)
    if arg_types not in arg_type_symbol_dict:
        raise ValueError("input arg type does not match.Expect one of %s, got "
                         "%s" % (arg_type_symbol_dict.keys(),
                                 _types_text(arg_types)))
    ret_shape = None
    if dispatch_args:
        widest = dispatch_args[0]
        for item in dispatch_args:
            _, widest = sem.binary_op_type_checking_impl(
                item, widest, allow_lhs_ptr=True, allow_rhs_ptr=True,
                arithmetic_check=False)
        for i in _py.range(len(dispatch_args)):
            dispatch_args[i], _ = sem.binary_op_type_checking_impl(
                dispatch_args[i], widest, allow_lhs_ptr=True,
                allow_rhs_ptr=True, arithmetic_check=False)
        if widest.type.is_block():
            ret_shape = list(widest.type.shape)
    symbol, ret_type = (_unwrap(v) for v in arg_type_symbol_dict[arg_types])
    if ret_shape:
        ret_type = block_type(ret_type, ret_shape)
    return dispatch_args, symbol, ret_type


def emit_extern(sem, args, symbol, ret_type, is_pure, lib_name="",
                lib_path=""):
    """`tt.extern_elementwise` of `symbol` on already dispatched `args`."""
    return sem.op("tt.extern_elementwise", args, ret_type, props={
        "libname": lib_name, "libpath": lib_path,
        "pure": Raw("true" if is_pure else "false"), "symbol": symbol})


@builtin
def extern_elementwise(lib_name, lib_path, args, arg_type_symbol_dict, is_pure,
                       _semantic=None):
    """Calls an external elementwise function chosen by the argument types.

    `arg_type_symbol_dict` maps tuples of argument dtypes to (symbol, result
    dtype); the arguments are broadcast together.
    """
    table = {tuple(_unwrap(t) for t in key): value
             for key, value in _unwrap(arg_type_symbol_dict).items()}
    args, symbol, ret_type = resolve_extern(_semantic, list(_unwrap(args)),
                                            table)
    return emit_extern(_semantic, args, symbol, ret_type,
                       bool(_unwrap(is_pure)), _unwrap(lib_name) or "",
                       _unwrap(lib_path) or "")


def extern(fn):
    """Decorator for external functions (a builtin, as in Triton)."""
    return builtin(fn)


def dispatch(func, lib_name, lib_path, args, arg_type_symbol_dict, ret_shape,
             is_pure, _semantic):
    """Triton's low-level dispatch: `func(lib_name, lib_path, symbol, args,
    ret_type, is_pure)` builds the call for the matching table entry."""
    if len(arg_type_symbol_dict) == 0:
        raise ValueError("arg_type_symbol_dict is empty")
    num_args = len(list(arg_type_symbol_dict.keys())[0])
    if len(args) != num_args:
        raise ValueError("length of input args does not match.Expect %d, got "
                         "%d" % (len(args), num_args))
    arg_types = tuple(a.dtype if isinstance(a, tensor) else type(a)
                      for a in args)
    if arg_types not in arg_type_symbol_dict:
        raise ValueError("input arg type does not match.Expect one of %s, got "
                         "%s" % (arg_type_symbol_dict.keys(),
                                 _types_text(arg_types)))
    symbol, ret_type = arg_type_symbol_dict[arg_types]
    if ret_shape:
        ret_type = block_type(ret_type, list(ret_shape))
    return func(lib_name, lib_path, symbol, args, ret_type, is_pure)


# -- inline assembly ----------------------------------------------------------

@builtin
def inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack,
                           _semantic=None):
    """Runs inline assembly over `pack` elements at a time of the (broadcast)
    `args`; `dtype` may be a tuple, giving a tuple of results.

    The assembly is the target's: PTX on NVIDIA, x86 assembly on the CPU
    (where only `pack=1` is supported).
    """
    sem = _semantic
    asm = _unwrap(asm)
    constraints = _unwrap(constraints)
    pack = _unwrap(pack)
    is_pure = _unwrap(is_pure)
    dtype = _unwrap(dtype)
    try:
        iter(dtype)
        multiple = True
    except TypeError:
        multiple = False
        dtype = (dtype,)
    dtype = [_unwrap(d) for d in dtype]
    result_types = list(dtype)
    dispatch_args = [sem.to_tensor(_unwrap(a)) for a in _unwrap(args)]
    if dispatch_args:
        def check(a, b):
            return sem.binary_op_type_checking_impl(
                a, b, allow_lhs_ptr=True, allow_rhs_ptr=True,
                arithmetic_check=False)
        widest = dispatch_args[0]
        for item in dispatch_args:
            _, widest = check(item, widest)
        if widest.type.is_block():
            for i, item in enumerate(dispatch_args):
                dispatch_args[i], _ = check(item, widest)
            result_types = [widest.type.with_element_ty(d) for d in dtype]
    handles = sem.builder.op(
        "tt.elementwise_inline_asm", [a.handle for a in dispatch_args],
        [t.to_ir() for t in result_types], props={
            "asm_string": asm, "constraints": constraints,
            "packed_element": int(pack),
            "pure": Raw("true" if is_pure else "false")})
    results = [tensor(h, t) for h, t in zip(handles, result_types)]
    return tuple(results) if multiple else results[0]


# -- map_elementwise ----------------------------------------------------------

def _broadcast_all(sem, values):
    if not values:
        return []
    head, tail = values[0], list(values[1:])
    for i in _py.range(len(tail)):
        head, tail[i] = sem.broadcast_impl_value(head, tail[i])
    for i in _py.range(len(tail)):
        head, tail[i] = sem.broadcast_impl_value(head, tail[i])
    return [head] + tail


@builtin
def map_elementwise(scalar_fn, *args, pack=1, _semantic=None,
                    _generator=None):
    """Applies the @jit function `scalar_fn` to every element (or `pack`
    elements at a time) of the broadcast `args`; returns one tensor or a
    tuple, one per value `scalar_fn` returns (per element).

    With `pack` > 1 the function receives `pack` consecutive elements of the
    first argument, then `pack` of the second, ..., and returns `pack` values
    of its first result, then of the second, ...
    """
    sem = _semantic
    gen = _generator
    pack = _unwrap(pack)
    if not isinstance(pack, int) or pack < 1:
        raise ValueError("pack must be a positive integer, got %r" % (pack,))
    inputs = _broadcast_all(sem, [sem.to_tensor(_unwrap(a)) for a in args])
    if not inputs:
        raise AssertionError("map_elementwise must have at least 1 input "
                             "tensor")
    if not inputs[0].type.is_block():
        raise ValueError("map_elementwise needs at least one block argument")
    param_types = [t.dtype for t in inputs for _ in _py.range(pack)]
    block = sem.builder.new_block([t.to_ir() for t in param_types])
    node = gen.current_node
    with sem.builder.at(block):
        params = [tensor(h, t) for h, t in zip(block.args, param_types)]
        results = gen.call_function(scalar_fn, params, {}, node)
        flat = list(results) if isinstance(results, (tuple, list)) else \
            [results]
        flat = [sem.to_tensor(_unwrap(r)) for r in flat]
        if len(flat) % pack:
            raise ValueError("map_elementwise: the scalar function returned "
                             "%d values, not a multiple of pack=%d" %
                             (len(flat), pack))
        for r in flat:
            if r.type.is_block():
                raise ValueError("map_elementwise: the scalar function must "
                                 "return scalars, got %s" % r.type)
        sem.builder.op("tt.map_elementwise.return",
                       [r.handle for r in flat], [], terminator=True)
    n_results = len(flat) // pack
    for r in _py.range(n_results):
        for p in _py.range(1, pack):
            if flat[r * pack + p].dtype != flat[r * pack].dtype:
                raise ValueError("map_elementwise: the %d values of result %d "
                                 "must have one type" % (pack, r))
    result_types = [inputs[0].type.with_element_ty(flat[r * pack].dtype)
                    for r in _py.range(n_results)]
    handles = sem.builder.op("tt.map_elementwise",
                             [t.handle for t in inputs],
                             [t.to_ir() for t in result_types],
                             props={"pack": pack}, regions=[[block]])
    values = [tensor(h, t) for h, t in zip(handles, result_types)]
    return values[0] if len(values) == 1 else tuple(values)


map_elementwise.__tpx_needs_generator__ = True


# -- sigmoid and softmax ------------------------------------------------------

@builtin
def sigmoid(x, _semantic=None):
    """Elementwise 1 / (1 + exp(-x)) (fp32/fp64, as tl.exp)."""
    from tpx.language import math as _math
    sem = _semantic
    x = sem.to_tensor(x)
    e = _math.exp(sem.minus(x), _semantic=sem)
    return sem.truediv(1, sem.add(1, e))


tensor.sigmoid = sigmoid


@builtin
def softmax(x, dim=None, keep_dims=False, ieee_rounding=False,
            _semantic=None, _generator=None):
    """exp(x - max(x)) / sum(...) along `dim` (0 when None), with
    tl.max/tl.sum from the reductions."""
    import tpx.language as tl
    from tpx.language import math as _math
    sem = _semantic
    dim = _unwrap(dim)
    axis = 0 if dim is None else dim
    keep = _unwrap(keep_dims)
    reduce_max = getattr(tl, "max", None)
    reduce_sum = getattr(tl, "sum", None)
    if reduce_max is None or reduce_sum is None:
        raise NotImplementedError("tl.softmax needs tl.max and tl.sum")
    node = _generator.current_node
    m = _generator.call_function(reduce_max, [x, constexpr(axis)],
                                 {"keep_dims": constexpr(keep)}, node)
    z = sem.sub(x, m)
    num = _math.exp(z, _semantic=sem)
    den = _generator.call_function(reduce_sum, [num, constexpr(axis)],
                                   {"keep_dims": constexpr(keep)}, node)
    return _math.fdiv(num, den, ieee_rounding, _semantic=sem)


softmax.__tpx_needs_generator__ = True
tensor.softmax = softmax


__all__ = ["dispatch", "extern", "extern_elementwise",
           "inline_asm_elementwise", "map_elementwise", "sigmoid", "softmax"]
