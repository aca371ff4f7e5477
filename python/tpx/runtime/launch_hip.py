"""Launching AMD (gfx*) artifacts: host buffers, or device memory for @jit.

Two launchers, for two kinds of arguments:

* `HIPLauncher`, the one a `CompiledKernel` compiled for a gfx* target
  gets: pointer arguments are HOST buffers, exactly as for the CPU (numpy
  arrays, CPU torch tensors, `__array_interface__`), and the artifact runs
  through tpxLaunch and the C++ HIP launcher (lib/Runtime/HIPLauncher.cpp),
  which copies each buffer to device memory, runs the kernel to completion
  and copies it back. Scalars are converted and range-checked by the C
  API. Without the HIP runtime or an AMD GPU the launch raises LaunchError
  with the runtime's message ("no AMD GPU runtime: libamdhip64.so not
  found ...", see tpx/runtime/hip.py); an hsaco built for another GPU
  than the device's gcnArchName is a LaunchError naming both.

* `HIPDeviceLauncher`, the one @jit kernels get when the HIP driver is
  active (tpx/runtime/driver.py): pointer arguments are device memory --
  torch tensors on ROCm (torch calls AMD GPUs `cuda` devices) and objects
  with `__cuda_array_interface__` -- and the launch is asynchronous, as on
  CUDA: hipModuleLaunchKernel through ctypes (tpx/runtime/hip_api.py) with
  grid = the launch grid, block = (metadata block_threads, 1, 1), dynamic
  LDS = metadata shared_memory (0 when the code object's own LDS,
  `static_shared_memory`, already covers it, as the C++ launcher decides),
  on the given stream or else torch's current stream (the null stream
  without torch). The argument packing and the JIT's generated fast path
  are the CUDA launcher's (tpx/runtime/launch_gpu.py). The hsaco is loaded
  once per device (hipModuleLoadData into the calling thread's current
  device), after checking that the device's processor (gcnArchName) is the
  one the kernel was compiled for, that the kernel's LDS fits the device
  (hipDeviceAttributeMaxSharedMemoryPerBlock: 160 KiB on gfx950, 64 KiB
  on gfx942; more is OutOfResources, which the autotuner skips) and that
  its block fits. HIP needs no opt-in for dynamic LDS above 64 KiB (there
  is no counterpart of CUDA's MAX_DYNAMIC_SHARED_SIZE_BYTES for module
  functions): the launch is checked against the device's LDS itself.
  Kernels with TMA tensor maps do not exist on AMD: a LaunchError.
"""

import ctypes

from tpx.errors import LaunchError, OutOfResources
from tpx.runtime import arguments, launch_gpu
from tpx.runtime.launch_cpu import CPULauncher, host_buffer

__all__ = ["HIPLauncher", "HIPDeviceLauncher", "device_pointer",
           "dynamic_shared_bytes", "use_device_launcher"]


def _hip_host_buffer(obj, where):
    """(pointer, bytes) of a host buffer; device memory is refused with a
    message that says what this launcher takes."""
    if arguments.is_torch_tensor(obj) and (obj.get_device() >= 0 or
                                           obj.device.type != "cpu"):
        raise LaunchError(
            "%s is a torch tensor on %s, but the HIP launcher takes host "
            "buffers and copies them to the GPU itself (pass .cpu() or a "
            "numpy array)" % (where, obj.device))
    if hasattr(obj, "__cuda_array_interface__") and not hasattr(
            obj, "__array_interface__"):
        raise LaunchError("%s is device memory (__cuda_array_interface__), "
                          "but the HIP launcher takes host buffers" % where)
    return host_buffer(obj, where)


class HIPLauncher(CPULauncher):
    """Launches one gfx* artifact through tpxLaunch, which hands it to the
    HIP launcher; argument handling is the CPU launcher's."""

    @staticmethod
    def _thread_count():
        # Threads are the GPU's: tpxLaunch ignores the count for gfx*, and
        # $TPX_CPU_THREADS is not this launcher's to check.
        return 0

    def convert(self, args):
        return arguments.convert_all(self, args, _hip_host_buffer,
                                     arguments.int_value)


# -- device memory (@jit on the HIP driver) ---------------------------------

def device_pointer(obj, where, device):
    """The device address of a pointer argument on AMD GPU `device` (a
    ROCm torch tensor, `__cuda_array_interface__`); LaunchError naming the
    argument for anything else. A `__cuda_array_interface__` pointer is
    taken at its word: asking HIP what memory it is needs
    hipPointerAttribute_t, whose layout and memory-type numbers changed in
    HIP 6."""
    return launch_gpu.device_pointer(obj, where, device)


def dynamic_shared_bytes(metadata):
    """The dynamic LDS bytes a launch passes: `shared_memory`, or 0 when the
    code object's fixed LDS (`static_shared_memory`) already covers it (the
    C++ launcher's rule, tpx::getHIPDynamicSharedBytes)."""
    shared = int(metadata.get("shared_memory") or 0)
    static = metadata.get("static_shared_memory")
    if static is not None and 0 <= int(static) and int(static) >= shared:
        return 0
    return shared


class HIPDeviceLauncher(launch_gpu.GPULauncher):
    """Launches one gfx* artifact on device memory through
    hipModuleLaunchKernel (see the module doc)."""
    backend = "hip"
    launch_call = "hipModuleLaunchKernel"
    shared_name = "dynamic LDS"
    grid_limits = ("hipModuleLaunchKernel takes grid dimensions up to "
                   "2^32 - 1")

    def __init__(self, kernel):
        md = kernel.metadata
        target = str(md.get("target", ""))
        if not target.startswith("gfx"):
            raise LaunchError("kernel '%s' was compiled for target '%s', "
                              "which cannot run on an AMD GPU (compile for "
                              "gfx950)" % (kernel.name, target))
        if md.get("tensor_maps"):
            raise LaunchError(
                "kernel '%s' takes TMA tensor maps, which only NVIDIA GPUs "
                "have: AMD GPUs have no tensor memory accelerator (store "
                "tensor descriptors with plain loads and stores)" %
                kernel.name)
        from tpx.runtime import hip_api
        self._hip = hip_api
        self.api = hip_api.api()
        static = md.get("static_shared_memory")
        self.static_shared = max(0, int(static or 0))
        super().__init__(kernel, self.api.function("hipModuleLaunchKernel"),
                         dynamic_shared_bytes(md))

    def _default_device(self):
        return self._hip.current_device()

    def _function(self):
        """The hipFunction_t for the calling thread's current device,
        loading the code object onto it first if needed."""
        device = self._hip.current_device()
        f = self._by_device.get(device)
        return f if f is not None else self._load(device)

    def _load(self, device):
        with self._load_lock:
            f = self._by_device.get(device)
            if f is not None:
                return f
            hip, api = self._hip, self.api
            arch = hip.device_arch(device)
            self._check_target(arch)
            # The LDS a workgroup gets is the code object's own plus the
            # dynamic bytes of the launch.
            lds = self.static_shared + self.shared
            limit = hip.device_attribute(
                hip.ATTR_MAX_SHARED_MEMORY_PER_BLOCK, device)
            if lds > limit:
                raise OutOfResources(lds, limit, "shared memory")
            threads = hip.device_attribute(hip.ATTR_MAX_THREADS_PER_BLOCK,
                                           device)
            if self.block > threads:
                raise OutOfResources(self.block, threads, "threads")
            what = "kernel '%s', target %s, device %d (%s)" % (
                self.name, self.kernel.metadata.target, device, arch)
            module = ctypes.c_void_p()
            api.check(api.hipModuleLoadData(ctypes.byref(module),
                                            self._image),
                      "hipModuleLoadData (%s)" % what, LaunchError)
            function = ctypes.c_void_p()
            result = api.hipModuleGetFunction(ctypes.byref(function), module,
                                              self.entry)
            if result:
                # A code object without the entry is of no use later.
                api.hipModuleUnload(module)
                api.check(result, "hipModuleGetFunction('%s')" %
                          self.entry.decode(), LaunchError)
            self.kernel.function = function.value
            self._by_device[device] = function
            return function

    def _check_target(self, arch):
        """The device's processor must be the kernel's (the code objects
        tpx makes leave xnack and sramecc unset: they run with either)."""
        target = str(self.kernel.metadata.target)
        built = self._hip.processor(target)
        found = self._hip.processor(arch)
        # A generic code object (gfx9-4-generic) runs on several
        # processors; which ones is the runtime's to decide.
        if built.endswith("-generic") or built == found:
            return
        raise LaunchError("kernel '%s' was compiled for %s but the GPU is %s "
                          "(another processor; compile for %s)" %
                          (self.name, target, arch, found))

    def _fail(self, result, gx, gy, gz):
        error = None
        if result == self._hip.ERROR_LAUNCH_OUT_OF_RESOURCES:
            error = OutOfResources(
                "%d threads of %d VGPRs, %d bytes of LDS" %
                (self.block, self.kernel.n_regs,
                 self.static_shared + self.shared), None,
                "registers or LDS")
        self._raise_failure(result, self.launch_text(gx, gy, gz), error)


def use_device_launcher(kernel):
    """Makes gfx* CompiledKernel `kernel` launch on device memory (the
    HIPDeviceLauncher) instead of host buffers; @jit kernels compiled while
    the HIP driver is active get it. Returns the launcher."""
    with kernel._launcher_lock:
        if not isinstance(kernel._launcher, HIPDeviceLauncher):
            kernel._launcher = HIPDeviceLauncher(kernel)
        return kernel._launcher
