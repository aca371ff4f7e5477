"""tpx: a Triton-compatible tile-kernel compiler with plugins.

`import tpx as triton` and `import tpx.language as tl` run programs written
for Triton. See docs/python.md.
"""

__version__ = "0.1.0"

from tpx.errors import CompilationError, LaunchError, OutOfResources, TpxError
from tpx.runtime.jit import JITFunction, jit
from tpx.runtime.allocation import set_allocator
from tpx import language
