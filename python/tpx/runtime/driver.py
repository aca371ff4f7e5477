"""`tpx.runtime.driver`: the active device driver, as Triton programs use it.

    from tpx.runtime import driver          # triton.runtime.driver
    dev = driver.active.get_active_torch_device()
    props = driver.active.utils.get_device_properties(
        driver.active.get_current_device())
    target = driver.active.get_current_target()   # .backend, .arch

`driver.active` is chosen on first use:

* `TPX_TARGET=cpu` -> the CPU driver; `TPX_TARGET=cuda` -> the CUDA driver
  (an error at first use if no GPU is usable); `TPX_TARGET=hip` (or `amd`,
  `rocm`) -> the HIP driver (an error at first use with the HIP runtime's
  reason if no AMD GPU is usable);
* otherwise the CUDA driver when a CUDA GPU is usable -- by
  `torch.cuda.is_available()` when torch imports, else by opening
  libcuda.so.1 and asking cuInit/cuDeviceGetCount -- else the HIP driver
  when an AMD GPU is usable (libamdhip64 opens, hipInit succeeds and
  hipGetDeviceCount finds one), else the CPU driver.

`driver.set_active(d)` / `driver.reset_active()` switch it (tests do).

The CPU driver
--------------
Kernels compile for target "cpu" and run on the host's cores. It has one
device, 0, and one stream, 0. `get_current_target()` is
`GPUTarget("cpu", arch, 32)` with arch $TPX_CPU_ARCH (default "host",
the host CPU with all its features). `get_active_torch_device()` is
`torch.device("cpu")` (the string "cpu" without torch).

`utils.get_device_properties(0)` returns documented, fixed values chosen so
that programs which size launches from a GPU's properties keep working:

  ==================== ==================== ================================
  key                  value                why
  ==================== ==================== ================================
  multiprocessor_count os.cpu_count()       persistent kernels launch one
                                            program per "SM": one per core
  max_shared_mem       232448 (227 KiB)     an H100/H200's opt-in shared
                                            memory per block, so configs
                                            pruned by it match the GPU's
  max_num_regs         65536                registers per block on NVIDIA
  warpSize             32                   Triton's warp size
  sm_clock_rate        1980000 (kHz)        an H200's boost clock
  mem_clock_rate       2619000 (kHz)        an H200's memory clock
  mem_bus_width        5120 (bits)          an H200's bus width
  ==================== ==================== ================================

The CPU has no shared-memory or register limits of its own; these numbers
only keep formulas such as roofline estimates finite and GPU-like.

The CUDA driver
---------------
Talks to libcuda through ctypes (tpx/runtime/cuda.py) and to torch when it
is imported. Device and stream come from torch (`torch.cuda.current_device`,
the current torch stream) when torch is present, else from this driver's
own state (`set_current_device`, stream 0). `get_current_target()` is
`GPUTarget("cuda", 90, 32)` on an sm_90 device; the compile target is
"sm_90a" for compute capability 9.0 and f"sm_{major}{minor}" otherwise.
`utils.get_device_properties(i)` reads cuDeviceGetAttribute: multiprocessor
count, opt-in shared memory per block, registers per block, warp size, SM
and memory clocks (kHz) and the memory bus width (bits).

The HIP driver
--------------
Talks to libamdhip64 through ctypes (tpx/runtime/hip_api.py) and to torch
when torch is a ROCm build (`torch.version.hip` set), which calls AMD GPUs
`cuda` devices: device and stream come from torch (`torch.cuda.
current_device`, the current torch stream, a hipStream_t) when present,
else from this driver's own state (hipSetDevice, the null stream).
`get_current_target()` is `GPUTarget("hip", "gfx950", 64)` on an MI355X:
the arch is the processor of the device's gcnArchName, without the
feature suffix (":sramecc+:xnack-"), and the warp size the device's
(64 on CDNA). Kernels compile for that processor ("gfx950") and launch
through tpx/runtime/launch_hip.py's HIPDeviceLauncher on device memory.
`utils.get_device_properties(i)` reads hipDeviceGetAttribute: compute
units (`multiprocessor_count`), LDS per workgroup (`max_shared_mem`: 160
KiB on gfx950; AMD has no opt-in limit above it), registers per block,
warp size, clocks and bus width, plus `arch`, the whole gcnArchName.
"""

import os
import sys
import threading
import time
from dataclasses import dataclass
from typing import Union

from tpx.errors import TpxError

__all__ = ["driver", "GPUTarget", "CPUDriver", "CUDADriver", "HIPDriver",
           "cuda_target_name", "DriverConfig"]


@dataclass(frozen=True)
class GPUTarget:
    """Triton's GPUTarget: backend ("cuda", "hip", "cpu"), arch (90;
    "gfx950"; "host" or an LLVM CPU name on the CPU) and warp size."""
    backend: str
    arch: Union[int, str]
    warp_size: int


def cuda_target_name(major, minor):
    """The compile target of a compute capability: sm_90a for 9.0 (the
    Hopper-specific instructions need the 'a' variant), sm_XY otherwise."""
    if (major, minor) == (9, 0):
        return "sm_90a"
    return "sm_%d%d" % (major, minor)


def _torch():
    """torch if it can be imported (imported on demand), else None."""
    torch = sys.modules.get("torch")
    if torch is not None:
        return torch
    if os.environ.get("TPX_NO_TORCH"):
        return None
    try:
        import torch
    except Exception:
        return None
    return torch


# -- the CPU driver ---------------------------------------------------------

CPU_PROPERTIES = {
    "max_shared_mem": 232448,
    "max_num_regs": 65536,
    "warpSize": 32,
    "sm_clock_rate": 1980000,
    "mem_clock_rate": 2619000,
    "mem_bus_width": 5120,
}


class _CPUUtils:
    """driver.active.utils on the CPU."""

    def get_device_properties(self, device=0):
        _check_cpu_device(device)
        props = dict(CPU_PROPERTIES)
        props["multiprocessor_count"] = os.cpu_count() or 1
        return props


def _check_cpu_device(device):
    if device is None:
        return
    index = getattr(device, "index", device)
    if getattr(device, "type", "cpu") != "cpu" or index not in (None, 0):
        raise ValueError("the CPU driver has one device, 0; got %r" %
                         (device,))


class _CPUEvent:
    """torch.cuda.Event's interface over time.perf_counter."""

    def __init__(self, enable_timing=True):
        self.t = None

    def record(self, stream=None):
        self.t = time.perf_counter()

    def synchronize(self):
        pass

    def elapsed_time(self, end):
        if self.t is None or end.t is None:
            raise RuntimeError("elapsed_time: both events must be recorded")
        return (end.t - self.t) * 1e3


class _CPUDeviceInterface:
    """What `get_device_interface()` returns on the CPU: the parts of
    torch.cuda that benchmarking code calls."""
    Event = _CPUEvent

    @staticmethod
    def synchronize(device=None):
        pass

    @staticmethod
    def current_device():
        return 0

    @staticmethod
    def device_count():
        return 1

    @staticmethod
    def is_available():
        return True


class CPUDriver:
    """Kernels for target "cpu", run on the host (see the module doc)."""
    backend = "cpu"

    def __init__(self):
        self.utils = _CPUUtils()
        self.arch = os.environ.get("TPX_CPU_ARCH") or "host"
        self._target = GPUTarget("cpu", self.arch, 32)

    @staticmethod
    def is_active():
        return True

    def get_current_device(self):
        return 0

    def set_current_device(self, device):
        _check_cpu_device(device)

    def get_current_stream(self, device=None):
        return 0

    def get_current_target(self):
        return self._target

    def compile_target(self, device=None):
        """The target string kernels compile for on `device`."""
        return "cpu"

    def get_active_torch_device(self):
        torch = _torch()
        return torch.device("cpu") if torch is not None else "cpu"

    def get_device_interface(self):
        return _CPUDeviceInterface

    def get_benchmarker(self):
        from tpx.testing import do_bench
        return do_bench

    def get_empty_cache_for_benchmark(self):
        # No L2 flush between CPU timings (see tpx.testing.do_bench).
        return None

    def clear_cache(self, cache):
        pass

    def synchronize(self):
        pass

    def map_python_to_cpp_type(self, ty):
        return ty

    def __repr__(self):
        return "CPUDriver(arch=%r)" % self.arch


# -- what the GPU drivers share ----------------------------------------------

class _GPUUtils:
    """driver.active.utils on a GPU: device properties, read once per
    device by `read(index)`."""

    def __init__(self, read):
        self._read = read
        self._props = {}
        self._lock = threading.Lock()

    def get_device_properties(self, device):
        index = getattr(device, "index", device)
        if index is None:
            index = 0
        props = self._props.get(index)
        if props is None:
            props = self._read(index)
            with self._lock:
                self._props[index] = props
        return dict(props)


class _GPUDeviceInterface:
    """get_device_interface() without torch: events and synchronize over
    the driver library's module (tpx.runtime.cuda or hip_api)."""

    def __init__(self, api):
        self._api = api

    def synchronize(self, device=None):
        self._api.synchronize()

    @property
    def Event(self):
        return self._api.Event

    @staticmethod
    def current_device():
        return driver.active.get_current_device()

    def device_count(self):
        return self._api.device_count()

    @staticmethod
    def is_available():
        return True


class _GPUDriver:
    """What the CUDA and HIP drivers share: device and stream from torch
    when it drives this GPU (`torch`), else the driver's own state; the
    benchmarking hooks. Subclasses give `_api()` (the ctypes module),
    `_usable()`, `_read_properties(index)`, `_make_target(device)`,
    `_set_device(index, device)` (without torch), `compile_target` and
    `_flush_bytes`."""
    backend = None
    _flush_bytes = 0

    def _setup(self, torch, device):
        self.utils = _GPUUtils(self._read_properties)
        self._targets = {}
        self._device = device
        self._stream = 0
        self._torch = torch
        # The launch hot path calls these two directly: the cheapest ways
        # to ask torch (when present) for the current device and stream.
        self.device_getter = self.get_current_device
        self.stream_getter = lambda device: self._stream
        if torch is not None:
            c = torch._C
            torch.cuda.init()
            self.get_current_device = torch.cuda.current_device
            self.device_getter = getattr(c, "_cuda_getDevice",
                                         torch.cuda.current_device)
            raw = getattr(c, "_cuda_getCurrentRawStream", None)
            if raw is not None:
                self._raw_stream = raw
            else:
                self._raw_stream = (lambda index: torch.cuda.current_stream(
                    index).cuda_stream)
            self.stream_getter = self._raw_stream

    @classmethod
    def is_active(cls):
        return cls._usable()[0]

    # Replaced by torch.cuda.current_device when torch is present.
    def get_current_device(self):
        return self._device

    def set_current_device(self, device):
        index = getattr(device, "index", device)
        if self._torch is not None:
            self._torch.cuda.set_device(index)
        else:
            self._set_device(index, device)
            self._device = index

    def get_current_stream(self, device=None):
        if self._torch is not None:
            if device is None:
                device = self.get_current_device()
            return self._raw_stream(device)
        return self._stream

    def set_current_stream(self, stream):
        """Without torch: the stream launches use (a CUstream or
        hipStream_t as an int)."""
        self._stream = int(stream or 0)

    def get_current_target(self):
        device = self.get_current_device()
        target = self._targets.get(device)
        if target is None:
            target = self._targets[device] = self._make_target(device)
        return target

    def get_active_torch_device(self):
        # torch on ROCm names AMD GPUs "cuda" too.
        torch = _torch()
        if torch is None:
            return "cuda:%d" % self.get_current_device()
        return torch.device("cuda", self.get_current_device())

    def get_device_interface(self):
        if self._torch is not None:
            return self._torch.cuda
        return _GPUDeviceInterface(self._api())

    def get_benchmarker(self):
        from tpx.testing import do_bench
        return do_bench

    def get_empty_cache_for_benchmark(self):
        size = self._flush_bytes
        if self._torch is not None:
            return self._torch.empty(size // 4, dtype=self._torch.int,
                                     device="cuda")
        return self._api().DeviceBuffer(size)

    def clear_cache(self, cache):
        cache.zero_()

    def synchronize(self):
        if self._torch is not None:
            self._torch.cuda.synchronize()
        else:
            self._api().synchronize()

    def __repr__(self):
        return "%s(device=%d)" % (type(self).__name__,
                                  self.get_current_device())


# -- the CUDA driver --------------------------------------------------------

class CUDADriver(_GPUDriver):
    """Kernels for sm_XY targets, run through libcuda (see the module doc)."""
    backend = "cuda"
    # 256 MB: larger than any GPU's L2 (an H200 has 60 MB), so writing it
    # evicts everything a kernel left there.
    _flush_bytes = 256 * 1024 * 1024

    def __init__(self):
        from tpx.runtime import cuda
        cuda.api()  # fail now, with the driver's reason, if unusable
        torch = _torch()
        self._setup(torch if torch is not None and torch.cuda.is_available()
                    else None,
                    int(os.environ.get("TPX_CUDA_DEVICE", "0") or 0))

    @staticmethod
    def _api():
        from tpx.runtime import cuda
        return cuda

    @staticmethod
    def _read_properties(index):
        from tpx.runtime import cuda
        a = cuda.device_attribute
        return {
            "max_shared_mem":
                a(cuda.ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, index),
            "max_num_regs": a(cuda.ATTR_MAX_REGISTERS_PER_BLOCK, index),
            "multiprocessor_count": a(cuda.ATTR_MULTIPROCESSOR_COUNT, index),
            "warpSize": a(cuda.ATTR_WARP_SIZE, index),
            "sm_clock_rate": a(cuda.ATTR_CLOCK_RATE, index),
            "mem_clock_rate": a(cuda.ATTR_MEMORY_CLOCK_RATE, index),
            "mem_bus_width": a(cuda.ATTR_GLOBAL_MEMORY_BUS_WIDTH, index),
        }

    @staticmethod
    def _usable():
        return _cuda_usable()

    @staticmethod
    def _set_device(index, device):
        """Without torch: the device's primary context made current."""
        from tpx.runtime import cuda
        count = cuda.device_count()
        if not isinstance(index, int) or not 0 <= index < count:
            raise ValueError("CUDA device %r requested but %d present" %
                             (device, count))
        cuda.set_current_context(cuda.primary_context(index))

    @staticmethod
    def _make_target(device):
        from tpx.runtime import cuda
        major, minor = cuda.compute_capability(device)
        return GPUTarget("cuda", major * 10 + minor, 32)

    def compile_target(self, device=None):
        """The target string kernels compile for on `device` ("sm_90a")."""
        if device is None:
            device = self.get_current_device()
        from tpx.runtime import cuda
        return cuda_target_name(*cuda.compute_capability(device))


# -- the HIP driver ---------------------------------------------------------

def _rocm_torch():
    """torch when it is a ROCm build that sees a GPU, else None."""
    torch = _torch()
    if torch is None or not getattr(getattr(torch, "version", None), "hip",
                                    None):
        return None
    try:
        return torch if torch.cuda.is_available() else None
    except Exception:
        return None


class HIPDriver(_GPUDriver):
    """Kernels for gfx* targets, run through libamdhip64 (see the module
    doc)."""
    backend = "hip"
    # 512 MB: more than the L2 and the 256 MB Infinity Cache of an
    # MI300X/MI355X, so writing it evicts what a kernel left there.
    _flush_bytes = 512 * 1024 * 1024

    def __init__(self):
        from tpx.runtime import hip_api
        hip_api.api()  # fail now, with the runtime's reason, if unusable
        self._setup(_rocm_torch(), hip_api.current_device())

    @staticmethod
    def _api():
        from tpx.runtime import hip_api
        return hip_api

    @staticmethod
    def _read_properties(index):
        from tpx.runtime import hip_api
        a = hip_api.device_attribute
        return {
            # LDS per workgroup: 160 KiB on gfx950; AMD has no opt-in
            # limit above it.
            "max_shared_mem":
                a(hip_api.ATTR_MAX_SHARED_MEMORY_PER_BLOCK, index),
            "max_num_regs": a(hip_api.ATTR_MAX_REGISTERS_PER_BLOCK, index),
            "multiprocessor_count":
                a(hip_api.ATTR_MULTIPROCESSOR_COUNT, index),
            "warpSize": a(hip_api.ATTR_WARP_SIZE, index),
            "sm_clock_rate": a(hip_api.ATTR_CLOCK_RATE, index),
            "mem_clock_rate": a(hip_api.ATTR_MEMORY_CLOCK_RATE, index),
            "mem_bus_width": a(hip_api.ATTR_MEMORY_BUS_WIDTH, index),
            "arch": hip_api.device_arch(index),
        }

    @staticmethod
    def _usable():
        return _hip_usable()

    @staticmethod
    def _set_device(index, device):
        """Without torch: hipSetDevice (a ValueError naming the count for a
        device that is not there)."""
        from tpx.runtime import hip_api
        hip_api.set_device(index)

    @staticmethod
    def _make_target(device):
        from tpx.runtime import hip_api
        arch = hip_api.processor(hip_api.device_arch(device))
        return GPUTarget("hip", arch,
                         hip_api.device_attribute(hip_api.ATTR_WARP_SIZE,
                                                  device))

    def compile_target(self, device=None):
        """The target string kernels compile for on `device` ("gfx950":
        the processor of its gcnArchName)."""
        if device is None:
            device = self.get_current_device()
        from tpx.runtime import hip_api
        return hip_api.processor(hip_api.device_arch(device))


# -- selection --------------------------------------------------------------

_usable = None


def _cuda_usable():
    """(usable, reason) for the CUDA driver, decided once."""
    global _usable
    if _usable is None:
        torch = _torch()
        if torch is not None:
            try:
                ok = bool(torch.cuda.is_available())
            except Exception as e:
                ok, why = False, "torch.cuda.is_available() failed: %s" % e
            else:
                why = "torch.cuda.is_available() is %s" % ok
            if ok:
                from tpx.runtime import cuda
                ok, why = cuda.probe()
            _usable = (ok, why)
        else:
            from tpx.runtime import cuda
            _usable = cuda.probe()
    return _usable


_hip_state = None


def _hip_usable():
    """(usable, reason) for the HIP driver, decided once."""
    global _hip_state
    if _hip_state is None:
        from tpx.runtime import hip_api
        _hip_state = hip_api.probe()
    return _hip_state


def _select():
    wanted = (os.environ.get("TPX_TARGET") or "").strip().lower()
    if wanted == "cpu":
        return CPUDriver()
    if wanted in ("cuda", "gpu", "nvidia"):
        ok, why = _cuda_usable()
        if not ok:
            raise TpxError("TPX_TARGET=%s but no CUDA GPU is usable: %s" %
                           (wanted, why))
        return CUDADriver()
    if wanted in ("hip", "amd", "rocm"):
        ok, why = _hip_usable()
        if not ok:
            raise TpxError("TPX_TARGET=%s but no AMD GPU is usable: %s" %
                           (wanted, why))
        return HIPDriver()
    if wanted:
        raise TpxError("TPX_TARGET must be 'cpu', 'cuda' or 'hip', got %r"
                       % wanted)
    ok, _ = _cuda_usable()
    if ok:
        return CUDADriver()
    ok, _ = _hip_usable()
    return HIPDriver() if ok else CPUDriver()


class DriverConfig:
    """Triton's `triton.runtime.driver`: `.active`, `.default`,
    `.set_active(d)`, `.reset_active()`."""

    def __init__(self):
        self._default = None
        self._active = None
        self._lock = threading.Lock()
        self.generation = 0  # bumped on every switch (caches compare it)

    @property
    def default(self):
        if self._default is None:
            with self._lock:
                if self._default is None:
                    self._default = _select()
        return self._default

    @property
    def active(self):
        active = self._active
        return active if active is not None else self.default

    def set_active(self, active):
        self._active = active
        self._switched()

    def reset_active(self):
        self._active = None
        self._switched()

    def _switched(self):
        from tpx import _capi
        self.generation += 1
        # Kernels' in-memory caches hold launchers of the old driver.
        _capi.bump_state_generation()

    def __getattr__(self, name):
        # `tpx.runtime.driver` is this object (as in Triton), which hides
        # the module of the same name; its classes stay reachable here.
        try:
            return globals()[name]
        except KeyError:
            raise AttributeError(name) from None

    def __repr__(self):
        return "DriverConfig(active=%r)" % (self._active or self._default)


driver = DriverConfig()
