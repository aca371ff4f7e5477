"""What Triton's tests and tutorials ask of the machine they run on
(`triton._internal_testing`): the active target's backend and, on NVIDIA,
its architecture, and the helpers its tests make data with (dtype lists,
`numpy_random`, `to_triton`, `to_numpy`). Everything is read from the
active driver (`tpx.runtime.driver.active.get_current_target()`), so on
the CPU target every GPU question is answered False.

`to_triton` gives torch tensors where torch is installed, as Triton's
does; without torch (tpx's CPU-only machines) it gives numpy arrays, which
tpx kernels take on the CPU. Unsigned and fp8 data come wrapped
(`tpx.reinterpret`) either way.
"""

import os
import re

import numpy as np

from tpx.runtime import driver
from tpx.runtime.tensor_wrapper import TensorWrapper, reinterpret

__all__ = [
    "get_current_target", "is_interpreter", "is_cpu", "is_cuda", "is_hip",
    "is_hip_cdna", "is_hip_cdna2", "is_hip_cdna3", "is_hip_cdna4",
    "is_ampere", "is_hopper", "is_hopper_or_newer", "is_blackwell",
    "is_sm12x", "supports_tma", "supports_ws", "is_xpu", "get_arch",
    "is_hip_mi200", "is_hip_mi300", "is_hip_mi350",
    "int_dtypes", "uint_dtypes", "integral_dtypes", "float_dtypes",
    "float_dtypes_with_bfloat16", "dtypes", "dtypes_with_bfloat16",
    "torch_float8_dtypes", "torch_dtypes", "tma_dtypes", "numpy_random",
    "to_triton", "to_numpy", "torch_dtype_name", "str_to_triton_dtype",
    "unwrap_tensor",
]

int_dtypes = ["int8", "int16", "int32", "int64"]
uint_dtypes = ["uint8", "uint16", "uint32", "uint64"]
integral_dtypes = int_dtypes + uint_dtypes
float_dtypes = ["float16", "float32", "float64"]
float_dtypes_with_bfloat16 = float_dtypes + ["bfloat16"]
dtypes = integral_dtypes + float_dtypes
dtypes_with_bfloat16 = dtypes + ["bfloat16"]
torch_float8_dtypes = ["float8_e4m3fn", "float8_e5m2"]
torch_dtypes = ["bool"] + int_dtypes + ["uint8"] + float_dtypes + \
    ["bfloat16"]
# What a tensor map can move (no 64-bit elements).
tma_dtypes = sorted(set(dtypes_with_bfloat16) -
                    {"int64", "uint64", "float64"})


def is_interpreter():
    """TRITON_INTERPRET=1, which tpx does not provide (it never runs an
    interpreter): kernels compile for the active target all the same."""
    return os.environ.get("TRITON_INTERPRET", "0") == "1"


def get_current_target():
    return driver.active.get_current_target()


def _backend():
    return get_current_target().backend


def _arch():
    """The NVIDIA compute capability as major * 10 + minor, else None."""
    target = get_current_target()
    if target.backend != "cuda" or not isinstance(target.arch, int):
        return None
    return target.arch


def is_cpu():
    return _backend() == "cpu"


def is_cuda():
    return _backend() == "cuda"


def is_hip():
    return _backend() == "hip"


def _hip_arch():
    target = get_current_target()
    return str(target.arch) if target.backend == "hip" else ""


def is_hip_cdna2():
    return _hip_arch() == "gfx90a"


def is_hip_cdna3():
    return _hip_arch() == "gfx942"


def is_hip_cdna4():
    return _hip_arch() == "gfx950"


def is_hip_cdna():
    return is_hip_cdna2() or is_hip_cdna3() or is_hip_cdna4()


def is_ampere():
    arch = _arch()
    return arch is not None and arch // 10 == 8


def is_hopper():
    arch = _arch()
    return arch is not None and arch // 10 == 9


def is_hopper_or_newer():
    arch = _arch()
    return arch is not None and arch >= 90


def is_blackwell():
    arch = _arch()
    return arch is not None and arch // 10 == 10


def is_sm12x():
    arch = _arch()
    return arch is not None and arch // 10 == 12


def supports_tma():
    """The copy engine's tensor maps: Hopper and newer."""
    return is_hopper_or_newer()


def supports_ws():
    """Warp specialization (tpx lowers it for sm_90a)."""
    return is_hopper_or_newer()


def is_xpu():
    return _backend() == "xpu"


# Triton's older names for the CDNA generations.
is_hip_mi200 = is_hip_cdna2
is_hip_mi300 = is_hip_cdna3
is_hip_mi350 = is_hip_cdna4


def get_arch():
    """The target's architecture as text ("90", "gfx950", "cpu")."""
    return str(get_current_target().arch)


def numpy_random(shape, dtype_str, rs=None, low=None, high=None):
    """Random test data of `dtype_str` (a name from the lists above, or
    bool): integers in [low, high) of the type's range and never zero (so
    that division tests do not divide by zero), normal floats, bfloat16
    values as float32 with the low 16 bits cleared, and fp8 types as int8
    bit patterns in [20, 40). `rs`: a numpy RandomState (seed 17 by
    default, so two calls without one give the same data)."""
    if isinstance(shape, int):
        shape = (shape,)
    if rs is None:
        rs = np.random.RandomState(seed=17)
    if dtype_str in integral_dtypes:
        info = np.iinfo(getattr(np, dtype_str))
        low = info.min if low is None else max(low, info.min)
        high = info.max if high is None else min(high, info.max)
        x = rs.randint(low, high, shape, dtype=getattr(np, dtype_str))
        x[x == 0] = 1
        return x
    if dtype_str and "float8" in dtype_str:
        return rs.randint(20, 40, shape, dtype=np.int8)
    if dtype_str in float_dtypes:
        return rs.normal(0, 1, shape).astype(dtype_str)
    if dtype_str == "bfloat16":
        bits = rs.normal(0, 1, shape).astype("float32").view("uint32")
        return (bits & np.uint32(0xFFFF0000)).view("float32")
    if dtype_str in ("bool", "int1", "bool_"):
        return rs.normal(0, 1, shape) > 0.0
    raise RuntimeError("Unknown dtype %s" % (dtype_str,))


def _torch():
    try:
        import torch
    except ImportError:
        return None
    return torch


def to_triton(x, device="cpu", dst_type=None):
    """numpy array `x` as a kernel argument on `device`: a torch tensor
    (numpy array without torch), wrapped as `dst_type` for unsigned and fp8
    data; float32 data with dst_type "bfloat16" becomes bfloat16."""
    import tpx.language as tl
    torch = _torch()
    name = x.dtype.name
    if name in uint_dtypes:
        signed = x.astype(getattr(np, name[1:]))
        base = torch.tensor(signed, device=device) if torch else signed
        return reinterpret(base, getattr(tl, name))
    if dst_type and "float8" in dst_type:
        base = torch.tensor(x, device=device) if torch else x
        return reinterpret(base, getattr(tl, dst_type))
    if name == "float32" and dst_type == "bfloat16":
        if torch is None:
            bits = (x.view("uint32") >> np.uint32(16)).astype(np.uint16)
            return reinterpret(bits, tl.bfloat16)
        return torch.tensor(x, device=device).bfloat16()
    return torch.tensor(x, device=device) if torch else x


def torch_dtype_name(dtype):
    """'int64' of tl.int64 or torch.int64."""
    import tpx.language as tl
    if isinstance(dtype, tl.dtype):
        return dtype.name
    match = re.match(r"^torch\.(\w+)$", str(dtype))
    if match:
        return match.group(1)
    raise TypeError("not a triton or torch dtype: %s" % type(dtype))


def to_numpy(x):
    """A kernel argument back as a numpy array (wrapped data in its
    wrapper's type; bfloat16 as float32)."""
    if isinstance(x, TensorWrapper):
        base = x.base
        if hasattr(base, "cpu"):
            base = base.cpu().numpy()
        name = torch_dtype_name(x.dtype)
        if name == "bfloat16":
            bits = base.view(np.uint16).astype(np.uint32) << np.uint32(16)
            return bits.view(np.float32)
        if hasattr(np, name):
            return base.astype(getattr(np, name))
        return base
    if isinstance(x, np.ndarray):
        return x
    torch = _torch()
    if torch is not None and isinstance(x, torch.Tensor):
        if x.dtype is torch.bfloat16:
            return x.cpu().float().numpy()
        return x.cpu().numpy()
    raise ValueError("Not a triton-compatible tensor: %r" % (x,))


def str_to_triton_dtype(name):
    """The language dtype of a signature name ("fp16") or a dtype name
    ("float16", "bfloat16")."""
    import tpx.language as tl
    try:
        return tl.str_to_ty(name, None)
    except TypeError:
        value = getattr(tl, name, None)
        if isinstance(value, tl.dtype):
            return value
        raise


def unwrap_tensor(t):
    return t.base if isinstance(t, TensorWrapper) else t
