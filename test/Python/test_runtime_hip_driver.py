"""The HIP driver (TPX_TARGET=hip): selection, properties, @jit launches.

There is no AMD GPU and no ROCm on the machines these tests run on, so the
runtime cannot run here. Two kinds of tests:

* without any HIP runtime: the errors that name what is missing, and the
  automatic choice falling back to the CPU;
* with a TEST DOUBLE of libamdhip64 -- fake_hip_runtime.c, compiled with
  cc at test time (skipped without a C compiler) and named by
  TPX_HIP_LIBRARY. It implements only the hip* entry points
  tpx/runtime/hip_api.py calls, reports one gfx950 device, and records
  every hipModuleLaunchKernel (grid, block, dynamic LDS, stream, the
  kernelParams' 8-byte slots) to a file instead of running anything. That
  double is acceptable only because the real runtime cannot run on this
  machine: it checks what tpx would hand to HIP (the kernels are really
  compiled for gfx950), not that a kernel computes the right thing on an
  AMD GPU -- nothing here has run on one.

The driver is chosen once per process, so each case runs in a fresh
interpreter.
"""

import ctypes.util
import os
import shutil
import struct
import subprocess
import sys
import types

import pytest

from tpx.compiler.compiler import KernelMetadata
from tpx.errors import LaunchError

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "python"))
HAVE_HIP = ctypes.util.find_library("amdhip64") is not None
NO_CUDA = "/nonexistent/libcuda.so.1"
# Compiling for gfx950 links the hsaco with ld.lld (docs/amd-target.md);
# the compiler looks for it where these do.
HAVE_LLD = bool(os.environ.get("TPX_LD_LLD") or
                os.path.exists("/usr/lib/llvm-22/bin/ld.lld") or
                shutil.which("ld.lld-22") or shutil.which("ld.lld"))
needs_lld = pytest.mark.skipif(not HAVE_LLD, reason="no ld.lld to link "
                               "gfx950 code objects")


def _python(code, script=None, **env):
    """Runs `code` (from the file `script` when given: @jit needs its
    source) without torch or a CUDA driver; returns its stdout."""
    full = dict(os.environ, PYTHONPATH=os.pathsep.join([PYTHON_DIR, HERE]),
                TPX_NO_TORCH="1", TPX_CUDA_DRIVER=NO_CUDA)
    for name in ("TPX_HIP_LIBRARY", "TPX_TARGET"):
        full.pop(name, None)  # each test says which
    full.update(env)
    command = [sys.executable, "-c", code]
    if script is not None:
        script.write_text(code)
        command = [sys.executable, str(script)]
    result = subprocess.run(command, env=full, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


SELECT = ("from tpx.runtime import driver\n"
          "try:\n    print(type(driver.active).__name__)\n"
          "except Exception as e:\n    print(type(e).__name__, e)\n")


# -- without a HIP runtime --------------------------------------------------

@pytest.mark.parametrize("name", ["hip", "amd", "rocm"])
def test_tpx_target_hip_names_the_missing_runtime(name):
    out = _python(SELECT, TPX_TARGET=name,
                  TPX_HIP_LIBRARY="/nonexistent/libamdhip64.so")
    assert out.startswith(
        "TpxError TPX_TARGET=%s but no AMD GPU is usable: no AMD GPU "
        "runtime: /nonexistent/libamdhip64.so not found (named by "
        "TPX_HIP_LIBRARY: /nonexistent/libamdhip64.so: " % name), out


@pytest.mark.skipif(HAVE_HIP, reason="ROCm is installed here")
def test_tpx_target_hip_without_rocm_names_every_library_tried():
    out = _python(SELECT, TPX_TARGET="hip")
    assert out.startswith(
        "TpxError TPX_TARGET=hip but no AMD GPU is usable: no AMD GPU "
        "runtime: libamdhip64.so not found (set TPX_HIP_LIBRARY to its "
        "path; tried libamdhip64.so: "), out
    assert "; libamdhip64.so.6: " in out and "; libamdhip64.so.5: " in out


def test_automatic_choice_without_a_gpu_is_the_cpu():
    assert _python(SELECT, TPX_HIP_LIBRARY="/nonexistent/libamdhip64.so") \
        == "CPUDriver"


def test_tensor_map_kernels_are_refused_before_the_runtime_is_asked():
    from tpx.runtime.launch_hip import HIPDeviceLauncher
    kernel = types.SimpleNamespace(name="tma_kernel", metadata=KernelMetadata(
        target="gfx950", tensor_maps=[{"arg": 0}], entry_point="tma_kernel"))
    with pytest.raises(LaunchError, match="kernel 'tma_kernel' takes TMA "
                       "tensor maps, which only NVIDIA GPUs have"):
        HIPDeviceLauncher(kernel)
    kernel.metadata["target"] = "sm_90a"
    with pytest.raises(LaunchError, match="compiled for target 'sm_90a', "
                       "which cannot run on an AMD GPU"):
        HIPDeviceLauncher(kernel)


def test_dynamic_lds_is_what_the_code_object_does_not_allocate_itself():
    from tpx.runtime.launch_hip import dynamic_shared_bytes
    assert dynamic_shared_bytes({"shared_memory": 4096}) == 4096
    assert dynamic_shared_bytes({"shared_memory": 4096,
                                 "static_shared_memory": 0}) == 4096
    assert dynamic_shared_bytes({"shared_memory": 4096,
                                 "static_shared_memory": 8192}) == 0
    assert dynamic_shared_bytes({}) == 0


def test_gcn_arch_name_is_found_in_any_device_properties_layout():
    from tpx.runtime.hip_api import _ARCH_NAME
    props = (b"AMD Instinct MI355X gfx950\0" + b"\0" * 300 +
             b"gfx950:sramecc+:xnack-\0" + b"\0" * 64)
    assert _ARCH_NAME.search(props).group(0) == b"gfx950:sramecc+:xnack-"
    assert _ARCH_NAME.search(b"name gfx90a\0\0\0gfx\0") is None


# -- with the test double of libamdhip64 ---------------------------------

@pytest.fixture(scope="module")
def fake_hip(tmp_path_factory):
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler for the HIP runtime test double")
    library = str(tmp_path_factory.mktemp("fake-hip") / "libamdhip64.so")
    subprocess.run([cc, "-shared", "-fPIC", "-O1", "-o", library,
                    os.path.join(HERE, "fake_hip_runtime.c")], check=True)
    return library


def _fake(library, tmp_path, code, **env):
    """Runs `code` on the test double; returns (stdout, launch log lines)."""
    log = tmp_path / "hip.log"
    out = _python(code, tmp_path / "program.py", TPX_HIP_LIBRARY=library,
                  FAKE_HIP_LOG=str(log),
                  TPX_CACHE_DIR=str(tmp_path / "cache"), **env)
    lines = log.read_text().splitlines() if log.exists() else []
    return out, lines


def test_automatic_choice_is_hip_when_only_an_amd_gpu_is_usable(
        fake_hip, tmp_path):
    out, _ = _fake(fake_hip, tmp_path, SELECT)
    assert out == "HIPDriver"


def test_no_device_is_a_clear_error(fake_hip, tmp_path):
    out, _ = _fake(fake_hip, tmp_path, SELECT, TPX_TARGET="hip",
                   FAKE_HIP_DEVICES="0")
    assert out == (
        "TpxError TPX_TARGET=hip but no AMD GPU is usable: no AMD GPU: the "
        "HIP runtime %s sees no device (check HIP_VISIBLE_DEVICES and that "
        "the amdgpu driver is loaded)" % fake_hip)


DRIVER = """
from tpx.runtime import driver
d = driver.active
print(type(d).__name__, d.get_current_target(), d.compile_target())
props = d.utils.get_device_properties(0)
print(sorted(props.items()))
print(d.get_active_torch_device(), d.get_current_device(),
      d.get_current_stream())
di = d.get_device_interface()
start, end = di.Event(enable_timing=True), di.Event(enable_timing=True)
start.record(); end.record(); di.synchronize()
print(start.elapsed_time(end) >= 0, di.device_count())
try:
    d.set_current_device(3)
except Exception as e:
    print(type(e).__name__, e)
from tpx import _internal_testing as t
print(t.is_hip(), t.is_hip_cdna4(), t.is_cuda())
"""


def test_hip_driver_reports_the_device(fake_hip, tmp_path):
    out, _ = _fake(fake_hip, tmp_path, DRIVER, TPX_TARGET="hip")
    lines = out.splitlines()
    assert lines[0] == ("HIPDriver GPUTarget(backend='hip', arch='gfx950', "
                        "warp_size=64) gfx950")
    assert lines[1] == str(sorted({
        "arch": "gfx950:sramecc+:xnack-", "max_num_regs": 131072,
        "max_shared_mem": 163840, "mem_bus_width": 8192,
        "mem_clock_rate": 8000000, "multiprocessor_count": 256,
        "sm_clock_rate": 2400000, "warpSize": 64}.items()))
    assert lines[2] == "cuda:0 0 0"
    assert lines[3] == "True 1"
    assert lines[4] == "ValueError AMD GPU 3 requested but 1 present"
    assert lines[5] == "True True False"


KERNEL = """
import os
import tpx
import tpx.language as tl
from tpx.runtime import driver


@tpx.jit
def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


class Device:
    # Device memory as CuPy on ROCm presents it.
    def __init__(self, address, n):
        self.__cuda_array_interface__ = {
            "data": (address, False), "shape": (n,), "typestr": "<f4",
            "version": 3}


x, y, out = (Device(0x7f0000010000 + 0x10000 * i, 1000) for i in range(3))


def attempt(fn):
    try:
        fn()
    except Exception as e:
        print(type(e).__name__, e)
"""

LAUNCH = KERNEL + """
k = add[(4,)](x, y, out, 1000, BLOCK=256)
print(type(k.launcher).__name__, k.metadata.target,
      k.metadata.block_threads, k.metadata.shared_memory)
add[(5, 2)](x, y, out, 7, BLOCK=256, num_warps=8)     # the fast path
driver.active.set_current_stream(0x5000)
add[(6,)](x, y, out, 1000, BLOCK=256)
k.run((3,), x, y, out, -5, 256)                      # CompiledKernel.run
"""


def _launches(lines):
    """The recorded launches as (grid, block, shared, stream, slots)."""
    out = []
    for line in lines:
        if not line.startswith("launch "):
            continue
        fields = dict(part.split("=", 1) for part in line.split()[1:])
        out.append((fields["grid"], fields["block"], int(fields["shared"]),
                    int(fields["stream"], 16),
                    [int(s, 16) for s in fields["params"].split(",")]))
    return out


@needs_lld
def test_jit_launch_hands_hip_the_grid_block_lds_stream_and_arguments(
        fake_hip, tmp_path):
    out, log = _fake(fake_hip, tmp_path, LAUNCH, TPX_TARGET="hip",
                     FAKE_HIP_NPARAMS="4")
    assert out == "HIPDeviceLauncher gfx950 256 0", out
    # Loaded once per device and entry (num_warps=8 is another kernel).
    assert log.count("load") == 2 and log.count("function add") == 2
    pointers = [0x7f0000010000, 0x7f0000020000, 0x7f0000030000]
    i32 = struct.unpack("<Q", struct.pack("<iI", -5, 0))[0]
    assert _launches(log) == [
        ("4,1,1", "256,1,1", 0, 0, pointers + [1000]),
        ("5,2,1", "512,1,1", 0, 0, pointers + [7]),
        ("6,1,1", "256,1,1", 0, 0x5000, pointers + [1000]),
        ("3,1,1", "256,1,1", 0, 0x5000, pointers + [i32]),
    ]


ERRORS = KERNEL + """
import numpy as np
from tpx.compiler.compiler import compile_ttir
from tpx.runtime.launch_hip import use_device_launcher
k = add[(1,)](x, y, out, 1000, BLOCK=256)
attempt(lambda: k.run((1,), x, y, out, 2 ** 33, 256))
attempt(lambda: add[(1,)](x, np.zeros(4, np.float32), out, 9, BLOCK=256))
attempt(lambda: add[(2 ** 32,)](x, y, out, 1000, BLOCK=256))
os.environ["FAKE_HIP_LAUNCH_RESULT"] = "1"
attempt(lambda: add[(2,)](x, y, out, 1000, BLOCK=256))
os.environ["FAKE_HIP_LAUNCH_RESULT"] = "701"
attempt(lambda: add[(2,)](x, y, out, 1000, BLOCK=256))
os.environ["FAKE_HIP_LAUNCH_RESULT"] = "0"
# More LDS than the device has is OutOfResources (the autotuner skips
# such configs); up to the device's limit (160 KiB on gfx950) launches.
for shared in (200000, 150000):
    big = compile_ttir(k.asm["source"], "gfx950")
    big.metadata["shared_memory"] = shared
    use_device_launcher(big)
    attempt(lambda: big[(1,)](x, y, out, 1000))
"""


@needs_lld
def test_bad_launches_are_clear_errors_and_launch_nothing(fake_hip,
                                                          tmp_path):
    out, log = _fake(fake_hip, tmp_path, ERRORS, TPX_TARGET="hip",
                     FAKE_HIP_NPARAMS="4")
    lines = out.splitlines()
    assert lines[:4] == [
        "LaunchError argument 3 'n' of kernel 'add' is i32 but 8589934592 "
        "does not fit",
        "LaunchError argument 'y_ptr' of kernel 'add' is host memory (a "
        "numpy array), but the kernel runs on cuda:0: pass a GPU tensor",
        "LaunchError kernel 'add': grid (4294967296, 1, 1) is out of range "
        "(hipModuleLaunchKernel takes grid dimensions up to 2^32 - 1)",
        "LaunchError hipModuleLaunchKernel('add', grid (2, 1, 1), block "
        "(256, 1, 1), 0 bytes of dynamic LDS) failed: hipErrorInvalidValue "
        "(invalid argument) [hipError_t 1]"]
    assert lines[4].startswith(
        "OutOfResources out of resource: registers or LDS, required: 256 "
        "threads of "), lines[4]
    assert lines[4].endswith(
        "failed: hipErrorLaunchOutOfResources (too many resources requested "
        "for launch) [hipError_t 701])"), lines[4]
    assert lines[5:] == [
        "OutOfResources out of resource: shared memory, required: 200000, "
        "hardware limit: 163840"]
    # The first launch, those HIP itself failed, and the one within the
    # limit: the refused ones never reached HIP.
    assert [(g, s) for g, _, s, _, _ in _launches(log)] == [
        ("1,1,1", 0), ("2,1,1", 0), ("2,1,1", 0), ("1,1,1", 150000)]


MISMATCH = KERNEL + """
from tpx.compiler.compiler import compile_ttir
from tpx.runtime.launch_hip import use_device_launcher
k = add.warmup(x, y, out, 1000, BLOCK=256, grid=(1,))
print(k.metadata.target)
other = compile_ttir(k.asm["source"], "gfx950")
use_device_launcher(other)
attempt(lambda: other[(1,)](x, y, out, 1000))
"""


@needs_lld
def test_a_kernel_for_another_processor_is_refused(fake_hip, tmp_path):
    out, log = _fake(fake_hip, tmp_path, MISMATCH, TPX_TARGET="hip",
                     FAKE_HIP_ARCH="gfx942:sramecc+:xnack-")
    assert out.splitlines() == [
        "gfx942",
        "LaunchError kernel 'add' was compiled for gfx950 but the GPU is "
        "gfx942:sramecc+:xnack- (another processor; compile for gfx942)"]
    assert not _launches(log)
