"""What the TLX functions share: the builtin decorator and op emission."""

import functools

from tpx.language import core
from tpx.language.core import constexpr

# The plugin's pipeline extension that lowers tlx ops for the target.
EXTENSION = "tlx"


def unwrap(value):
    return value.value if isinstance(value, constexpr) else value


def tlx_builtin(fn):
    """A kernel-language function that needs the code generator."""
    @functools.wraps(fn)
    def wrapper(*args, _semantic=None, _generator=None, **kwargs):
        if _semantic is None or _generator is None:
            raise ValueError("tlx.%s() can only be called inside a @jit "
                             "function" % fn.__name__)
        return fn(*args, _semantic=_semantic, _generator=_generator,
                  **kwargs)

    wrapped = core.builtin(wrapper)
    wrapped.__tpx_needs_generator__ = True
    return wrapped


def emit(generator, name, operands, result_types, props=None):
    """Emits tlx op `name` (generic form) and selects the TLX lowering for
    the kernel. Returns the result values (tensors)."""
    generator.module.select_pipeline_extension(EXTENSION)
    handles = generator.builder.op(
        name, [o.handle for o in operands], [t.to_ir() for t in result_types],
        props=props)
    return [core.tensor(h, t) for h, t in zip(handles, result_types)]


def constexpr_int(value, what):
    value = unwrap(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("%s must be a constexpr int, got %r" % (what, value))
    return value


def int_list(values, what):
    values = unwrap(values)
    if not isinstance(values, (list, tuple)):
        values = [values]
    return [constexpr_int(v, what) for v in values]
