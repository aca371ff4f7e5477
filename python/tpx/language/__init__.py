"""tpx.language: the kernel language, Triton's `triton.language` surface.

`import tpx.language as tl` gives the same names as `triton.language`;
docs/python.md lists what is covered.
"""

from tpx.language.core import (  # noqa: F401
    TRITON_MAX_TENSOR_NUMEL, bfloat16, block_type, builtin, constexpr,
    constexpr_function, constexpr_type, dtype, float16, float32, float64, float8e4b8,
    float8e4b15, float8e4nv, float8e5, float8e5b16, int1, int8, int16,
    int32, int64, pi32_t, pointer_type, str_to_ty, tensor, uint8, uint16,
    uint32, uint64, void)
from tpx.language.basic import (  # noqa: F401
    PropagateNan, add, arange, broadcast, broadcast_to, cast, cdiv, clamp,
    condition,
    expand_dims, full, full_like, load, maximum, minimum, next_power_of_2,
    num_programs, program_id, range, reshape, static_range, store,
    to_tensor, view, where, zeros, zeros_like)
from tpx.language.reduction import (  # noqa: F401
    argmax, argmin, associative_scan, cumprod, cumsum, gather, histogram,
    max, min, reduce, reduce_or, sum, xor_sum)
from tpx.language.shape import (  # noqa: F401
    cat, flip, interleave, join, permute, ravel, sort, split, topk, trans)
from tpx.language.descriptor import (  # noqa: F401
    advance, descriptor_value_from_spec, load_tensor_descriptor,
    make_block_ptr, make_tensor_descriptor, store_tensor_descriptor,
    tensor_descriptor, tensor_descriptor_base, tensor_descriptor_base_type,
    tensor_descriptor_type)

# -- dot, atomics, math, random, debugging, elementwise extras, libdevice --
from tpx.language import math  # noqa: F401
from tpx.language.atomic import (  # noqa: F401
    atomic_add, atomic_and, atomic_cas, atomic_max, atomic_min, atomic_or,
    atomic_xchg, atomic_xor)
from tpx.language.debug import (  # noqa: F401
    assume, debug_barrier, device_assert, device_print, max_constancy,
    max_contiguous, multiple_of, static_assert, static_print)
from tpx.language.dot import dot, dot_scaled  # noqa: F401
from tpx.language.elementwise import (  # noqa: F401
    dispatch, extern, extern_elementwise, inline_asm_elementwise,
    map_elementwise, sigmoid, softmax)
from tpx.language.math import (  # noqa: F401
    abs, ceil, cos, div_rn, erf, exp, exp2, fdiv, floor, fma, log, log2,
    rsqrt, sin, sqrt, sqrt_rn, umulhi)
from tpx.language import random  # noqa: F401
from tpx.language.random import (  # noqa: F401
    pair_uniform_to_normal, philox, philox_impl, rand, rand4x, randint,
    randint4x, randn, randn4x, uint_to_uniform_float)
from tpx.language import extra  # noqa: F401,E402
import tpx.language.extra.libdevice  # noqa: F401,E402
from tpx.language.basic import const, mul, sub  # noqa: F401,E402
from tpx.language.tuples import tuple, tuple_type  # noqa: F401,E402
from tpx.language import standard  # noqa: F401,E402
from tpx.language.standard import swizzle2d  # noqa: F401,E402
from tpx.language import target_info  # noqa: F401,E402
