"""ctypes bindings of tpx's C API (include/tpx-c/Tpx.h, tpx-c/Artifact.h).

The whole Python package talks to the compiler through this module only: no
compiled extension, so one package works with every Python 3 version.

The shared library is looked up, in order, at
  1. $TPX_LIBRARY (a path to libtpx.so),
  2. $TPX_BUILD_DIR/lib/libtpx.so,
  3. the build tree next to the package (<repo>/build/lib/libtpx.so),
  4. <prefix>/lib/libtpx.so for a package installed under <prefix>/lib/...,
  5. the dynamic loader's search path (libtpx.so.0).
Every C function that can fail returns TPX_FAILURE and a malloc'ed message;
`check` turns that into a TpxError carrying the message.
"""

import ctypes
import os
import threading

from tpx.errors import TpxError

TPX_SUCCESS = 0
TPX_FAILURE = 1

# TpxValueKind
KIND_INT, KIND_FLOAT, KIND_BOOL, KIND_STRING, KIND_TYPE = range(5)

# TpxLaunchArgKind
ARG_BUFFER, ARG_INT, ARG_FLOAT = range(3)


class MlirType(ctypes.Structure):
    _fields_ = [("ptr", ctypes.c_void_p)]


class TpxScalar(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_int),
        ("intValue", ctypes.c_int64),
        ("floatValue", ctypes.c_double),
        ("boolValue", ctypes.c_int),
        ("stringValue", ctypes.c_char_p),
        ("typeValue", MlirType),
    ]

    def python_value(self):
        """The default of a keyword as a Python value."""
        if self.kind == KIND_INT:
            return int(self.intValue)
        if self.kind == KIND_FLOAT:
            return float(self.floatValue)
        if self.kind == KIND_BOOL:
            return bool(self.boolValue)
        text = self.stringValue
        return text.decode() if text is not None else None


class TpxKeywordInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("description", ctypes.c_char_p),
        ("required", ctypes.c_int),
        ("defaultValue", TpxScalar),
    ]


class TpxKeywordArg(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("value", TpxScalar)]


class TpxDslOpInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("summary", ctypes.c_char_p),
        ("numOperands", ctypes.c_int),
        ("keywords", ctypes.POINTER(TpxKeywordInfo)),
        ("numKeywords", ctypes.c_size_t),
        ("build", ctypes.c_void_p),
        ("userData", ctypes.c_void_p),
    ]


class TpxPipelineExtensionInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("summary", ctypes.c_char_p),
        ("apply", ctypes.c_void_p),
        ("userData", ctypes.c_void_p),
    ]


class TpxPluginInfo(ctypes.Structure):
    _fields_ = [
        ("apiVersion", ctypes.c_uint32),
        ("structSize", ctypes.c_uint32),
        ("name", ctypes.c_char_p),
        ("version", ctypes.c_char_p),
        ("tpxVersion", ctypes.c_char_p),
        ("passes", ctypes.c_void_p),
        ("numPasses", ctypes.c_size_t),
        ("dialects", ctypes.c_void_p),
        ("numDialects", ctypes.c_size_t),
        ("dslOps", ctypes.POINTER(TpxDslOpInfo)),
        ("numDslOps", ctypes.c_size_t),
        ("extensions", ctypes.POINTER(TpxPipelineExtensionInfo)),
        ("numExtensions", ctypes.c_size_t),
    ]


class TpxKernelOptions(ctypes.Structure):
    _fields_ = [
        ("structSize", ctypes.c_uint32),
        ("target", ctypes.c_char_p),
        ("numWarps", ctypes.c_uint32),
        ("numStages", ctypes.c_uint32),
        ("dumpDir", ctypes.c_char_p),
        ("pipelineText", ctypes.c_char_p),
        ("boundsCheck", ctypes.c_int),
        ("noCache", ctypes.c_int),
        ("targetPipeline", ctypes.c_char_p),
    ]


class TpxLaunchArg(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_int),
        ("data", ctypes.c_void_p),
        ("bytes", ctypes.c_size_t),
        ("intValue", ctypes.c_int64),
        ("floatValue", ctypes.c_double),
    ]


_c_char_pp = ctypes.POINTER(ctypes.c_char_p)
_status = ctypes.c_int

# name: (restype, argtypes). Functions added to the C API later are bound
# lazily by `optional`, so an older library still loads.
_PROTOTYPES = {
    "tpxStringFree": (None, [ctypes.c_void_p]),
    "tpxLoadPlugin": (_status, [ctypes.c_char_p, ctypes.c_void_p]),
    "tpxLoadPluginPaths": (_status, [ctypes.c_char_p, ctypes.c_void_p]),
    "tpxLoadPluginsFromEnv": (_status, [ctypes.c_void_p]),
    "tpxGetNumPlugins": (ctypes.c_size_t, []),
    "tpxGetPlugin": (ctypes.POINTER(TpxPluginInfo), [ctypes.c_size_t]),
    "tpxGetNumDslOps": (ctypes.c_size_t, []),
    "tpxGetDslOp": (ctypes.POINTER(TpxDslOpInfo), [ctypes.c_size_t]),
    "tpxLookupDslOp": (ctypes.POINTER(TpxDslOpInfo), [ctypes.c_char_p]),
    "tpxPushPipelineSelection": (
        _status, [_c_char_pp, ctypes.c_size_t, ctypes.c_void_p]),
    "tpxPopPipelineSelection": (_status, [ctypes.c_void_p]),
    "tpxGetPipelineText": (
        _status, [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p]),
    "tpxGetCacheKeyMaterial": (
        _status, [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p]),
    "tpxCompileKernel": (_status, [
        ctypes.c_char_p, ctypes.POINTER(TpxKernelOptions),
        ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]),
    "tpxArtifactDestroy": (None, [ctypes.c_void_p]),
    "tpxArtifactGetMetadata": (ctypes.c_void_p, [ctypes.c_void_p]),
    "tpxArtifactGetKernelName": (ctypes.c_char_p, [ctypes.c_void_p]),
    "tpxArtifactGetBinary": (
        ctypes.c_void_p, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t)]),
    "tpxArtifactWasCached": (ctypes.c_int, [ctypes.c_void_p]),
    "tpxLaunch": (_status, [
        ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32),
        ctypes.POINTER(TpxLaunchArg), ctypes.c_size_t, ctypes.c_uint32,
        ctypes.c_void_p]),
    # const char * owned by the artifact; null when it has no such stage.
    "tpxArtifactGetStage": (ctypes.c_void_p, [
        ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_size_t)]),
    # malloc'ed comma-separated names.
    "tpxArtifactGetStageNames": (ctypes.c_void_p, [ctypes.c_void_p]),
    "tpxGetPluginPath": (ctypes.c_char_p, [ctypes.c_size_t]),
    "tpxBuildDslOpFunction": (_status, [
        ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t,
        ctypes.POINTER(TpxKeywordArg), ctypes.c_size_t, ctypes.c_char_p,
        ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p]),
    "tpxTensorMapPlanCreate": (_status, [
        ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p]),
    "tpxTensorMapPlanDestroy": (None, [ctypes.c_void_p]),
    "tpxTensorMapPlanCount": (ctypes.c_size_t, [ctypes.c_void_p]),
    "tpxTensorMapPlanEncode": (_status, [
        ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p,
        ctypes.c_void_p]),
    # malloc'ed target ID of the AMD GPU ("gfx950:sramecc+:xnack-").
    "tpxGetHIPDeviceArch": (_status, [ctypes.c_void_p, ctypes.c_void_p]),
    # TpxCompileOptions is declared by its users (tests, tools).
    "tpxCompileString": (_status, [
        ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p,
        ctypes.POINTER(ctypes.c_size_t), ctypes.c_void_p]),
}

_lock = threading.Lock()
_lib = None
_lib_path = None


def _candidates():
    env = os.environ.get("TPX_LIBRARY")
    if env:
        yield env
    build = os.environ.get("TPX_BUILD_DIR")
    if build:
        yield os.path.join(build, "lib", "libtpx.so")
    package = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(package))
    yield os.path.join(repo, "build", "lib", "libtpx.so")
    # <prefix>/lib/pythonX/.../tpx -> <prefix>/lib/libtpx.so
    parts = package.split(os.sep)
    if "lib" in parts:
        prefix = os.sep.join(parts[:len(parts) - parts[::-1].index("lib")])
        yield os.path.join(prefix, "libtpx.so")
    yield "libtpx.so.0"


def library():
    """The loaded libtpx (loaded on first use; a TpxError when missing)."""
    global _lib
    if _lib is not None:
        return _lib
    with _lock:
        if _lib is not None:
            return _lib
        tried = []
        for path in _candidates():
            if os.sep in path and not os.path.exists(path):
                tried.append(path + " (missing)")
                continue
            try:
                lib = ctypes.CDLL(path)
            except OSError as e:
                tried.append("%s (%s)" % (path, e))
                continue
            missing = [n for n in _PROTOTYPES if not hasattr(lib, n)]
            if missing:
                # The package and libtpx come from one build.
                raise TpxError(
                    "tpx: the tpx library %s lacks %s: it is older than "
                    "this Python package; rebuild it (./scripts/build.sh)"
                    % (path, ", ".join(missing)))
            for name, (restype, argtypes) in _PROTOTYPES.items():
                fn = getattr(lib, name)
                fn.restype = restype
                fn.argtypes = argtypes
            global _lib_path
            _lib_path = os.path.abspath(path) if os.sep in path else None
            _lib = lib
            return lib
        raise TpxError(
            "tpx: cannot load the tpx library (build it with "
            "./scripts/build.sh or set TPX_LIBRARY); tried: " +
            "; ".join(tried))


def bundled_plugin_dirs():
    """Where the plugins that ship with tpx (TLX) live: `plugins/` beside
    the build tree's `lib/`, or `<prefix>/lib/tpx/plugins` when installed.
    Each plugin has its own folder there, named by its module name."""
    library()
    if _lib_path is None:
        return []
    lib_dir = os.path.dirname(_lib_path)
    return [d for d in (os.path.join(os.path.dirname(lib_dir), "plugins"),
                        os.path.join(lib_dir, "tpx", "plugins"))
            if os.path.isdir(d)]


def take_string(pointer):
    """Copies and frees a malloc'ed C string returned by the API."""
    if not pointer:
        return None
    try:
        return ctypes.string_at(pointer).decode("utf-8", "replace")
    finally:
        library().tpxStringFree(pointer)


# Calls that change what a compile produces for the same TTIR (loaded
# plugins, the scoped pipeline selection). `check` bumps
# `state_generation` after each of them, so the runtime's in-memory kernel
# caches can compare one integer on every launch instead of asking the
# library for the cache-key material.
_STATE_CHANGING = frozenset((
    "tpxLoadPlugin", "tpxLoadPluginPaths", "tpxLoadPluginsFromEnv",
    "tpxPushPipelineSelection", "tpxPopPipelineSelection"))
state_generation = 0
_generation_lock = threading.Lock()


def bump_state_generation():
    """Marks the compile configuration as changed (see `check`)."""
    global state_generation
    with _generation_lock:
        state_generation += 1


def check(function, *args, error_type=TpxError):
    """Calls `function(*args, &error)`; raises error_type on TPX_FAILURE."""
    error = ctypes.c_void_p()
    try:
        status = function(*args, ctypes.byref(error))
    finally:
        if getattr(function, "__name__", None) in _STATE_CHANGING:
            bump_state_generation()
    if status != TPX_SUCCESS:
        message = take_string(error.value) or (
            "%s failed without a message" % function.__name__)
        raise error_type(message)


def get_string(function, *args):
    """Calls `function(*args, &out, &error)` and returns *out as str."""
    out = ctypes.c_void_p()
    check(function, *args, ctypes.byref(out))
    return take_string(out.value)


def encode(text):
    return text.encode("utf-8") if text is not None else None
