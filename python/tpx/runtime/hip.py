"""The HIP runtime (libamdhip64), asked through the tpx C API.

The C++ runtime opens libamdhip64.so (then .so.6, .so.5; only
$TPX_HIP_LIBRARY when set) once per process; launches of gfx* kernels go
through the same runtime (tpxLaunch, see launch_hip.py). Without the
runtime or an AMD GPU every question here raises HipError with the
library's message, e.g.

    no AMD GPU runtime: libamdhip64.so not found (set TPX_HIP_LIBRARY to
    its path; tried libamdhip64.so: ...)

The answer is decided on first use and does not change in the process.
The HIP driver (@jit kernels on AMD GPUs, tpx/runtime/driver.py) opens the
same runtime through ctypes itself (tpx/runtime/hip_api.py), with the same
messages; HipError is one class for both.
"""

import ctypes

from tpx import _capi
from tpx.errors import TpxError

__all__ = ["HipError", "device_arch", "probe"]


class HipError(TpxError):
    """The HIP runtime is missing or unusable, or a HIP call failed."""


def device_arch():
    """The target ID of the AMD GPU kernels run on, e.g.
    "gfx950:sramecc+:xnack-"; HipError when there is none."""
    lib = _capi.library()
    arch = ctypes.c_void_p()
    _capi.check(lib.tpxGetHIPDeviceArch, ctypes.byref(arch),
                error_type=HipError)
    return _capi.take_string(arch.value)


def probe():
    """(usable, why): whether gfx* kernels can run here, and the device's
    target ID or the reason they cannot."""
    try:
        return True, device_arch()
    except HipError as e:
        return False, str(e)
