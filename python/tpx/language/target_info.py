"""`tl.target_info`: what a kernel may ask of its compile target, as
Triton's `triton.language.target_info` has it. Each is a
`tpx.constexpr_function`: evaluated while the kernel is compiled (a
compile-time bool in `if` and `tl.static_assert`), from the active
driver's target (`tpx.runtime.driver.active.get_current_target()`); on the
CPU target every GPU question is False.
"""

from tpx.language.core import constexpr_function

__all__ = ["current_target", "is_cuda", "cuda_capability_geq", "is_hip",
           "is_hip_cdna3", "is_hip_cdna4"]


@constexpr_function
def current_target():
    from tpx.runtime.driver import driver
    return driver.active.get_current_target()


@constexpr_function
def is_cuda():
    return current_target().backend == "cuda"


@constexpr_function
def cuda_capability_geq(major, minor=0):
    """The NVIDIA target's compute capability is at least major.minor."""
    target = current_target()
    if target.backend != "cuda" or not isinstance(target.arch, int):
        return False
    return target.arch >= major * 10 + minor


@constexpr_function
def is_hip():
    return current_target().backend == "hip"


@constexpr_function
def is_hip_cdna3():
    target = current_target()
    return target.backend == "hip" and str(target.arch) == "gfx942"


@constexpr_function
def is_hip_cdna4():
    target = current_target()
    return target.backend == "hip" and str(target.arch) == "gfx950"
