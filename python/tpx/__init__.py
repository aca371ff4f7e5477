"""tpx: a Triton-compatible tile-kernel compiler with plugins.

`import tpx as triton` and `import tpx.language as tl` run programs written
for Triton. See docs/python.md.
"""

__version__ = "0.1.0"

from tpx.errors import CompilationError, LaunchError, OutOfResources, TpxError
from tpx.runtime.jit import JITFunction, KernelInterface, jit
from tpx.runtime.allocation import set_allocator
from tpx.runtime.autotuner import Config, autotune, heuristics
from tpx.runtime.utils import cdiv, next_power_of_2
from tpx import language
from tpx import runtime
from tpx import testing
