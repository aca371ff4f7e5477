"""Launching NVIDIA artifacts through libcuda (ctypes, no extension).

The cubin is loaded once per CUDA context (cuModuleLoadData, then
cuModuleGetFunction with the metadata's entry point); kernels needing more
than 48 KiB of dynamic shared memory get
cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES) first, and kernels that
need more than the device has raise OutOfResources (the autotuner skips
them). Each launch is cuLaunchKernel with grid = the launch grid, block =
(metadata block_threads, 1, 1), sharedMem = metadata shared_memory, on the
given stream or else the current torch stream (stream 0 without torch).
Launches are asynchronous, as in Triton. A kernel compiled for
thread-block clusters (metadata `cluster_dims`, the launch option
`ctas_per_cga`) is launched with cuLaunchKernelEx and the cluster
dimension attribute; its grid counts CTAs and must be a whole number of
clusters.

Pointer arguments are device addresses: CUDA torch tensors (`data_ptr()`)
and objects with `__cuda_array_interface__`. A tensor on another device
than the current one, a host tensor or a numpy array raises LaunchError
naming the argument. Scalars are Python ints/floats/bools.

Speed: every kernel argument has a fixed 8-byte slot in one ctypes array
and the `void *kernelParams[]` array pointing at the slots is built once;
a launch writes only the slots (through typed views) and calls
cuLaunchKernel with prebuilt ctypes objects. The JIT (`runner`) gets a
generated function doing exactly that and nothing else: it takes the
function loaded in the device's primary context (the one torch uses)
without asking the driver for the current context; if the thread's
current context is another one, the launch fails with an invalid
handle/context and is redone through the general path, which loads the
module into whatever context is current. A concurrent launch of the same
kernel from another thread packs into fresh arrays instead of waiting.

Kernels that move tensor-descriptor blocks with TMA take, after their own
arguments, one 128-byte tensor map per entry of the metadata's
`tensor_maps`; the launcher encodes them before every launch from the
argument values (tpx-c/TensorMap.h: cuTensorMapEncodeTiled in the C
library) and appends them to the parameters. The fast path does the same
in the launcher's own storage, and keeps the maps of the previous launch
when the values are the same (a kernel relaunched on the same tensors
encodes nothing).

One-thread-path kernels call the device `malloc`; for those the launcher
raises CU_LIMIT_MALLOC_HEAP_SIZE to $TPX_CUDA_HEAP_MB MiB (default 4096) in
the context before their first launch, as the C++ runtime does.
"""

import ctypes
import json
import os
import weakref

from tpx import _capi
from tpx.errors import LaunchError, OutOfResources
from tpx.runtime import cuda, launch_gpu

__all__ = ["CUDALauncher", "device_pointer"]

_DEFAULT_SHARED_LIMIT = 48 * 1024

# The helpers the launchers share, under the names tests import.
_f16_bits = launch_gpu.f16_bits
_bf16_bits = launch_gpu.bf16_bits
_checked_int = launch_gpu.checked_int


def _check_pointer(pointer, where, device):
    """A __cuda_array_interface__ pointer must be device memory of
    `device` (the driver knows every allocation it made)."""
    kind, ordinal = cuda.pointer_info(pointer)
    if kind == cuda.MEMORYTYPE_HOST or kind is None:
        raise LaunchError("%s: %#x is not device memory" % (where, pointer))
    if ordinal is not None and ordinal != device and \
            kind == cuda.MEMORYTYPE_DEVICE:
        raise LaunchError(
            "%s is memory of cuda:%d, but the kernel runs on cuda:%d"
            % (where, ordinal, device))


def device_pointer(obj, where, device):
    """The device address of a pointer argument on CUDA device `device`;
    LaunchError naming the argument for anything else."""
    return launch_gpu.device_pointer(obj, where, device, _check_pointer)


class CUDALauncher(launch_gpu.GPULauncher):
    """Launches one sm_* artifact (see the module doc)."""
    backend = "cuda"
    launch_call = "cuLaunchKernel"
    grid_limits = ("CUDA allows up to 2^31 - 1 programs along x and 65535 "
                   "along y and z")

    def __init__(self, kernel):
        self.api = cuda.api()
        self._cu_ctx = self.api.function("cuCtxGetCurrent")
        self._uses_malloc = b"malloc" in kernel.binary
        self._functions = {}          # context -> CUfunction (c_void_p)
        self._ctx = ctypes.c_void_p()
        self._ctx_ref = ctypes.byref(self._ctx)
        self._maps = _TensorMaps(kernel)
        # A launch in another context than the function's is redone
        # through the current context.
        self.retry = _RETRY
        # _by_device (of the base): device -> CUfunction in its primary
        # context, the one the fast path launches.
        clusters = tuple(int(d) for d in
                         kernel.metadata.get("cluster_dims") or (1, 1, 1))
        if clusters != (1, 1, 1):
            launch_fn = _ClusterLaunch(self.api, clusters, kernel.name)
            self.launch_call = "cuLaunchKernelEx"
            self.grid_limits += (" and a multiple of the cluster (%d, %d, %d)"
                                 % clusters)
        else:
            launch_fn = self.api.function("cuLaunchKernel")
        self.cluster_dims = clusters
        super().__init__(kernel, launch_fn,
                         int(kernel.metadata.shared_memory or 0))

    def _extra_storage(self):
        return self._maps.new_storage()

    def _pack_extra(self, values, params, reuse):
        if self._maps.count:
            # Only the launcher's own parameter storage lives on between
            # launches (a concurrent launch packs into fresh arrays).
            self._maps.encode(values, params[len(self.kinds)], reuse=reuse)

    def _has_extra(self):
        return bool(self._maps.count)

    # -- loading ------------------------------------------------------------

    def _function(self):
        """The CUfunction for the calling thread's current context, loading
        the module into it first if needed (and making the current
        device's primary context current if the thread has none)."""
        self._cu_ctx(self._ctx_ref)
        f = self._functions.get(self._ctx.value)
        return f if f is not None else self._load()

    def _load(self):
        with self._load_lock:
            ctx = cuda.current_context()
            if not ctx:
                ctx = cuda.ensure_context(self.current_device())
            f = self._functions.get(ctx)
            if f is not None:
                return f
            api = self.api
            device = cuda.context_device()
            what = "kernel '%s' (entry '%s')" % (self.name,
                                                 self.entry.decode())
            limit = cuda.device_attribute(
                cuda.ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, device)
            if self.shared > limit:
                raise OutOfResources(self.shared, limit, "shared memory")
            if self._uses_malloc:
                self._raise_heap_limit()
            module = ctypes.c_void_p()
            api.check(api.cuModuleLoadData(ctypes.byref(module),
                                           self._image),
                      "cuModuleLoadData (%s, target %s)" %
                      (what, self.kernel.metadata.target), LaunchError)
            function = ctypes.c_void_p()
            api.check(api.cuModuleGetFunction(ctypes.byref(function), module,
                                              self.entry),
                      "cuModuleGetFunction('%s')" % self.entry.decode(),
                      LaunchError)
            max_threads = self._func_attribute(
                function, cuda.FUNC_MAX_THREADS_PER_BLOCK)
            if max_threads is not None and self.block > max_threads:
                raise OutOfResources(self.block, max_threads, "threads")
            if self.shared > _DEFAULT_SHARED_LIMIT:
                api.check(api.cuFuncSetAttribute(
                    function, cuda.FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    self.shared),
                    "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, %d) "
                    "for %s" % (self.shared, what), LaunchError)
            regs = self._func_attribute(function, cuda.FUNC_NUM_REGS)
            local = self._func_attribute(function,
                                         cuda.FUNC_LOCAL_SIZE_BYTES)
            self.kernel._driver_regs = regs
            # Triton's n_spills: local memory per thread in 32-bit words.
            self.kernel._driver_spills = (local // 4) if local else 0
            self.kernel.function = function.value
            self._functions[ctx] = function
            if ctx == cuda.primary_context(device):
                self._by_device[device] = function
            return function

    def _func_attribute(self, function, attribute):
        value = ctypes.c_int()
        if self.api.cuFuncGetAttribute(ctypes.byref(value), attribute,
                                       function):
            return None
        return value.value

    def _raise_heap_limit(self):
        try:
            heap = int(os.environ.get("TPX_CUDA_HEAP_MB", "4096")) << 20
        except ValueError:
            raise LaunchError("TPX_CUDA_HEAP_MB must be an integer (MiB)") \
                from None
        current = ctypes.c_size_t()
        api = self.api
        if api.cuCtxGetLimit(ctypes.byref(current),
                             cuda.LIMIT_MALLOC_HEAP_SIZE):
            return
        if current.value < heap:
            # Fails once a malloc kernel has run in this context; the
            # heap it has then stays, which is all we can do.
            api.cuCtxSetLimit(cuda.LIMIT_MALLOC_HEAP_SIZE, heap)

    # -- launching ------------------------------------------------------------

    def _pointer(self, obj, where, device):
        return device_pointer(obj, where, device)

    def _fail(self, result, gx, gy, gz):
        error = None
        if result == cuda.ERROR_LAUNCH_OUT_OF_RESOURCES:
            props_limit = None
            try:
                props_limit = cuda.device_attribute(
                    cuda.ATTR_MAX_REGISTERS_PER_BLOCK, cuda.context_device())
            except Exception:
                pass
            error = OutOfResources(self.kernel.n_regs * self.block,
                                   props_limit, "registers")
        self._raise_failure(result, self.launch_text(gx, gy, gz), error)


class _CUlaunchAttribute(ctypes.Structure):
    # CUlaunchAttribute: the id, padding to 8 bytes, a 64-byte value union
    # (for the cluster dimension: three unsigned ints).
    _fields_ = [("id", ctypes.c_int), ("pad", ctypes.c_char * 4),
                ("value", ctypes.c_uint * 16)]


class _CUlaunchConfig(ctypes.Structure):
    _fields_ = [("gridDimX", ctypes.c_uint), ("gridDimY", ctypes.c_uint),
                ("gridDimZ", ctypes.c_uint), ("blockDimX", ctypes.c_uint),
                ("blockDimY", ctypes.c_uint), ("blockDimZ", ctypes.c_uint),
                ("sharedMemBytes", ctypes.c_uint),
                ("hStream", ctypes.c_void_p),
                ("attrs", ctypes.POINTER(_CUlaunchAttribute)),
                ("numAttrs", ctypes.c_uint)]


_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4


class _ClusterLaunch:
    """cuLaunchKernelEx with the kernel's thread-block cluster, called as
    cuLaunchKernel is (the launchers' `launch_fn`). The grid counts CTAs
    (as program ids do): each extent must be a multiple of the cluster's,
    else the launch is a LaunchError before the driver sees it."""

    def __init__(self, api, clusters, name):
        self._launch = api.function("cuLaunchKernelEx")
        self._launch.argtypes = [ctypes.POINTER(_CUlaunchConfig),
                                 ctypes.c_void_p, ctypes.c_void_p,
                                 ctypes.c_void_p]
        self._clusters = clusters
        self._name = name
        self._attribute = _CUlaunchAttribute()
        self._attribute.id = _LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
        self._attribute.value[0:3] = list(clusters)
        self._spare = []  # configs not in use (concurrent calls take others)

    def __call__(self, function, gx, gy, gz, bx, by, bz, shared, stream,
                 params, extra):
        cx, cy, cz = self._clusters
        if gx % cx or gy % cy or gz % cz:
            raise LaunchError(
                "kernel '%s': grid (%d, %d, %d) is not a whole number of "
                "clusters of (%d, %d, %d) CTAs (ctas_per_cga); each extent "
                "must be a multiple of the cluster's" %
                (self._name, gx, gy, gz, cx, cy, cz))
        try:
            config = self._spare.pop()
        except IndexError:
            config = _CUlaunchConfig()
            config.attrs = ctypes.pointer(self._attribute)
            config.numAttrs = 1
        try:
            config.gridDimX, config.gridDimY, config.gridDimZ = gx, gy, gz
            config.blockDimX, config.blockDimY, config.blockDimZ = bx, by, bz
            config.sharedMemBytes = shared
            config.hStream = getattr(stream, "value", stream)
            return self._launch(ctypes.byref(config), function, params, extra)
        finally:
            self._spare.append(config)


class _TensorMaps:
    """The TMA tensor maps a kernel takes after its arguments: storage for
    them (128 bytes each, 64-byte aligned, contiguous) and their encoding
    from the launch values through the C library's plan."""

    def __init__(self, kernel):
        maps = kernel.metadata.get("tensor_maps") or []
        self.count = len(maps)
        self._plan = None
        self._encoded = None  # the values the launcher's own maps hold
        if not self.count:
            return
        lib = _capi.library()
        plan = ctypes.c_void_p()
        _capi.check(lib.tpxTensorMapPlanCreate,
                    json.dumps({"signature": {"kernel": kernel.name},
                                "tensor_maps": maps}).encode(),
                    ctypes.byref(plan), error_type=LaunchError)
        self._plan = plan
        self._lib = lib
        self._finalizer = weakref.finalize(self, lib.tpxTensorMapPlanDestroy,
                                           plan)

    def new_storage(self):
        """A buffer for `count` maps and their addresses in it."""
        if not self.count:
            return None, []
        raw = ctypes.create_string_buffer(128 * self.count + 64)
        start = (ctypes.addressof(raw) + 63) & ~63
        return raw, [start + 128 * i for i in range(self.count)]

    def encode(self, values, first, reuse):
        """Writes the maps for these launch values at address `first`. With
        `reuse` (the launcher's own storage), maps made from the same values
        by the previous launch are kept (a kernel relaunched on the same
        tensors)."""
        values = tuple(values)
        if reuse and self._encoded == values:
            return
        ints = [v if isinstance(v, int) else 0 for v in values]
        args = (ctypes.c_int64 * max(1, len(ints)))(*ints)
        if reuse:
            self._encoded = None
        _capi.check(self._lib.tpxTensorMapPlanEncode, self._plan, args,
                    len(ints), first, error_type=LaunchError)
        if reuse:
            self._encoded = values


# Results of launching a function of another context: redo the launch
# through the current context.
_RETRY = frozenset((cuda.ERROR_INVALID_HANDLE, cuda.ERROR_INVALID_CONTEXT,
                    cuda.ERROR_CONTEXT_IS_DESTROYED))
