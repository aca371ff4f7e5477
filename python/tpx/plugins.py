"""Loading tpx plugins from Python and describing what they provide.

    tpx.load_plugin("/path/MyPlugin.so")     # or a directory of *.so
    for p in tpx.loaded_plugins():
        print(p.name, p.version, p.path, p.dsl_ops, p.extensions)

Plugins are loaded into the process through the C API (tpxLoadPlugin) and
stay loaded: the library has no unload. Loading the same file twice is a
no-op. `$TRITON_PLUGIN_PATHS` (a ':'-separated list of files and
directories) is loaded when `tpx` is imported; an entry that fails to load
gives a `PluginLoadWarning` with the C API's message and the other entries
still load, so a stale path never makes `import tpx` fail or crash
(`load_plugins_from_env()` loads the variable again and raises instead).

Every loaded plugin's DSL ops become kernel-language functions in
`tpx.language.extra.<module_name>` (see tpx/language/extra/__init__.py),
where `module_name` is the plugin's name with `-` and `.` turned into `_`
(`example-scaled-add` -> `example_scaled_add`).
"""

import ctypes
import os
import threading
import warnings

from tpx import _capi
from tpx.errors import TpxError

__all__ = ["Plugin", "DslOp", "Keyword", "PipelineExtension",
           "PluginLoadWarning", "load_plugin", "loaded_plugins",
           "load_plugins_from_env", "module_name", "find_dsl_op"]


class PluginLoadWarning(UserWarning):
    """A plugin named by $TRITON_PLUGIN_PATHS failed to load at import."""


# -- ctypes views of the parts of TpxPluginInfo that _capi leaves opaque ------

class _TpxPassInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("summary", ctypes.c_char_p),
        ("anchorOp", ctypes.c_char_p),
        ("options", ctypes.c_void_p),
        ("numOptions", ctypes.c_size_t),
        ("run", ctypes.c_void_p),
        ("userData", ctypes.c_void_p),
        ("dependentDialects", ctypes.c_void_p),
        ("validateOptions", ctypes.c_void_p),
    ]


class _TpxDialectInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("registerDialect", ctypes.c_void_p),
        ("userData", ctypes.c_void_p),
    ]


def _text(raw):
    return raw.decode("utf-8", "replace") if raw is not None else ""


_KIND_NAMES = {
    _capi.KIND_INT: "int", _capi.KIND_FLOAT: "float",
    _capi.KIND_BOOL: "bool", _capi.KIND_STRING: "str",
    _capi.KIND_TYPE: "type",
}


class Keyword:
    """A keyword attribute of a DSL op (`alpha=0.5`)."""

    def __init__(self, info):
        self.name = _text(info.name)
        self.description = _text(info.description)
        self.required = bool(info.required)
        self.kind = info.defaultValue.kind
        self.default = None if self.required else \
            info.defaultValue.python_value()

    @property
    def kind_name(self):
        """"int", "float", "bool", "str" or "type"."""
        return _KIND_NAMES.get(self.kind, "kind %d" % self.kind)

    def __repr__(self):
        if self.required:
            return "Keyword(%s: %s, required)" % (self.name, self.kind_name)
        return "Keyword(%s: %s = %r)" % (self.name, self.kind_name,
                                         self.default)


class DslOp:
    """A DSL operation a plugin declares (TpxDslOpInfo)."""

    def __init__(self, info, plugin_name):
        self.name = _text(info.name)
        self.summary = _text(info.summary)
        self.num_operands = int(info.numOperands)   # -1: variadic
        self.keywords = [Keyword(info.keywords[i])
                         for i in range(info.numKeywords)]
        self.plugin = plugin_name

    def keyword(self, name):
        for k in self.keywords:
            if k.name == name:
                return k
        return None

    def __repr__(self):
        return "DslOp(%s, operands=%d, keywords=%r)" % (
            self.name, self.num_operands, [k.name for k in self.keywords])


class PipelineExtension:
    """A named pipeline edit (select it with @tpx.jit(pipeline=[name]))."""

    def __init__(self, name, summary, plugin_name):
        self.name = name
        self.summary = summary
        self.plugin = plugin_name

    def __repr__(self):
        return "PipelineExtension(%s)" % self.name


def module_name(plugin_name):
    """The Python module name of a plugin's namespace: `-` and `.` become
    `_`; a Python keyword gets a trailing `_`."""
    import keyword
    name = plugin_name.replace("-", "_").replace(".", "_")
    return name + "_" if keyword.iskeyword(name) else name


class Plugin:
    """One loaded plugin: its name, version, file and what it provides."""

    def __init__(self, index, info, path):
        self.index = index
        self.name = _text(info.name)
        self.version = _text(info.version)
        self.tpx_version = _text(info.tpxVersion)
        self.path = path            # None with a libtpx without the query
        self.module_name = module_name(self.name)
        passes = ctypes.cast(info.passes, ctypes.POINTER(_TpxPassInfo)) \
            if info.passes else None
        self.passes = [_text(passes[i].name) for i in range(info.numPasses)] \
            if passes else []
        dialects = ctypes.cast(info.dialects,
                               ctypes.POINTER(_TpxDialectInfo)) \
            if info.dialects else None
        self.dialects = [_text(dialects[i].name)
                         for i in range(info.numDialects)] if dialects else []
        self.dsl_ops = [DslOp(info.dslOps[i], self.name)
                        for i in range(info.numDslOps)]
        self.extensions = [
            PipelineExtension(_text(info.extensions[i].name),
                              _text(info.extensions[i].summary), self.name)
            for i in range(info.numExtensions)]

    def __repr__(self):
        return "Plugin(%s %s%s)" % (self.name, self.version,
                                    ", " + self.path if self.path else "")


# -- the registry mirror ------------------------------------------------------

_lock = threading.RLock()
_plugins = []          # Plugin, in load order (plugins are never unloaded)


def _refresh():
    """Reads plugins loaded since the last call (by us or through the C
    API directly) and gives them their language namespaces."""
    lib = _capi.library()
    with _lock:
        count = lib.tpxGetNumPlugins()
        if count == len(_plugins):
            return list(_plugins)
        path_of = lib.tpxGetPluginPath
        new = []
        for i in range(len(_plugins), count):
            info = lib.tpxGetPlugin(i)
            if not info:
                break
            path = path_of(i)
            plugin = Plugin(i, info.contents,
                            path.decode() if path else None)
            _plugins.append(plugin)
            new.append(plugin)
        snapshot = list(_plugins)
    from tpx.language import extra
    extra._register(new)
    return snapshot


def loaded_plugins():
    """Every loaded plugin (Plugin objects), in load order."""
    return _refresh()


def find_dsl_op(name):
    """The DslOp called `name` among the loaded plugins, or None."""
    for plugin in loaded_plugins():
        for op in plugin.dsl_ops:
            if op.name == name:
                return op
    return None


def _named_by(path, plugins):
    """The plugins whose file is `path`, or lies in the directory `path`."""
    real = os.path.realpath(path)
    if os.path.isdir(real):
        # The folder's *.so entries, links resolved as the C API does.
        files = {os.path.realpath(os.path.join(real, name))
                 for name in os.listdir(real) if name.endswith(".so")}
        return [p for p in plugins if p.path in files]
    return [p for p in plugins if p.path == real]


def load_plugin(path):
    """Loads a plugin file, or every `*.so` in a directory (by name).

    Returns the plugins `path` names (also when they were loaded before);
    with a libtpx that cannot report plugin paths, the plugins this call
    loaded. Raises TpxError with the C API's message ("<path>: <cause>")
    when loading fails; a plugin's shipped Python module that fails to
    import raises its exception (the plugin itself stays loaded).
    """
    path = os.fspath(path)
    lib = _capi.library()
    with _lock:
        _refresh()
        _capi.check(lib.tpxLoadPlugin, _capi.encode(path))
        plugins = _refresh()
    return _named_by(path, plugins)


def _env_entries():
    value = os.environ.get("TRITON_PLUGIN_PATHS", "")
    return [e for e in value.split(":") if e]


def load_plugins_from_env():
    """Loads $TRITON_PLUGIN_PATHS; raises TpxError for the first entry
    that fails (after trying the others). Returns the loaded plugins."""
    errors = []
    for entry in _env_entries():
        try:
            load_plugin(entry)
        except Exception as e:          # noqa: BLE001 - reported below
            errors.append(e)
    if errors:
        first = errors[0]
        if isinstance(first, TpxError):
            raise TpxError("TRITON_PLUGIN_PATHS: %s" % first) from first
        raise first
    return loaded_plugins() if _env_entries() else []


def _load_at_import():
    """What `import tpx` does: load $TRITON_PLUGIN_PATHS, warn on errors."""
    entries = _env_entries()
    if not entries:
        return
    for entry in entries:
        try:
            load_plugin(entry)
        except Exception as e:          # noqa: BLE001 - a warning, by design
            what = str(e) if isinstance(e, TpxError) else \
                "%s: %s" % (type(e).__name__, e)
            warnings.warn("TRITON_PLUGIN_PATHS: %s (import tpx goes on "
                          "without it)" % what, PluginLoadWarning,
                          stacklevel=3)


# -- DSL ops as functions -----------------------------------------------------

def build_dsl_function(op_name, operand_types, keywords, function_name,
                       location=None):
    """The text of `tt.func private @<function_name>(...)` wrapping one DSL
    op (tpxBuildDslOpFunction). `operand_types` are MLIR type texts,
    `keywords` (name, kind, value) triples. Raises ValueError with the C
    API's message when the op rejects the call."""
    fn = _capi.library().tpxBuildDslOpFunction
    types_ = (ctypes.c_char_p * max(1, len(operand_types)))(
        *[t.encode() for t in operand_types])
    args = (_capi.TpxKeywordArg * max(1, len(keywords)))()
    keep = []       # the encoded strings must outlive the call
    for i, (name, kind, value) in enumerate(keywords):
        encoded = name.encode()
        keep.append(encoded)
        args[i].name = encoded
        scalar = args[i].value
        scalar.kind = kind
        if kind == _capi.KIND_INT:
            scalar.intValue = value
        elif kind == _capi.KIND_FLOAT:
            scalar.floatValue = value
        elif kind == _capi.KIND_BOOL:
            scalar.boolValue = 1 if value else 0
        else:
            text = value.encode()
            keep.append(text)
            scalar.stringValue = text
    try:
        return _capi.get_string(
            fn, op_name.encode(), types_, len(operand_types), args,
            len(keywords), function_name.encode(), _capi.encode(location))
    except TpxError as e:
        raise ValueError(str(e)) from None
