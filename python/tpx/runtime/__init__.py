"""The tpx runtime: @jit kernels, launching, autotuning, drivers.

`tpx.runtime.driver` is the driver configuration object (`.active`), as
`triton.runtime.driver` is.
"""

from tpx.runtime.driver import driver
from tpx.runtime.allocation import set_allocator, get_allocator
from tpx.runtime.jit import JITFunction, KernelInterface, jit
from tpx.errors import OutOfResources
