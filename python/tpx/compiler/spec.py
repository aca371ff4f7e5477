"""What the runtime hands the front end for one specialization of a kernel.

The runtime (tpx/runtime/jit.py) looks at the launch arguments and describes
each parameter with an ArgSpec; the front end (compiler/frontend.py) turns
the Python function plus these specs into TTIR. The type strings are
Triton's signature strings, so the same vocabulary appears in cache keys,
`kernel.warmup(...)` and error messages:

  "*fp32", "*fp16", "*bf16", "*i8", ...   a pointer to that element type
  "i1", "i8", "i16", "i32", "i64", "u32", "u64", "fp16", "bf16", "fp32",
  "fp64"                                   a scalar passed by value
  "constexpr"                              folded into the kernel (`value`)
  "tensordesc<fp16[64, 64]>"               a host tensor descriptor of that
                                           element type and block shape
                                           (",div16" when its innermost
                                           extent is a multiple of 16,
                                           ",nan" when it pads with NaN;
                                           see tpx.tools.
                                           tensor_descriptor.signature)
"""

from dataclasses import dataclass
from typing import Any, Optional


@dataclass(frozen=True)
class ArgSpec:
    name: str
    type: str                 # a signature string, see above
    value: Any = None         # the constexpr's value (type == "constexpr")
    divisibility: Optional[int] = None  # 16: `tt.divisibility = 16` on it

    @property
    def is_constexpr(self):
        return self.type == "constexpr"


@dataclass(frozen=True)
class CompileSpec:
    """Everything besides the arguments that shapes the TTIR."""
    target: str = "cpu"        # "cpu", "sm_90a", ...
    num_warps: int = 4
    num_stages: int = 3
    debug: bool = False        # device_assert is kept only when True
    # The thread-block cluster (x, y, z) the kernel is launched in (the
    # launch option ctas_per_cga); written into the TTIR as the module's
    # tpxgpu.cluster-dims when it is more than one CTA.
    cluster_dims: tuple = (1, 1, 1)
