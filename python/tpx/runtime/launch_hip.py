"""Launching AMD (gfx*) artifacts: Python arguments -> tpxLaunch -> HIP.

The artifact's hsaco runs on an AMD GPU through the C++ HIP launcher
(lib/Runtime/HIPLauncher.cpp). Pointer arguments are HOST buffers, exactly
as for the CPU (numpy arrays, CPU torch tensors, `__array_interface__`):
the launcher copies each to device memory, runs the kernel to completion
and copies it back. Scalars are converted and range-checked by the C API.

Without the HIP runtime or an AMD GPU the launch raises LaunchError with
the runtime's message ("no AMD GPU runtime: libamdhip64.so not found
...", see tpx/runtime/hip.py); an hsaco built for another GPU than the
device's gcnArchName is a LaunchError naming both.
"""

from tpx.errors import LaunchError
from tpx.runtime import arguments
from tpx.runtime.launch_cpu import CPULauncher, host_buffer

__all__ = ["HIPLauncher"]


def _hip_host_buffer(obj, where):
    """(pointer, bytes) of a host buffer; device memory is refused with a
    message that says what this launcher takes."""
    if arguments.is_torch_tensor(obj) and (obj.get_device() >= 0 or
                                           obj.device.type != "cpu"):
        raise LaunchError(
            "%s is a torch tensor on %s, but the HIP launcher takes host "
            "buffers and copies them to the GPU itself (pass .cpu() or a "
            "numpy array)" % (where, obj.device))
    if hasattr(obj, "__cuda_array_interface__") and not hasattr(
            obj, "__array_interface__"):
        raise LaunchError("%s is device memory (__cuda_array_interface__), "
                          "but the HIP launcher takes host buffers" % where)
    return host_buffer(obj, where)


class HIPLauncher(CPULauncher):
    """Launches one gfx* artifact through tpxLaunch, which hands it to the
    HIP launcher; argument handling is the CPU launcher's."""

    @staticmethod
    def _thread_count():
        # Threads are the GPU's: tpxLaunch ignores the count for gfx*, and
        # $TPX_CPU_THREADS is not this launcher's to check.
        return 0

    def convert(self, args):
        return arguments.convert_all(self, args, _hip_host_buffer,
                                     arguments.int_value)
