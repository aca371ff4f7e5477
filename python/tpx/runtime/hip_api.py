"""The HIP runtime (libamdhip64) through ctypes, for the HIP driver.

No HIP headers, ROCm or compiled extension: the library is opened on first
use, from the same candidates as the C++ runtime (lib/Runtime/
HIPRuntime.cpp): only $TPX_HIP_LIBRARY when it is set, else
libamdhip64.so, libamdhip64.so.6, libamdhip64.so.5 -- except that a
libamdhip64 already loaded into the process (torch on ROCm brings its own)
is taken first, because two HIP runtimes in one process do not share
devices' memory or streams. Every failing call raises HipError naming the
call, HIP's error name and description and the hipError_t number, as the
C++ runtime does:

    hipModuleLoadData (kernel 'vadd', target gfx950) failed:
    hipErrorInvalidImage (invalid kernel image) [hipError_t 200]

Enum values are those of hip_runtime_api.h since ROCm 5.0 (the
hipDeviceAttribute_t numbering changed then; ROCm 4 is older than any
runtime that loads tpx's code objects). hipDeviceProp_t changed layout
between HIP 5 and 6, so, as in the C++ runtime, it is not declared: the
device's gcnArchName is read out of a large zeroed buffer that
hipGetDeviceProperties fills (`device_arch`).
"""

import ctypes
import os
import re

from tpx.runtime.gpu_library import (GPUDeviceBuffer, GPUEvent, GPULibrary,
                                     initialized_once)
from tpx.runtime.hip import HipError

__all__ = ["HipError", "api", "probe", "device_count", "current_device",
           "set_device", "device_attribute", "device_arch", "synchronize",
           "Event", "DeviceBuffer"]

# hipDeviceAttribute_t (ROCm >= 5.0).
ATTR_CLOCK_RATE = 5
ATTR_L2_CACHE_SIZE = 19
ATTR_MAX_THREADS_PER_BLOCK = 56
ATTR_MEMORY_BUS_WIDTH = 59
ATTR_MEMORY_CLOCK_RATE = 60
ATTR_MULTIPROCESSOR_COUNT = 63
ATTR_MAX_REGISTERS_PER_BLOCK = 71
ATTR_MAX_SHARED_MEMORY_PER_BLOCK = 74
ATTR_WARP_SIZE = 87

# hipError_t values the runtime reacts to.
SUCCESS = 0
ERROR_NO_DEVICE = 100
ERROR_LAUNCH_OUT_OF_RESOURCES = 701
ERROR_ASSERT = 710

_c_int_p = ctypes.POINTER(ctypes.c_int)
_c_void_pp = ctypes.POINTER(ctypes.c_void_p)

# name: (restype, argtypes).
_PROTOTYPES = {
    "hipGetErrorName": (ctypes.c_char_p, [ctypes.c_int]),
    "hipGetErrorString": (ctypes.c_char_p, [ctypes.c_int]),
    "hipInit": (ctypes.c_int, [ctypes.c_uint]),
    "hipGetDeviceCount": (ctypes.c_int, [_c_int_p]),
    "hipGetDevice": (ctypes.c_int, [_c_int_p]),
    "hipSetDevice": (ctypes.c_int, [ctypes.c_int]),
    "hipDeviceGetAttribute": (ctypes.c_int, [_c_int_p, ctypes.c_int,
                                             ctypes.c_int]),
    "hipGetDevicePropertiesR0600": (ctypes.c_int, [ctypes.c_void_p,
                                                   ctypes.c_int]),
    "hipGetDeviceProperties": (ctypes.c_int, [ctypes.c_void_p,
                                              ctypes.c_int]),
    "hipModuleLoadData": (ctypes.c_int, [_c_void_pp, ctypes.c_void_p]),
    "hipModuleUnload": (ctypes.c_int, [ctypes.c_void_p]),
    "hipModuleGetFunction": (ctypes.c_int, [_c_void_pp, ctypes.c_void_p,
                                            ctypes.c_char_p]),
    # (function, gridX, gridY, gridZ, blockX, blockY, blockZ,
    #  sharedMemBytes, stream, kernelParams, extra), all unsigned but the
    # pointers: a grid beyond 2^32 - 1 is a ctypes.ArgumentError.
    "hipModuleLaunchKernel": (ctypes.c_int, [
        ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,
        ctypes.c_uint, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,
        ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]),
    "hipDeviceSynchronize": (ctypes.c_int, []),
    "hipMalloc": (ctypes.c_int, [_c_void_pp, ctypes.c_size_t]),
    "hipFree": (ctypes.c_int, [ctypes.c_void_p]),
    "hipMemsetAsync": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int,
                                      ctypes.c_size_t, ctypes.c_void_p]),
    "hipEventCreateWithFlags": (ctypes.c_int, [_c_void_pp, ctypes.c_uint]),
    "hipEventRecord": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p]),
    "hipEventSynchronize": (ctypes.c_int, [ctypes.c_void_p]),
    "hipEventElapsedTime": (ctypes.c_int, [ctypes.POINTER(ctypes.c_float),
                                           ctypes.c_void_p,
                                           ctypes.c_void_p]),
    "hipEventDestroy": (ctypes.c_int, [ctypes.c_void_p]),
}



def library_candidates():
    """(names to try in order, whether they come from $TPX_HIP_LIBRARY)."""
    path = os.environ.get("TPX_HIP_LIBRARY")
    if path:
        return [path], True
    return ["libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"], False


def _loaded_runtime():
    """The path of a libamdhip64 already mapped into this process, or
    None: opening that very file returns the loaded library instead of a
    second runtime from the loader's search path."""
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                path = line.split(None, 5)[-1].strip()
                if "/libamdhip64.so" in path and os.path.exists(path):
                    return path
    except OSError:
        pass
    return None


def open_library():
    """The opened HIP runtime (ctypes.CDLL); HipError with what was tried
    when none opens (the same message as the C++ runtime's)."""
    candidates, from_environment = library_candidates()
    if not from_environment:
        loaded = _loaded_runtime()
        if loaded is not None:
            candidates = [loaded] + candidates
    tried = []
    for candidate in candidates:
        try:
            return ctypes.CDLL(candidate, mode=os.RTLD_NOW)
        except OSError as e:
            # dlerror starts with the name it was given; said once is
            # enough.
            why = str(e)
            if why.startswith(candidate + ": "):
                why = why[len(candidate) + 2:]
            tried.append("%s: %s" % (candidate, why or "dlopen failed"))
    first = library_candidates()[0][0]
    if from_environment:
        raise HipError("no AMD GPU runtime: %s not found (named by "
                       "TPX_HIP_LIBRARY: %s)" % (first, "; ".join(tried)))
    raise HipError("no AMD GPU runtime: %s not found (set TPX_HIP_LIBRARY "
                   "to its path; tried %s)" % (first, "; ".join(tried)))


class _DlInfo(ctypes.Structure):
    _fields_ = [("dli_fname", ctypes.c_char_p),
                ("dli_fbase", ctypes.c_void_p),
                ("dli_sname", ctypes.c_char_p),
                ("dli_saddr", ctypes.c_void_p)]


def _library_path(lib, fallback):
    """The file the library was loaded from (dladdr of hipInit), for
    messages; `fallback` when the loader does not say."""
    try:
        dladdr = ctypes.CDLL(None).dladdr
        dladdr.argtypes = [ctypes.c_void_p, ctypes.POINTER(_DlInfo)]
        info = _DlInfo()
        address = ctypes.cast(lib.hipInit, ctypes.c_void_p).value
        if dladdr(address, ctypes.byref(info)) and info.dli_fname:
            return info.dli_fname.decode(errors="replace")
    except (AttributeError, OSError):
        pass
    return fallback


class RuntimeAPI(GPULibrary):
    """The loaded HIP runtime; functions are attributes (`api.hipInit`)."""

    prefix = "hip"
    error_type = HipError
    success = SUCCESS

    def __init__(self):
        lib = open_library()
        super().__init__(lib)
        self.path = _library_path(lib, lib._name)

    def missing(self, name):
        return HipError("cannot use the HIP runtime %s: the HIP runtime "
                        "lacks '%s' (runtime too old?)" % (self.path, name))

    def prototype(self, name, fn):
        # Every entry point tpx calls has its prototype (the table above).
        fn.restype, fn.argtypes = _PROTOTYPES[name]

    def error_text(self, result):
        """(name, description) of a hipError_t."""
        texts = []
        for call in ("hipGetErrorName", "hipGetErrorString"):
            try:
                text = self.function(call)(result)
            except HipError:
                text = None
            texts.append(text.decode(errors="replace") if text else None)
        return (texts[0] or "unknown HIP error",
                texts[1] or "no description")

    def message(self, result, call):
        name, text = self.error_text(result)
        message = "%s failed: %s (%s)" % (call, name, text)
        if result == ERROR_ASSERT:
            message += ("; a device-side assertion (tt.assert) failed, see "
                        "the message printed above")
        return message + " [hipError_t %d]" % result


def _initialize(runtime):
    """hipInit and at least one device, or the reason there is none (the
    C++ runtime's messages)."""
    runtime.call("hipInit", 0)
    count = ctypes.c_int()
    result = runtime.function("hipGetDeviceCount")(ctypes.byref(count))
    if result == ERROR_NO_DEVICE or (result == SUCCESS and count.value <= 0):
        raise HipError("no AMD GPU: the HIP runtime %s sees no device "
                       "(check HIP_VISIBLE_DEVICES and that the amdgpu "
                       "driver is loaded)" % runtime.path)
    runtime.check(result, "hipGetDeviceCount")


def _make_api():
    runtime = RuntimeAPI()
    _initialize(runtime)
    return runtime


# The initialised runtime (hipInit done, a device present); HipError when
# unusable.
api = initialized_once(_make_api, HipError)


def probe():
    """(usable, why): whether @jit kernels can run on an AMD GPU here, and
    the devices or the reason they cannot."""
    try:
        count = device_count()
        arch = device_arch(0)
    except HipError as e:
        return False, str(e)
    return True, "%d AMD GPU(s), device 0 is %s" % (count, arch)


def device_count():
    count = ctypes.c_int()
    api().call("hipGetDeviceCount", ctypes.byref(count))
    return count.value


def _check_ordinal(ordinal):
    count = device_count()
    if isinstance(ordinal, bool) or not isinstance(ordinal, int) or \
            not 0 <= ordinal < count:
        raise ValueError("AMD GPU %r requested but %d present" %
                         (ordinal, count))


def current_device():
    """The calling thread's current HIP device (HIP's is per thread)."""
    device = ctypes.c_int()
    api().call("hipGetDevice", ctypes.byref(device))
    return device.value


def set_device(ordinal):
    _check_ordinal(ordinal)
    api().call("hipSetDevice", ordinal, what="hipSetDevice(%d)" % ordinal)


def device_attribute(attribute, ordinal):
    _check_ordinal(ordinal)
    value = ctypes.c_int()
    api().call("hipDeviceGetAttribute", ctypes.byref(value), attribute,
               ordinal, what="hipDeviceGetAttribute(%d, device %d)" %
               (attribute, ordinal))
    return value.value


# Bigger than hipDeviceProp_t of any HIP (about 1.5 KiB in HIP 6), so the
# runtime writes inside it whichever layout it has.
_PROPERTIES_BYTES = 16384
# gcnArchName: a NUL-terminated "gfx" + digit name of target-ID
# characters, preceded by a NUL (the end of the field before it, or its
# zero padding); `name`, the first field, is the marketing name.
_ARCH_NAME = re.compile(rb"(?<=\x00)gfx[0-9][A-Za-z0-9:+\-]*(?=\x00)")
_archs = {}


def device_arch(ordinal):
    """The target ID of AMD GPU `ordinal`, e.g. "gfx950:sramecc+:xnack-"
    (hipDeviceProp_t::gcnArchName); HipError when it has none."""
    arch = _archs.get(ordinal)
    if arch is not None:
        return arch
    _check_ordinal(ordinal)
    runtime = api()
    # HIP 6 headers map hipGetDeviceProperties to the R0600 entry (the
    # struct grew); HIP 5 has only the plain name. Either holds the name.
    name = ("hipGetDevicePropertiesR0600"
            if runtime.has("hipGetDevicePropertiesR0600")
            else "hipGetDeviceProperties")
    buffer = ctypes.create_string_buffer(_PROPERTIES_BYTES)
    runtime.call(name, buffer, ordinal,
                 what="%s(device %d)" % (name, ordinal))
    match = _ARCH_NAME.search(buffer.raw)
    if match is None:
        raise HipError("%s gave no gcnArchName for device %d: cannot tell "
                       "which code objects it runs" % (name, ordinal))
    arch = _archs[ordinal] = match.group(0).decode()
    return arch


def processor(arch):
    """The processor of a target ID: "gfx950" of "gfx950:sramecc+:xnack-"
    (what tpx compiles for; a code object without xnack/sramecc settings
    runs with either)."""
    return arch.split(":", 1)[0]


def synchronize():
    api().call("hipDeviceSynchronize")


class Event(GPUEvent):
    """A HIP event with timing, for do_bench without torch."""

    api = staticmethod(api)
    create, record_call = "hipEventCreateWithFlags", "hipEventRecord"
    synchronize_call, elapsed = "hipEventSynchronize", "hipEventElapsedTime"
    destroy = "hipEventDestroy"


class DeviceBuffer(GPUDeviceBuffer):
    """Device memory from hipMalloc (the benchmark's L2 flush buffer when
    torch is absent)."""

    api = staticmethod(api)
    alloc, free = "hipMalloc", "hipFree"

    def memset(self, stream):
        self._library.call("hipMemsetAsync", self.pointer, 0, self.nbytes,
                           stream or None)
