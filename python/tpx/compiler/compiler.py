"""TTIR text -> a launchable CompiledKernel, over tpxCompileKernel.

This is the runtime's half of compiling: the front end (frontend.py) turns
a @jit function into TTIR text, and `compile_ttir` hands that text to the
C library, which runs the target's pipeline through its on-disk cache and
returns an artifact (binary + metadata). A CompiledKernel owns the artifact
and launches it:

    k = compile_ttir(open("kernel.ttir").read(), target="cpu")
    k[(10,)](x, y, z, n)              # or k.run((10, 1, 1), x, y, z, n)

Launch arguments are the TTIR function's arguments, in order (constexprs
are already folded into the TTIR). The CPU target takes numpy arrays, CPU
torch tensors and objects with `__array_interface__` for pointers; an
NVIDIA target (`sm_*`) takes CUDA torch tensors and objects with
`__cuda_array_interface__`; an AMD target (`gfx*`) takes host buffers like
the CPU and copies them to the GPU through the HIP runtime (@jit kernels
on the HIP driver take device memory instead; see tpx/runtime/launch_cpu.py,
launch_cuda.py, launch_hip.py).
"""

import ctypes
import json
import operator
import re
import threading
import weakref

from tpx import _capi
from tpx.errors import CompilationError, LaunchError, OutOfResources, TpxError

__all__ = ["CompiledKernel", "KernelMetadata", "compile_ttir",
           "normalize_grid", "binary_kind"]


def binary_kind(target):
    """The `asm` key of a target's binary: what Triton calls it."""
    if target.startswith("sm_"):
        return "cubin"
    if target.startswith("gfx"):
        return "hsaco"
    return "obj"


class KernelMetadata(dict):
    """The artifact's metadata: a dict that also reads as attributes.

    Triton programs read `kernel.metadata.shared`, `.num_warps`, `.name`;
    tools that dump it want a dict. Both work.
    """

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(
                "kernel metadata has no field %r (fields: %s)" %
                (name, ", ".join(sorted(self)))) from None

    def __setattr__(self, name, value):
        self[name] = value


def _check_power_of_two(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("%s must be an int, got %r" % (name, value))
    if not low <= value <= high or value & (value - 1):
        raise ValueError("%s must be a power of two from %d to %d, got %d" %
                         (name, low, high, value))


def _check_options(ttir_text, target, num_warps, num_stages, pipeline_text):
    if isinstance(ttir_text, (bytes, bytearray)):
        ttir_text = bytes(ttir_text).decode("utf-8")
    if not isinstance(ttir_text, str):
        raise TypeError("compile_ttir: the TTIR must be text, got %s" %
                        type(ttir_text).__name__)
    if not ttir_text.strip():
        raise ValueError("compile_ttir: the TTIR text is empty")
    if "\0" in ttir_text:
        raise ValueError("compile_ttir: the TTIR text contains a NUL "
                         "character")
    if not isinstance(target, str) or not target or "\0" in target:
        raise TypeError("compile_ttir: target must be a non-empty string "
                        "such as 'cpu' or 'sm_90a', got %r" % (target,))
    # Triton's rule: a block is num_warps warps of 32 threads and CUDA
    # allows 1024 threads, so 32 warps at most. The CPU ignores it but
    # programs are checked the same everywhere.
    _check_power_of_two("num_warps", num_warps, 1, 32)
    if isinstance(num_stages, bool) or not isinstance(num_stages, int):
        raise TypeError("num_stages must be an int, got %r" % (num_stages,))
    if not 0 <= num_stages <= 16:
        raise ValueError("num_stages must be from 0 to 16, got %d" %
                         num_stages)
    if pipeline_text is not None and (not isinstance(pipeline_text, str) or
                                      "\0" in pipeline_text):
        raise TypeError("pipeline_text must be a string or None")
    return ttir_text


# ptxas: "ptxas error   : Entry function 'k' uses too much shared data
# (0x40000 bytes, 0x3a000 max)"
_PTXAS_SHARED = re.compile(
    r"uses too much shared data \((0x[0-9a-fA-F]+|\d+) bytes, "
    r"(0x[0-9a-fA-F]+|\d+) max\)")


def _compile_error(message):
    """The exception for a failed compile: OutOfResources when the backend
    says the kernel needs more shared memory than the target has (the
    autotuner skips those configs), else CompilationError."""
    found = _PTXAS_SHARED.search(message)
    if found:
        error = OutOfResources(int(found.group(1), 0), int(found.group(2), 0),
                               "shared memory")
        error.compiler_message = message
        return error
    return CompilationError(message)


def compile_ttir(ttir_text, target="cpu", num_warps=4, num_stages=3,
                 pipeline_text=None, *, dump_dir=None, bounds_check=False,
                 no_cache=False, target_pipeline=None):
    """Compiles TTIR text for `target` and returns a CompiledKernel.

    `num_stages` 0 is read as 1 (no software pipelining): the C API takes 0
    to mean "the default", which would silently be 3. `pipeline_text` runs
    that pipeline instead of the effective one (docs/pipeline.md);
    `dump_dir` writes every stage's IR there (and bypasses the cache);
    `bounds_check` (CPU) checks every access against the launch's buffers;
    `no_cache` neither reads nor writes the compile cache.
    `target_pipeline` runs that named pipeline of the target instead of
    the one the compiler picks (sm_90a: "simt", or "one-thread", the slow
    debugging path that covers what simt does not; docs/nvidia-target.md).

    The compile runs without the GIL (ctypes releases it), so threads can
    compile several kernels at once. Failures raise CompilationError with
    the compiler's message (OutOfResources for a kernel that needs more
    shared memory than the target has).
    """
    ttir_text = _check_options(ttir_text, target, num_warps, num_stages,
                               pipeline_text)
    if target_pipeline is not None and (
            not isinstance(target_pipeline, str) or not target_pipeline or
            "\0" in target_pipeline):
        raise TypeError("target_pipeline must be a pipeline name such as "
                        "'one-thread' or None, got %r" % (target_pipeline,))
    if dump_dir is not None and not isinstance(dump_dir, str):
        dump_dir = str(dump_dir)
    lib = _capi.library()
    options = _capi.TpxKernelOptions()
    options.structSize = ctypes.sizeof(_capi.TpxKernelOptions)
    # The struct holds raw pointers: keep the encoded strings referenced
    # until the call returns.
    keep = [_capi.encode(target), _capi.encode(pipeline_text),
            _capi.encode(dump_dir), _capi.encode(target_pipeline)]
    options.target = keep[0]
    options.numWarps = num_warps
    options.numStages = max(1, num_stages)
    options.pipelineText = keep[1]
    options.dumpDir = keep[2]
    options.boundsCheck = 1 if bounds_check else 0
    options.noCache = 1 if no_cache else 0
    options.targetPipeline = keep[3]
    source = ttir_text.encode("utf-8")
    handle = ctypes.c_void_p()
    try:
        _capi.check(lib.tpxCompileKernel, source, ctypes.byref(options),
                    ctypes.byref(handle))
    except TpxError as e:
        raise _compile_error(str(e)) from None
    if not handle.value:
        raise CompilationError("tpxCompileKernel succeeded but returned no "
                               "artifact")
    return CompiledKernel(handle.value, ttir_text, {
        "num_warps": num_warps, "num_stages": num_stages,
        "bounds_check": bool(bounds_check), "pipeline_text": pipeline_text,
        "target_pipeline": target_pipeline})


def normalize_grid(grid):
    """A launch grid as three ints: an int or a sequence of 1 to 3 ints
    (numpy integers too), each >= 0. Zero programs is a no-op launch, as in
    Triton."""
    if isinstance(grid, (tuple, list)):
        n = len(grid)
        if not 1 <= n <= 3:
            raise ValueError("a grid has 1 to 3 dimensions, got %d: %r" %
                             (n, grid))
        try:
            dims = [operator.index(g) for g in grid]
        except TypeError:
            raise TypeError("grid dimensions must be ints, got %r" %
                            (grid,)) from None
        dims += [1] * (3 - n)
    else:
        try:
            dims = [operator.index(grid), 1, 1]
        except TypeError:
            raise TypeError("a grid is a tuple of 1 to 3 ints (or a callable "
                            "returning one), got %r" % (grid,)) from None
    for d in dims:
        if d < 0:
            raise ValueError("grid dimensions must be >= 0, got %r" %
                             (tuple(dims),))
        if d > 0xFFFFFFFF:
            raise ValueError("grid dimension %d does not fit in 32 bits" % d)
    return dims[0], dims[1], dims[2]


class CompiledKernel:
    """One compiled kernel: its artifact, metadata, IR texts and launcher.

    Attributes (Triton's names where Triton has them):
      metadata   KernelMetadata: name, num_warps, num_stages, shared,
                 target, entry_point, block_threads, signature, hash, ...
      asm        {"source": the input text, "ttir": the ttir stage's output
                 (the input text with a library without stages), one text
                 per further stage ("ttgir", "llir", "ptx"), "cubin"/"obj":
                 bytes}
      name       the kernel's name
      n_regs, n_spills   registers per thread and spilled registers, from
                 the metadata when the compiler reports them, else (CUDA)
                 from the driver once loaded, else 0
      binary     the artifact's binary (bytes)
      cached     whether the artifact came from the compile cache
    """

    def __init__(self, handle, ttir_text, options):
        lib = _capi.library()
        self._handle = handle
        self._finalizer = weakref.finalize(self, lib.tpxArtifactDestroy,
                                           handle)
        self.options = options
        raw = _capi.take_string(lib.tpxArtifactGetMetadata(handle))
        try:
            data = json.loads(raw or "{}")
        except ValueError as e:
            raise TpxError("the artifact's metadata is not JSON (%s): %r" %
                           (e, (raw or "")[:200])) from None
        self.metadata = self._make_metadata(data)
        size = ctypes.c_size_t()
        pointer = lib.tpxArtifactGetBinary(handle, ctypes.byref(size))
        self.binary = ctypes.string_at(pointer, size.value) if pointer \
            else b""
        self.cached = bool(lib.tpxArtifactWasCached(handle))
        self.name = self.metadata.name
        # "ttir" is replaced by the ttir stage's output when the library
        # reports stages (Triton's asm["ttir"] is its TTIR after its ttir
        # passes too); "source" is always the text that was compiled.
        self.asm = {"source": ttir_text, "ttir": ttir_text}
        self._read_stages(lib)
        self.asm[binary_kind(self.metadata.target)] = self.binary
        self.signature = self.metadata.signature.get("args", [])
        self.arg_names = [a.get("name") for a in self.signature]
        self._launcher = None
        self._launcher_lock = threading.Lock()
        # Filled in by the CUDA launcher when it loads the binary.
        self.function = None
        self._driver_regs = None
        self._driver_spills = None
        self.n_max_threads = self.metadata.block_threads

    @staticmethod
    def _make_metadata(data):
        md = KernelMetadata(data)
        signature = md.get("signature") or {}
        md.setdefault("signature", signature)
        md.setdefault("name", signature.get("kernel") or md.get(
            "entry_point", "kernel"))
        md.setdefault("target", "cpu")
        md.setdefault("num_warps", 4)
        md.setdefault("num_stages", 3)
        md.setdefault("shared_memory", 0)
        md.setdefault("block_threads", 1)
        md.setdefault("entry_point", md["name"])
        # Triton's names for what the artifact records under its own.
        md.setdefault("shared", md["shared_memory"])
        md.setdefault("hash", md.get("cache_key"))
        md.setdefault("num_ctas", 1)
        # The artifact's cluster (a JSON list) as Triton's tuple.
        md["cluster_dims"] = tuple(md.get("cluster_dims") or (1, 1, 1))
        md.setdefault("global_scratch_size", 0)
        md.setdefault("global_scratch_align", 1)
        md.setdefault("profile_scratch_size", 0)
        md.setdefault("profile_scratch_align", 1)
        md.setdefault("warp_size", 32)
        target = md["target"]
        md.setdefault("backend_name", "cuda" if target.startswith("sm_")
                      else "hip" if target.startswith("gfx") else "cpu")
        return md

    def _read_stages(self, lib):
        names_fn = lib.tpxArtifactGetStageNames
        stage_fn = lib.tpxArtifactGetStage
        text = _capi.take_string(names_fn(self._handle)) or ""
        text = text.strip()
        if text.startswith("["):
            try:
                names = [str(n) for n in json.loads(text)]
            except ValueError:
                names = []
        else:
            names = [n for n in re.split(r"[\s,]+", text) if n]
        for name in names:
            size = ctypes.c_size_t()
            pointer = stage_fn(self._handle, name.encode(),
                               ctypes.byref(size))
            if not pointer:
                continue
            data = ctypes.string_at(pointer, size.value)
            if name in ("cubin", "obj", "hsaco"):
                self.asm[name] = data
                continue
            try:
                self.asm[name] = data.decode("utf-8")
            except UnicodeDecodeError:
                self.asm[name] = data

    # -- resource usage ---------------------------------------------------

    @property
    def n_regs(self):
        value = self.metadata.get("num_regs")
        if value is None:
            value = self._driver_regs
        return int(value or 0)

    @property
    def n_spills(self):
        value = self.metadata.get("num_spills")
        if value is None:
            value = self._driver_spills
        return int(value or 0)

    @property
    def handle(self):
        """The TpxArtifact pointer (an int); valid while self lives."""
        return self._handle

    def _init_handles(self):
        """Loads the kernel where it runs now (Triton's name: programs call
        it before reading n_regs to size their launches). On CUDA the module
        is loaded into the current context; the CPU has nothing to load."""
        launcher = self.launcher
        load = getattr(launcher, "_function", None)
        if load is not None:
            load()

    # -- launching ----------------------------------------------------------

    @property
    def launcher(self):
        """The target's launcher (created on first use)."""
        launcher = self._launcher
        if launcher is None:
            with self._launcher_lock:
                if self._launcher is None:
                    self._launcher = self._make_launcher()
                launcher = self._launcher
        return launcher

    def _make_launcher(self):
        target = self.metadata.target
        if target == "cpu":
            from tpx.runtime.launch_cpu import CPULauncher
            return CPULauncher(self)
        if target.startswith("sm_"):
            from tpx.runtime.launch_cuda import CUDALauncher
            return CUDALauncher(self)
        if target.startswith("gfx"):
            from tpx.runtime.launch_hip import HIPLauncher
            return HIPLauncher(self)
        raise LaunchError("kernel '%s' was compiled for target '%s', which "
                          "tpx cannot launch from Python (compile for 'cpu', "
                          "'sm_90a' or 'gfx950')" % (self.name, target))

    def run(self, grid, *args, stream=None):
        """Launches over `grid` (an int or 1 to 3 ints) with the TTIR
        function's arguments -- or, for a kernel a @jit function compiled,
        with all of the @jit function's arguments, constexprs included, as
        Triton's compiled kernels take them. CPU launches return when the
        kernel has run; CUDA launches are asynchronous on `stream` (default:
        the current torch stream, else the default stream)."""
        gx, gy, gz = normalize_grid(grid)
        self.launcher.launch(gx, gy, gz, self._kernel_args(args), stream)

    def __getitem__(self, grid):
        """kernel[grid](*args, stream=None): Triton's launch syntax."""
        dims = normalize_grid(grid)
        launcher = self.launcher

        def runner(*args, stream=None):
            launcher.launch(dims[0], dims[1], dims[2],
                            self._kernel_args(args), stream)
        return runner

    # The ArgSpecs of the @jit function's parameters when the runtime
    # compiled this kernel for one (jit.py sets it); None for plain TTIR.
    param_specs = None

    def _kernel_args(self, args):
        """The TTIR arguments from a call with the @jit function's full
        parameter list: constexprs dropped, descriptors expanded."""
        specs = self.param_specs
        if specs is None or len(args) != len(specs) or not any(
                s.is_constexpr or s.type.startswith("tensordesc")
                for s in specs):
            return args
        out = []
        for spec, arg in zip(specs, args):
            if spec.is_constexpr:
                continue
            if spec.type.startswith("tensordesc"):
                from tpx.tools.tensor_descriptor import launch_values
                out.extend(launch_values(arg))
            else:
                out.append(arg)
        return tuple(out)

    def __repr__(self):
        return "CompiledKernel(%s, target=%s, num_warps=%s)" % (
            self.name, self.metadata.target, self.metadata.num_warps)
