"""Python AST -> TTIR: the code generator of @tpx.jit functions.

A FunctionGenerator walks one function's AST with Python's `ast.NodeVisitor`.
Names map to language values (tensor), compile-time values (constexpr or
any Python object: modules, dtypes, functions, tuples). Control flow on
compile-time values runs at compile time (`if` on a constexpr keeps one
branch, `tl.static_range` unrolls); on tensors it becomes `scf.if`,
`scf.for` and `scf.while`, whose loop-carried values are the names the body
assigns that were defined before it.

Called @jit functions become private `tt.func`s (one per specialization of
argument types and constexpr values) and `tt.call`s; the `ttir` stage
inlines them unless they are `noinline`, exactly as for Triton's TTIR.

Every error is raised as a CompilationError at the innermost AST node being
compiled: file, line, column and the source line.
"""

import ast
import builtins
import hashlib

from tpx.compiler.ir import Raw
from tpx.errors import CompilationError
import tpx.language as tl
from tpx.language import core
from tpx.language.core import constexpr, tensor
from tpx.language.semantic import Semantic


class UnsupportedLanguageConstruct(CompilationError):
    pass


from tpx.language.core import _unwrap_if_constexpr as _unwrap  # noqa


def _is_compile_time(x):
    return not isinstance(x, tensor) and not (
        isinstance(x, (tuple, list)) and any(isinstance(e, tensor)
                                             for e in _flatten(x)))


def _flatten(value):
    if isinstance(value, (tuple, list)):
        out = []
        for v in value:
            out.extend(_flatten(v))
        return out
    if isinstance(value, tensor) and hasattr(value, "__tpx_flatten__"):
        # A value made of several IR values (a tensor descriptor: handle,
        # shape, strides) crosses regions and calls as its parts.
        return _flatten(list(value.__tpx_flatten__()))
    return [value]


def _unflatten(template, values):
    """Rebuilds `template`'s nesting with tensors taken from `values`."""
    it = iter(values)

    def rebuild(t):
        if isinstance(t, tuple):
            return tuple(rebuild(e) for e in t)
        if isinstance(t, list):
            return [rebuild(e) for e in t]
        if isinstance(t, tensor) and hasattr(t, "__tpx_unflatten__"):
            return t.__tpx_unflatten__(
                [next(it) for _ in _flatten(t)])
        if isinstance(t, tensor):
            return next(it)
        return t
    return rebuild(template)


def assigned_names(statements):
    """Names a list of statements assigns (not inside nested functions)."""
    names = []

    class Finder(ast.NodeVisitor):
        def visit_Name(self, node):
            if isinstance(node.ctx, ast.Store) and node.id not in names:
                names.append(node.id)

        def visit_FunctionDef(self, node):
            pass

        visit_Lambda = visit_FunctionDef

    finder = Finder()
    for s in statements:
        finder.visit(s)
    return names


def _closure_values(fn):
    """{name: value} of the cells `fn` closes over (unset cells left out)."""
    values = {}
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            values[name] = cell.cell_contents
        except ValueError:
            pass
    return values


def _always_returns(statements):
    """Whether the statements end in a return on every path (as far as the
    syntax shows: a final return, or an if whose branches both do)."""
    if not statements:
        return False
    last = statements[-1]
    if isinstance(last, ast.Return):
        return True
    if isinstance(last, ast.If):
        return _always_returns(last.body) and _always_returns(last.orelse)
    return False


def _contains_return(statements):
    for s in statements:
        for node in ast.walk(s):
            if isinstance(node, ast.Return):
                return True
    return False


_BINOPS = {
    ast.Add: ("add", "__add__"), ast.Sub: ("sub", "__sub__"),
    ast.Mult: ("mul", "__mul__"), ast.Div: ("truediv", "__truediv__"),
    ast.FloorDiv: ("floordiv", "__floordiv__"), ast.Mod: ("mod", "__mod__"),
    ast.BitAnd: ("and_", "__and__"), ast.BitOr: ("or_", "__or__"),
    ast.BitXor: ("xor_", "__xor__"), ast.LShift: ("shl", "__lshift__"),
    ast.RShift: ("ashr", "__rshift__"), ast.Pow: (None, "__pow__"),
    ast.MatMult: (None, "__matmul__"),
}
_CMPOPS = {
    ast.Lt: "less_than", ast.LtE: "less_equal", ast.Gt: "greater_than",
    ast.GtE: "greater_equal", ast.Eq: "equal", ast.NotEq: "not_equal",
}


class ModuleGenerator:
    """State shared by the functions of one module: builder, functions."""

    def __init__(self, builder, file, options):
        self.builder = builder
        self.semantic = Semantic(builder)
        # Builtins read the compile spec (target, debug) through the
        # Semantic, as Triton's read `builder.options`.
        self.semantic.options = options
        self.file = file
        self.options = options
        self.functions = {}     # specialization key -> (symbol, results)
        # The argument values of every call, kept alive: a key names an
        # unhashable argument by id(), which must not be reused meanwhile.
        self.call_values = []
        self.extra_text = []    # function texts from plugins (DSL ops)
        # Pipeline extensions the kernel's ops need (a plugin's lowering of
        # its dialect): the module's `tpx.pipeline` attribute.
        self.pipeline_extensions = []
        self.dry_run = False

    def select_pipeline_extension(self, name):
        """Compiles this kernel with the pipeline extension `name` (the
        module gets `tpx.pipeline = [..., name]`). For plugin language
        modules whose ops need their plugin's lowering."""
        if name not in self.pipeline_extensions:
            self.pipeline_extensions.append(name)


class FunctionGenerator(ast.NodeVisitor):
    def __init__(self, module, jit_fn, scope, line_offset):
        self.module = module
        self.builder = module.builder
        self.semantic = module.semantic
        self.jit_fn = jit_fn
        self.fn_globals = jit_fn.__globals__
        # Names the function closes over (a kernel defined inside another
        # function) resolve like globals.
        self.fn_closure = _closure_values(jit_fn.fn)
        self.scope = dict(scope)
        self.line_offset = line_offset
        self.source_lines = jit_fn.src.splitlines()
        self.returns = None      # the values of the first return
        self.has_return = False
        self.continuation = None  # statements after a returning `if`
        self.entry_block = None  # the function's body (tt.return here)
        # Blocks a `return` may end: the body and the branches of returning
        # ifs (which yield the values); not loop or plain `if` regions.
        self.return_blocks = set()
        self.current_node = None

    # -- locations and errors -------------------------------------------------

    def loc_of(self, node):
        line = getattr(node, "lineno", None)
        if line is None:
            return self.builder.loc
        return 'loc("%s":%d:%d)' % (self.module.file.replace('"', '\\"'),
                                    line + self.line_offset,
                                    node.col_offset + 1)

    def error(self, node, message, cls=CompilationError):
        line = getattr(node, "lineno", None)
        source = None
        if line is not None and 0 < line <= len(self.source_lines):
            source = self.source_lines[line - 1]
        return cls(message, self.module.file,
                   line + self.line_offset if line else None,
                   getattr(node, "col_offset", None), source)

    def visit(self, node):
        if node is None:
            return None
        saved = self.current_node
        self.current_node = node
        try:
            with self.builder.location(self.loc_of(node)):
                return super().visit(node)
        except CompilationError:
            raise
        except (TypeError, ValueError, AssertionError, NotImplementedError,
                AttributeError, KeyError, IndexError, ZeroDivisionError,
                OverflowError, RuntimeError, NameError) as e:
            raise self.error(node, "%s: %s" % (type(e).__name__, e)) from e
        finally:
            self.current_node = saved

    def generic_visit(self, node):
        raise self.error(node, "unsupported AST node type: %s" %
                         type(node).__name__, UnsupportedLanguageConstruct)

    # -- names -----------------------------------------------------------------

    def lookup(self, name, node):
        if name in self.scope:
            return self.scope[name]
        if name in self.fn_closure:
            return self.fn_closure[name]
        if name in self.fn_globals:
            return self.fn_globals[name]
        if hasattr(builtins, name):
            return _PY_BUILTINS.get(name, getattr(builtins, name))
        raise self.error(node, "name '%s' is not defined" % name)

    def set_name(self, name, value):
        if isinstance(value, (int, float, bool)) and not isinstance(
                value, constexpr):
            value = constexpr(value)
        self.scope[name] = value

    # -- statements ------------------------------------------------------------

    def visit_statements(self, statements):
        for i, s in enumerate(statements):
            if self.builder.block.terminated:
                break
            if isinstance(s, ast.If) and (_contains_return(s.body) or
                                          _contains_return(s.orelse)):
                # An `if` on a tensor that returns takes the statements
                # after it into its branches (returning_if).
                self.continuation = list(statements[i + 1:])
                self.visit(s)
                consumed = self.continuation is None
                self.continuation = None
                if consumed:
                    break
                continue
            self.visit(s)

    def visit_Module(self, node):
        self.visit_statements(node.body)

    def visit_Pass(self, node):
        pass

    def visit_Expr(self, node):
        if isinstance(node.value, ast.Call):
            # Builtins marked `_must_use_result` (tl.advance) reject this.
            node.value._tpx_unused = True
        self.visit(node.value)

    def visit_Assign(self, node):
        value = self.visit(node.value)
        for target in node.targets:
            self.assign(target, value)

    def visit_AnnAssign(self, node):
        if node.value is None:
            return
        value = self.visit(node.value)
        annotation = self.visit(node.annotation)
        if annotation is constexpr or annotation == "constexpr":
            if not _is_compile_time(value):
                raise self.error(node, "Cannot assign a tensor to a "
                                 "constexpr variable '%s'" %
                                 ast.unparse(node.target))
            value = constexpr(value)
        self.assign(node.target, value)

    def visit_AugAssign(self, node):
        if not isinstance(node.target, ast.Name):
            raise self.error(node, "augmented assignment to %s is not "
                             "supported" % type(node.target).__name__,
                             UnsupportedLanguageConstruct)
        lhs = self.lookup(node.target.id, node.target)
        rhs = self.visit(node.value)
        self.assign(node.target, self.binary(node.op, lhs, rhs, node))

    def assign(self, target, value):
        if isinstance(target, ast.Name):
            self.set_name(target.id, value)
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            value = _unwrap(value)
            if not isinstance(value, (tuple, list)):
                raise self.error(target, "cannot unpack a non-tuple value")
            if len(value) != len(target.elts):
                raise self.error(target, "cannot unpack %d values into %d "
                                 "names" % (len(value), len(target.elts)))
            for t, v in zip(target.elts, value):
                self.assign(t, v)
            return
        raise self.error(target, "assignment to %s is not supported" %
                         type(target).__name__, UnsupportedLanguageConstruct)

    def visit_Return(self, node):
        value = self.visit(node.value) if node.value is not None else None
        if self.has_return:
            # Every return of a function must produce the same types.
            if isinstance(self.returns, tensor) or isinstance(
                    self.returns, tuple):
                value = self.as_carried(value, None, "return value", node)
                if isinstance(value, tensor) and isinstance(
                        self.returns, tensor) and \
                        value.type != self.returns.type:
                    value = self.semantic.cast(value, self.returns.type)
                value = self.match_type(value, self.returns,
                                        "the return value", node,
                                        "an earlier return", "this one")
            elif _is_compile_time(value) and _unwrap(value) != _unwrap(
                    self.returns):
                raise self.error(node, "returns of one function disagree: "
                                 "%r and %r" % (_unwrap(self.returns),
                                                _unwrap(value)))
        else:
            if self.builder.block is not self.entry_block and \
                    value is not None:
                value = self.as_carried(value, None, "return value", node)
            self.returns = value
            self.has_return = True
        self.emit_return(value)

    def emit_return(self, value):
        """tt.return at the function's level; inside a branch of a
        returning if, the branch yields the values instead."""
        handles = [v.handle for v in _flatten(value)
                   if isinstance(v, tensor)]
        op = "tt.return" if self.builder.block is self.entry_block else \
            "scf.yield"
        self.builder.op(op, handles, [], terminator=True)

    def visit_Assert(self, node):
        test = self.visit(node.test)
        msg = self.visit(node.msg) if node.msg is not None else ""
        if _is_compile_time(test):
            if not _unwrap(test):
                raise self.error(node, "assertion failed: %s" %
                                 (_unwrap(msg) or ast.unparse(node.test)))
            return
        device_assert = getattr(tl, "device_assert", None)
        if device_assert is None:
            raise self.error(node, "`assert` on a tensor needs "
                             "tl.device_assert", UnsupportedLanguageConstruct)
        self.call_function(device_assert, [test, msg], {}, node)

    def visit_Break(self, node):
        raise self.error(node, "break is not supported in kernels (Triton "
                         "has no early loop exit); use a `while` with a flag",
                         UnsupportedLanguageConstruct)

    visit_Continue = visit_Break

    def visit_FunctionDef(self, node):
        raise self.error(node, "nested function definitions are not "
                         "supported; define a @tpx.jit function at module "
                         "level", UnsupportedLanguageConstruct)

    def visit_With(self, node):
        # A manager whose __tpx_enter__ moves the builder into a region (an
        # op with a `with` block, such as tlx.async_task) makes the body's
        # names local to it: their values live in the region and do not
        # dominate what follows, so they are dropped at the end, as an
        # scf.if's branches drop theirs. A manager with __tpx_copies__ (the
        # only item of its `with`) has its body generated that many times,
        # entered and exited each time (tlx.async_task(replicate=N): a task
        # per replica, whose replica id is a constexpr).
        if len(node.items) == 1:
            manager = self._with_manager(node.items[0])
            count = getattr(manager, "__tpx_copies__", None)
            copies = 1 if count is None else count(_semantic=self.semantic,
                                                   _generator=self)
            for _ in range(copies):
                self._generate_with(node, [manager])
            return
        self._generate_with(node, None)

    def _with_manager(self, item):
        manager = self.visit(item.context_expr)
        if getattr(manager, "__tpx_enter__", None) is None:
            raise self.error(item.context_expr, "%r cannot be used in "
                             "`with` in a kernel" % (manager,),
                             UnsupportedLanguageConstruct)
        return manager

    def _generate_with(self, node, managers):
        """Enters each item's manager (visiting its expression first unless
        `managers` are given), generates the body, exits them."""
        block, before = self.builder.block, dict(self.scope)
        entered = []
        for i, item in enumerate(node.items):
            manager = managers[i] if managers else self._with_manager(item)
            result = manager.__tpx_enter__(_semantic=self.semantic,
                                           _generator=self)
            if item.optional_vars is not None:
                self.assign(item.optional_vars, result)
            entered.append(manager)
        in_region = self.builder.block is not block
        self.visit_statements(node.body)
        for manager in reversed(entered):
            manager.__tpx_exit__(_semantic=self.semantic, _generator=self)
        if in_region:
            self.scope = before

    # -- if ----------------------------------------------------------------------

    def visit_If(self, node):
        continuation, self.continuation = self.continuation, None
        cond = self.visit(node.test)
        if _is_compile_time(cond):
            taken = node.body if _unwrap(cond) else node.orelse
            self.visit_statements(taken)
            self.continuation = continuation  # not consumed
            return
        cond = self.scalar_condition(cond, node.test)
        if _contains_return(node.body) or _contains_return(node.orelse):
            if self.builder.block not in self.return_blocks:
                raise self.error(node, "`return` inside an `if` on a tensor "
                                 "is only supported outside loops and "
                                 "other `if`s on tensors",
                                 UnsupportedLanguageConstruct)
            self.returning_if(node, cond, node.body, node.orelse,
                              continuation or [])
            return
        self.continuation = continuation
        self.structured_if(node, cond, node.body, node.orelse)

    def returning_if(self, node, cond, then_body, else_body, continuation):
        """An `if` on a tensor that may return. The rest of the function
        (`continuation`) moves into each branch that can fall through, so
        both branches end by returning; the `if` becomes an scf.if whose
        results are the return values, followed by the return. Everything
        stays structured control flow, which every target lowers."""
        before = dict(self.scope)
        blocks = []
        for body in (then_body, else_body):
            self.scope = dict(before)
            statements = list(body)
            if not _always_returns(statements):
                statements += continuation
            block = self.builder.new_block()
            self.return_blocks.add(block)
            with self.builder.at(block):
                self.visit_statements(statements)
                if not block.terminated:
                    if self.has_return and any(
                            isinstance(v, tensor)
                            for v in _flatten(self.returns)):
                        raise self.error(node, "not every path of this `if` "
                                         "returns a value")
                    self.builder.op("scf.yield", [], [], terminator=True)
            blocks.append(block)
        self.scope = before
        template = self.returns if self.has_return else None
        flat = [v for v in _flatten(template) if isinstance(v, tensor)]
        results = self.builder.op("scf.if", [cond.handle],
                                  [v.type.to_ir() for v in flat],
                                  regions=[[blocks[0]], [blocks[1]]])
        values = _unflatten(template, [tensor(h, v.type)
                                       for h, v in zip(results, flat)])
        self.emit_return(values)

    def scalar_condition(self, cond, node):
        if cond.type.is_block():
            raise self.error(node, "Boolean value of Tensor with more than "
                             "one value is ambiguous")
        if not cond.type.scalar.is_bool():
            cond = self.semantic.cast(cond, tl.int1)
        return cond

    def structured_if(self, node, cond, then_body, else_body):
        before = dict(self.scope)
        then_block = self.builder.new_block()
        with self.builder.at(then_block):
            self.visit_statements(then_body)
        then_scope = self.scope
        self.scope = dict(before)
        else_block = self.builder.new_block()
        with self.builder.at(else_block):
            self.visit_statements(else_body)
        else_scope = self.scope
        self.scope = dict(before)

        names = []
        for name in assigned_names(list(then_body) + list(else_body)):
            in_then = name in then_scope
            in_else = name in else_scope
            if not (in_then and in_else):
                continue
            t, e = then_scope[name], else_scope[name]
            if t is e:
                self.scope[name] = t
                continue
            if _is_compile_time(t) and _is_compile_time(e):
                if _unwrap(t) == _unwrap(e) and type(_unwrap(t)) is type(
                        _unwrap(e)):
                    self.scope[name] = t
                    continue
            names.append(name)
        yields_then, yields_else, templates = [], [], []
        for name in names:
            t, e = then_scope[name], else_scope[name]
            with self.builder.at(then_block):
                t = self.as_carried(t, None, name, node)
            with self.builder.at(else_block):
                e = self.as_carried(e, None, name, node)
            with self.builder.at(else_block):
                e = self.match_type(e, t, name, node, "then block", "else "
                                    "block")
            templates.append(t)
            yields_then.extend(_flatten(t))
            yields_else.extend(_flatten(e))
        types = [v.type.to_ir() for v in yields_then]
        with self.builder.at(then_block):
            self.builder.op("scf.yield", [v.handle for v in yields_then], [],
                            terminator=True)
        with self.builder.at(else_block):
            self.builder.op("scf.yield", [v.handle for v in yields_else], [],
                            terminator=True)
        results = self.builder.op("scf.if", [cond.handle], types,
                                  regions=[[then_block], [else_block]])
        values = [tensor(h, v.type) for h, v in zip(results, yields_then)]
        offset = 0
        for name, template in zip(names, templates):
            n = len(_flatten(template))
            self.scope[name] = _unflatten(template, values[offset:offset + n])
            offset += n

    def as_carried(self, value, like, name, node):
        """A value that can cross a region boundary: tensors only."""
        if isinstance(value, tensor):
            return value
        if isinstance(value, tuple):
            return tuple(self.as_carried(v, None, name, node) for v in value)
        raw = _unwrap(value)
        if isinstance(raw, (bool, int, float)):
            return self.semantic.to_tensor(raw)
        raise self.error(node, "'%s' holds %r, which cannot change inside "
                         "control flow on tensors" % (name, raw))

    def match_type(self, value, reference, name, node, where_ref, where):
        if isinstance(reference, tuple):
            if not isinstance(value, tuple) or len(value) != len(reference):
                raise self.error(node, "Mismatched type for %s between %s "
                                 "and %s" % (name, where_ref, where))
            return tuple(self.match_type(v, r, name, node, where_ref, where)
                         for v, r in zip(value, reference))
        if value.type != reference.type:
            raise self.error(node, "Mismatched type for %s between %s and "
                             "%s: %s and %s" % (name, where_ref, where,
                                                reference.type, value.type))
        return value

    def visit_IfExp(self, node):
        cond = self.visit(node.test)
        if _is_compile_time(cond):
            return self.visit(node.body if _unwrap(cond) else node.orelse)
        cond = self.scalar_condition(cond, node.test)
        then_block = self.builder.new_block()
        with self.builder.at(then_block):
            t = self.as_carried(self.visit(node.body), None, "?", node)
        else_block = self.builder.new_block()
        with self.builder.at(else_block):
            e = self.as_carried(self.visit(node.orelse), None, "?", node)
            if isinstance(t, tensor) and isinstance(e, tensor) and \
                    e.type != t.type:
                e = self.semantic.cast(e, t.type)
            e = self.match_type(e, t, "the conditional expression", node,
                                "its true", "false value")
        with self.builder.at(then_block):
            self.builder.op("scf.yield", [v.handle for v in _flatten(t)], [],
                            terminator=True)
        with self.builder.at(else_block):
            self.builder.op("scf.yield", [v.handle for v in _flatten(e)], [],
                            terminator=True)
        flat = _flatten(t)
        results = self.builder.op("scf.if", [cond.handle],
                                  [v.type.to_ir() for v in flat],
                                  regions=[[then_block], [else_block]])
        return _unflatten(t, [tensor(h, v.type)
                              for h, v in zip(results, flat)])

    # -- loops -------------------------------------------------------------------

    def carried_names(self, body):
        out = []
        for name in assigned_names(body):
            if name in self.scope:
                value = self.scope[name]
                raw = _unwrap(value)
                if isinstance(value, tensor) or isinstance(
                        raw, (bool, int, float)) or (
                        isinstance(value, tuple) and
                        not _is_compile_time(value)):
                    out.append(name)
        return out

    def visit_For(self, node):
        if node.orelse:
            raise self.error(node, "for ... else is not supported",
                             UnsupportedLanguageConstruct)
        iterator = node.iter
        if not isinstance(iterator, ast.Call):
            iterable = self.visit(iterator)
            return self.unrolled_for(node, _unwrap(iterable))
        fn = self.visit(iterator.func)
        args = [self.visit(a) for a in iterator.args]
        kwargs = {k.arg: self.visit(k.value) for k in iterator.keywords}
        range_cls = getattr(tl, "range", None)
        static_range = getattr(tl, "static_range", None)
        if static_range is not None and fn is static_range:
            values = [_unwrap(a) for a in args]
            for v in values:
                if not isinstance(v, int):
                    raise self.error(iterator, "static_range's arguments "
                                     "must be constexpr integers")
            return self.unrolled_for(node, builtins.range(*values))
        loop_attrs = {}
        if fn is builtins.range or fn is _PY_BUILTINS["range"]:
            pass
        elif range_cls is not None and fn is range_cls:
            loop_attrs = range_cls.loop_attributes(args, kwargs)
            args = range_cls.bounds(args, kwargs)
        else:
            iterable = self.call_function(fn, args, kwargs, iterator)
            return self.unrolled_for(node, _unwrap(iterable))
        if not 1 <= len(args) <= 3:
            raise self.error(iterator, "range expected 1 to 3 arguments, "
                             "got %d" % len(args))
        if len(args) == 1:
            lb, ub, step = 0, args[0], 1
        elif len(args) == 2:
            lb, ub, step = args[0], args[1], 1
        else:
            lb, ub, step = args
        self.scf_for(node, lb, ub, step, loop_attrs)

    def unrolled_for(self, node, iterable):
        try:
            items = list(iterable)
        except TypeError:
            raise self.error(node.iter, "cannot iterate over %r in a kernel"
                             % (iterable,))
        for item in items:
            self.assign(node.target, item if not isinstance(
                item, (int, float, bool)) else constexpr(item))
            self.visit_statements(node.body)

    def scf_for(self, node, lb, ub, step, loop_attrs):
        sem = self.semantic
        raw_step = _unwrap(step)
        if isinstance(raw_step, int) and raw_step <= 0:
            if raw_step == 0:
                raise self.error(node.iter, "range() arg 3 must not be zero")
            return self.negative_step_for(node, lb, ub, raw_step, loop_attrs)
        bounds = [sem.to_tensor(b) for b in (lb, ub, step)]
        for b in bounds:
            if b.type.is_block() or not b.type.scalar.is_int():
                raise self.error(node.iter, "for loop bounds must be integer "
                                 "scalars, got %s" % b.type)
        iv_ty = tl.int32
        for b in bounds:
            if b.type.scalar.int_bitwidth > 32:
                iv_ty = tl.int64
        bounds = [sem.cast(b, iv_ty) if b.type.scalar.int_bitwidth !=
                  iv_ty.int_bitwidth or b.type.scalar != iv_ty else b
                  for b in bounds]
        self.loop(node, "for", bounds, loop_attrs, iv_ty)

    def negative_step_for(self, node, lb, ub, step, loop_attrs):
        # for i in range(lb, ub, -s): trip count max(0, ceil((lb - ub) / s)),
        # i = lb - k * s for k in [0, trips).
        sem = self.semantic
        lb_t, ub_t = sem.to_tensor(lb), sem.to_tensor(ub)
        lb_t, ub_t = sem.binary_op_type_checking_impl(lb_t, ub_t)
        ty = lb_t.type.scalar
        s = -step
        diff = sem.sub(lb_t, ub_t)
        trips = sem.floordiv(sem.add(diff, s - 1), s)
        zero = sem.constant(0, ty)
        trips = sem.where(sem.greater_than(trips, zero), trips, zero)
        bounds = [zero, trips, sem.constant(1, ty)]
        self.loop(node, "for", bounds, loop_attrs, ty,
                  transform_iv=lambda k: sem.sub(lb_t, sem.mul(k, s)))

    def loop(self, node, kind, bounds, loop_attrs, iv_ty,
             transform_iv=None):
        names = self.carried_names(node.body)
        inits = []
        templates = []
        for name in names:
            value = self.as_carried(self.scope[name], None, name, node)
            templates.append(value)
            inits.extend(_flatten(value))
        arg_types = [iv_ty.to_ir()] + [v.type.to_ir() for v in inits]
        block = self.builder.new_block(arg_types)
        before = dict(self.scope)
        with self.builder.at(block):
            iv = tensor(block.args[0], iv_ty)
            if transform_iv is not None:
                iv = transform_iv(iv)
            carried = [tensor(h, v.type) for h, v in
                       zip(block.args[1:], inits)]
            offset = 0
            for name, template in zip(names, templates):
                n = len(_flatten(template))
                self.scope[name] = _unflatten(template,
                                              carried[offset:offset + n])
                offset += n
            self.assign(node.target, iv)
            self.visit_statements(node.body)
            yields = self.loop_yields(node, names, templates)
            self.builder.op("scf.yield", [v.handle for v in yields], [],
                            terminator=True)
        self.scope = before
        results = self.builder.op(
            "scf.for", [b.handle for b in bounds] + [v.handle for v in inits],
            [v.type.to_ir() for v in inits], regions=[[block]],
            attrs=loop_attrs or None)
        self.bind_results(names, templates, results, inits)

    def loop_yields(self, node, names, templates):
        yields = []
        for name, template in zip(names, templates):
            value = self.scope.get(name)
            value = self.as_carried(value, template, name, node)
            if isinstance(template, tensor) and isinstance(value, tensor) \
                    and value.type != template.type:
                raise self.error(
                    node, "Loop-carried variable %s has initial type %s but "
                    "is re-assigned to %s in loop! Please make sure that "
                    "the type stays consistent." %
                    (name, template.type, value.type))
            value = self.match_type(value, template, name, node,
                                    "the loop's start", "its end")
            yields.extend(_flatten(value))
        return yields

    def bind_results(self, names, templates, results, inits):
        values = [tensor(h, v.type) for h, v in zip(results, inits)]
        offset = 0
        for name, template in zip(names, templates):
            n = len(_flatten(template))
            self.scope[name] = _unflatten(template, values[offset:offset + n])
            offset += n

    def visit_While(self, node):
        if node.orelse:
            raise self.error(node, "while ... else is not supported",
                             UnsupportedLanguageConstruct)
        names = self.carried_names(node.body)
        inits, templates = [], []
        for name in names:
            value = self.as_carried(self.scope[name], None, name, node)
            templates.append(value)
            inits.extend(_flatten(value))
        types = [v.type.to_ir() for v in inits]
        before = dict(self.scope)

        def bind(block):
            carried = [tensor(h, v.type) for h, v in zip(block.args, inits)]
            offset = 0
            for name, template in zip(names, templates):
                n = len(_flatten(template))
                self.scope[name] = _unflatten(template,
                                              carried[offset:offset + n])
                offset += n
            return carried

        cond_block = self.builder.new_block(types)
        with self.builder.at(cond_block):
            carried = bind(cond_block)
            cond = self.visit(node.test)
            if _is_compile_time(cond):
                cond = self.semantic.to_tensor(bool(_unwrap(cond)))
            cond = self.scalar_condition(cond, node.test)
            self.builder.op("scf.condition",
                            [cond.handle] + [v.handle for v in carried], [],
                            terminator=True)
        self.scope = dict(before)
        body_block = self.builder.new_block(types)
        with self.builder.at(body_block):
            bind(body_block)
            self.visit_statements(node.body)
            yields = self.loop_yields(node, names, templates)
            self.builder.op("scf.yield", [v.handle for v in yields], [],
                            terminator=True)
        self.scope = before
        results = self.builder.op("scf.while", [v.handle for v in inits],
                                  types, regions=[[cond_block], [body_block]])
        self.bind_results(names, templates, results, inits)

    # -- expressions -------------------------------------------------------------

    def visit_Constant(self, node):
        return constexpr(node.value)

    def visit_Name(self, node):
        return self.lookup(node.id, node)

    def visit_Tuple(self, node):
        return tuple(self.visit(e) for e in node.elts)

    def visit_List(self, node):
        return [self.visit(e) for e in node.elts]

    def visit_Dict(self, node):
        return {_unwrap(self.visit(k)): self.visit(v)
                for k, v in zip(node.keys, node.values)}

    def visit_JoinedStr(self, node):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            else:
                v = self.visit(value.value)
                if not _is_compile_time(v):
                    raise self.error(value, "f-strings can only format "
                                     "constexpr values, got a tensor")
                spec = ""
                if value.format_spec is not None:
                    spec = _unwrap(self.visit(value.format_spec))
                parts.append(format(_unwrap(v), spec))
        return constexpr("".join(parts))

    def visit_FormattedValue(self, node):
        return self.visit(node.value)

    def visit_Attribute(self, node):
        base = self.visit(node.value)
        if isinstance(base, tensor) and node.attr == "T":
            trans = getattr(tl, "trans", None)
            if trans is not None:
                return self.call_function(trans, [base], {}, node)
        obj = _unwrap(base)
        try:
            return getattr(obj if not isinstance(base, tensor) else base,
                           node.attr)
        except AttributeError:
            raise self.error(node, "'%s' object has no attribute '%s'" %
                             (type(obj).__name__, node.attr))

    def visit_Subscript(self, node):
        value = self.visit(node.value)
        index = self.visit(node.slice)
        if isinstance(value, tensor):
            # A value of a plugin type indexes the way its type says
            # (`buffers[i]` of a TLX allocation).
            getitem = getattr(value.type, "__tpx_getitem__", None)
            if getitem is not None:
                return getitem(value, index, _semantic=self.semantic,
                               _generator=self)
            return self.index_tensor(value, index, node)
        raw = _unwrap(value)
        getitem = getattr(raw, "__tpx_getitem__", None)
        if getitem is not None:
            return getitem(index, _semantic=self.semantic)
        idx = _unwrap(index)
        if isinstance(idx, tensor):
            raise self.error(node.slice, "a tuple can only be indexed by a "
                             "constexpr")
        return raw[idx]

    def visit_Slice(self, node):
        lower = _unwrap(self.visit(node.lower)) if node.lower else None
        upper = _unwrap(self.visit(node.upper)) if node.upper else None
        step = _unwrap(self.visit(node.step)) if node.step else None
        return slice(lower, upper, step)

    def index_tensor(self, value, index, node):
        index = _unwrap(index)
        items = index if isinstance(index, tuple) else (index,)
        sem = self.semantic
        result = value
        axis = 0
        for item in items:
            item = _unwrap(item)
            if item is None:
                result = sem.expand_dims(result, axis)
                axis += 1
            elif isinstance(item, slice) and item == slice(None):
                axis += 1
            else:
                raise self.error(node.slice, "unsupported tensor index: %r "
                                 "(only None and : are supported)" % (item,))
        return result

    def visit_BinOp(self, node):
        lhs = self.visit(node.left)
        rhs = self.visit(node.right)
        return self.binary(node.op, lhs, rhs, node)

    def binary(self, op, lhs, rhs, node):
        method, dunder = _BINOPS[type(op)]
        if _is_compile_time(lhs) and _is_compile_time(rhs):
            a, b = _unwrap(lhs), _unwrap(rhs)
            return constexpr(_PY_OPS[type(op)](a, b))
        for operand, reflected in ((lhs, False), (rhs, True)):
            custom = getattr(type(_unwrap(operand)), "__tpx_binary__", None)
            if custom is not None:
                return custom(_unwrap(lhs), _unwrap(rhs), dunder,
                              _semantic=self.semantic)
        if method is None:
            if dunder == "__pow__":
                raise self.error(node, "`**` on tensors is not supported; "
                                 "use tl.math.pow / libdevice.pow")
            raise self.error(node, "`@` on tensors is not supported; use "
                             "tl.dot")
        if isinstance(op, ast.RShift):
            a = lhs if isinstance(lhs, tensor) else rhs
            if a.type.scalar.is_int_unsigned():
                method = "lshr"
        return getattr(self.semantic, method)(lhs, rhs)

    def visit_UnaryOp(self, node):
        operand = self.visit(node.operand)
        if _is_compile_time(operand):
            v = _unwrap(operand)
            ops = {ast.USub: lambda x: -x, ast.UAdd: lambda x: +x,
                   ast.Not: lambda x: not x, ast.Invert: lambda x: ~x}
            return constexpr(ops[type(node.op)](v))
        if isinstance(node.op, ast.USub):
            return self.semantic.minus(operand)
        if isinstance(node.op, ast.UAdd):
            return operand
        if isinstance(node.op, ast.Not):
            return self.semantic.not_(operand)
        return self.semantic.invert(operand)

    def visit_Compare(self, node):
        left = self.visit(node.left)
        result = None
        for op, right_node in zip(node.ops, node.comparators):
            right = self.visit(right_node)
            value = self.compare(op, left, right, node)
            if result is None:
                result = value
            elif _is_compile_time(result) and _is_compile_time(value):
                result = constexpr(_unwrap(result) and _unwrap(value))
            else:
                result = self.semantic.logical_and(result, value)
            left = right
        return result

    def compare(self, op, lhs, rhs, node):
        if isinstance(op, (ast.Is, ast.IsNot)):
            # Identity is known when compiling: a tensor is never None (or
            # any other constant), so `ptr is not None` folds.
            same = _unwrap(lhs) is _unwrap(rhs)
            return constexpr(same if isinstance(op, ast.Is) else not same)
        if isinstance(op, (ast.In, ast.NotIn)):
            if not (_is_compile_time(lhs) and _is_compile_time(rhs)):
                raise self.error(node, "`in` only works on constexprs")
            inside = _unwrap(lhs) in _unwrap(rhs)
            return constexpr(inside if isinstance(op, ast.In) else not inside)
        if _is_compile_time(lhs) and _is_compile_time(rhs):
            return constexpr(_PY_CMP[type(op)](_unwrap(lhs), _unwrap(rhs)))
        return getattr(self.semantic, _CMPOPS[type(op)])(lhs, rhs)

    def visit_BoolOp(self, node):
        # Short-circuits on constexprs, as Python does; tensors combine with
        # logical and/or (both sides are evaluated).
        result = self.visit(node.values[0])
        for value_node in node.values[1:]:
            if _is_compile_time(result):
                truth = bool(_unwrap(result))
                if isinstance(node.op, ast.And) and not truth:
                    return result
                if isinstance(node.op, ast.Or) and truth:
                    return result
                result = self.visit(value_node)
                continue
            rhs = self.visit(value_node)
            if isinstance(node.op, ast.And):
                result = self.semantic.logical_and(result, rhs)
            else:
                result = self.semantic.logical_or(result, rhs)
        return result

    def visit_Call(self, node):
        fn = self.visit(node.func)
        args = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                args.extend(_unwrap(self.visit(a.value)))
            else:
                args.append(self.visit(a))
        kwargs = {}
        for k in node.keywords:
            if k.arg is None:
                kwargs.update(_unwrap(self.visit(k.value)))
            else:
                kwargs[k.arg] = self.visit(k.value)
        must_use = getattr(_unwrap(fn), "_must_use_result", False)
        if must_use and getattr(node, "_tpx_unused", False):
            message = "The result of %s is not being used." % \
                ast.unparse(node.func)
            if isinstance(must_use, str):
                message += " " + must_use
            raise self.error(node, message)
        return self.call_function(fn, args, kwargs, node)

    def call_function(self, fn, args, kwargs, node):
        from tpx.runtime.jit import JITFunction
        fn = _unwrap(fn)
        if isinstance(fn, JITFunction):
            return self.call_jit(fn, args, kwargs, node)
        func = getattr(fn, "__func__", fn)
        if core.is_builtin(func):
            extra = {"_semantic": self.semantic}
            if getattr(func, "__tpx_needs_generator__", False):
                extra["_generator"] = self
            return fn(*args, **kwargs, **extra)
        if fn in _PY_BUILTIN_IMPLS:
            return _PY_BUILTIN_IMPLS[fn](self, node, *args, **kwargs)
        if any(isinstance(a, tensor) for a in _flatten(args)) or any(
                isinstance(v, tensor) for v in kwargs.values()):
            raise self.error(node, "%s is not a tpx.language function and "
                             "cannot take tensors (is it missing @tpx.jit?)"
                             % getattr(fn, "__name__", repr(fn)))
        result = fn(*[_unwrap(a) for a in args],
                    **{k: _unwrap(v) for k, v in kwargs.items()})
        if isinstance(result, (int, float, bool, str)) or result is None:
            return constexpr(result)
        return result

    # -- calls of @jit functions ------------------------------------------------

    def call_jit(self, callee, args, kwargs, node):
        params = callee.params
        bound = {}
        if len(args) > len(params):
            raise self.error(node, "%s() takes %d arguments but %d were "
                             "given" % (callee.__name__, len(params),
                                        len(args)))
        for p, a in zip(params, args):
            bound[p.name] = a
        for k, v in kwargs.items():
            if k not in callee.arg_names:
                raise self.error(node, "%s() got an unexpected keyword "
                                 "argument '%s'" % (callee.__name__, k))
            if k in bound:
                raise self.error(node, "%s() got multiple values for "
                                 "argument '%s'" % (callee.__name__, k))
            bound[k] = v
        for p in params:
            if p.name not in bound:
                if not p.has_default:
                    raise self.error(node, "%s() missing argument '%s'" %
                                     (callee.__name__, p.name))
                bound[p.name] = constexpr(p.default) if isinstance(
                    p.default, (int, float, bool, str, type(None))) \
                    else p.default
        # As in Triton, a called function is specialized by the values it
        # is given: a `tl.constexpr` annotation matters only on a kernel's
        # own parameters (06-fused-attention passes tensors and run-time
        # values to annotated parameters of its helpers).
        values = [bound[p.name] for p in params]
        return generate_call(self, callee, values, node)


def _spec_key_part(value):
    if isinstance(value, tensor):
        return ("t", value.type.to_ir())
    if isinstance(value, (tuple, list)):
        return (type(value).__name__,) + tuple(_spec_key_part(v)
                                               for v in value)
    raw = _unwrap(value)
    try:
        hash(raw)
        return ("c", type(raw).__name__, raw)
    except TypeError:
        # By identity: the module keeps the object alive (call_values), so
        # that its id is not reused by another value of a later call.
        return ("c", type(raw).__name__, id(raw))


def generate_call(caller, callee, values, node):
    """Emits (once per specialization) the callee's tt.func and a tt.call."""
    module = caller.module
    key = (callee, tuple(_spec_key_part(v) for v in values))
    module.call_values.append(values)
    if key not in module.functions:
        digest = hashlib.sha1(repr(key[1]).encode()).hexdigest()[:8]
        symbol = "%s__%s" % (callee.__name__, digest)
        module.functions[key] = None  # recursion guard
        module.functions[key] = emit_function(module, callee, values, symbol,
                                              visibility="private")
    spec = module.functions[key]
    if spec is None:
        raise caller.error(node, "recursive calls of %s are not supported" %
                           callee.__name__)
    symbol, result_template = spec
    operands = [v for v in _flatten(values) if isinstance(v, tensor)]
    flat_results = [v for v in _flatten(result_template)
                    if isinstance(v, tensor)]
    handles = caller.builder.op(
        "tt.call", [v.handle for v in operands],
        [v.type.to_ir() for v in flat_results],
        props={"callee": Raw("@" + symbol)})
    results = [tensor(h, v.type) for h, v in zip(handles, flat_results)]
    return _unflatten(result_template, results) if result_template \
        is not None else None


def _param_loc(module, fn_gen, name, def_node):
    inner = fn_gen.loc_of(def_node)
    if inner.startswith("loc(") and inner.endswith(")"):
        inner = inner[4:-1]
    return 'loc("%s"(%s))' % (name, inner)


def emit_function(module, jit_fn, values, symbol, visibility,
                  arg_attrs=None):
    """Compiles `jit_fn` for argument `values` (tensors give the parameter
    types, anything else is folded in) into a tt.func named `symbol`.
    Returns (symbol, result template)."""
    tree = ast.parse(jit_fn.src)
    fn_def = tree.body[0]
    line_offset = jit_fn._decorator_offset
    gen = FunctionGenerator(module, jit_fn, {}, line_offset)
    flat = []
    for v in values:
        flat.extend(v for v in _flatten(v) if isinstance(v, tensor))
    arg_locs = []
    for p, v in zip(jit_fn.params, values):
        for _ in [t for t in _flatten(v) if isinstance(t, tensor)]:
            arg_locs.append(_param_loc(module, gen, p.name, fn_def))
    block = module.builder.new_block([v.type.to_ir() for v in flat],
                                     arg_locs)
    gen.entry_block = block
    gen.return_blocks = {block}
    args = iter(block.args)
    for p, v in zip(jit_fn.params, values):
        if isinstance(v, tensor) or (isinstance(v, (tuple, list)) and
                                     not _is_compile_time(v)):
            tmpl = v
            leaves = [tensor(next(args), t.type) for t in _flatten(v)
                      if isinstance(t, tensor)]
            bind = getattr(v, "__tpx_bind_parameter__", None)
            if bind is not None:
                # A parameter whose arguments are rebuilt into its value by
                # ops at the top of the function (a host tensor descriptor).
                with module.builder.at(block), \
                        module.builder.location(gen.loc_of(fn_def)):
                    gen.scope[p.name] = bind(leaves, _semantic=gen.semantic)
                continue
            gen.scope[p.name] = _unflatten(tmpl, leaves)
        else:
            gen.scope[p.name] = v if not isinstance(
                _unwrap(v), (int, float, bool, str, type(None))) or \
                isinstance(v, constexpr) else constexpr(v)
    gen.entry_block = block
    gen.return_blocks = {block}
    with module.builder.at(block), \
            module.builder.location(gen.loc_of(fn_def)):
        gen.visit_statements(fn_def.body)
        if not module.builder.block.terminated:
            if gen.has_return and any(isinstance(v, tensor) for v in
                                      _flatten(gen.returns)):
                raise gen.error(fn_def, "%s: not every path returns a "
                                "value" % jit_fn.__name__)
            module.builder.op("tt.return", [], [], terminator=True)
    template = gen.returns
    if visibility == "public" and template is not None and any(
            isinstance(v, tensor) for v in _flatten(template)):
        raise gen.error(fn_def, "a kernel cannot return a value")
    result_types = [v.type.to_ir() for v in _flatten(template)
                    if isinstance(v, tensor)]
    module.builder.add_function(symbol, block, result_types,
                                visibility,
                                arg_attrs=arg_attrs,
                                noinline=jit_fn.noinline,
                                loc=gen.loc_of(fn_def))
    return symbol, template


# -- Python builtins inside kernels --------------------------------------------

import operator as _operator

_PY_OPS = {
    ast.Add: _operator.add, ast.Sub: _operator.sub, ast.Mult: _operator.mul,
    ast.Div: _operator.truediv, ast.FloorDiv: _operator.floordiv,
    ast.Mod: _operator.mod, ast.BitAnd: _operator.and_,
    ast.BitOr: _operator.or_, ast.BitXor: _operator.xor,
    ast.LShift: _operator.lshift, ast.RShift: _operator.rshift,
    ast.Pow: _operator.pow, ast.MatMult: _operator.matmul,
}
_PY_CMP = {
    ast.Lt: _operator.lt, ast.LtE: _operator.le, ast.Gt: _operator.gt,
    ast.GtE: _operator.ge, ast.Eq: _operator.eq, ast.NotEq: _operator.ne,
}


_PY_BUILTINS = {"range": builtins.range}


def _py_min_max(pick, name):
    def impl(gen, node, *args, **kwargs):
        values = args[0] if len(args) == 1 else args
        values = list(_unwrap(values)) if len(args) == 1 else list(values)
        if all(_is_compile_time(v) for v in values):
            return constexpr(pick(_unwrap(v) for v in values))
        fn = getattr(tl, "minimum" if name == "min" else "maximum", None)
        if fn is None:
            raise gen.error(node, "%s() of tensors needs tl.%s" % (
                name, "minimum" if name == "min" else "maximum"))
        result = values[0]
        for v in values[1:]:
            result = gen.call_function(fn, [result, v], {}, node)
        return result
    return impl


def _py_print(gen, node, *args, **kwargs):
    device_print = getattr(tl, "device_print", None)
    if device_print is None:
        raise gen.error(node, "print() in a kernel needs tl.device_print")
    prefix = ""
    rest = list(args)
    if rest and _is_compile_time(rest[0]) and isinstance(_unwrap(rest[0]),
                                                         str):
        prefix = _unwrap(rest.pop(0))
    return gen.call_function(device_print, [prefix] + rest, {}, node)


def _py_int(gen, node, x=0):
    if _is_compile_time(x):
        return constexpr(int(_unwrap(x)))
    return gen.semantic.cast(x, tl.int32)


def _py_float(gen, node, x=0.0):
    if _is_compile_time(x):
        return constexpr(float(_unwrap(x)))
    return gen.semantic.cast(x, tl.float32)


def _py_len(gen, node, x):
    if isinstance(x, tensor):
        if not x.type.is_block():
            raise gen.error(node, "len() of a scalar")
        return constexpr(x.type.shape[0])
    return constexpr(len(_unwrap(x)))


def _py_isinstance(gen, node, obj, classes):
    classes = _unwrap(classes)
    raw = obj if isinstance(obj, tensor) else _unwrap(obj)
    return constexpr(isinstance(raw, classes))


def _py_getattr(gen, node, obj, name, *default):
    raw = obj if isinstance(obj, tensor) else _unwrap(obj)
    return getattr(raw, _unwrap(name), *[_unwrap(d) for d in default])


def _py_tuple(gen, node, x=()):
    return tuple(_unwrap(x))


def _py_zip(gen, node, *xs):
    return tuple(zip(*[_unwrap(x) for x in xs]))


def _py_enumerate(gen, node, x, start=0):
    return tuple((constexpr(i), v) for i, v in enumerate(_unwrap(x),
                                                         _unwrap(start)))


def _py_abs(gen, node, x):
    if _is_compile_time(x):
        return constexpr(abs(_unwrap(x)))
    fn = getattr(tl, "abs", None)
    if fn is None:
        raise gen.error(node, "abs() of a tensor needs tl.abs")
    return gen.call_function(fn, [x], {}, node)


def _py_bool(gen, node, x=False):
    if _is_compile_time(x):
        return constexpr(bool(_unwrap(x)))
    return gen.semantic.cast(x, tl.int1)


_PY_BUILTIN_IMPLS = {
    builtins.min: _py_min_max(min, "min"),
    builtins.max: _py_min_max(max, "max"),
    builtins.print: _py_print,
    builtins.int: _py_int,
    builtins.float: _py_float,
    builtins.bool: _py_bool,
    builtins.len: _py_len,
    builtins.isinstance: _py_isinstance,
    builtins.getattr: _py_getattr,
    builtins.tuple: _py_tuple,
    builtins.zip: _py_zip,
    builtins.enumerate: _py_enumerate,
    builtins.abs: _py_abs,
}
