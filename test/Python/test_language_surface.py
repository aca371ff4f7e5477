"""Every public name of triton.language 3.6 exists in tpx.language.

The list is Triton 3.6's `triton.language.__all__`; a name missing here is
a program that fails with AttributeError on tpx.
"""

import pytest

import tpx
import tpx.language as tl

TRITON_LANGUAGE_3_6 = """
PropagateNan TRITON_MAX_TENSOR_NUMEL load_tensor_descriptor
store_tensor_descriptor make_tensor_descriptor tensor_descriptor
tensor_descriptor_type abs add advance arange argmax argmin associative_scan
assume atomic_add atomic_and atomic_cas atomic_max atomic_min atomic_or
atomic_xchg atomic_xor bfloat16 block_type broadcast broadcast_to cat cast
cdiv ceil clamp const constexpr constexpr_type cos cumprod cumsum
debug_barrier device_assert device_print div_rn dot dot_scaled dtype erf exp
exp2 expand_dims extra fdiv flip float16 float32 float64 float8e4b15
float8e4nv float8e4b8 float8e5 float8e5b16 floor fma full gather histogram
inline_asm_elementwise interleave int1 int16 int32 int64 int8 join load log
log2 make_block_ptr map_elementwise math max max_constancy max_contiguous
maximum min minimum mul multiple_of num_programs pair_uniform_to_normal
permute philox philox_impl pi32_t pointer_type program_id rand rand4x
randint randint4x randn randn4x range ravel reduce reduce_or reshape rsqrt
sigmoid sin softmax sort split sqrt sqrt_rn static_assert static_print
static_range store sub sum swizzle2d tensor topk trans tuple tuple_type
uint16 uint32 uint64 uint8 uint_to_uniform_float umulhi view void where
xor_sum zeros zeros_like
""".split()

TRITON_TOP_LEVEL = """
jit autotune heuristics Config cdiv next_power_of_2 testing runtime
language set_allocator CompilationError OutOfResources KernelInterface
JITFunction
""".split()


@pytest.mark.parametrize("name", TRITON_LANGUAGE_3_6)
def test_language_name_exists(name):
    assert hasattr(tl, name), "tpx.language has no %r" % name


@pytest.mark.parametrize("name", TRITON_TOP_LEVEL)
def test_top_level_name_exists(name):
    assert hasattr(tpx, name), "tpx has no %r" % name


def test_extra_libdevice_and_math_namespaces():
    assert tl.extra.libdevice.pow is not None
    assert tl.math.exp is tl.exp


def test_older_libdevice_paths():
    from tpx.language.extra import libdevice
    from tpx.language.extra.cuda import libdevice as cuda_libdevice
    import tpx.language.extra.cuda.libdevice as imported
    assert cuda_libdevice is libdevice and imported is libdevice
    assert tl.extra.cuda.libdevice is libdevice
