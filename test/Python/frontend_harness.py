"""Compile a @tpx.jit kernel for numpy arguments and run it.

The front-end tests use this narrow path (ArgSpec -> TTIR -> tpxCompileKernel
-> tpxLaunch) so that they exercise the code generator without depending on
the runtime's specialization and caching, which have their own tests.

With TPX_TEST_TARGET=cuda the same kernels compile for sm_90a and run on the
GPU: numpy arrays are copied into CUDA buffers (torch), launched through the
CUDA launcher of the compiled kernel and copied back, so every test checks
the GPU's results against its numpy reference unchanged.
"""

import ctypes
import os
import shutil

import numpy as np

from tpx import _capi
from tpx.compiler.frontend import compile_to_ttir
from tpx.compiler.spec import ArgSpec
from tpx.errors import CompilationError, TpxError
from tpx.tools import tensor_descriptor as _tdesc

_NUMPY_TO_SIG = {
    np.dtype(np.float32): "fp32", np.dtype(np.float64): "fp64",
    np.dtype(np.float16): "fp16", np.dtype(np.int8): "i8",
    np.dtype(np.int16): "i16", np.dtype(np.int32): "i32",
    np.dtype(np.int64): "i64", np.dtype(np.uint8): "u8",
    np.dtype(np.uint16): "u16", np.dtype(np.uint32): "u32",
    np.dtype(np.uint64): "u64", np.dtype(np.bool_): "i1",
}


def arg_specs(jit_fn, args, constexprs):
    # Parameters not given take their defaults, as in a launch.
    args = list(args) + [p.default for p in jit_fn.params[len(args):]
                         if p.has_default and p.name not in constexprs]
    specs = []
    for param, arg in zip(jit_fn.params, args):
        if param.is_constexpr or param.name in constexprs:
            specs.append(ArgSpec(param.name, "constexpr",
                                 constexprs.get(param.name, arg)))
        elif isinstance(arg, _tdesc.TensorDescriptor):
            specs.append(ArgSpec(param.name, _tdesc.signature(arg),
                                 divisibility=16))
        elif isinstance(arg, np.ndarray):
            sig = getattr(arg, "tpx_signature", None) or \
                _NUMPY_TO_SIG[arg.dtype]
            specs.append(ArgSpec(param.name, "*" + sig, divisibility=16))
        elif isinstance(arg, bool):
            specs.append(ArgSpec(param.name, "i1"))
        elif isinstance(arg, int):
            specs.append(ArgSpec(param.name, "i32" if -2**31 <= arg < 2**31
                                 else "i64"))
        elif isinstance(arg, float):
            specs.append(ArgSpec(param.name, "fp32"))
        elif arg is None:
            specs.append(ArgSpec(param.name, "constexpr", None))
        else:
            raise TypeError("harness: unsupported argument %r" % (arg,))
    return specs


def ttir(jit_fn, *args, **constexprs):
    """The TTIR text of `jit_fn` for these arguments."""
    args = list(args) + [constexprs.pop(p.name) for p in
                         jit_fn.params[len(args):] if p.name in constexprs]
    return compile_to_ttir(jit_fn, arg_specs(jit_fn, args, constexprs))


def run(jit_fn, grid, *args, pipeline=None, **constexprs):
    """Compiles `jit_fn` and runs it over `grid` with numpy arrays/scalars;
    arrays are updated in place. Returns the TTIR. `pipeline`: None (the
    default pipeline), a pipeline text, or True for what the runtime does
    (tpx.pipeline.resolve: @jit(pipeline=...), scopes, the hook)."""
    args = list(args) + [constexprs.pop(p.name) for p in
                         jit_fn.params[len(args):] if p.name in constexprs]
    specs = arg_specs(jit_fn, args, constexprs)
    text = compile_to_ttir(jit_fn, specs)
    if TARGET == "cuda":
        _run_on_cuda(jit_fn, text, specs, args, grid, pipeline)
        return text
    lib = _capi.library()
    options = _capi.TpxKernelOptions()
    options.structSize = ctypes.sizeof(options)
    options.target = b"cpu"
    if pipeline is True:
        from tpx.pipeline import resolve
        pipeline = resolve(jit_fn, "cpu")[0]
    if pipeline is not None:
        options.pipelineText = pipeline.encode()
    artifact = ctypes.c_void_p()
    _capi.check(lib.tpxCompileKernel, text.encode(), ctypes.byref(options),
                ctypes.byref(artifact), error_type=CompilationError)
    try:
        launch = []
        for arg in _launch_values(specs, args):
            a = _capi.TpxLaunchArg()
            if isinstance(arg, np.ndarray):
                a.kind = _capi.ARG_BUFFER
                a.data = arg.ctypes.data
                a.bytes = arg.nbytes
            elif isinstance(arg, float):
                a.kind = _capi.ARG_FLOAT
                a.floatValue = arg
            else:
                a.kind = _capi.ARG_INT
                a.intValue = int(arg)
            launch.append(a)
        grid = tuple(grid) + (1,) * (3 - len(grid))
        grid_c = (ctypes.c_uint32 * 3)(*grid)
        array = (_capi.TpxLaunchArg * max(1, len(launch)))(*launch)
        _capi.check(lib.tpxLaunch, artifact, grid_c, array, len(launch), 0,
                    error_type=TpxError)
    finally:
        lib.tpxArtifactDestroy(artifact)
    return text


TARGET = os.environ.get("TPX_TEST_TARGET", "cpu")


def have_ptxas():
    """True when a CUDA toolkit's ptxas is there ($CUDA_HOME, default
    /usr/local/cuda, or PATH): tests that compile for sm_90a need it."""
    cuda = os.environ.get("CUDA_HOME", "/usr/local/cuda")
    return os.path.exists(os.path.join(cuda, "bin", "ptxas")) or \
        shutil.which("ptxas") is not None


def compile_error(jit_fn, *args, **constexprs):
    """The message of the CompilationError that running `jit_fn` on one
    program raises (a test fails when it compiles)."""
    import pytest
    with pytest.raises(CompilationError) as info:
        run(jit_fn, (1,), *args, **constexprs)
    return str(info.value)


def cpu_only(reason):
    """Marks a test of CPU-only behaviour (skipped on other targets)."""
    import pytest
    return pytest.mark.skipif(TARGET != "cpu", reason=reason)


# A failed device-side assert ends the CUDA context (as in Triton): every
# later launch of the process fails, so such tests run on the CPU only.
DEVICE_ASSERT = ("a failed device-side assert ends the CUDA context of the "
                 "process, as in Triton")


def to_device(array):
    """`array` where kernels of TARGET take it: itself on the CPU, a CUDA
    tensor on a GPU (copy back with .cpu().numpy())."""
    if TARGET == "cpu":
        return array
    import torch
    return torch.from_numpy(array).cuda()


def _launch_values(specs, args):
    values = []
    for spec, arg in zip(specs, args):
        if spec.is_constexpr:
            continue
        if isinstance(arg, _tdesc.TensorDescriptor):
            values.extend(_tdesc.launch_values(arg))
        else:
            values.append(arg)
    return values


def _run_on_cuda(jit_fn, text, specs, args, grid, pipeline):
    import torch

    from tpx.compiler.compiler import compile_ttir
    target = "sm_90a"
    if pipeline is True:
        from tpx.pipeline import resolve
        pipeline = resolve(jit_fn, target)[0]
    kernel = compile_ttir(text, target, pipeline_text=pipeline)
    host, device = [], []
    for value in _launch_values(specs, args):
        if isinstance(value, np.ndarray):
            # Bytes, so every dtype (bool, fp8 patterns) goes through as is.
            raw = np.ascontiguousarray(value).view(np.uint8).reshape(-1)
            buffer = torch.from_numpy(raw.copy()).cuda()
            host.append((value, buffer))
            device.append(buffer)
        else:
            device.append(value)
    kernel.run(tuple(grid), *device)
    torch.cuda.synchronize()
    for array, buffer in host:
        flat = array.reshape(-1).view(np.uint8)
        flat[:] = buffer.cpu().numpy()
