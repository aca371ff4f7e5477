"""The tpx runtime: @jit kernels, launching, autotuning, drivers.

`tpx.runtime.driver` is the driver configuration object (`.active`), as
`triton.runtime.driver` is. See docs/python.md ("Runtime").
"""

# flake8: noqa: F401
from tpx.runtime.driver import driver
from tpx.runtime.allocation import set_allocator, get_allocator
from tpx.runtime.jit import JITFunction, KernelInterface, jit
from tpx.runtime.autotuner import (Autotuner, Config, Heuristics, autotune,
                                   heuristics)
from tpx.errors import OutOfResources
from tpx.runtime.tensor_wrapper import TensorWrapper, reinterpret
