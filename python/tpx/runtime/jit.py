"""@tpx.jit: a Python function that is compiled to a kernel when launched.

This module holds what the front end reads from a kernel (its source, file,
line and parameters); launching, specialization and caching are in the
`run`/`warmup` methods (see docs/python.md).
"""

import ast
import inspect
import textwrap


class KernelParam:
    """One parameter of a @jit function."""

    def __init__(self, index, parameter, do_not_specialize,
                 do_not_specialize_on_alignment):
        self.index = index
        self.name = parameter.name
        self.annotation = parameter.annotation
        self.default = parameter.default
        self.has_default = parameter.default is not inspect.Parameter.empty
        self.is_constexpr = _is_constexpr_annotation(parameter.annotation)
        self.do_not_specialize = do_not_specialize
        self.do_not_specialize_on_alignment = do_not_specialize_on_alignment

    def __repr__(self):
        return "KernelParam(%r%s)" % (
            self.name, ", constexpr" if self.is_constexpr else "")


def _is_constexpr_annotation(annotation):
    if annotation is inspect.Parameter.empty:
        return False
    if isinstance(annotation, str):
        # `from __future__ import annotations` or a quoted annotation.
        return annotation.split(".")[-1] == "constexpr"
    from tpx.language.core import constexpr
    return annotation is constexpr or (
        isinstance(annotation, type) and issubclass(annotation, constexpr))


def _names_to_indices(names, params, what):
    indices = set()
    for n in names or ():
        if isinstance(n, int):
            if not 0 <= n < len(params):
                raise ValueError("%s: no parameter %d" % (what, n))
            indices.add(n)
        else:
            match = [p for p in params if p.name == n]
            if not match:
                raise ValueError("%s: no parameter named %r" % (what, n))
            indices.add(params.index(match[0]))
    return indices


class JITFunction:
    """A kernel (or a helper called from kernels) written in tpx.language.

    Attributes the front end uses: fn, __name__, src (the dedented source of
    the function), file, starting_line (the line of `def` in `file`),
    params (KernelParam, in order), arg_names, noinline, __globals__.
    """

    def __init__(self, fn, version=None, do_not_specialize=None,
                 do_not_specialize_on_alignment=None, debug=None,
                 noinline=None, repr=None, launch_metadata=None,
                 pipeline=None):
        self.fn = fn
        self.module = fn.__module__
        self.version = version
        self.debug = debug
        self.noinline = bool(noinline)
        self.pipeline = pipeline
        self._repr = repr
        self.launch_metadata = launch_metadata
        self.__name__ = fn.__name__
        self.__qualname__ = fn.__qualname__
        self.__doc__ = fn.__doc__
        self.__module__ = fn.__module__
        self.__globals__ = fn.__globals__
        self.file = inspect.getsourcefile(fn) or fn.__code__.co_filename
        lines, start = inspect.getsourcelines(fn)
        self.src = textwrap.dedent("".join(lines))
        # `lines` starts at the first decorator; the front end reports
        # positions in `file`, so remember where the `def` line is.
        tree = ast.parse(self.src)
        self.starting_line = start + tree.body[0].lineno - 1
        self._decorator_offset = start - 1
        self.signature = inspect.signature(fn)
        names = list(self.signature.parameters)
        raw = list(self.signature.parameters.values())
        plain = [p for p in raw]
        dns = _names_to_indices(do_not_specialize, plain, "do_not_specialize")
        dnsa = _names_to_indices(do_not_specialize_on_alignment, plain,
                                 "do_not_specialize_on_alignment")
        self.params = [
            KernelParam(i, p, i in dns, i in dnsa) for i, p in enumerate(raw)
        ]
        self.arg_names = names
        self.constexprs = [p.index for p in self.params if p.is_constexpr]

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "%s: a @tpx.jit function can only be called from another "
            "@tpx.jit function; launch it with %s[grid](...)" %
            (self.__name__, self.__name__))

    def __getitem__(self, grid):
        """kernel[grid](*args, **options) launches over `grid`."""
        def launcher(*args, **kwargs):
            return self.run(*args, grid=grid, warmup=False, **kwargs)
        return launcher

    def run(self, *args, grid, warmup, **kwargs):
        raise NotImplementedError("tpx.runtime.jit: launching is not built")

    def __repr__(self):
        return "JITFunction(%s:%s)" % (self.module, self.__qualname__)


def jit(fn=None, *, version=None, repr=None, launch_metadata=None,
        do_not_specialize=None, do_not_specialize_on_alignment=None,
        debug=None, noinline=None, pipeline=None):
    """Decorator: @tpx.jit or @tpx.jit(noinline=True, pipeline=[...])."""
    def decorator(fn):
        return JITFunction(fn, version=version,
                           do_not_specialize=do_not_specialize,
                           do_not_specialize_on_alignment=(
                               do_not_specialize_on_alignment),
                           debug=debug, noinline=noinline, repr=repr,
                           launch_metadata=launch_metadata,
                           pipeline=pipeline)
    if fn is not None:
        return decorator(fn)
    return decorator
