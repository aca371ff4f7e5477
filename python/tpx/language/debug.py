"""Debugging and compiler hints of `triton.language`.

- `static_print` / `static_assert` run while the kernel is compiled.
- `device_print` is `tt.print` (the CPU runtime prints to the process's
  stdout, one line per element: `pid (x, y, z) idx (i) prefix: value`).
- `device_assert` is `tt.assert`, kept only when debugging is on, as in
  Triton: the compile spec's `debug` (`@jit(debug=True)`) or
  `TRITON_DEBUG=1`. A failed assertion makes the launch fail with an error
  naming the program and element; it never aborts the process.
- `multiple_of`, `max_contiguous` and `max_constancy` put Triton's
  `tt.divisibility` / `tt.contiguity` / `tt.constancy` attributes on the op
  defining the value.
- `assume` and `debug_barrier` emit nothing: Triton's `llvm.intr.assume` and
  `gpu.barrier` are not part of the TTIR tpx accepts (the condition of
  `assume` is still type-checked).
"""

import builtins as _py
import string
import sys

from tpx.compiler.ir import Raw
from tpx.errors import CompilationError
from tpx.language import core
from tpx.language.core import builtin, constexpr, tensor


class CompileTimeAssertionFailure(CompilationError):
    """A `tl.static_assert` whose condition is false."""


from tpx.language.core import _unwrap_if_constexpr as _unwrap  # noqa


def debug_enabled(sem):
    """Whether device assertions are kept: the compile spec's `debug` or the
    TRITON_DEBUG environment variable."""
    options = getattr(sem, "options", None)
    if options is not None and getattr(options, "debug", False):
        return True
    return core.get_bool_env_var("TRITON_DEBUG")


# -- compile time -------------------------------------------------------------

@builtin
def static_print(*values, sep=" ", end="\n", file=None, flush=False,
                 _semantic=None, _generator=None):
    """Prints `values` when the kernel is compiled (Python's print)."""
    if getattr(_generator.module, "dry_run", False):
        return None
    values = [v if isinstance(v, tensor) else _unwrap(v) for v in values]
    _py.print(*values, sep=_unwrap(sep), end=_unwrap(end),
              file=_unwrap(file) or sys.stdout, flush=_unwrap(flush))
    return None


static_print.__tpx_needs_generator__ = True


@builtin
def static_assert(cond, msg="", _semantic=None, _generator=None):
    """Fails the compilation with `msg` when the constexpr `cond` is false."""
    passed = cond if isinstance(cond, tensor) else _unwrap(cond)
    if not isinstance(passed, bool):
        raise NotImplementedError(
            "Assertion condition could not be determined at compile-time. "
            "Make sure that it depends only on `constexpr` values")
    if not passed:
        message = _unwrap(msg)
        raise _generator.error(_generator.current_node, str(message),
                               CompileTimeAssertionFailure)
    return None


static_assert.__tpx_needs_generator__ = True


# -- run time -----------------------------------------------------------------

@builtin
def device_print(prefix, *args, hex=False, _semantic=None):
    """Prints `prefix` and the values of `args` from every program."""
    sem = _semantic
    prefix = _unwrap(prefix)
    if not isinstance(prefix, str):
        raise AssertionError("%s is not string" % (prefix,))
    if any(ch not in string.printable for ch in prefix):
        raise AssertionError("%s is not an ascii string" % (prefix,))
    values = [sem.to_tensor(_unwrap(a)) for a in args]
    # As Triton: a prefix followed by values ends in ": " and, when longer
    # than two characters, starts with a space.
    if values and not prefix.endswith(" "):
        prefix += " "
    if values and not prefix.endswith(": "):
        prefix = prefix[:-1] + ": "
    if len(prefix) > 2 and not prefix.startswith(" "):
        prefix = " " + prefix
    signed = ", ".join("1" if v.dtype.is_int_signed() else "0" for v in values)
    sem.builder.op("tt.print", [v.handle for v in values], [], props={
        "hex": Raw("true" if _unwrap(hex) else "false"),
        "isSigned": Raw("array<i32%s>" % (": " + signed if values else "")),
        "prefix": prefix})
    return None


@builtin
def device_assert(cond, msg="", mask=None, _semantic=None):
    """Checks `cond` (where `mask` is true) when the kernel runs, if
    debugging is on; otherwise emits nothing."""
    sem = _semantic
    msg = _unwrap(msg)
    cond = sem.to_tensor(_unwrap(cond))
    if not debug_enabled(sem):
        return None
    if not cond.dtype.is_bool():
        cond = sem.cast(cond, core.int1)
    mask = _unwrap(mask)
    if mask is not None:
        mask = sem.to_tensor(mask)
        if not mask.dtype.is_bool():
            mask = sem.cast(mask, core.int1)
        cond = sem.or_(cond, sem.not_(mask))
    sem.builder.op("tt.assert", [cond.handle], [],
                   props={"message": str(msg)})
    return None


@builtin
def assume(cond, _semantic=None):
    """A promise that `cond` holds; tpx has no TTIR op for it (Triton's is
    `llvm.intr.assume`), so nothing is emitted."""
    cond = _semantic.to_tensor(_unwrap(cond))
    if not cond.dtype.is_bool():
        raise TypeError("tl.assume needs a boolean condition, got %s" %
                        cond.dtype)
    return None


@builtin
def debug_barrier(_semantic=None):
    """Synchronizes the threads of a program. Emits nothing: Triton's
    `gpu.barrier` is not TTIR tpx accepts (each CPU program runs in order)."""
    return None


# -- hints --------------------------------------------------------------------

def _hint_values(values):
    if isinstance(values, (constexpr, tensor)):
        values = [values]
    values = list(values)
    out = []
    for i, d in enumerate(values):
        if not isinstance(d, constexpr):
            raise TypeError("values element %d must have type `constexpr`" % i)
        if not isinstance(d.value, int):
            raise TypeError("values element %d must have type "
                            "`constexpr[int]`, got `constexpr[%s]" %
                            (i, type(d.value)))
        out.append(d.value)
    return out


def _set_op_attr(sem, x, name, values):
    """Adds the discardable attribute `name` (an i32 dense array) to the op
    that defines `x`, when that op is in the current block. Block arguments
    (and values defined in enclosing blocks) keep no hint."""
    if len(values) == 1:
        text = "dense<%d> : tensor<1xi32>" % values[0]
    else:
        text = "dense<[%s]> : tensor<%dxi32>" % (
            ", ".join(str(v) for v in values), len(values))
    value_name = x.handle.name if x.handle is not None else None
    block = sem.builder.block
    if not value_name or block is None:
        return
    base = value_name.split("#")[0]
    heads = (base + " = ", base + ":")
    for i, line in enumerate(block.lines):
        if not line.startswith(heads):
            continue
        first, sep, last = line.rpartition("\n")
        at = last.rfind(" : (")
        if at < 0:
            return
        head, tail = last[:at], last[at:]
        entry = "%s = %s" % (name, text)
        if head.endswith("}") and not head.endswith("}>"):
            head = head[:-1] + ", " + entry + "}"
        else:
            head = head + " {" + entry + "}"
        block.lines[i] = first + sep + head + tail
        return


def _hint(sem, x, values, attr, what):
    x = sem.to_tensor(_unwrap(x))
    values = _hint_values(values)
    # Triton lets multiple_of describe a scalar with one value.
    rank = len(x.shape)
    if what == "multiple_of":
        rank = _py.max(1, rank)
    if rank != len(values):
        raise ValueError("Shape of input to %s does not match the length of "
                         "values" % what)
    _set_op_attr(sem, x, attr, values)
    return x


@builtin
def multiple_of(input, values, _semantic=None):
    """Tells the compiler every value of `input` is a multiple of `values`."""
    return _hint(_semantic, input, values, "tt.divisibility", "multiple_of")


@builtin
def max_contiguous(input, values, _semantic=None):
    """Tells the compiler the first `values` values of `input` are
    contiguous."""
    return _hint(_semantic, input, values, "tt.contiguity", "max_contiguous")


@builtin
def max_constancy(input, values, _semantic=None):
    """Tells the compiler `input` is constant in groups of `values`."""
    return _hint(_semantic, input, values, "tt.constancy", "max_constancy")


__all__ = ["assume", "debug_barrier", "device_assert", "device_print",
           "max_constancy", "max_contiguous", "multiple_of", "static_assert",
           "static_print"]
