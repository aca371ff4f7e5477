"""Launching NVIDIA artifacts through libcuda (ctypes, no extension).

The cubin is loaded once per CUDA context (cuModuleLoadData, then
cuModuleGetFunction with the metadata's entry point); kernels needing more
than 48 KiB of dynamic shared memory get
cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES) first, and kernels that
need more than the device has raise OutOfResources (the autotuner skips
them). Each launch is cuLaunchKernel with grid = the launch grid, block =
(metadata block_threads, 1, 1), sharedMem = metadata shared_memory, on the
given stream or else the current torch stream (stream 0 without torch).
Launches are asynchronous, as in Triton.

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
library) and appends them to the parameters. Those kernels launch through
the general path.

One-thread-path kernels call the device `malloc`; for those the launcher
raises CU_LIMIT_MALLOC_HEAP_SIZE to $TPX_CUDA_HEAP_MB MiB (default 4096) in
the context before their first launch, as the C++ runtime does.
"""

import ctypes
import json
import os
import struct
import threading
import weakref

from tpx import _capi
from tpx.errors import LaunchError, OutOfResources
from tpx.runtime import arguments, cuda

__all__ = ["CUDALauncher", "device_pointer"]

_DEFAULT_SHARED_LIMIT = 48 * 1024


def _current_device():
    from tpx.runtime.driver import driver
    active = driver.active
    if active.backend == "cuda":
        return active.get_current_device()
    return 0


def _current_stream(device):
    from tpx.runtime.driver import driver
    active = driver.active
    if active.backend == "cuda":
        return active.get_current_stream(device)
    return 0


def device_pointer(obj, where, device):
    """The device address of a pointer argument on CUDA device `device`;
    LaunchError naming the argument for anything else."""
    if obj is None:
        raise LaunchError("%s is a pointer but None was given" % where)
    if arguments.is_torch_tensor(obj):
        index = obj.get_device()
        if index < 0:
            raise LaunchError(
                "%s is a torch tensor on %s, but the kernel runs on cuda:%d "
                "(move it with .cuda())" % (where, obj.device, device))
        if index != device:
            raise LaunchError(
                "%s is a torch tensor on cuda:%d, but the kernel runs on "
                "cuda:%d (the current device; use torch.cuda.device(%d) or "
                "move the tensor)" % (where, index, device, index))
        return obj.data_ptr()
    interface = getattr(obj, "__cuda_array_interface__", None)
    if isinstance(interface, dict):
        try:
            pointer, _, _ = arguments.interface_buffer(interface)
        except (TypeError, ValueError, KeyError) as e:
            raise LaunchError("%s: %s" % (where, e)) from None
        if pointer:
            kind, ordinal = cuda.pointer_info(pointer)
            if kind == cuda.MEMORYTYPE_HOST or kind is None:
                raise LaunchError("%s: %#x is not device memory" %
                                  (where, pointer))
            if ordinal is not None and ordinal != device and \
                    kind == cuda.MEMORYTYPE_DEVICE:
                raise LaunchError(
                    "%s is memory of cuda:%d, but the kernel runs on cuda:%d"
                    % (where, ordinal, device))
        return pointer
    if hasattr(obj, "__array_interface__"):
        raise LaunchError(
            "%s is host memory (%s), but the kernel runs on cuda:%d: pass a "
            "CUDA tensor" % (where, arguments.describe(obj), device))
    pointer = getattr(obj, "tpx_device_pointer", None)
    if pointer is not None:
        return pointer
    data_ptr = getattr(obj, "data_ptr", None)
    if callable(data_ptr) and hasattr(obj, "dtype"):
        # Triton's TensorWrapper and similar wrappers.
        return data_ptr()
    raise LaunchError("%s is a pointer, but %s is not device memory (pass a "
                      "CUDA torch tensor or an object with "
                      "__cuda_array_interface__)" %
                      (where, arguments.describe(obj)))


def _f16_bits(value):
    return struct.unpack("<H", struct.pack("<e", value))[0]


def _bf16_bits(value):
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    if (bits & 0x7F800000) == 0x7F800000 and bits & 0x7FFFFF:
        return (bits >> 16) | 0x40  # quiet NaN
    rounding = 0x7FFF + ((bits >> 16) & 1)  # to nearest, ties to even
    return ((bits + rounding) >> 16) & 0xFFFF


# Scalar parameter types: (ctypes view type, converter or None, int width).
_SCALARS = {
    "i1": (ctypes.c_uint8, bool, 1),
    "i8": (ctypes.c_int8, None, 8),
    "i16": (ctypes.c_int16, None, 16),
    "i32": (ctypes.c_int32, None, 32),
    "i64": (ctypes.c_int64, None, 64),
    "f16": (ctypes.c_uint16, _f16_bits, 0),
    "bf16": (ctypes.c_uint16, _bf16_bits, 0),
    "f32": (ctypes.c_float, None, 0),
    "f64": (ctypes.c_double, None, 0),
}


class CUDALauncher:
    """Launches one sm_* artifact (see the module doc)."""

    def __init__(self, kernel):
        self.kernel = kernel
        md = kernel.metadata
        self.name = kernel.name
        self.entry = str(md.entry_point).encode()
        self.block = max(1, int(md.block_threads or 1))
        self.shared = int(md.shared_memory or 0)
        if not kernel.binary:
            raise LaunchError("kernel '%s' has no binary to load" % self.name)
        self._image = ctypes.create_string_buffer(kernel.binary,
                                                  len(kernel.binary))
        self._uses_malloc = b"malloc" in kernel.binary
        self.api = cuda.api()
        self._cu_launch = self.api.function("cuLaunchKernel")
        self._cu_ctx = self.api.function("cuCtxGetCurrent")
        self.kinds = []      # "pointer" / "int" / "float" per argument
        self.types = []
        self._views = []     # view type, converter per argument
        for index, arg in enumerate(kernel.signature):
            kind = arg.get("kind")
            type_name = arg.get("type", "?")
            if kind == "pointer":
                self.kinds.append("pointer")
                self._views.append((ctypes.c_uint64, None))
            elif kind == "scalar" and type_name in _SCALARS:
                view, convert, width = _SCALARS[type_name]
                self.kinds.append("int" if type_name.startswith("i")
                                  else "float")
                self._views.append((view, convert))
            else:
                raise LaunchError(
                    "argument %d '%s' of kernel '%s' is %s %s, which the CUDA "
                    "launcher cannot pass" %
                    (index, arg.get("name"), self.name, kind, type_name))
            self.types.append(type_name)
        self.wheres = [
            "argument %d '%s' of kernel '%s'" % (i, a.get("name"), self.name)
            for i, a in enumerate(kernel.signature)]
        self._functions = {}          # context -> CUfunction (c_void_p)
        self._by_device = {}          # device -> CUfunction in its primary
        #                               context
        self._load_lock = threading.Lock()
        self._lock = threading.Lock()
        self._ctx = ctypes.c_void_p()
        self._ctx_ref = ctypes.byref(self._ctx)
        self._maps = _TensorMaps(kernel)
        (self._slots, self._params, self._slot_views,
         self._stream) = self._new_arrays()

    def _new_arrays(self):
        n = len(self.kinds)
        slots = (ctypes.c_uint64 * max(1, n))()
        base = ctypes.addressof(slots)
        storage, maps = self._maps.new_storage()
        params = (ctypes.c_void_p * max(1, n + len(maps)))(
            *([base + 8 * j for j in range(n)] + maps))
        params._tpx_maps = storage  # the parameters keep the maps alive
        views = [view.from_buffer(slots, 8 * j)
                 for j, (view, _) in enumerate(self._views)]
        return slots, params, views, ctypes.c_void_p()

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
                ctx = cuda.ensure_context(_current_device())
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

    # -- generic path (CompiledKernel.run) ---------------------------------

    def convert(self, args, device):
        """Python objects -> launch values, checked against the ABI."""
        return arguments.convert_all(
            self, args, lambda obj, where: device_pointer(obj, where, device),
            _checked_int)

    def launch(self, gx, gy, gz, args, stream=None):
        device = _current_device()
        values = self.convert(args, device)
        if stream is None:
            stream = _current_stream(device)
        self.launch_values(gx, gy, gz, values, stream)

    def launch_values(self, gx, gy, gz, values, stream=0, device=None):
        """Launches with converted values (one per kernel argument), in the
        thread's current context."""
        if not gx * gy * gz:
            return
        if self._lock.acquire(False):
            try:
                result = self._pack_and_launch(
                    self._slot_views, self._params, self._stream,
                    values, gx, gy, gz, stream)
            finally:
                self._lock.release()
        else:
            _, params, views, stream_slot = self._new_arrays()
            result = self._pack_and_launch(views, params, stream_slot,
                                           values, gx, gy, gz, stream)
        if result:
            self._fail(result, gx, gy, gz)

    def _pack_and_launch(self, views, params, stream_slot, values, gx, gy,
                         gz, stream):
        for view, (_, convert), value in zip(views, self._views, values):
            view.value = convert(value) if convert else value
        if self._maps.count:
            # Only the launcher's own parameter storage lives on between
            # launches (a concurrent launch packs into fresh arrays).
            self._maps.encode(values, params[len(self.kinds)],
                              reuse=params is self._params)
        stream_slot.value = stream or None
        function = self._function()
        return self._call(function, gx, gy, gz, stream_slot, params)

    def _call(self, function, gx, gy, gz, stream_slot, params):
        try:
            return self._cu_launch(function, gx, gy, gz, self.block, 1, 1,
                                   self.shared, stream_slot, params, None)
        except ctypes.ArgumentError:
            raise LaunchError(
                "kernel '%s': grid (%d, %d, %d) is out of range (CUDA allows "
                "up to 2^31 - 1 programs along x and 65535 along y and z)" %
                (self.name, gx, gy, gz)) from None

    def _fail(self, result, gx, gy, gz):
        call = ("cuLaunchKernel('%s', grid (%d, %d, %d), block (%d, 1, 1), "
                "%d bytes of shared memory)" %
                (self.entry.decode(), gx, gy, gz, self.block, self.shared))
        if result == cuda.ERROR_LAUNCH_OUT_OF_RESOURCES:
            props_limit = None
            try:
                props_limit = cuda.device_attribute(
                    cuda.ATTR_MAX_REGISTERS_PER_BLOCK, cuda.context_device())
            except Exception:
                pass
            error = OutOfResources(self.kernel.n_regs * self.block,
                                   props_limit, "registers")
            error.args = (str(error) + " (" + self.api.message(result, call)
                          + ")",)
            raise error
        self.api.check(result, call, LaunchError)

    # -- the JIT's fast path -----------------------------------------------

    def runner(self, selection):
        """A function run(gx, gy, gz, values, stream, device) for the JIT.

        `selection[j]` says where kernel argument j comes from in `values`:
        an index, or (index, sub-index) for one part of an argument that
        spans several (a tensor descriptor's base, shapes and strides).
        Pointer values are device addresses (ints), already checked.
        """
        if len(selection) != len(self.kinds):
            raise LaunchError(
                "kernel '%s' takes %d arguments but the runtime selected %d "
                "(the front end's TTIR and the specialization disagree)" %
                (self.name, len(self.kinds), len(selection)))
        if self._maps.count:
            pick, slow = _picker(selection), self.launch_values

            def run(gx, gy, gz, values, stream, device):
                slow(gx, gy, gz, pick(values), stream)
            return run
        namespace = {
            "acquire": self._lock.acquire, "release": self._lock.release,
            "slow": self.launch_values, "pick": _picker(selection),
            "by_device": self._by_device, "cu_launch": self._cu_launch,
            "block": self.block, "shared": self.shared,
            "stream_slot": self._stream, "params": self._params,
            "fail": self._fail, "ArgumentError": ctypes.ArgumentError,
            "call": self._call, "retry": _RETRY,
        }
        lines = ["def run(gx, gy, gz, values, stream, device):",
                 "    if not gx * gy * gz:",
                 "        return",
                 "    f = by_device.get(device)",
                 "    if f is None or not acquire(False):",
                 "        return slow(gx, gy, gz, pick(values), stream)",
                 "    try:"]
        for j, source in enumerate(selection):
            ref = ("values[%d][%d]" % source if isinstance(source, tuple)
                   else "values[%d]" % source)
            convert = self._views[j][1]
            namespace["s%d" % j] = self._slot_views[j]
            if convert is not None:
                namespace["c%d" % j] = convert
                lines.append("        s%d.value = c%d(%s)" % (j, j, ref))
            else:
                lines.append("        s%d.value = %s" % (j, ref))
        lines += [
            "        stream_slot.value = stream",
            "        try:",
            "            r = cu_launch(f, gx, gy, gz, block, 1, 1, shared,",
            "                          stream_slot, params, None)",
            "        except ArgumentError:",
            "            r = call(f, gx, gy, gz, stream_slot, params)",
            "    finally:",
            "        release()",
            "    if r:",
            "        if r in retry:",
            "            return slow(gx, gy, gz, pick(values), stream)",
            "        fail(r, gx, gy, gz)",
        ]
        exec(compile("\n".join(lines), "<tpx cuda launcher %s>" % self.name,
                     "exec"), namespace)
        return namespace["run"]


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
        ints = tuple(v if isinstance(v, int) else 0 for v in values)
        if reuse and self._encoded == ints:
            return
        args = (ctypes.c_int64 * max(1, len(ints)))(*ints)
        if reuse:
            self._encoded = None
        _capi.check(self._lib.tpxTensorMapPlanEncode, self._plan, args,
                    len(ints), first, error_type=LaunchError)
        if reuse:
            self._encoded = ints


# Results of launching a function of another context: redo the launch
# through the current context.
_RETRY = frozenset((cuda.ERROR_INVALID_HANDLE, cuda.ERROR_INVALID_CONTEXT,
                    cuda.ERROR_CONTEXT_IS_DESTROYED))


def _picker(selection):
    def pick(values):
        return [values[s[0]][s[1]] if isinstance(s, tuple) else values[s]
                for s in selection]
    return pick


def _checked_int(obj, where, type_name):
    value = arguments.int_value(obj, where, type_name)
    width = int(type_name[1:])
    # Signed or unsigned values of the width, as the C API accepts.
    if not -(1 << (width - 1)) <= value < (1 << width) and width > 1 or (
            width == 1 and value not in (0, 1)):
        raise LaunchError("%s is %s but %d does not fit" %
                          (where, type_name, value))
    return value


