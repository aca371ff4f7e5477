"""What Triton's tests and tutorials ask of the machine they run on
(`triton._internal_testing`): the active target's backend and, on NVIDIA,
its architecture. Everything is read from the active driver
(`tpx.runtime.driver.active.get_current_target()`), so on the CPU target
every GPU question is answered False.
"""

import os

from tpx.runtime import driver

__all__ = [
    "get_current_target", "is_interpreter", "is_cpu", "is_cuda", "is_hip",
    "is_hip_cdna", "is_hip_cdna2", "is_hip_cdna3", "is_hip_cdna4",
    "is_ampere", "is_hopper", "is_hopper_or_newer", "is_blackwell",
    "is_sm12x", "supports_tma", "supports_ws",
]


def is_interpreter():
    """TRITON_INTERPRET=1, which tpx does not provide (it never runs an
    interpreter): kernels compile for the active target all the same."""
    return os.environ.get("TRITON_INTERPRET", "0") == "1"


def get_current_target():
    return driver.active.get_current_target()


def _backend():
    return get_current_target().backend


def _arch():
    """The NVIDIA compute capability as major * 10 + minor, else None."""
    target = get_current_target()
    if target.backend != "cuda" or not isinstance(target.arch, int):
        return None
    return target.arch


def is_cpu():
    return _backend() == "cpu"


def is_cuda():
    return _backend() == "cuda"


def is_hip():
    return _backend() == "hip"


def _hip_arch():
    target = get_current_target()
    return str(target.arch) if target.backend == "hip" else ""


def is_hip_cdna2():
    return _hip_arch() == "gfx90a"


def is_hip_cdna3():
    return _hip_arch() == "gfx942"


def is_hip_cdna4():
    return _hip_arch() == "gfx950"


def is_hip_cdna():
    return is_hip_cdna2() or is_hip_cdna3() or is_hip_cdna4()


def is_ampere():
    arch = _arch()
    return arch is not None and arch // 10 == 8


def is_hopper():
    arch = _arch()
    return arch is not None and arch // 10 == 9


def is_hopper_or_newer():
    arch = _arch()
    return arch is not None and arch >= 90


def is_blackwell():
    arch = _arch()
    return arch is not None and arch // 10 == 10


def is_sm12x():
    arch = _arch()
    return arch is not None and arch // 10 == 12


def supports_tma():
    """The copy engine's tensor maps: Hopper and newer."""
    return is_hopper_or_newer()


def supports_ws():
    """Warp specialization (tpx lowers it for sm_90a)."""
    return is_hopper_or_newer()
