"""tpx.language: the kernel language, Triton's `triton.language` surface.

`import tpx.language as tl` gives the same names as `triton.language`;
docs/python.md lists what is covered.
"""

from tpx.language.core import (  # noqa: F401
    TRITON_MAX_TENSOR_NUMEL, bfloat16, block_type, builtin, constexpr,
    constexpr_type, dtype, float16, float32, float64, float8e4b8,
    float8e4b15, float8e4nv, float8e5, float8e5b16, int1, int8, int16,
    int32, int64, pi32_t, pointer_type, tensor, uint8, uint16, uint32,
    uint64, void)
from tpx.language.basic import (  # noqa: F401
    PropagateNan, arange, broadcast, broadcast_to, cast, cdiv, clamp,
    expand_dims, full, full_like, load, maximum, minimum, next_power_of_2,
    num_programs, program_id, range, reshape, static_range, store,
    to_tensor, view, where, zeros, zeros_like)
from tpx.language.descriptor import (  # noqa: F401
    advance, descriptor_value_from_spec, load_tensor_descriptor,
    make_block_ptr, make_tensor_descriptor, store_tensor_descriptor,
    tensor_descriptor, tensor_descriptor_base, tensor_descriptor_base_type,
    tensor_descriptor_type)
from tpx.language import extra  # noqa: F401,E402
