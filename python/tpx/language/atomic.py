"""Atomic memory operations of `triton.language` (`tt.atomic_rmw`,
`tt.atomic_cas`); each returns the values memory held before.

Triton's rules: `sem` is "acquire", "release", "acq_rel" (the default) or
"relaxed"; `scope` is "gpu" (the default), "cta" or "sys"; `val` (and
`mask`) are broadcast to the pointer's shape and `val` is cast to the
pointee type; fp16/bf16 only support `atomic_add`; 8-bit, 16-bit integer and
boolean pointees are rejected. Float `atomic_max`/`atomic_min` (fp32, fp64)
are built, as in Triton, from integer atomics on the bit pattern: a signed
max (min) where the value is non-negative and an unsigned min (max) where it
is negative. Masked-off lanes do not touch memory.
"""

from tpx.compiler.ir import Raw
from tpx.language import core
from tpx.language.core import builtin, constexpr, tensor

# TTAttrs.td enums.
_RMW = {"and": 1, "or": 2, "xor": 3, "add": 4, "fadd": 5, "max": 6, "min": 7,
        "umax": 8, "umin": 9, "xchg": 10}
_SEM = {"relaxed": 1, "acquire": 2, "release": 3, "acq_rel": 4}
_SCOPE = {"gpu": 1, "cta": 2, "sys": 3}


from tpx.language.core import _unwrap_if_constexpr as _unwrap  # noqa


def _sem(sem):
    sem = _unwrap(sem)
    if not sem:
        return _SEM["acq_rel"]
    if sem not in _SEM:
        raise ValueError("Memory semantic %s not supported" % sem)
    return _SEM[sem]


def _scope(scope):
    scope = _unwrap(scope)
    if not scope:
        return _SCOPE["gpu"]
    if scope not in _SCOPE:
        # Triton's wording for a bad scope, too.
        raise ValueError("Memory semantic %s not supported" % scope)
    return _SCOPE[scope]


def _shape(ty):
    return list(ty.shape) if ty.is_block() else []


def _check_operands(sem, ptr, val, mask, op):
    """Triton's atom_red_typechecking_impl: pointer and element checks, then
    val/mask broadcast to the pointer and val cast to the pointee."""
    ptr = sem.to_tensor(_unwrap(ptr))
    if not ptr.type.scalar.is_ptr():
        raise ValueError("Pointer argument of store instruction is %r" %
                         (ptr.type,))
    if ptr.type.scalar.is_const():
        raise ValueError("Cannot store to a constant pointer")
    element = ptr.type.scalar.element_ty
    if element.is_block():
        raise ValueError("atomic_%s does not support block pointers" % op)
    if element == core.float16 and op != "add":
        raise ValueError("atomic_" + op + " does not support fp16")
    if element == core.bfloat16 and op != "add":
        raise ValueError("atomic_" + op + " does not support bf16")
    if element in (core.int16, core.uint16) or \
            element.primitive_bitwidth < 16:
        raise ValueError("atomic_" + op + " does not support " + str(element))
    shape = _shape(ptr.type)
    val = sem.to_tensor(_unwrap(val))
    mask = _unwrap(mask)
    if mask is not None:
        mask = sem.to_tensor(mask)
    if shape:
        val = sem.broadcast_impl_shape(val, shape)
        if mask is not None:
            mask = sem.broadcast_impl_shape(mask, shape)
    else:
        if val.type.is_block():
            raise ValueError("Value argument cannot be block type if pointer "
                             "argument is not a block")
        if mask is not None and mask.type.is_block():
            raise ValueError("Mask argument cannot be block type if pointer "
                             "argument is not a block")
    val = sem.cast(val, element)
    if mask is None:
        mask = sem.full(shape, 1, core.int1) if shape else \
            sem.constant(1, core.int1)
    elif not mask.dtype.is_bool():
        mask = sem.cast(mask, core.int1)
    return ptr, val, mask


def _rmw(sem, op, ptr, val, mask, memsem, scope):
    return sem.op("tt.atomic_rmw", [ptr, val, mask], val.type, props={
        "atomic_rmw_op": Raw("%d : i32" % _RMW[op]),
        "scope": Raw("%d : i32" % scope), "sem": Raw("%d : i32" % memsem)})


def _signbit(sem, x):
    bits = x.dtype.primitive_bitwidth
    unsigned = core.uint32 if bits == 32 else core.uint64
    top = sem.lshr(sem.bitcast(x, unsigned), bits - 1)
    return sem.cast(top, core.int1)


def _float_min_max(sem, which, ptr, val, mask, memsem, scope):
    """max (min) of floats: signed max (min) of the bits where val >= 0,
    unsigned min (max) where val < 0."""
    float_ty = val.type.scalar
    if float_ty not in (core.float32, core.float64):
        raise TypeError("atomic_%s not supported for dtype %s" %
                        (which, float_ty))
    wide = float_ty == core.float64
    int_ty = core.int64 if wide else core.int32
    uint_ty = core.uint64 if wide else core.uint32
    i_val = sem.bitcast(val, int_ty)
    i_ptr = sem.bitcast(ptr, core.pointer_type(int_ty, 1))
    u_val = sem.bitcast(val, uint_ty)
    u_ptr = sem.bitcast(ptr, core.pointer_type(uint_ty, 1))
    neg = _signbit(sem, val)
    pos = sem.not_(neg)
    pos_op, neg_op = ("max", "umin") if which == "max" else ("min", "umax")
    pos_old = _rmw(sem, pos_op, i_ptr, i_val, sem.and_(mask, pos), memsem,
                   scope)
    neg_old = _rmw(sem, neg_op, u_ptr, u_val, sem.and_(mask, neg), memsem,
                   scope)
    old = sem.where(pos, pos_old, neg_old)
    return sem.bitcast(old, float_ty)


def _member(fn):
    """Also a tensor method (`ptr.atomic_add(val)`), as in Triton."""
    setattr(tensor, fn.__name__, fn)
    return fn


def _int_or_float_min_max(sem, which, pointer, val, mask, memsem, scope):
    ptr, val, mask = _check_operands(sem, pointer, val, mask, which)
    memsem, scope = _sem(memsem), _scope(scope)
    element = val.type.scalar
    if element.is_int():
        op = which if element.is_int_signed() else "u" + which
        return _rmw(sem, op, ptr, val, mask, memsem, scope)
    return _float_min_max(sem, which, ptr, val, mask, memsem, scope)


@_member
@builtin
def atomic_add(pointer, val, mask=None, sem=None, scope=None,
               _semantic=None):
    """Atomically adds `val` at `pointer`; returns the old values."""
    s = _semantic
    ptr, val, mask = _check_operands(s, pointer, val, mask, "add")
    op = "fadd" if val.type.scalar.is_floating() else "add"
    return _rmw(s, op, ptr, val, mask, _sem(sem), _scope(scope))


@_member
@builtin
def atomic_max(pointer, val, mask=None, sem=None, scope=None,
               _semantic=None):
    """Atomic maximum; returns the old values."""
    return _int_or_float_min_max(_semantic, "max", pointer, val, mask, sem,
                                 scope)


@_member
@builtin
def atomic_min(pointer, val, mask=None, sem=None, scope=None,
               _semantic=None):
    """Atomic minimum; returns the old values."""
    return _int_or_float_min_max(_semantic, "min", pointer, val, mask, sem,
                                 scope)


def _bitwise(name):
    def fn(pointer, val, mask=None, sem=None, scope=None, _semantic=None):
        s = _semantic
        ptr, val, mask = _check_operands(s, pointer, val, mask, name)
        return _rmw(s, name, ptr, val, mask, _sem(sem), _scope(scope))
    fn.__name__ = "atomic_" + name
    fn.__qualname__ = fn.__name__
    fn.__doc__ = ("Atomic %s at `pointer` (`val` cast to the pointee type); "
                  "returns the old values." %
                  {"and": "bitwise and", "or": "bitwise or",
                   "xor": "bitwise xor", "xchg": "exchange"}[name])
    return _member(builtin(fn))


atomic_and = _bitwise("and")
atomic_or = _bitwise("or")
atomic_xor = _bitwise("xor")
atomic_xchg = _bitwise("xchg")


@_member
@builtin
def atomic_cas(pointer, cmp, val, sem=None, scope=None, _semantic=None):
    """Atomic compare-and-swap: stores `val` where memory equals `cmp`;
    returns the old values. `cmp` and `val` are broadcast to the pointer's
    shape and cast to the pointee type."""
    s = _semantic
    ptr = s.to_tensor(_unwrap(pointer))
    if not ptr.type.scalar.is_ptr():
        raise ValueError("Pointer argument of store instruction is %r" %
                         (ptr.type,))
    element = ptr.type.scalar.element_ty
    if element.primitive_bitwidth not in (16, 32, 64):
        raise ValueError("atomic_cas only supports elements with width "
                         "{16, 32, 64}")
    memsem, sc = _sem(sem), _scope(scope)
    shape = _shape(ptr.type)
    cmp = s.to_tensor(_unwrap(cmp))
    val = s.to_tensor(_unwrap(val))
    if shape:
        cmp = s.broadcast_impl_shape(cmp, shape)
        val = s.broadcast_impl_shape(val, shape)
    elif cmp.type.is_block() or val.type.is_block():
        raise ValueError("Value argument cannot be block type if pointer "
                         "argument is not a block")
    cmp = s.cast(cmp, element)
    val = s.cast(val, element)
    return s.op("tt.atomic_cas", [ptr, cmp, val], val.type, props={
        "scope": Raw("%d : i32" % sc), "sem": Raw("%d : i32" % memsem)})


__all__ = ["atomic_add", "atomic_and", "atomic_cas", "atomic_max",
           "atomic_min", "atomic_or", "atomic_xchg", "atomic_xor"]
