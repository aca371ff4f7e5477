"""Launching CPU artifacts: Python arguments -> TpxLaunchArg[] -> tpxLaunch.

Pointer arguments are host buffers: numpy arrays, CPU torch tensors and
anything with `__array_interface__`. Each is passed with its data pointer
and the bytes from there to the end of the memory it views (the whole
storage of a torch tensor, the parent array of a numpy slice), so offset
views work and, with bounds checking, accesses are checked against the
real allocation. Scalars are Python ints, floats and bools (numpy scalars
too); the C API converts them to the parameter type and checks ranges.

tpxLaunch runs the kernel to completion on a thread pool and releases the
GIL while it runs ($TPX_CPU_THREADS threads, default all cores). Its
failures (bad arguments, out-of-bounds accesses, tt.assert) come back as
LaunchError with the library's message.

Each launcher keeps one TpxLaunchArg array and one grid array and rewrites
only their value fields per launch; a concurrent launch of the same kernel
from another thread uses fresh arrays instead of waiting.
"""

import ctypes
import os
import threading

from tpx import _capi
from tpx.errors import LaunchError
from tpx.runtime import arguments

__all__ = ["CPULauncher", "host_buffer"]


def _threads_from_env():
    text = os.environ.get("TPX_CPU_THREADS", "").strip()
    if not text:
        return 0
    try:
        value = int(text)
    except ValueError:
        raise LaunchError("TPX_CPU_THREADS must be an integer from 0 (all "
                          "cores) to 1024, got %r" % text) from None
    if not 0 <= value <= 1024:
        raise LaunchError("TPX_CPU_THREADS must be from 0 to 1024, got %d" %
                          value)
    return value


def host_buffer(obj, where):
    """(pointer, bytes) of a host buffer argument; LaunchError otherwise.

    `where` names the argument in messages ("argument 0 'x' of kernel 'k'").
    """
    if obj is None:
        raise LaunchError("%s is a pointer but None was given" % where)
    if arguments.is_torch_tensor(obj):
        if obj.get_device() >= 0 or obj.device.type != "cpu":
            raise LaunchError(
                "%s is a torch tensor on %s, but the kernel runs on the CPU "
                "(move it with .cpu() or compile for the GPU)" %
                (where, obj.device))
        return arguments.torch_buffer(obj)
    if type(obj).__module__.split(".")[0] == "numpy" and hasattr(
            obj, "__array_interface__") and hasattr(obj, "strides"):
        return arguments.numpy_buffer(obj)
    if hasattr(obj, "__cuda_array_interface__") and not hasattr(
            obj, "__array_interface__"):
        raise LaunchError("%s is device memory (__cuda_array_interface__), "
                          "but the kernel runs on the CPU" % where)
    interface = getattr(obj, "__array_interface__", None)
    if isinstance(interface, dict):
        try:
            pointer, size, _ = arguments.interface_buffer(interface)
        except (TypeError, ValueError, KeyError) as e:
            raise LaunchError("%s: %s" % (where, e)) from None
        return pointer, size
    host = getattr(obj, "tpx_host_buffer", None)
    if host is not None:
        # Stand-ins (warmup) and wrappers that know their extent.
        return host
    raise LaunchError("%s is a pointer, but %s is not a host buffer (pass "
                      "a numpy array, a CPU torch tensor or an object with "
                      "__array_interface__)" % (where, arguments.describe(obj)))


class CPULauncher:
    """Launches one CPU artifact. `launch` converts Python objects;
    `runner(selection)` makes the JIT's fast path, which takes values the
    specializer already converted (pointers as (address, bytes))."""

    def __init__(self, kernel):
        self.kernel = kernel
        self.name = kernel.name
        self._lib = _capi.library()
        self._tpx_launch = self._lib.tpxLaunch
        self._handle = ctypes.c_void_p(kernel.handle)
        self.threads = self._thread_count()
        self.kinds = []
        self.types = []
        for index, arg in enumerate(kernel.signature):
            kind = arg.get("kind")
            type_name = arg.get("type", "?")
            if kind == "pointer":
                self.kinds.append("pointer")
            elif kind == "scalar" and type_name.startswith("i"):
                self.kinds.append("int")
            elif kind == "scalar":
                self.kinds.append("float")
            else:
                raise LaunchError(
                    "argument %d '%s' of kernel '%s' has kind %r, which the "
                    "CPU launcher cannot pass" %
                    (index, arg.get("name"), self.name, kind))
            self.types.append(type_name)
        self.wheres = [
            "argument %d '%s' of kernel '%s'" % (i, a.get("name"), self.name)
            for i, a in enumerate(kernel.signature)]
        self._lock = threading.Lock()
        self._args, self._grid, self._error = self._new_arrays()
        self._launch_args = (self._handle, self._grid, self._args,
                             len(self.kinds), self.threads,
                             ctypes.byref(self._error))

    @staticmethod
    def _thread_count():
        """numThreads of tpxLaunch ($TPX_CPU_THREADS; 0: every core)."""
        return _threads_from_env()

    def _new_arrays(self):
        n = len(self.kinds)
        args = (_capi.TpxLaunchArg * max(1, n))()
        for i, kind in enumerate(self.kinds):
            args[i].kind = {"pointer": _capi.ARG_BUFFER,
                            "int": _capi.ARG_INT,
                            "float": _capi.ARG_FLOAT}[kind]
        return args, (ctypes.c_uint32 * 3)(), ctypes.c_void_p()

    # -- generic path (CompiledKernel.run) ---------------------------------

    def convert(self, args):
        """Python objects -> launch values, checking each against the ABI."""
        return arguments.convert_all(self, args, host_buffer,
                                     arguments.int_value)

    def launch(self, gx, gy, gz, args, stream=None):
        self.launch_values(gx, gy, gz, self.convert(args))

    def launch_values(self, gx, gy, gz, values):
        """Launches with converted values, one per kernel argument."""
        if gx * gy * gz == 0:
            return
        if self._lock.acquire(False):
            try:
                self._fill(self._args, values)
                self._call(self._args, self._grid, self._error, gx, gy, gz)
            finally:
                self._lock.release()
        else:
            args, grid, error = self._new_arrays()
            self._fill(args, values)
            self._call(args, grid, error, gx, gy, gz)

    def _fill(self, args, values):
        for i, (kind, value) in enumerate(zip(self.kinds, values)):
            slot = args[i]
            if kind == "pointer":
                slot.data, slot.bytes = value
            elif kind == "int":
                slot.intValue = value
            else:
                slot.floatValue = value

    def _call(self, args, grid, error, gx, gy, gz):
        grid[0] = gx
        grid[1] = gy
        grid[2] = gz
        status = self._tpx_launch(self._handle, grid, args, len(self.kinds),
                                  self.threads, ctypes.byref(error))
        if status != _capi.TPX_SUCCESS:
            self._raise(error)

    def _raise(self, error):
        message = _capi.take_string(error.value) or (
            "tpxLaunch failed without a message")
        error.value = None
        raise LaunchError(message)

    # -- the JIT's fast path -----------------------------------------------

    def runner(self, selection):
        """A function run(gx, gy, gz, values, stream, device) for the JIT.

        `selection[j]` says where kernel argument j comes from in `values`:
        an index, or (index, sub-index) for one part of an argument that
        spans several (a tensor descriptor's base, shapes and strides).
        Pointer values are (address, bytes) pairs.
        """
        check_selection(self, selection)
        lines = ["def run(gx, gy, gz, values, stream=None, device=0):",
                 "    if not gx * gy * gz:",
                 "        return",
                 "    if not acquire(False):",
                 "        return slow(gx, gy, gz, pick(values))",
                 "    try:"]
        for j, (kind, source) in enumerate(zip(self.kinds, selection)):
            ref = _value_ref(source)
            if kind == "pointer":
                lines.append("        a%d.data, a%d.bytes = %s" % (j, j, ref))
            elif kind == "int":
                lines.append("        a%d.intValue = %s" % (j, ref))
            else:
                lines.append("        a%d.floatValue = %s" % (j, ref))
        lines += ["        grid[0] = gx",
                  "        grid[1] = gy",
                  "        grid[2] = gz",
                  "        status = tpx_launch(*call_args)",
                  "    finally:",
                  "        release()",
                  "    if status:",
                  "        fail(error)"]
        namespace = {
            "acquire": self._lock.acquire, "release": self._lock.release,
            "grid": self._grid, "tpx_launch": self._tpx_launch,
            "call_args": self._launch_args, "error": self._error,
            "fail": self._raise,
            "slow": self.launch_values,
            "pick": _picker(selection),
        }
        for j in range(len(self.kinds)):
            namespace["a%d" % j] = self._args[j]
        exec(compile("\n".join(lines), "<tpx cpu launcher %s>" % self.name,
                     "exec"), namespace)
        return namespace["run"]


def _value_ref(source):
    if isinstance(source, tuple):
        return "values[%d][%d]" % source
    return "values[%d]" % source


def check_selection(launcher, selection):
    """A JIT selection must name one value per kernel argument (the GPU
    launchers' runners check it too)."""
    if len(selection) != len(launcher.kinds):
        raise LaunchError(
            "kernel '%s' takes %d arguments but the runtime selected %d "
            "(the front end's TTIR and the specialization disagree)" %
            (launcher.name, len(launcher.kinds), len(selection)))


def _picker(selection):
    """values -> the per-argument list the generic path takes."""
    def pick(values):
        return [values[s[0]][s[1]] if isinstance(s, tuple) else values[s]
                for s in selection]
    return pick
