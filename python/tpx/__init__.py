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
from tpx.runtime.tensor_wrapper import TensorWrapper, reinterpret
from tpx.language.core import constexpr_function
from tpx import language
from tpx import runtime
from tpx import testing

# -- plugins and per-kernel pipelines (tpx/plugins.py, tpx/pipeline.py) ------
from tpx import plugins, pipeline, diagnostics  # noqa: E402
from tpx.plugins import load_plugin, loaded_plugins  # noqa: E402,F401
from tpx.pipeline import (  # noqa: E402,F401
    Pipeline, pipeline_extensions, set_pipeline_hook, unset_pipeline_hook)
plugins._load_at_import()
