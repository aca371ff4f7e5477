"""What the CUDA and HIP launchers share: kernelParams, scalars, pointers.

cuLaunchKernel and hipModuleLaunchKernel take the kernel's arguments the
same way: `void *kernelParams[]`, one pointer per argument to its value,
which the driver copies into the kernel's parameter space (CUDA) or
kernarg segment (HIP) at the offset and size the binary gives it. So both
launchers keep every argument in a fixed 8-byte slot of one ctypes array,
build the `kernelParams` array pointing at the slots once, and per launch
only write the slots (through typed views) and call the driver with
prebuilt ctypes objects. `GPULauncher` is that machinery; a subclass says
how its binary is loaded (`_function`, `_by_device`), which driver call
launches it and how a failed launch is reported (`_fail`).

Pointer arguments are device addresses: GPU torch tensors (`data_ptr()`;
torch on ROCm calls AMD GPUs `cuda` devices too), objects with
`__cuda_array_interface__` (CuPy, Numba; CuPy on ROCm exposes the same
interface), and wrappers with `data_ptr()` and `dtype`. Scalars are Python
ints, floats and bools, range-checked against the parameter's type.
"""

import ctypes
import struct
import threading

from tpx.errors import LaunchError
from tpx.runtime import arguments
from tpx.runtime.launch_cpu import _picker, check_selection

__all__ = ["GPULauncher", "SCALARS", "checked_int", "device_pointer",
           "f16_bits", "bf16_bits"]


def f16_bits(value):
    return struct.unpack("<H", struct.pack("<e", value))[0]


def bf16_bits(value):
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    if (bits & 0x7F800000) == 0x7F800000 and bits & 0x7FFFFF:
        return (bits >> 16) | 0x40  # quiet NaN
    rounding = 0x7FFF + ((bits >> 16) & 1)  # to nearest, ties to even
    return ((bits + rounding) >> 16) & 0xFFFF


# Scalar parameter types: (ctypes view type, converter or None, int width).
SCALARS = {
    "i1": (ctypes.c_uint8, bool, 1),
    "i8": (ctypes.c_int8, None, 8),
    "i16": (ctypes.c_int16, None, 16),
    "i32": (ctypes.c_int32, None, 32),
    "i64": (ctypes.c_int64, None, 64),
    "f16": (ctypes.c_uint16, f16_bits, 0),
    "bf16": (ctypes.c_uint16, bf16_bits, 0),
    "f32": (ctypes.c_float, None, 0),
    "f64": (ctypes.c_double, None, 0),
}


def checked_int(obj, where, type_name):
    """An integer argument as a Python int that fits `type_name` (signed
    or unsigned values of the width, as the C API accepts)."""
    value = arguments.int_value(obj, where, type_name)
    width = int(type_name[1:])
    if not -(1 << (width - 1)) <= value < (1 << width) and width > 1 or (
            width == 1 and value not in (0, 1)):
        raise LaunchError("%s is %s but %d does not fit" %
                          (where, type_name, value))
    return value


def device_pointer(obj, where, device, check=None):
    """The device address of a pointer argument for GPU `device`;
    LaunchError naming the argument for anything else. `check(pointer,
    where, device)`, when given, vets a `__cuda_array_interface__` pointer
    with the driver (is it device memory, and of this device?)."""
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
        if pointer and check is not None:
            check(pointer, where, device)
        return pointer
    if hasattr(obj, "__array_interface__"):
        raise LaunchError(
            "%s is host memory (%s), but the kernel runs on cuda:%d: pass a "
            "GPU tensor" % (where, arguments.describe(obj), device))
    pointer = getattr(obj, "tpx_device_pointer", None)
    if pointer is not None:
        return pointer
    data_ptr = getattr(obj, "data_ptr", None)
    if callable(data_ptr) and hasattr(obj, "dtype"):
        # Triton's TensorWrapper and similar wrappers.
        return data_ptr()
    raise LaunchError("%s is a pointer, but %s is not device memory (pass a "
                      "GPU torch tensor or an object with "
                      "__cuda_array_interface__)" %
                      (where, arguments.describe(obj)))


_UINT_MAX = 0xFFFFFFFF


class GPULauncher:
    """Launches one GPU artifact through `void *kernelParams[]`.

    Subclasses set `backend` ("cuda", "hip": the driver whose device and
    stream a launch takes), `launch_call` (the driver call, for messages),
    `shared_name` (what the shared-memory argument is), `grid_limits` (a
    grid that does not fit the call's unsigned ints), `retry` (results
    after which the fast path redoes a launch through the general path),
    and implement `_function()` (the loaded function for the calling
    thread's device or context), `_fail(result, gx, gy, gz)` and, when the
    kernel takes parameters after its own arguments, `_extra_storage()` /
    `_pack_extra(...)`. `_by_device` maps a device to its loaded function
    for the fast path.
    """
    backend = None
    launch_call = None
    shared_name = "shared memory"
    grid_limits = ""
    retry = frozenset()

    def __init__(self, kernel, launch_fn, shared):
        self.kernel = kernel
        md = kernel.metadata
        self.name = kernel.name
        self.entry = str(md.entry_point).encode()
        self.block = max(1, int(md.block_threads or 1))
        self.shared = shared
        if not kernel.binary:
            raise LaunchError("kernel '%s' has no binary to load" % self.name)
        self._image = ctypes.create_string_buffer(kernel.binary,
                                                  len(kernel.binary))
        self._launch_fn = launch_fn
        self.kinds = []      # "pointer" / "int" / "float" per argument
        self.types = []
        self._views = []     # view type, converter per argument
        for index, arg in enumerate(kernel.signature):
            kind = arg.get("kind")
            type_name = arg.get("type", "?")
            if kind == "pointer":
                self.kinds.append("pointer")
                self._views.append((ctypes.c_uint64, None))
            elif kind == "scalar" and type_name in SCALARS:
                view, convert, _ = SCALARS[type_name]
                self.kinds.append("int" if type_name.startswith("i")
                                  else "float")
                self._views.append((view, convert))
            else:
                raise LaunchError(
                    "argument %d '%s' of kernel '%s' is %s %s, which the %s "
                    "launcher cannot pass" %
                    (index, arg.get("name"), self.name, kind, type_name,
                     self.backend.upper()))
            self.types.append(type_name)
        self.wheres = [
            "argument %d '%s' of kernel '%s'" % (i, a.get("name"), self.name)
            for i, a in enumerate(kernel.signature)]
        self._by_device = {}          # device -> loaded function
        self._load_lock = threading.Lock()
        self._lock = threading.Lock()
        (self._slots, self._params, self._slot_views,
         self._stream) = self._new_arrays()

    # -- parameters beyond the kernel's own (CUDA's TMA tensor maps) -------

    def _extra_storage(self):
        """(storage kept alive with the parameters, their addresses)."""
        return None, []

    def _pack_extra(self, values, params, reuse):
        """Fills the extra parameters for these launch values; `reuse`: the
        launcher's own arrays (not fresh ones of a concurrent launch)."""

    def _has_extra(self):
        """Whether the kernel takes parameters after its own arguments (the
        fast path then calls _pack_extra too)."""
        return False

    def _new_arrays(self):
        n = len(self.kinds)
        slots = (ctypes.c_uint64 * max(1, n))()
        base = ctypes.addressof(slots)
        storage, extra = self._extra_storage()
        params = (ctypes.c_void_p * max(1, n + len(extra)))(
            *([base + 8 * j for j in range(n)] + extra))
        params._tpx_extra = storage  # the parameters keep it alive
        views = [view.from_buffer(slots, 8 * j)
                 for j, (view, _) in enumerate(self._views)]
        return slots, params, views, ctypes.c_void_p()

    # -- the active driver's device and stream -----------------------------

    def _driver(self):
        """The active driver when it is this launcher's backend, else None
        (a CompiledKernel launched while another driver is active)."""
        from tpx.runtime.driver import driver
        active = driver.active
        return active if active.backend == self.backend else None

    def _default_device(self):
        return 0

    def current_device(self):
        active = self._driver()
        if active is not None:
            return active.get_current_device()
        return self._default_device()

    def current_stream(self, device):
        active = self._driver()
        if active is not None:
            return active.get_current_stream(device)
        return 0

    # -- generic path (CompiledKernel.run) ---------------------------------

    def _pointer(self, obj, where, device):
        return device_pointer(obj, where, device)

    def convert(self, args, device):
        """Python objects -> launch values, checked against the ABI."""
        return arguments.convert_all(
            self, args, lambda obj, where: self._pointer(obj, where, device),
            checked_int)

    def launch(self, gx, gy, gz, args, stream=None):
        device = self.current_device()
        values = self.convert(args, device)
        if stream is None:
            stream = self.current_stream(device)
        self.launch_values(gx, gy, gz, values, stream)

    def launch_values(self, gx, gy, gz, values, stream=0, device=None):
        """Launches with converted values (one per kernel argument) on the
        calling thread's current device (context)."""
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
        self._pack_extra(values, params, params is self._params)
        stream_slot.value = stream or None
        function = self._function()
        return self._call(function, gx, gy, gz, stream_slot, params)

    def _call(self, function, gx, gy, gz, stream_slot, params):
        # ctypes passes an int that does not fit an unsigned int truncated
        # to its low bits (a launch of the wrong size), not as an error.
        if (gx | gy | gz) > _UINT_MAX:
            self._grid_error(gx, gy, gz)
        try:
            return self._launch_fn(function, gx, gy, gz, self.block, 1, 1,
                                   self.shared, stream_slot, params, None)
        except ctypes.ArgumentError:
            self._grid_error(gx, gy, gz)

    def _grid_error(self, gx, gy, gz):
        raise LaunchError("kernel '%s': grid (%d, %d, %d) is out of range "
                          "(%s)" % (self.name, gx, gy, gz, self.grid_limits))

    def _raise_failure(self, result, call, error=None):
        """Raises `error` (an OutOfResources the result means) with the
        driver's message for `call` appended, else a LaunchError with it
        (`self.api`: the driver wrapper, with message() and check())."""
        if error is None:
            self.api.check(result, call, LaunchError)
        error.args = (str(error) + " (" + self.api.message(result, call) +
                      ")",)
        raise error

    def launch_text(self, gx, gy, gz):
        """The launch as the messages of failed launches name it."""
        return ("%s('%s', grid (%d, %d, %d), block (%d, 1, 1), %d bytes of "
                "%s)" % (self.launch_call, self.entry.decode(), gx, gy, gz,
                         self.block, self.shared, self.shared_name))

    # -- the JIT's fast path -----------------------------------------------

    def runner(self, selection):
        """The JIT's run(gx, gy, gz, values, stream, device), `selection` as
        for CPULauncher.runner; pointer values are device addresses (ints),
        already checked. It launches the function loaded for `device` and
        takes the general path when there is none yet, when another thread
        is launching this kernel, or after a `retry` result."""
        check_selection(self, selection)
        namespace = {
            "acquire": self._lock.acquire, "release": self._lock.release,
            "slow": self.launch_values, "pick": _picker(selection),
            "by_device": self._by_device, "launch_fn": self._launch_fn,
            "block": self.block, "shared": self.shared,
            "stream_slot": self._stream, "params": self._params,
            "fail": self._fail, "ArgumentError": ctypes.ArgumentError,
            "call": self._call, "retry": self.retry,
            "pack_extra": self._pack_extra,
        }
        lines = ["def run(gx, gy, gz, values, stream, device):",
                 "    if not gx * gy * gz:",
                 "        return",
                 "    f = by_device.get(device)",
                 "    if f is None or (gx | gy | gz) > %d or "
                 "not acquire(False):" % _UINT_MAX,
                 "        return slow(gx, gy, gz, pick(values), stream)",
                 "    try:"]
        refs = []
        for j, source in enumerate(selection):
            ref = ("values[%d][%d]" % source if isinstance(source, tuple)
                   else "values[%d]" % source)
            refs.append(ref)
            convert = self._views[j][1]
            namespace["s%d" % j] = self._slot_views[j]
            if convert is not None:
                namespace["c%d" % j] = convert
                lines.append("        s%d.value = c%d(%s)" % (j, j, ref))
            else:
                lines.append("        s%d.value = %s" % (j, ref))
        if self._has_extra():
            # The launcher's own storage (under the lock), from the values
            # in the kernel's argument order.
            lines.append("        pack_extra((%s%s), params, True)" %
                         (", ".join(refs), "," if len(refs) == 1 else ""))
        lines += [
            "        stream_slot.value = stream",
            "        try:",
            "            r = launch_fn(f, gx, gy, gz, block, 1, 1, shared,",
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
        exec(compile("\n".join(lines), "<tpx %s launcher %s>" %
                     (self.backend, self.name), "exec"), namespace)
        return namespace["run"]
