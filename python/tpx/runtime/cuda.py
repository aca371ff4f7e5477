"""The CUDA driver API (libcuda) through ctypes.

No CUDA headers, toolkit or compiled extension: libcuda.so.1 (or
$TPX_CUDA_DRIVER, a path) is opened on first use. Every failing call raises
CudaError naming the call, the driver's error name and description, and
the CUresult number, as the C++ runtime does:

    cuModuleLoadData (kernel 'vadd') failed: CUDA_ERROR_INVALID_IMAGE
    (device kernel image is invalid) [CUresult 200]

Enum values are those of cuda.h (CUDA 12/13; they never change).
"""

import ctypes
import os
import threading

from tpx.errors import TpxError
from tpx.runtime.gpu_library import (GPUDeviceBuffer, GPUEvent, GPULibrary,
                                     initialized_once)

# CUdevice_attribute
ATTR_MAX_THREADS_PER_BLOCK = 1
ATTR_MAX_GRID_DIM_X = 5
ATTR_MAX_GRID_DIM_Y = 6
ATTR_MAX_GRID_DIM_Z = 7
ATTR_MAX_SHARED_MEMORY_PER_BLOCK = 8
ATTR_WARP_SIZE = 10
ATTR_MAX_REGISTERS_PER_BLOCK = 12
ATTR_CLOCK_RATE = 13
ATTR_MULTIPROCESSOR_COUNT = 16
ATTR_MEMORY_CLOCK_RATE = 36
ATTR_GLOBAL_MEMORY_BUS_WIDTH = 37
ATTR_L2_CACHE_SIZE = 38
ATTR_COMPUTE_CAPABILITY_MAJOR = 75
ATTR_COMPUTE_CAPABILITY_MINOR = 76
ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97

# CUfunction_attribute
FUNC_MAX_THREADS_PER_BLOCK = 0
FUNC_SHARED_SIZE_BYTES = 1
FUNC_LOCAL_SIZE_BYTES = 3
FUNC_NUM_REGS = 4
FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8

# CUlimit
LIMIT_MALLOC_HEAP_SIZE = 2

# CUpointer_attribute / CUmemorytype
POINTER_MEMORY_TYPE = 2
POINTER_DEVICE_ORDINAL = 9
MEMORYTYPE_HOST = 1
MEMORYTYPE_DEVICE = 2
MEMORYTYPE_UNIFIED = 4

# CUresult values the runtime reacts to.
SUCCESS = 0
ERROR_INVALID_VALUE = 1
ERROR_OUT_OF_MEMORY = 2
ERROR_NOT_INITIALIZED = 3
ERROR_STUB_LIBRARY = 34
ERROR_NO_DEVICE = 100
ERROR_INVALID_CONTEXT = 201
ERROR_INVALID_HANDLE = 400
ERROR_CONTEXT_IS_DESTROYED = 709
ERROR_LAUNCH_OUT_OF_RESOURCES = 701
ERROR_ASSERT = 710

# Names for when the driver cannot name a result itself (a stub libcuda
# answers every query with CUDA_ERROR_STUB_LIBRARY).
_FALLBACK_NAMES = {
    ERROR_STUB_LIBRARY: ("CUDA_ERROR_STUB_LIBRARY",
                         "libcuda is the toolkit's stub, not a real NVIDIA "
                         "driver"),
    ERROR_NO_DEVICE: ("CUDA_ERROR_NO_DEVICE",
                      "no CUDA-capable device is detected"),
}


class CudaError(TpxError):
    """A CUDA driver call failed. `result` is the CUresult, `call` what was
    called."""

    def __init__(self, message, result=None, call=None):
        super().__init__(message)
        self.result = result
        self.call = call


# name: argtypes (None: set no argtypes, callers pass ctypes objects; the
# launch path does this to avoid per-call conversion).
_PROTOTYPES = {
    "cuInit": [ctypes.c_uint],
    "cuGetErrorName": [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)],
    "cuGetErrorString": [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)],
    "cuDriverGetVersion": [ctypes.POINTER(ctypes.c_int)],
    "cuDeviceGetCount": [ctypes.POINTER(ctypes.c_int)],
    "cuDeviceGet": [ctypes.POINTER(ctypes.c_int), ctypes.c_int],
    "cuDeviceGetAttribute": [ctypes.POINTER(ctypes.c_int), ctypes.c_int,
                             ctypes.c_int],
    "cuDeviceGetName": [ctypes.c_char_p, ctypes.c_int, ctypes.c_int],
    "cuDevicePrimaryCtxRetain": [ctypes.POINTER(ctypes.c_void_p),
                                 ctypes.c_int],
    "cuCtxGetCurrent": None,
    "cuCtxSetCurrent": [ctypes.c_void_p],
    "cuCtxGetDevice": [ctypes.POINTER(ctypes.c_int)],
    "cuCtxSynchronize": [],
    "cuCtxGetLimit": [ctypes.POINTER(ctypes.c_size_t), ctypes.c_int],
    "cuCtxSetLimit": [ctypes.c_int, ctypes.c_size_t],
    "cuModuleLoadData": [ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p],
    "cuModuleUnload": [ctypes.c_void_p],
    "cuModuleGetFunction": [ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p,
                            ctypes.c_char_p],
    "cuFuncGetAttribute": [ctypes.POINTER(ctypes.c_int), ctypes.c_int,
                           ctypes.c_void_p],
    "cuFuncSetAttribute": [ctypes.c_void_p, ctypes.c_int, ctypes.c_int],
    "cuLaunchKernel": None,
    "cuStreamSynchronize": [ctypes.c_void_p],
    "cuPointerGetAttribute": [ctypes.c_void_p, ctypes.c_int,
                              ctypes.c_uint64],
    "cuMemAlloc_v2": [ctypes.POINTER(ctypes.c_uint64), ctypes.c_size_t],
    "cuMemFree_v2": [ctypes.c_uint64],
    "cuMemsetD32Async": [ctypes.c_uint64, ctypes.c_uint, ctypes.c_size_t,
                         ctypes.c_void_p],
    "cuMemcpyHtoD_v2": [ctypes.c_uint64, ctypes.c_void_p, ctypes.c_size_t],
    "cuMemcpyDtoH_v2": [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_size_t],
    "cuEventCreate": [ctypes.POINTER(ctypes.c_void_p), ctypes.c_uint],
    "cuEventRecord": [ctypes.c_void_p, ctypes.c_void_p],
    "cuEventSynchronize": [ctypes.c_void_p],
    "cuEventDestroy_v2": [ctypes.c_void_p],
    "cuEventElapsedTime_v2": [ctypes.POINTER(ctypes.c_float),
                              ctypes.c_void_p, ctypes.c_void_p],
    "cuEventElapsedTime": [ctypes.POINTER(ctypes.c_float), ctypes.c_void_p,
                           ctypes.c_void_p],
}


def library_name():
    """The driver library that is opened: $TPX_CUDA_DRIVER or libcuda.so.1."""
    return os.environ.get("TPX_CUDA_DRIVER") or "libcuda.so.1"


class DriverAPI(GPULibrary):
    """The loaded libcuda; functions are attributes (`api.cuInit`)."""

    prefix = "cu"
    error_type = CudaError
    success = SUCCESS

    def __init__(self):
        name = library_name()
        try:
            lib = ctypes.CDLL(name)
        except OSError as e:
            raise CudaError("%s not found: no NVIDIA driver on this machine "
                            "(%s)" % (name, e)) from None
        super().__init__(lib)
        self.name = name

    def missing(self, name):
        return CudaError("the CUDA driver %s lacks '%s' (driver too old?)"
                         % (self.name, name))

    def prototype(self, name, fn):
        fn.restype = ctypes.c_int
        argtypes = _PROTOTYPES.get(name)
        if argtypes is not None:
            fn.argtypes = argtypes

    def error_text(self, result):
        """(name, description) of a CUresult."""
        name = ctypes.c_char_p()
        text = ctypes.c_char_p()
        try:
            if self.function("cuGetErrorName")(result, ctypes.byref(name)):
                name.value = None
            if self.function("cuGetErrorString")(result, ctypes.byref(text)):
                text.value = None
        except CudaError:
            pass
        fallback = _FALLBACK_NAMES.get(result, (None, None))
        return ((name.value.decode() if name.value else fallback[0]) or
                "unknown CUDA error",
                (text.value.decode() if text.value else fallback[1]) or
                "no description")

    def message(self, result, call):
        name, text = self.error_text(result)
        message = "%s failed: %s (%s)" % (call, name, text)
        if result == ERROR_ASSERT:
            message += ("; a device-side assertion (tt.assert) failed, see "
                        "the message printed above, and the CUDA context of "
                        "this process is no longer usable")
        return message + " [CUresult %d]" % result


def _make_api():
    driver = DriverAPI()
    driver.call("cuInit", 0)
    return driver


# The initialised driver (cuInit done); CudaError when unusable.
api = initialized_once(_make_api, CudaError)


def probe():
    """(usable, reason): whether a CUDA device can run kernels here."""
    try:
        driver = api()
        count = ctypes.c_int()
        driver.call("cuDeviceGetCount", ctypes.byref(count))
    except CudaError as e:
        return False, str(e)
    if count.value <= 0:
        return False, "the CUDA driver reports no devices"
    return True, "%d CUDA device(s)" % count.value


def device_count():
    count = ctypes.c_int()
    api().call("cuDeviceGetCount", ctypes.byref(count))
    return count.value


def _device_handle(ordinal):
    count = device_count()
    if not isinstance(ordinal, int) or not 0 <= ordinal < count:
        raise ValueError("CUDA device %r requested but %d present" %
                         (ordinal, count))
    device = ctypes.c_int()
    api().call("cuDeviceGet", ctypes.byref(device), ordinal,
               what="cuDeviceGet(%d)" % ordinal)
    return device.value


def device_attribute(attribute, ordinal):
    value = ctypes.c_int()
    api().call("cuDeviceGetAttribute", ctypes.byref(value), attribute,
               _device_handle(ordinal),
               what="cuDeviceGetAttribute(%d, device %d)" %
               (attribute, ordinal))
    return value.value


def device_name(ordinal):
    buffer = ctypes.create_string_buffer(256)
    api().call("cuDeviceGetName", buffer, 256, _device_handle(ordinal))
    return buffer.value.decode(errors="replace")


def compute_capability(ordinal):
    return (device_attribute(ATTR_COMPUTE_CAPABILITY_MAJOR, ordinal),
            device_attribute(ATTR_COMPUTE_CAPABILITY_MINOR, ordinal))


_lock = threading.RLock()  # guards _primary
_primary = {}


def primary_context(ordinal):
    """The retained primary context of a device (the one torch uses)."""
    with _lock:
        ctx = _primary.get(ordinal)
        if ctx is None:
            handle = ctypes.c_void_p()
            api().call("cuDevicePrimaryCtxRetain", ctypes.byref(handle),
                       _device_handle(ordinal),
                       what="cuDevicePrimaryCtxRetain(device %d)" % ordinal)
            ctx = _primary[ordinal] = handle.value
        return ctx


def current_context():
    """The calling thread's current context (an int; 0 when none)."""
    handle = ctypes.c_void_p()
    api().check(api().function("cuCtxGetCurrent")(ctypes.byref(handle)),
                "cuCtxGetCurrent")
    return handle.value or 0


def set_current_context(ctx):
    api().call("cuCtxSetCurrent", ctx)


def context_device():
    """The ordinal of the current context's device."""
    device = ctypes.c_int()
    api().call("cuCtxGetDevice", ctypes.byref(device))
    return device.value


def ensure_context(ordinal):
    """Makes the primary context of `ordinal` current when the thread has
    none (torch does this itself; plain programs rely on us)."""
    ctx = current_context()
    if not ctx:
        ctx = primary_context(ordinal)
        set_current_context(ctx)
    return ctx


def pointer_info(address):
    """(memory type, device ordinal) of an address, or (None, None) when
    the driver does not know it (plain host memory)."""
    driver = api()
    kind = ctypes.c_uint()
    result = driver.function("cuPointerGetAttribute")(
        ctypes.byref(kind), POINTER_MEMORY_TYPE, address)
    if result != SUCCESS:
        return None, None
    ordinal = ctypes.c_int()
    result = driver.function("cuPointerGetAttribute")(
        ctypes.byref(ordinal), POINTER_DEVICE_ORDINAL, address)
    return kind.value, (ordinal.value if result == SUCCESS else None)


def synchronize():
    api().call("cuCtxSynchronize")


class Event(GPUEvent):
    """A CUDA event with timing, for do_bench without torch."""

    api = staticmethod(api)
    create, record_call = "cuEventCreate", "cuEventRecord"
    synchronize_call, destroy = "cuEventSynchronize", "cuEventDestroy_v2"

    def elapsed_call(self):
        return ("cuEventElapsedTime_v2"
                if self._library.has("cuEventElapsedTime_v2")
                else "cuEventElapsedTime")


class DeviceBuffer(GPUDeviceBuffer):
    """Device memory from cuMemAlloc (the benchmark's L2 flush buffer when
    torch is absent)."""

    api = staticmethod(api)
    alloc, free, alloc_name = "cuMemAlloc_v2", "cuMemFree_v2", "cuMemAlloc"
    pointer_type = ctypes.c_uint64

    def memset(self, stream):
        self._library.call("cuMemsetD32Async", self.pointer, 0,
                           self.nbytes // 4, stream or None)
