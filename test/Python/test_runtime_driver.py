"""tpx.runtime.driver: driver selection, the CPU driver, CUDA helpers."""

import os
import subprocess
import sys

import pytest

import tpx
from tpx.errors import TpxError
from tpx.runtime import driver
from tpx.runtime.driver import (CPUDriver, CUDADriver, GPUTarget,
                                cuda_target_name)
from tpx.runtime import cuda as cuda_api

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "python"))
CUDA_USABLE = cuda_api.probe()[0]


def _python(code, **env):
    """Runs `code` in a fresh interpreter (driver selection happens once per
    process) and returns its stdout."""
    full = dict(os.environ, PYTHONPATH=PYTHON_DIR, **env)
    result = subprocess.run([sys.executable, "-c", code], env=full,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_tpx_target_cpu_selects_the_cpu_driver():
    out = _python("from tpx.runtime import driver; d = driver.active; "
                  "print(type(d).__name__, d.get_current_target().backend)",
                  TPX_TARGET="cpu")
    assert out == "CPUDriver cpu"


def test_tpx_target_bad_value():
    code = ("from tpx.runtime import driver\n"
            "try:\n    driver.active\n"
            "except Exception as e:\n    print(type(e).__name__, e)")
    assert "must be 'cpu', 'cuda' or 'hip'" in _python(code,
                                                       TPX_TARGET="tpu")


def test_tpx_target_hip_without_an_amd_gpu_is_a_clear_error():
    code = ("from tpx.runtime import driver\n"
            "try:\n    driver.active\n"
            "except Exception as e:\n    print(type(e).__name__, e)")
    out = _python(code, TPX_TARGET="hip",
                  TPX_HIP_LIBRARY="/nonexistent/libamdhip64.so")
    assert out.startswith(
        "TpxError TPX_TARGET=hip but no AMD GPU is usable: no AMD GPU "
        "runtime: /nonexistent/libamdhip64.so not found"), out


def test_tpx_target_cuda_without_a_driver_is_a_clear_error():
    code = ("from tpx.runtime import driver\n"
            "try:\n    driver.active\n"
            "except Exception as e:\n    print(type(e).__name__, e)")
    out = _python(code, TPX_TARGET="cuda", TPX_NO_TORCH="1",
                  TPX_CUDA_DRIVER="/nonexistent/libcuda.so.1")
    assert out.startswith("TpxError TPX_TARGET=cuda but no CUDA GPU is "
                          "usable: /nonexistent/libcuda.so.1 not found")


def test_without_a_gpu_the_default_is_the_cpu():
    out = _python("from tpx.runtime import driver; "
                  "print(driver.active.backend)", TPX_NO_TORCH="1",
                  TPX_CUDA_DRIVER="/nonexistent/libcuda.so.1")
    assert out == "cpu"


def test_package_imports_without_torch():
    out = _python("import sys\n"
                  "class Block:\n"
                  "    def find_spec(self, name, path=None, target=None):\n"
                  "        if name == 'torch' or name.startswith('torch.'):\n"
                  "            raise ImportError('blocked')\n"
                  "sys.meta_path.insert(0, Block())\n"
                  "import tpx, tpx.testing, tpx.runtime\n"
                  "from tpx.runtime import driver\n"
                  "print(driver.active.get_active_torch_device(), "
                  "'torch' in sys.modules)",
                  TPX_TARGET="cpu")
    assert out == "cpu False"


def test_cpu_driver_api():
    d = CPUDriver()
    assert d.get_current_device() == 0
    d.set_current_device(0)
    with pytest.raises(ValueError, match="one device"):
        d.set_current_device(1)
    assert d.get_current_stream() == 0
    assert d.get_current_stream(0) == 0
    target = d.get_current_target()
    assert isinstance(target, GPUTarget)
    assert target.backend == "cpu" and target.warp_size == 32
    assert target.arch == (os.environ.get("TPX_CPU_ARCH") or "host")
    assert d.compile_target() == "cpu"
    props = d.utils.get_device_properties(0)
    assert props["multiprocessor_count"] == os.cpu_count()
    assert props["max_shared_mem"] == 232448
    assert props["max_num_regs"] == 65536
    assert props["warpSize"] == 32
    for key in ("sm_clock_rate", "mem_clock_rate", "mem_bus_width"):
        assert props[key] > 0
    iface = d.get_device_interface()
    iface.synchronize()
    start, end = iface.Event(enable_timing=True), iface.Event()
    start.record()
    end.record()
    assert end.t >= start.t and start.elapsed_time(end) >= 0


def test_cpu_torch_device():
    torch = pytest.importorskip("torch")
    assert CPUDriver().get_active_torch_device() == torch.device("cpu")


def test_cpu_arch_from_env(monkeypatch):
    monkeypatch.setenv("TPX_CPU_ARCH", "x86-64")
    assert CPUDriver().get_current_target().arch == "x86-64"


def test_set_active_and_reset():
    saved = driver._active
    try:
        mine = CPUDriver()
        driver.set_active(mine)
        assert driver.active is mine
        driver.reset_active()
        assert driver.active is driver.default
    finally:
        driver._active = saved


def test_driver_object_exposes_module_names():
    assert driver.CPUDriver is CPUDriver
    assert driver.GPUTarget is GPUTarget
    with pytest.raises(AttributeError):
        driver.no_such_name


@pytest.mark.parametrize("cc, name", [
    ((9, 0), "sm_90a"), ((8, 0), "sm_80"), ((8, 6), "sm_86"),
    ((10, 0), "sm_100"), ((12, 0), "sm_120"), ((7, 5), "sm_75")])
def test_cuda_target_names(cc, name):
    assert cuda_target_name(*cc) == name


def test_cuda_driver_library_missing(monkeypatch):
    monkeypatch.setenv("TPX_CUDA_DRIVER", "/nonexistent/libcuda.so.1")
    with pytest.raises(cuda_api.CudaError, match="not found: no NVIDIA "
                       "driver on this machine"):
        cuda_api.DriverAPI()


def test_cuda_error_messages_name_the_call():
    if not CUDA_USABLE:
        pytest.skip("no CUDA driver")
    api = cuda_api.api()
    with pytest.raises(cuda_api.CudaError, match=r"cuFoo failed: "
                       r"CUDA_ERROR_INVALID_VALUE .*\[CUresult 1\]"):
        api.check(1, "cuFoo")


@pytest.mark.skipif(not CUDA_USABLE, reason="no CUDA GPU")
def test_cuda_driver_on_a_gpu():
    d = CUDADriver()
    device = d.get_current_device()
    target = d.get_current_target()
    assert target.backend == "cuda" and isinstance(target.arch, int)
    assert d.compile_target().startswith("sm_")
    props = d.utils.get_device_properties(device)
    assert props["multiprocessor_count"] > 0
    assert props["warpSize"] == 32
    assert props["max_shared_mem"] >= 48 * 1024
    assert props["max_num_regs"] >= 32768


def test_set_allocator():
    from tpx.runtime.allocation import NullAllocator, allocate, get_allocator
    assert isinstance(get_allocator(), NullAllocator)
    with pytest.raises(RuntimeError, match="no allocator was set"):
        allocate(64, 16, 0)
    with pytest.raises(TypeError, match="expected a callable"):
        tpx.set_allocator(3)
    calls = []

    class Buffer:
        def data_ptr(self):
            return 4096

    def fn(size, alignment, stream):
        calls.append((size, alignment, stream))
        return Buffer()
    try:
        tpx.set_allocator(fn)
        assert get_allocator() is fn
        assert allocate(128, 16, 0).data_ptr() == 4096
        assert calls == [(128, 16, 0)]
        tpx.set_allocator(lambda size, alignment, stream: object())
        with pytest.raises(TypeError, match="no data_ptr"):
            allocate(128, 16, 0)
    finally:
        tpx.set_allocator(None)
    assert isinstance(get_allocator(), NullAllocator)


def test_error_types_are_tpx_errors():
    assert issubclass(cuda_api.CudaError, TpxError)


def test_internal_testing_answers_from_the_active_target():
    import tpx._internal_testing as t
    target = t.get_current_target()
    assert t.is_cuda() == (target.backend == "cuda")
    assert t.is_cpu() == (target.backend == "cpu")
    if target.backend == "cpu":
        assert not (t.is_hopper() or t.is_blackwell() or t.is_hip_cdna2() or
                    t.supports_tma())
    else:
        assert t.is_hopper() == (target.arch // 10 == 9)
