"""Compile pipelines from Python: the text format, scopes, hooks, resolve().

A pipeline is the ordered list of named stages of one target (`ttir, llir,
obj` on the CPU), each a list of pass entries in MLIR pass-pipeline syntax
(docs/pipeline.md). This module mirrors the C++ `tpx::Pipeline`:

    p = Pipeline.effective("cpu")            # tpxGetPipelineText("cpu")
    p.insert_after("ttir", "cse", "my-pass{factor=2}")
    print(p)                                 # `# tpx pipeline target=cpu` ...

and decides which pipeline each kernel is compiled with:

- `@tpx.jit(pipeline=["ext", ...])`: pipeline extensions for that kernel;
- `with tpx.pipeline("ext", ...):` (also spelled
  `tpx.pipeline_extensions(...)`): extensions for every kernel compiled in
  the block, in this thread (a context variable);
- `tpx.set_pipeline_hook(fn)` / `tpx.unset_pipeline_hook()`: `fn(pipeline,
  kernel_name, target)` edits a `Pipeline` for every kernel compiled while
  it is set, in any thread.

The runtime calls `resolve(jit_fn, target)` once per compile; it returns
the pipeline text to pass as `pipelineText` to tpxCompileKernel (None: the
default pipeline, nothing customised) and a string for the kernel's cache
key that holds everything the pipeline depends on.

The module itself is callable: `tpx.pipeline("ext")` is
`pipeline_extensions("ext")`, so the same name serves as a namespace and as
the context manager the Triton-side issue asks for.
"""

import contextlib
import contextvars
import ctypes
import sys
import threading
import types

from tpx import _capi
from tpx.bracket_text import find_closing
from tpx.errors import CompilationError, TpxError

__all__ = [
    "PassEntry", "Stage", "Pipeline", "pipeline_extensions",
    "active_extensions", "set_pipeline_hook", "unset_pipeline_hook",
    "get_pipeline_hook", "extension_names", "resolve",
]

_NAME_CHARS = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")


class PassEntry:
    """One entry of a stage: `cse`, `tt-foo{factor=2}` or a nested
    pipeline `tt.func(canonicalize)`, kept as text pieces (pass names and
    options are checked by the compiler when it builds the pipeline)."""

    __slots__ = ("name", "options", "nested")

    def __init__(self, name, options="", nested=None):
        self.name = name
        self.options = options
        self.nested = nested      # the text inside (...) or None

    @classmethod
    def parse(cls, text):
        if isinstance(text, PassEntry):
            return text.copy()
        if not isinstance(text, str):
            raise TypeError("a pass entry is a str such as 'cse' or "
                            "'my-pass{factor=2}', got %r" % (text,))
        rest = text.strip()
        end = 0
        while end < len(rest) and rest[end] in _NAME_CHARS:
            end += 1
        if end == 0:
            raise ValueError("expected a pass name in '%s'" % text)
        entry = cls(rest[:end])
        rest = rest[end:].lstrip()
        if rest.startswith("{") or rest.startswith("("):
            close = find_closing(rest, 0)
            if close < 0:
                raise ValueError("unbalanced '%s' in pass entry '%s'" %
                                 (rest[0], text))
            inner = rest[1:close].strip()
            if rest[0] == "{":
                entry.options = inner
            else:
                entry.nested = inner
            rest = rest[close + 1:].lstrip()
        if rest:
            raise ValueError("unexpected '%s' after pass entry '%s'" %
                             (rest, entry.name))
        return entry

    @classmethod
    def parse_list(cls, text):
        """`a,b{x=1},tt.func(c)` -> entries (commas inside brackets and
        strings do not split)."""
        rest = text.strip()
        if rest.startswith(",") or rest.endswith(","):
            raise ValueError("empty pass entry in '%s'" % text)
        entries = []
        while rest:
            end = 0
            while end < len(rest) and rest[end] != ",":
                c = rest[end]
                if c in "({[\"":
                    close = rest.find('"', end + 1) if c == '"' else \
                        find_closing(rest, end)
                    if close < 0:
                        raise ValueError("unbalanced '%s' in '%s'" %
                                         (c, text))
                    end = close
                end += 1
            entries.append(cls.parse(rest[:end]))
            rest = rest[end + 1:].strip()
        return entries

    def copy(self):
        return PassEntry(self.name, self.options, self.nested)

    def __str__(self):
        if self.nested is not None:
            return "%s(%s)" % (self.name, self.nested)
        if not self.options:
            return self.name
        return "%s{%s}" % (self.name, self.options)

    def __repr__(self):
        return "PassEntry(%r)" % str(self)

    def __eq__(self, other):
        if isinstance(other, str):
            try:
                other = PassEntry.parse(other)
            except ValueError:
                return False
        return isinstance(other, PassEntry) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))


class Stage:
    """A named stage: the op its passes run on and its entries."""

    __slots__ = ("name", "anchor", "entries")

    def __init__(self, name, anchor="builtin.module", entries=()):
        self.name = name
        self.anchor = anchor
        self.entries = [PassEntry.parse(e) for e in entries]

    def find(self, name):
        """Index of the first entry whose pass name is `name`, or -1."""
        for i, entry in enumerate(self.entries):
            if entry.name == name:
                return i
        return -1

    def pipeline_string(self):
        """`builtin.module(cse,canonicalize)`, what MLIR parses."""
        return "%s(%s)" % (self.anchor,
                           ",".join(str(e) for e in self.entries))

    def copy(self):
        return Stage(self.name, self.anchor, self.entries)

    def __repr__(self):
        return "Stage(%s: %s)" % (self.name, self.pipeline_string())


class Pipeline:
    """A compile pipeline as data; the Python twin of `tpx::Pipeline`.

    Edits name a stage and, where needed, an anchor: the first entry of
    the stage with that pass name. A missing stage or anchor raises
    ValueError (naming what exists) and leaves the pipeline unchanged.
    """

    def __init__(self, target, stages=(), name=""):
        self.target = target
        # Which of the target's named pipelines this is ("simt",
        # "one-thread", "default"); "" when the text does not say.
        self.name = name
        self._stages = [s.copy() for s in stages]

    # -- text -----------------------------------------------------------------

    @classmethod
    def parse(cls, text):
        """Parses the text form (`# tpx pipeline target=<t>` then one
        `stage: anchor(entries)` line per stage; blank and other `#` lines
        are ignored). Errors name the line, as the C++ parser's do."""
        pipeline = cls(None)
        for number, raw in enumerate(text.split("\n"), 1):
            line = raw.strip()
            where = "pipeline text line %d: " % number
            if not line:
                continue
            if line.startswith("#"):
                line = line[1:].strip()
                prefix = "tpx pipeline target="
                if line.startswith(prefix):
                    target, _, rest = line[len(prefix):].strip().partition(" ")
                    rest = rest.strip()
                    if rest:
                        if not rest.startswith("pipeline=") or \
                                not rest[len("pipeline="):].strip() or \
                                " " in rest[len("pipeline="):].strip():
                            raise ValueError(
                                where + "expected '# tpx pipeline target=<t> "
                                "[pipeline=<name>]', got '%s'" % raw.strip())
                        pipeline.name = rest[len("pipeline="):].strip()
                    if not target:
                        raise ValueError(
                            where + "'# tpx pipeline target=' names no "
                            "target (write e.g. target=sm_90a, or drop the "
                            "line)")
                    pipeline.target = target
                continue
            name, colon, body = line.partition(":")
            name, body = name.strip(), body.strip()
            if not colon or not name or any(c not in _NAME_CHARS
                                            for c in name):
                raise ValueError(where + "expected 'stage: anchor(passes)', "
                                 "got '%s'" % line)
            open_index = body.find("(")
            if open_index <= 0 or not body.endswith(")") or \
                    find_closing(body, open_index) != len(body) - 1:
                raise ValueError(where + "stage '%s' needs 'anchor(passes)'"
                                 ", got '%s'" % (name, body))
            try:
                entries = PassEntry.parse_list(body[open_index + 1:-1])
            except ValueError as e:
                raise ValueError(where + "stage '%s': %s" % (name, e)) \
                    from None
            if pipeline.has_stage(name):
                raise ValueError(where + "pipeline already has a stage '%s'"
                                 % name)
            stage = Stage(name, body[:open_index].strip())
            stage.entries = entries
            pipeline._stages.append(stage)
        if not pipeline._stages:
            raise ValueError("pipeline text has no stages")
        return pipeline

    def text(self):
        """The text form, exactly as `tpx-compile --dump-pipeline` prints."""
        header = "# tpx pipeline target=%s" % self.target
        if self.name:
            header += " pipeline=%s" % self.name
        out = [header] if self.target else []
        out.extend("%s: %s" % (s.name, s.pipeline_string())
                   for s in self._stages)
        return "\n".join(out) + "\n"

    __str__ = text

    def __repr__(self):
        return "Pipeline(target=%r, stages=%r)" % (self.target, self.stages)

    @classmethod
    def effective(cls, target, extensions=()):
        """The pipeline a kernel for `target` gets with `extensions`
        selected (plus the C API's active selection): tpxGetPipelineText."""
        return cls.parse(effective_text(target, _as_names(extensions)))

    def copy(self):
        return Pipeline(self.target, self._stages, self.name)

    def __eq__(self, other):
        return isinstance(other, Pipeline) and self.text() == other.text()

    __hash__ = None   # mutable

    # -- queries --------------------------------------------------------------

    @property
    def stages(self):
        """The stage names, in order (`["ttir", "llir", "obj"]`)."""
        return [s.name for s in self._stages]

    def has_stage(self, name):
        return any(s.name == name for s in self._stages)

    def stage(self, name):
        """The Stage object called `name` (ValueError when missing)."""
        for s in self._stages:
            if s.name == name:
                return s
        raise ValueError("pipeline of target '%s' has no stage '%s' "
                         "(stages: %s)" % (self.target, name,
                                           ", ".join(self.stages)))

    def passes(self, stage):
        """The entries of `stage` as text (`["inline", "cse", ...]`)."""
        return [str(e) for e in self.stage(stage).entries]

    # -- edits ----------------------------------------------------------------

    def _anchor_index(self, stage, anchor):
        index = stage.find(anchor)
        if index < 0:
            raise ValueError("stage '%s' has no pass '%s' (passes: %s)" %
                             (stage.name, anchor, stage.pipeline_string()))
        return index

    def insert_before(self, stage, anchor, entry):
        s = self.stage(stage)
        entry = PassEntry.parse(entry)
        s.entries.insert(self._anchor_index(s, anchor), entry)
        return self

    def insert_after(self, stage, anchor, entry):
        s = self.stage(stage)
        entry = PassEntry.parse(entry)
        s.entries.insert(self._anchor_index(s, anchor) + 1, entry)
        return self

    def replace(self, stage, anchor, entry):
        s = self.stage(stage)
        entry = PassEntry.parse(entry)
        s.entries[self._anchor_index(s, anchor)] = entry
        return self

    def remove(self, stage, anchor):
        s = self.stage(stage)
        del s.entries[self._anchor_index(s, anchor)]
        return self

    def append(self, stage, entry):
        s = self.stage(stage)
        s.entries.append(PassEntry.parse(entry))
        return self

    def replace_stage(self, stage, entries):
        """Replaces the whole pass list: a list of entries or `"a,b{x=1}"`."""
        s = self.stage(stage)
        if isinstance(entries, str):
            s.entries = PassEntry.parse_list(entries) if entries.strip() \
                else []
        else:
            s.entries = [PassEntry.parse(e) for e in entries]
        return self


# -- the C API ----------------------------------------------------------------

# Pushing a C selection is process-wide; it is held only while reading a
# pipeline text, under this lock.
_lock = threading.RLock()


def _as_names(extensions):
    if extensions is None:
        return []
    if isinstance(extensions, str):
        return [n.strip() for n in extensions.split(",") if n.strip()]
    names = []
    for item in extensions:
        if isinstance(item, str):
            names.extend(_as_names(item))
        elif isinstance(item, (list, tuple)):
            names.extend(_as_names(item))
        else:
            raise TypeError("pipeline extension names must be strings, got "
                            "%r" % (item,))
    return names


def _call(function, *args):
    """`function(*args, &error)` raising TpxError, without marking the
    compile configuration as changed (_capi.check does that for pushes and
    pops): a transient push/pop pair leaves it as it was, and must not make
    the runtime drop its cached launches on every compile."""
    error = ctypes.c_void_p()
    if function(*args, ctypes.byref(error)) != _capi.TPX_SUCCESS:
        raise TpxError(_capi.take_string(error.value) or
                       "%s failed without a message" % function.__name__)


@contextlib.contextmanager
def _c_selection(names):
    """tpxPushPipelineSelection(names) ... tpxPopPipelineSelection(), to
    read a text; the caller holds _lock."""
    lib = _capi.library()
    if not names:
        yield
        return
    array = (ctypes.c_char_p * len(names))(*[n.encode() for n in names])
    _call(lib.tpxPushPipelineSelection, array, len(names))
    try:
        yield
    finally:
        _call(lib.tpxPopPipelineSelection)


def effective_text(target, extensions=()):
    """tpxGetPipelineText(target) with `extensions` selected."""
    lib = _capi.library()
    with _lock, _c_selection(list(extensions)):
        return _capi.get_string(lib.tpxGetPipelineText, target.encode())


def _cache_key_material(target):
    lib = _capi.library()
    with _lock:
        return _capi.get_string(lib.tpxGetCacheKeyMaterial, target.encode())


def extension_names():
    """The pipeline extensions of the loaded plugins, in load order."""
    from tpx import plugins
    return [e.name for p in plugins.loaded_plugins() for e in p.extensions]


def check_extensions(names):
    """Raises ValueError (the C API's message) if a name is unknown."""
    try:
        with _lock, _c_selection(list(names)):
            pass
    except TpxError as e:
        raise ValueError(str(e)) from None


# -- scopes -------------------------------------------------------------------

_scope = contextvars.ContextVar("tpx_pipeline_extensions", default=())


def active_extensions():
    """The extensions selected by the enclosing `with tpx.pipeline(...)`
    blocks of this thread (outermost first, each once)."""
    out = []
    for name in _scope.get():
        if name not in out:
            out.append(name)
    return out


class pipeline_extensions:
    """`with tpx.pipeline_extensions("ext", ...):` selects pipeline
    extensions for every kernel compiled inside the block (in this thread
    or asyncio task). Blocks nest; inner ones add to outer ones. Unknown
    names raise ValueError when the block is entered."""

    def __init__(self, *names):
        self.names = _as_names(names)
        self._tokens = []       # one per active `with` of this object

    def __enter__(self):
        check_extensions(self.names)
        self._tokens.append(_scope.set(_scope.get() + tuple(self.names)))
        return self

    def __exit__(self, *exc):
        _scope.reset(self._tokens.pop())
        return False

    def __repr__(self):
        return "pipeline_extensions(%s)" % ", ".join(map(repr, self.names))


# -- the hook -----------------------------------------------------------------

_hook = None


def set_pipeline_hook(fn):
    """Calls `fn(pipeline, kernel_name, target)` for every kernel compiled
    from now on (any thread) until unset_pipeline_hook(). `fn` edits the
    Pipeline in place (or returns a Pipeline or text to use instead); the
    result is compiled and is part of the kernel's cache key. Setting a new
    hook replaces the old one."""
    global _hook
    if fn is not None and not callable(fn):
        raise TypeError("set_pipeline_hook: %r is not callable" % (fn,))
    if fn is _hook:
        return
    _hook = fn
    # Kernels compiled before are not what a launch now must run.
    _capi.bump_state_generation()


def unset_pipeline_hook():
    set_pipeline_hook(None)


def get_pipeline_hook():
    return _hook


# -- what the runtime calls ---------------------------------------------------

def _kernel_selection(jit_fn):
    selection = getattr(jit_fn, "pipeline", None)
    try:
        return _as_names(selection)
    except TypeError as e:
        raise CompilationError("%s: @jit(pipeline=...) %s" %
                               (getattr(jit_fn, "__name__", "kernel"), e))


def _kernel_error(jit_fn, message):
    file = getattr(jit_fn, "file", None)
    line = getattr(jit_fn, "starting_line", None)
    source = None
    if file and line:
        import linecache
        source = linecache.getline(file, line) or None
    return CompilationError(message, file, line, 0 if line else None, source)


def resolve(jit_fn, target, required=()):
    """The pipeline of one compile of `jit_fn` for `target`.

    `required` names extensions the kernel's TTIR selects itself (its
    module's `tpx.pipeline`, set by plugin language modules); they follow
    the scoped and the kernel's own selections.

    Returns (pipeline_text_or_None, cache_key). The text is None when the
    kernel selects nothing (no @jit(pipeline=...), no active
    `with tpx.pipeline(...)`, no hook): compile with the default pipeline.
    Otherwise pass the text as TpxKernelOptions.pipelineText. The cache key
    holds the tpx version, every loaded plugin's content hash and the
    pipeline text, so it changes whenever any of them does (including a
    hook's edits). Raises CompilationError for an unknown extension named by
    the kernel, ValueError for one named by a scope, and whatever the hook
    raises. Leaves `_capi.state_generation` alone (the transient push that
    reads a selected pipeline changes nothing once popped).
    """
    name = getattr(jit_fn, "__name__", "kernel")
    scoped = active_extensions()
    own = _kernel_selection(jit_fn)
    names = list(scoped)
    for n in list(own) + list(required):
        if n not in names:
            names.append(n)
    hook = _hook
    with _lock:
        material = _cache_key_material(target)
        if not names and hook is None:
            return None, material
        try:
            text = effective_text(target, names)
        except TpxError as e:
            # Scopes are checked when entered, so the kernel's own list
            # holds the unknown name.
            raise _kernel_error(jit_fn, "%s, selected by @tpx.jit(pipeline="
                                "%r) of kernel '%s'" % (e, own, name)) \
                from None
    if hook is not None:
        pipeline = Pipeline.parse(text)
        result = hook(pipeline, name, target)
        if isinstance(result, str):
            result = Pipeline.parse(result)
        if isinstance(result, Pipeline):
            pipeline = result
        elif result is not None:
            raise TypeError("pipeline hook %r returned %r; return None (after "
                            "editing the pipeline), a Pipeline or its text" %
                            (hook, result))
        text = pipeline.text()
    # The material ends with the effective default pipeline; the compile
    # uses `text` instead.
    head = material.split("# tpx pipeline", 1)[0]
    return text, head + text


# `tpx.pipeline("ext")` is `pipeline_extensions("ext")`.
class _CallableModule(types.ModuleType):
    def __call__(self, *names):
        return pipeline_extensions(*names)


sys.modules[__name__].__class__ = _CallableModule
