"""tpx.language.extra: language namespaces contributed by plugins.

For every loaded plugin (tpx.load_plugin, $TRITON_PLUGIN_PATHS) two modules
appear, named by the plugin's `module_name` (its name with `-`/`.` -> `_`):

- `tpx.language.extra.<name>_ops`: one kernel-language function per DSL op
  the plugin declares, `scaled_add(x, y, alpha=0.5)`: operands are
  positional (tensors or Python numbers), keyword attributes are keyword
  arguments (compile-time constants). The call builds the op through the
  C API (tpxBuildDslOpFunction) as a private `tt.func` that is pasted into
  the kernel's module once per distinct (op, operand types, keywords) and
  called with `tt.call`; the `ttir` stage's `inline` pass inlines it.
- `tpx.language.extra.<name>`: the plugin's own Python module when it
  ships one beside its library (`<dir>/<name>.py` or the package
  `<dir>/<name>/__init__.py`, `<dir>` the directory of the plugin's
  `.so`); otherwise the same object as `<name>_ops`.

All of `tpx.language.extra.<name>`, `from tpx.language.extra import <name>`
and `import tpx.language.extra.<name>` work: the modules are registered in
sys.modules when the plugin is loaded, and a meta-path finder creates them
for plugins loaded through the C API behind the package's back.

A plugin that ships with tpx (TLX) is loaded on first use of its name:
`import tpx.language.extra.tlx` loads `<bundled>/tlx/*.so` (see
tpx._capi.bundled_plugin_dirs) when no loaded plugin provides `tlx` yet.
"""

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import inspect
import os
import sys
import threading
import types
import warnings

from tpx.bracket_text import find_closing, split_top_level
from tpx.language import core
from tpx.language.core import constexpr, tensor

_PREFIX = __name__ + "."
_lock = threading.RLock()
_registered = {}        # module name -> Plugin
# (op, operand types, keywords) -> (symbol, function text, result types):
# plugins are never unloaded, so a built function stays valid.
_built = {}


# -- MLIR type text -> language types -----------------------------------------

_SCALARS = {
    "i1": core.int1, "i8": core.int8, "i16": core.int16, "i32": core.int32,
    "i64": core.int64, "f16": core.float16, "bf16": core.bfloat16,
    "f32": core.float32, "f64": core.float64,
    "f8E4M3B11FNUZ": core.float8e4b15, "f8E4M3FN": core.float8e4nv,
    "f8E4M3FNUZ": core.float8e4b8, "f8E5M2": core.float8e5,
    "f8E5M2FNUZ": core.float8e5b16,
}


class mlir_type(core.dtype):
    """A value type tpx.language has no name for (a plugin dialect's type,
    a tensor with an encoding, ...), kept as MLIR text. Values of it come
    from DSL ops and can be passed to DSL ops, stored in Python objects and
    carried through control flow; tl arithmetic on them is a TypeError."""

    def __init__(self, text):
        self.name = text
        self.primitive_bitwidth = 0

    def to_ir(self, builder=None):
        return self.name

    def is_floating(self):
        return False

    def is_int(self):
        return False

    def is_bool(self):
        return False

    def kind(self):
        return 4

    def __eq__(self, other):
        other = other.value if isinstance(other, constexpr) else other
        return isinstance(other, mlir_type) and other.name == self.name

    def __hash__(self):
        return hash(("mlir_type", self.name))

    def __str__(self):
        return self.name

    def __repr__(self):
        return "mlir_type(%r)" % self.name


def _parse_tensor(body):
    shape = []
    while True:
        digits = ""
        while body and body[0].isdigit():
            digits, body = digits + body[0], body[1:]
        if digits and body.startswith("x"):
            shape.append(int(digits))
            body = body[1:]
            continue
        return shape, digits + body


def _known_type(text):
    if text in _SCALARS:
        return _SCALARS[text]
    if text.startswith("!tt.ptr<") and text.endswith(">"):
        inner = split_top_level(text[len("!tt.ptr<"):-1])
        element = _known_type(inner[0])
        if element is None or len(inner) > 2 or element.is_block():
            return None
        space = int(inner[1]) if len(inner) == 2 else 1
        return core.pointer_type(element, space)
    if text.startswith("tensor<") and text.endswith(">"):
        parts = split_top_level(text[len("tensor<"):-1])
        if len(parts) != 1:            # an encoding
            return None
        shape, element_text = _parse_tensor(parts[0])
        element = _known_type(element_text)
        if not shape or element is None or element.is_block():
            return None                # tensor<f32> is no tl scalar
        return core.block_type(element, shape)
    return None


def type_from_mlir(text):
    """`tensor<16x!tt.ptr<f32>>`, `f32`, `!tt.ptr<f16, 3>` -> language type;
    any other type -> mlir_type(text). Integers come back signed: MLIR's
    integer types carry no signedness."""
    text = text.strip()
    try:
        known = _known_type(text)
    except (ValueError, TypeError):     # e.g. a bad address space
        known = None
    return known if known is not None else mlir_type(text)


def function_signature(text, symbol):
    """(argument types, result types) of `tt.func ... @symbol(...)` in
    `text`, as MLIR type strings."""
    marker = "@%s(" % symbol
    start = text.find(marker)
    if start < 0:
        raise ValueError("the DSL op's function text has no @%s" % symbol)
    open_index = start + len(marker) - 1
    close = _closing_paren(text, open_index)
    args = []
    for arg in split_top_level(text[open_index + 1:close]):
        if not arg:
            continue
        _, _, rest = arg.partition(":")
        args.append(_strip_type(rest))
    rest = text[close + 1:].lstrip()
    results = []
    if rest.startswith("->"):
        rest = rest[2:].lstrip()
        if rest.startswith("("):
            end = _closing_paren(rest, 0)
            results = [_strip_type(r) for r in
                       split_top_level(rest[1:end]) if r]
        else:
            results = [_strip_type(_first_type(rest))]
    return args, results


def _closing_paren(text, open_index):
    close = find_closing(text, open_index)
    if close < 0:
        raise ValueError("unbalanced parentheses in the DSL op's function "
                         "text")
    return close


def _first_type(text):
    """The type at the start of `text` (up to a space or `{` at depth 0)."""
    depth = 0
    for i, c in enumerate(text):
        if c in "<([":
            depth += 1
        elif c in ">)]":
            depth -= 1
        elif depth == 0 and (c.isspace() or c == "{"):
            return text[:i]
    return text


def _strip_type(text):
    """A type without attributes (`{...}`) or location (`loc(...)`)."""
    return _first_type(text.strip())


# -- DSL op functions ---------------------------------------------------------

def _identifier(name):
    out = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
    return out if out and not out[0].isdigit() else "_" + out


def _keyword_value(op, keyword, value):
    """A Python value -> (kind, value) for TpxKeywordArg, checked against
    the keyword's declared kind."""
    from tpx import _capi
    raw = value.value if isinstance(value, constexpr) else value
    if isinstance(raw, tensor):
        raise TypeError("%s(): keyword '%s' must be a compile-time constant "
                        "(a constexpr), got a tensor" % (op.name,
                                                         keyword.name))
    kind = keyword.kind
    ok = {
        _capi.KIND_INT: isinstance(raw, int) and not isinstance(raw, bool),
        _capi.KIND_FLOAT: isinstance(raw, (int, float)) and
        not isinstance(raw, bool),
        _capi.KIND_BOOL: isinstance(raw, bool),
        _capi.KIND_STRING: isinstance(raw, str),
        _capi.KIND_TYPE: isinstance(raw, (str, core.dtype)),
    }.get(kind, False)
    if not ok:
        raise TypeError("%s(): keyword '%s' must be %s, got %s %r" % (
            op.name, keyword.name, {
                _capi.KIND_INT: "an int", _capi.KIND_FLOAT: "a float",
                _capi.KIND_BOOL: "a bool", _capi.KIND_STRING: "a str",
                _capi.KIND_TYPE: "a dtype (e.g. tl.float32) or MLIR type "
                                 "text"}.get(kind, "?"),
            type(raw).__name__, raw))
    if kind == _capi.KIND_FLOAT:
        raw = float(raw)
    if kind == _capi.KIND_TYPE and isinstance(raw, core.dtype):
        raw = raw.to_ir()
    return kind, raw


def _operand(op, index, value, semantic):
    if isinstance(value, tensor):
        return value
    raw = value.value if isinstance(value, constexpr) else value
    if isinstance(raw, (bool, int, float)):
        return semantic.to_tensor(raw)
    raise TypeError("%s(): operand %d must be a tensor or a number, got %r"
                    % (op.name, index, raw))


def call_dsl_op(op, args, kwargs, semantic, generator):
    """Emits a call of DSL op `op` (plugins.DslOp); returns its result (a
    tensor, a tuple of tensors for several results, None for none)."""
    from tpx import plugins
    from tpx.compiler.ir import Raw
    if op.num_operands >= 0 and len(args) != op.num_operands:
        raise TypeError("%s() takes %d operand%s but %d %s given" % (
            op.name, op.num_operands, "" if op.num_operands == 1 else "s",
            len(args), "was" if len(args) == 1 else "were"))
    operands = [_operand(op, i, a, semantic) for i, a in enumerate(args)]
    keywords = []
    for name, value in kwargs.items():
        declared = op.keyword(name)
        if declared is None:
            raise TypeError("%s() got an unexpected keyword argument '%s'"
                            " (keywords: %s)" % (op.name, name, ", ".join(
                                k.name for k in op.keywords) or "none"))
        keywords.append((name,) + _keyword_value(op, declared, value))
    for declared in op.keywords:
        if declared.name in kwargs:
            continue
        if declared.required:
            raise TypeError("%s() missing required keyword argument '%s'" %
                            (op.name, declared.name))
        # Defaults filled in here make equal calls share one function.
        keywords.append((declared.name, declared.kind, declared.default))
    types_ = tuple(o.type.to_ir() for o in operands)
    key = (op.name, types_, tuple(sorted(keywords)))
    module = generator.module
    cache = module.__dict__.setdefault("_tpx_dsl_functions", {})
    if key not in cache:
        built = _built.get(key)
        if built is None:
            digest = hashlib.sha1(repr(key).encode()).hexdigest()[:10]
            symbol = "__tpx_dsl_%s_%s" % (_identifier(op.name), digest)
            # Built with an unknown location: after inlining, the ops carry
            # the location of the call site they were inlined into, so one
            # function serves every call site (and every compile).
            text = plugins.build_dsl_function(op.name, types_, keywords,
                                              symbol)
            _, results = function_signature(text, symbol)
            built = (symbol, text, [type_from_mlir(r) for r in results])
            with _lock:
                _built[key] = built
        symbol, text, result_types = built
        module.extra_text.append(text)
        cache[key] = (symbol, result_types)
    symbol, result_types = cache[key]
    handles = generator.builder.op(
        "tt.call", [o.handle for o in operands],
        [t.to_ir() for t in result_types], props={"callee": Raw("@" +
                                                              symbol)})
    values = [tensor(h, t) for h, t in zip(handles, result_types)]
    if not values:
        return None
    return values[0] if len(values) == 1 else tuple(values)


def dsl_function(op):
    """The kernel-language function of DSL op `op` (a plugins.DslOp)."""
    def fn(*args, _semantic=None, _generator=None, **kwargs):
        if _generator is None:
            raise ValueError("%s: DSL ops need the code generator (call "
                             "them inside a @tpx.jit function)" % op.name)
        try:
            return call_dsl_op(op, args, kwargs, _semantic, _generator)
        except ValueError as e:
            # The C API's message already names the op.
            raise _generator.error(_generator.current_node, str(e)) \
                from None

    fn.__name__ = fn.__qualname__ = _identifier(op.name)
    lines = [op.summary or op.name, "",
             "DSL op '%s' of plugin '%s'." % (op.name, op.plugin)]
    for k in op.keywords:
        lines.append("  %s (%s%s): %s" % (
            k.name, k.kind_name, ", required" if k.required else
            ", default %r" % (k.default,), k.description))
    fn.__doc__ = "\n".join(lines)
    wrapper = core.builtin(fn)
    wrapper.__tpx_needs_generator__ = True
    wrapper.dsl_op = op
    params = []
    if op.num_operands < 0:
        params.append(inspect.Parameter("operands",
                                        inspect.Parameter.VAR_POSITIONAL))
    else:
        params.extend(inspect.Parameter("x%d" % i,
                                        inspect.Parameter.POSITIONAL_ONLY)
                      for i in range(op.num_operands))
    for k in op.keywords:
        params.append(inspect.Parameter(
            k.name, inspect.Parameter.KEYWORD_ONLY,
            default=inspect.Parameter.empty if k.required else k.default))
    wrapper.__signature__ = inspect.Signature(params)
    return wrapper


# -- the namespaces -----------------------------------------------------------

def _ops_module(plugin):
    module = types.ModuleType(_PREFIX + plugin.module_name + "_ops",
                              "DSL ops of the tpx plugin '%s' %s." %
                              (plugin.name, plugin.version))
    module.__tpx_plugin__ = plugin
    names = []
    for op in plugin.dsl_ops:
        name = _identifier(op.name)
        setattr(module, name, dsl_function(op))
        names.append(name)
    module.__all__ = names
    return module


def shipped_module_path(plugin):
    """The Python module the plugin ships beside its library, or None:
    `<dir>/<module_name>/__init__.py` (a package) before
    `<dir>/<module_name>.py`, as Python's own lookup orders them."""
    if not plugin.path:
        return None
    folder = os.path.dirname(plugin.path)
    package = os.path.join(folder, plugin.module_name, "__init__.py")
    if os.path.isfile(package):
        return package
    single = os.path.join(folder, plugin.module_name + ".py")
    return single if os.path.isfile(single) else None


def _import_shipped(name, path):
    is_package = os.path.basename(path) == "__init__.py"
    spec = importlib.util.spec_from_file_location(
        name, path, submodule_search_locations=[os.path.dirname(path)]
        if is_package else None)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def _publish(name, module):
    sys.modules[_PREFIX + name] = module
    setattr(sys.modules[__name__], name, module)


def _register(plugins):
    """Creates the namespaces of newly loaded plugins (tpx.plugins calls
    this). A shipped module that fails to import raises after the raw ops
    namespace was published."""
    failure = None
    with _lock:
        for plugin in plugins:
            name = plugin.module_name
            if name in _registered:
                continue
            _registered[name] = plugin
            ops = _ops_module(plugin)
            for taken in (name, name + "_ops"):
                owner = _owner(taken, plugin)
                if owner is not None:
                    warnings.warn(
                        "plugin '%s': tpx.language.extra.%s is already "
                        "taken by %s" % (plugin.name, taken, owner))
            _publish(name + "_ops", ops)
            if _is_real_submodule(name):
                continue
            _publish(name, ops)
            path = shipped_module_path(plugin)
            if path is None:
                continue
            try:
                _publish(name, _import_shipped(_PREFIX + name, path))
            except Exception as e:      # noqa: BLE001 - re-raised below
                if failure is None:
                    failure = ImportError(
                        "plugin '%s': its Python module %s failed to import:"
                        " %s: %s" % (plugin.name, path, type(e).__name__, e))
                    failure.__cause__ = e
    if failure is not None:
        raise failure


def _is_real_submodule(name):
    """True for a module file of this package (libdevice.py, ...)."""
    for folder in __path__:
        if os.path.isfile(os.path.join(folder, name + ".py")) or \
                os.path.isdir(os.path.join(folder, name)):
            return True
    return False


def _owner(name, plugin):
    """Who else provides tpx.language.extra.<name>, or None."""
    for other_name, other in _registered.items():
        if other is not plugin and name in (other_name, other_name + "_ops"):
            return "plugin '%s'" % other.name
    if _is_real_submodule(name):
        return "the module file %s.py" % name
    return None


def _sync():
    from tpx import plugins
    try:
        plugins.loaded_plugins()
    except Exception:                   # noqa: BLE001 - no library: no names
        return False
    return True


def _load_bundled(name):
    """Loads the bundled plugin folder `name`, if tpx ships one; True when
    it now provides tpx.language.extra.<name>."""
    from tpx import _capi, plugins
    if not name.isidentifier() or name.endswith("_ops"):
        return False
    try:
        folders = [os.path.join(d, name) for d in _capi.bundled_plugin_dirs()]
    except Exception:                   # noqa: BLE001 - no library: none
        return False
    for folder in folders:
        if os.path.isdir(folder) and any(f.endswith(".so")
                                         for f in os.listdir(folder)):
            plugins.load_plugin(folder)
            _sync()
            return (_PREFIX + name) in sys.modules
    return False


def _known_names():
    return sorted(n for n in _registered)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    if _is_real_submodule(name):
        # `tl.extra.libdevice` works without importing it first, as in
        # Triton.
        return importlib.import_module(_PREFIX + name)
    _sync()
    module = sys.modules.get(_PREFIX + name)
    if module is None and _load_bundled(name):
        module = sys.modules.get(_PREFIX + name)
    if module is not None:
        return module
    raise AttributeError(
        "module 'tpx.language.extra' has no attribute '%s': no loaded plugin "
        "provides it (plugin namespaces: %s); load the plugin with "
        "tpx.load_plugin(path) or $TRITON_PLUGIN_PATHS" %
        (name, ", ".join(_known_names()) or "none"))


class _Finder(importlib.abc.MetaPathFinder):
    """Finds `tpx.language.extra.<plugin>` for plugins loaded after the
    last sync (e.g. through the C API directly)."""

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith(_PREFIX) or "." in fullname[len(
                _PREFIX):]:
            return None
        _sync()
        module = sys.modules.get(fullname)
        if module is None and _load_bundled(fullname[len(_PREFIX):]):
            module = sys.modules.get(fullname)
        if module is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Existing(module))


class _Existing(importlib.abc.Loader):
    def __init__(self, module):
        self.module = module

    def create_module(self, spec):
        return self.module

    def exec_module(self, module):
        pass


if not any(isinstance(f, _Finder) for f in sys.meta_path):
    sys.meta_path.append(_Finder())
