"""What the ctypes bindings of the CUDA driver (cuda.py) and the HIP
runtime (hip_api.py) share: a loaded library whose functions are checked
calls, made once per process, and the two device objects do_bench needs
without torch.

A vendor module subclasses GPULibrary (its error type, function prefix,
prototypes and messages), makes its `api = initialized_once(...)`, and
subclasses GPUEvent / GPUDeviceBuffer (the names of its calls).
"""

import ctypes
import threading

from tpx.errors import TpxError


class GPULibrary:
    """A loaded GPU library; functions are attributes (`api.cuInit`).

    Subclasses set `prefix` (the names __getattr__ resolves), `error_type`
    and `success`, and define `missing(name)` (the error when the library
    lacks `name`), `prototype(name, fn)` (sets restype / argtypes) and
    `message(result, call)`."""

    prefix = ""
    error_type = TpxError
    success = 0

    def __init__(self, lib):
        self.lib = lib
        self._bound = {}

    def function(self, name):
        """The C function `name` with its prototype; error_type if the
        library lacks it."""
        fn = self._bound.get(name)
        if fn is not None:
            return fn
        try:
            fn = getattr(self.lib, name)
        except AttributeError:
            raise self.missing(name) from None
        self.prototype(name, fn)
        self._bound[name] = fn
        return fn

    def has(self, name):
        return hasattr(self.lib, name)

    def __getattr__(self, name):
        if self.prefix and name.startswith(self.prefix):
            return self.function(name)
        raise AttributeError(name)

    def check(self, result, call, error_type=None):
        """Raises (error_type or the library's) unless `result` is
        success; the error carries `result` and `call`."""
        if result == self.success:
            return
        error = (error_type or self.error_type)(self.message(result, call))
        error.result, error.call = result, call
        raise error

    def call(self, name, *args, what=None):
        """`name(*args)`, checked (the error names `what` or `name`)."""
        self.check(self.function(name)(*args), what or name)


def initialized_once(make, error_type):
    """A function returning `make()`'s library, made once per process (the
    answer does not change within it): the first failure (an error_type)
    is remembered and raised again on every later call."""
    lock = threading.RLock()
    state = {"library": None, "failure": None}

    def api():
        library = state["library"]
        if library is not None:
            return library
        with lock:
            if state["library"] is not None:
                return state["library"]
            if state["failure"] is not None:
                raise error_type(state["failure"])
            try:
                library = make()
            except error_type as e:
                state["failure"] = str(e)
                raise
            state["library"] = library
            return library

    return api


class GPUEvent:
    """An event with timing, for do_bench without torch. Subclasses set
    `api` (staticmethod: the initialised library) and the call names."""

    api = None
    create = record_call = synchronize_call = elapsed = destroy = ""

    def __init__(self, enable_timing=True):
        self.handle = None
        self._library = self.api()
        handle = ctypes.c_void_p()
        # Both vendors: flag 0 is a timing event, 2 disables timing.
        self._library.call(self.create, ctypes.byref(handle),
                           0 if enable_timing else 2)
        self.handle = handle.value

    def record(self, stream=None):
        self._library.call(self.record_call, self.handle, stream or None)

    def synchronize(self):
        self._library.call(self.synchronize_call, self.handle)

    def elapsed_call(self):
        return self.elapsed

    def elapsed_time(self, end):
        """Milliseconds from this event to `end` (both recorded)."""
        ms = ctypes.c_float()
        self._library.call(self.elapsed_call(), ctypes.byref(ms),
                           self.handle, end.handle)
        return ms.value

    def __del__(self):
        try:
            if self.handle:
                self._library.function(self.destroy)(self.handle)
        except Exception:
            pass


class GPUDeviceBuffer:
    """Device memory (the benchmark's L2 flush buffer when torch is
    absent). Subclasses set `api` (staticmethod), the call names and
    `pointer_type`, and define `memset(stream)`."""

    api = None
    alloc = free = ""
    alloc_name = None  # how errors name the allocation (default: alloc)
    pointer_type = ctypes.c_void_p

    def __init__(self, nbytes):
        self.pointer = 0
        self._library = self.api()
        pointer = self.pointer_type()
        self._library.call(self.alloc, ctypes.byref(pointer), nbytes,
                           what="%s(%d bytes)" % (self.alloc_name or
                                                  self.alloc, nbytes))
        self.pointer = pointer.value or 0
        self.nbytes = nbytes

    def data_ptr(self):
        return self.pointer

    def zero_(self, stream=None):
        self.memset(stream)
        return self

    def __del__(self):
        try:
            if self.pointer:
                self._library.function(self.free)(self.pointer)
        except Exception:
            pass
