"""@tpx.jit: a Python function that is compiled to a kernel when launched.

This module holds what the front end reads from a kernel (its source, file,
line and parameters) and the launch path:

    kernel[grid](*args, num_warps=4, num_stages=3, **constexprs)

1. bind the arguments to the parameters and specialize them (one generated
   function per kernel and backend, tpx/runtime/specialize.py) -> a key
   tuple and the launch values;
2. look the key up in the in-memory cache of the current device -- a hit
   is the whole hot path: no compile, no disk, no JSON;
3. on a miss: ArgSpecs from the key -> the front end's TTIR ->
   compile_ttir (through the on-disk compile cache) -> a launcher fast path
   for this specialization; the entry is remembered under the key and
   under a normalized key (specs, target, options, the pipeline's
   cache-key material), so equal specializations reached through
   different keys share one compiled kernel;
4. evaluate the grid (a tuple, or a callable over the meta dict of
   arguments and options) and launch.

The cache is dropped when the compile configuration changes (a plugin
loaded, a pipeline selection pushed or popped, another driver made active:
`tpx._capi.state_generation`), so one integer compare per launch keeps it
right.
"""

import ast
import hashlib
import inspect
import os
import textwrap
import threading

from tpx import _capi, pipeline
from tpx.compiler.spec import CompileSpec
from tpx.errors import CompilationError, OutOfResources, TpxError
# Kernels compiled in `with tpx.pipeline(...)` differ from the same kernel
# outside it: the block's selection (a per-thread tuple) keys the fast path.
from tpx.pipeline import _scope
# Triton's names for them live here too (triton.runtime.jit).
from tpx.runtime.tensor_wrapper import TensorWrapper, reinterpret  # noqa: F401


class KernelParam:
    """One parameter of a @jit function."""

    def __init__(self, index, parameter, do_not_specialize,
                 do_not_specialize_on_alignment):
        self.index = index
        self.name = parameter.name
        self.annotation = parameter.annotation
        self.default = parameter.default
        self.has_default = parameter.default is not inspect.Parameter.empty
        self.is_constexpr = _is_constexpr_annotation(parameter.annotation)
        self.do_not_specialize = do_not_specialize
        self.do_not_specialize_on_alignment = do_not_specialize_on_alignment

    def __repr__(self):
        return "KernelParam(%r%s)" % (
            self.name, ", constexpr" if self.is_constexpr else "")


def _is_constexpr_annotation(annotation):
    if annotation is inspect.Parameter.empty:
        return False
    if isinstance(annotation, str):
        # `from __future__ import annotations` or a quoted annotation.
        return annotation.split(".")[-1] == "constexpr"
    from tpx.language.core import constexpr
    return annotation is constexpr or (
        isinstance(annotation, type) and issubclass(annotation, constexpr))


def _names_to_indices(names, params, what):
    indices = set()
    for n in names or ():
        if isinstance(n, int):
            if not 0 <= n < len(params):
                raise ValueError("%s: no parameter %d" % (what, n))
            indices.add(n)
        else:
            match = [p for p in params if p.name == n]
            if not match:
                raise ValueError("%s: no parameter named %r" % (what, n))
            indices.add(params.index(match[0]))
    return indices


class KernelInterface:
    """What can be launched as `kernel[grid](...)`: JITFunction, Autotuner,
    Heuristics. Subclasses implement run(*args, grid, warmup, **kwargs)."""

    def __getitem__(self, grid):
        def launcher(*args, **kwargs):
            return self.run(*args, grid=grid, warmup=False, **kwargs)
        return launcher

    def run(self, *args, grid, warmup, **kwargs):
        raise NotImplementedError


# The front end is not known to be thread-safe; compiles of TTIR (the slow
# part, without the GIL) still run in parallel.
_frontend_lock = threading.RLock()

_DEFAULT_WARPS = 4
_DEFAULT_STAGES = 3


def _env_flag(*names):
    for name in names:
        value = os.environ.get(name, "").strip().lower()
        if value:
            return value not in ("0", "false", "off", "no")
    return None


def target_pipeline():
    """The named pipeline @jit kernels compile with ($TPX_TARGET_PIPELINE),
    or None for the one the compiler picks. On sm_90a, "one-thread" runs
    kernels the SIMT code generator does not cover, one thread per program
    and about 1000x slower: a debugging aid, never chosen on its own."""
    name = os.environ.get("TPX_TARGET_PIPELINE", "").strip()
    return name or None


def cpu_bounds_check():
    """Whether @jit kernels on the CPU check every access against the
    launch's buffers ($TPX_CPU_BOUNDS_CHECK, default on).

    On by default because the CPU runs kernels inside the Python process: a
    wrong index would write into the interpreter's memory and crash it;
    checked, it is a LaunchError naming the buffer. It costs 1x-5x on
    memory-bound kernels (vadd 1.6x, softmax 3.3x, layernorm 5x, matmul
    none); TPX_CPU_BOUNDS_CHECK=0 turns it off.
    """
    flag = _env_flag("TPX_CPU_BOUNDS_CHECK")
    return _CPU_BOUNDS_CHECK_DEFAULT if flag is None else flag


_CPU_BOUNDS_CHECK_DEFAULT = True


class _State:
    """What the hot path needs for the active driver, rebuilt when the
    compile configuration changes."""
    __slots__ = ("generation", "driver", "backend", "binder", "hot", "fast",
                 "stream", "launchers")

    def __init__(self, generation, driver, backend, binder, stream, cold):
        self.generation = generation
        self.driver = driver
        self.backend = backend
        self.binder = binder
        self.hot = binder.tpx_hot
        self.fast = {}          # (device, scope) -> {key: (kernel, launch)}
        self.stream = stream
        self.launchers = {}     # grid -> kernel[grid]'s launcher
        binder.tpx_namespace.update(
            _tpx_generation=generation, _tpx_fast=self.fast,
            _tpx_stream=stream, _tpx_cold=cold, _tpx_scope=_scope.get)


class JITFunction(KernelInterface):
    """A kernel (or a helper called from kernels) written in tpx.language.

    Attributes the front end uses: fn, __name__, src (the dedented source of
    the function), file, starting_line (the line of `def` in `file`),
    params (KernelParam, in order), arg_names, noinline, __globals__.

    Runtime attributes: cache ({device: {normalized key: CompiledKernel}}),
    device_caches (the same dict), run/warmup/specialization_key.
    """

    def __init__(self, fn, version=None, do_not_specialize=None,
                 do_not_specialize_on_alignment=None, debug=None,
                 noinline=None, repr=None, launch_metadata=None,
                 pipeline=None):
        self.fn = fn
        self.module = fn.__module__
        self.version = version
        self.debug = debug
        self.noinline = bool(noinline)
        self.pipeline = pipeline
        self._repr = repr
        self.launch_metadata = launch_metadata
        self.__name__ = fn.__name__
        self.__qualname__ = fn.__qualname__
        self.__doc__ = fn.__doc__
        self.__module__ = fn.__module__
        self.__globals__ = fn.__globals__
        self.file = inspect.getsourcefile(fn) or fn.__code__.co_filename
        lines, start = inspect.getsourcelines(fn)
        self.src = textwrap.dedent("".join(lines))
        # `lines` starts at the first decorator; the front end reports
        # positions in `file`, so remember where the `def` line is.
        tree = ast.parse(self.src)
        self.starting_line = start + tree.body[0].lineno - 1
        self._decorator_offset = start - 1
        self.signature = inspect.signature(fn)
        names = list(self.signature.parameters)
        raw = list(self.signature.parameters.values())
        plain = [p for p in raw]
        dns = _names_to_indices(do_not_specialize, plain, "do_not_specialize")
        dnsa = _names_to_indices(do_not_specialize_on_alignment, plain,
                                 "do_not_specialize_on_alignment")
        self.params = [
            KernelParam(i, p, i in dns, i in dnsa) for i, p in enumerate(raw)
        ]
        self.arg_names = names
        self.constexprs = [p.index for p in self.params if p.is_constexpr]
        # Runtime state (see the module doc).
        self.cache = {}
        self.device_caches = self.cache
        self._entries = {}       # normalized key -> (kernel, launch)
        self._state = None
        self._state_lock = threading.Lock()
        self.hash = hashlib.sha256(
            ("%s\n%s\n%r" % (self.__qualname__, self.src, version)).encode()
        ).hexdigest()
        self.cache_key = self.hash

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "%s: a @tpx.jit function can only be called from another "
            "@tpx.jit function; launch it with %s[grid](...)" %
            (self.__name__, self.__name__))

    def __getitem__(self, grid):
        """kernel[grid](*args, **options) launches over `grid`.

        The launcher calls the state's generated hot path, which binds,
        specializes, looks up, evaluates the grid and launches in one
        function, and falls back to `_run` for anything else."""
        state = self._state
        if state is None:
            state = self._refresh_state()
        # (A stale state is fine: its hot path sees the generation change
        # and takes the general path, which refreshes.)
        launchers = state.launchers
        if type(grid) is list:
            grid = tuple(grid)
        try:
            launcher = launchers.get(grid)
        except TypeError:           # unhashable: the launch reports it
            launcher = launchers = None
        # Only the very grid object: (1,) == (1.0,) == (np.int64(1),).
        if launcher is not None and launcher.tpx_grid is grid:
            return launcher
        hot = state.hot
        bind_error = self._bind_error

        def launcher(*args, **kwargs):
            try:
                return hot(grid, *args, **kwargs)
            except TypeError as e:
                raise bind_error(e, args, kwargs) from None
        # Launchers are kept per grid object (constant tuples in the
        # caller's code, grid functions defined once): a hit saves making
        # the closure. Grids made per call would fill it: it is bounded.
        launcher.tpx_grid = grid
        if launchers is not None:
            if len(launchers) >= 256:
                launchers.clear()
            launchers[grid] = launcher
        return launcher

    # -- the hot path ---------------------------------------------------------

    def run(self, *args, grid, warmup, **kwargs):
        """Launches (or, with warmup=True, only compiles) for `args`;
        returns the CompiledKernel."""
        return self._run(args, kwargs, grid, warmup)

    def _run(self, args, kwargs, grid, warmup):
        state = self._state
        if state is None or state.generation != _capi.state_generation:
            state = self._refresh_state()
        try:
            device, key, values, bound, options = state.binder(*args,
                                                               **kwargs)
        except TypeError as e:
            raise self._bind_error(e, args, kwargs) from None
        if options:
            self._check_options(options)
        # Kernels compiled inside `with tpx.pipeline(...)` differ from the
        # same kernel outside it: the block's selection (a per-thread tuple)
        # is part of the fast-path key.
        fast = state.fast.get((device, _scope.get()))
        entry = fast.get(key) if fast is not None else None
        if entry is None:
            entry = self._miss(state, device, key, values, bound)
        kernel, launch = entry
        if warmup:
            return kernel
        if type(grid) is not tuple:
            if callable(grid):
                meta = dict(zip(self.arg_names, bound))
                if kwargs:
                    meta.update(kwargs)
                grid = grid(meta)
            if type(grid) is not tuple:
                grid = self._grid_tuple(grid)
        n = len(grid)
        if n == 1:
            gx, gy, gz = grid[0], 1, 1
        elif n == 2:
            gx, gy = grid
            gz = 1
        elif n == 3:
            gx, gy, gz = grid
        else:
            gx, gy, gz = self._normalize(grid)
        if type(gx) is not int or type(gy) is not int or \
                type(gz) is not int or (gx | gy | gz) < 0:
            gx, gy, gz = self._normalize((gx, gy, gz))
        launch(gx, gy, gz, values, state.stream(device), device)
        return kernel

    def specialization_key(self, *args, **kwargs):
        """(device, key) of a launch with these arguments: exactly what the
        hot path computes before its cache lookup (for tests and
        measurements)."""
        state = self._state
        if state is None or state.generation != _capi.state_generation:
            state = self._refresh_state()
        device, key, _, _, _ = state.binder(*args, **kwargs)
        return device, key

    def warmup(self, *args, grid=None, **kwargs):
        """Compiles for these arguments without launching and returns the
        CompiledKernel. A torch/numpy dtype stands for a tensor of that
        dtype (as in Triton)."""
        from tpx.runtime.specialize import wrap_dtype
        args = [wrap_dtype(a) for a in args]
        kwargs = {k: wrap_dtype(v) if k in self.arg_names else v
                  for k, v in kwargs.items()}
        return self.run(*args, grid=grid, warmup=True, **kwargs)

    # -- state --------------------------------------------------------------

    def _refresh_state(self):
        from tpx.runtime.driver import driver
        from tpx.runtime.specialize import make_binder
        with self._state_lock:
            generation = _capi.state_generation
            state = self._state
            if state is not None and state.generation == generation:
                return state
            active = driver.active
            # The HIP driver's kernels take device pointers as CUDA's do.
            backend = active.backend if active.backend in ("cuda", "hip") \
                else "cpu"
            if backend != "cpu":
                get_device = getattr(active, "device_getter",
                                     active.get_current_device)
                stream = getattr(active, "stream_getter",
                                 active.get_current_stream)
            else:
                def get_device():
                    return 0

                def stream(device):
                    return None
            binder = make_binder(self, backend, get_device)
            option_names = binder.tpx_option_names
            run = self._run

            def cold(grid, bound, options):
                kwargs = dict(options[-1])
                for name, value in zip(option_names, options):
                    if value is not None:
                        kwargs[name] = value
                return run(bound, kwargs, grid, False)
            state = _State(generation, active, backend, binder, stream, cold)
            self._state = state
            return state

    # -- the slow paths -------------------------------------------------------

    def _bind_error(self, error, args, kwargs):
        """A TypeError from binding, rephrased to name the kernel and its
        parameters; other errors unchanged."""
        from tpx.runtime.specialize import IGNORED_OPTIONS, OPTION_NAMES
        named = {k: v for k, v in kwargs.items()
                 if k in self.arg_names or (k not in OPTION_NAMES and
                                            k not in IGNORED_OPTIONS)}
        try:
            self.signature.bind(*args, **named)
        except TypeError as e:
            return TypeError("kernel '%s': %s; its parameters are (%s)" % (
                self.__name__, e, ", ".join(self.arg_names)))
        return error

    def _check_options(self, options):
        from tpx.runtime.specialize import IGNORED_OPTIONS, OPTION_NAMES
        unknown = sorted(k for k in options if k not in IGNORED_OPTIONS)
        if unknown:
            raise TypeError(
                "kernel '%s' got unexpected keyword argument%s %s; its "
                "parameters are (%s) and the launch options %s" % (
                    self.__name__, "s" if len(unknown) > 1 else "",
                    ", ".join(repr(k) for k in unknown),
                    ", ".join(self.arg_names),
                    ", ".join(OPTION_NAMES + ("stream",))))

    @staticmethod
    def _grid_tuple(grid):
        if isinstance(grid, list):
            return tuple(grid)
        if isinstance(grid, int) or hasattr(type(grid), "__index__"):
            return (grid,)
        raise TypeError("a grid is a tuple of 1 to 3 ints or a callable "
                        "returning one, got %r" % (grid,))

    @staticmethod
    def _normalize(grid):
        from tpx.compiler.compiler import normalize_grid
        return normalize_grid(grid)

    def _options(self, key):
        """num_warps, num_stages, debug, cluster dims of a key, with
        defaults, checked."""
        num_warps, num_stages, debug, ctas_per_cga = key[-4:]
        if num_warps is None:
            num_warps = _DEFAULT_WARPS
        if num_stages is None:
            num_stages = _DEFAULT_STAGES
        where = "kernel '%s': " % self.__name__
        if isinstance(num_warps, bool) or not isinstance(num_warps, int) or \
                not 1 <= num_warps <= 32 or num_warps & (num_warps - 1):
            raise ValueError(where + "num_warps must be a power of two from "
                             "1 to 32, got %r" % (num_warps,))
        if isinstance(num_stages, bool) or not isinstance(num_stages, int) \
                or not 0 <= num_stages <= 16:
            raise ValueError(where + "num_stages must be an int from 0 to "
                             "16, got %r" % (num_stages,))
        if debug is None:
            debug = self.debug
        if debug is None:
            debug = _env_flag("TRITON_DEBUG", "TPX_DEBUG")
        return num_warps, num_stages, bool(debug), \
            cluster_dims(ctas_per_cga, where)

    def _specs(self, key):
        """One ArgSpec per parameter, from the key."""
        from tpx.compiler.spec import ArgSpec
        from tpx.runtime.specialize import spec_from_key, unwrap_constant
        specs = []
        i = 0
        for p in self.params:
            if p.is_constexpr:
                specs.append(ArgSpec(p.name, "constexpr",
                                     unwrap_constant(key[i])))
                i += 1
            else:
                specs.append(spec_from_key(p.name, key[i], key[i + 1], None))
                i += 2
        return specs

    def _miss(self, state, device, key, values, bound):
        num_warps, num_stages, debug, clusters = self._options(key)
        specs = self._specs(key)
        target = state.driver.compile_target(device)
        check_cluster(clusters, target)
        pipeline_text, pipeline_key = pipeline.resolve(self, target)
        named = target_pipeline()
        normalized = (tuple(specs), target, num_warps, num_stages, debug,
                      hashlib.sha256(pipeline_key.encode()).hexdigest(),
                      named, clusters)
        entry = self._entries.get(normalized)
        if entry is None:
            kernel = self._compile(specs, target, num_warps, num_stages,
                                   debug, pipeline_text, named, clusters)
            kernel.param_specs = specs
            if state.backend == "hip":
                # On the HIP driver the arguments are device memory (ROCm
                # torch tensors), not the host buffers a gfx*
                # CompiledKernel copies in and out by default.
                from tpx.runtime.launch_hip import use_device_launcher
                use_device_launcher(kernel)
            selection = self._selection(specs, values, kernel)
            launch = kernel.launcher.runner(selection)
            entry = self._entries.setdefault(normalized, (kernel, launch))
            self.cache.setdefault(device, {})[normalized] = entry[0]
        state.fast.setdefault((device, _scope.get()), {})[key] = entry
        return entry

    def _compile(self, specs, target, num_warps, num_stages, debug,
                 pipeline_text=None, named_pipeline=None,
                 clusters=(1, 1, 1)):
        from tpx.compiler.compiler import compile_ttir
        try:
            from tpx.compiler import frontend
        except ImportError as e:
            raise TpxError("the tpx front end is not available (%s)" % e) \
                from None
        compile_spec = CompileSpec(target=target, num_warps=num_warps,
                                   num_stages=num_stages, debug=debug,
                                   cluster_dims=clusters)
        with _frontend_lock:
            ttir = frontend.compile_to_ttir(self, specs, compile_spec)
        required = frontend.selected_extensions(ttir)
        if pipeline_text is not None and required:
            # A pipeline text runs as given: add what the kernel's ops need
            # (without a text, the compiler reads the module's selection).
            pipeline_text, _ = pipeline.resolve(self, target, required)
        try:
            if pipeline_text is not None and named_pipeline is not None:
                raise CompilationError(
                    "kernel '%s': TPX_TARGET_PIPELINE=%s cannot apply to a "
                    "kernel with selected pipeline extensions (their "
                    "pipeline text runs as given)" %
                    (self.__name__, named_pipeline))
            return compile_ttir(ttir, target, num_warps, num_stages,
                                pipeline_text=pipeline_text,
                                target_pipeline=named_pipeline,
                                bounds_check=(target == "cpu" and
                                              cpu_bounds_check()))
        except OutOfResources:
            raise
        except CompilationError as e:
            # The compiler's diagnostics carry the kernel's Python
            # locations: show the source line under each of them.
            from tpx import diagnostics
            raise diagnostics.from_compiler_message(str(e), ttir, self) \
                from None

    def _selection(self, specs, values, kernel):
        """Where each kernel argument comes from in the launch values."""
        selection = []
        for index, spec in enumerate(specs):
            if spec.is_constexpr:
                continue
            if spec.type.startswith("tensordesc"):
                selection += [(index, j) for j in range(len(values[index]))]
            else:
                selection.append(index)
        if len(selection) != len(kernel.signature):
            raise CompilationError(
                "kernel '%s': the compiled kernel takes %d arguments (%s) but "
                "the launch has %d runtime arguments (%s); the front end and "
                "the runtime disagree on the signature" % (
                    self.__name__, len(kernel.signature),
                    ", ".join(kernel.arg_names), len(selection),
                    ", ".join("%s: %s" % (s.name, s.type) for s in specs
                              if not s.is_constexpr)))
        return selection

    def __repr__(self):
        return "JITFunction(%s:%s)" % (self.module, self.__qualname__)


def cluster_limit(target):
    """The CTAs a thread-block cluster of `target` may hold: 8 (portable)
    from NVIDIA sm_90 on and on the CPU (which runs a cluster's programs at
    once), 1 elsewhere (AMD, older NVIDIA GPUs)."""
    if target == "cpu":
        return 8
    digits = target[3:].rstrip("abf") if target.startswith("sm_") else ""
    return 8 if digits.isdigit() and int(digits) >= 90 else 1


def check_cluster(clusters, target):
    """OutOfResources where `target` cannot launch clusters of `clusters`:
    a resource the target lacks, so that autotuners skip the config (TLX
    tunes over ctas_per_cga 1 and 2)."""
    size = clusters[0] * clusters[1] * clusters[2]
    if size > cluster_limit(target):
        raise OutOfResources(size, cluster_limit(target),
                             "CTAs per thread-block cluster (ctas_per_cga) "
                             "on target '%s'" % target)


def cluster_dims(ctas_per_cga, where=""):
    """The (x, y, z) thread-block cluster of launch option `ctas_per_cga`
    (None: clusters of one CTA): one to three positive ints, at most 8 CTAs
    in all (the portable cluster size)."""
    if ctas_per_cga is None:
        return (1, 1, 1)
    dims = ctas_per_cga
    if isinstance(dims, int) and not isinstance(dims, bool):
        dims = (dims,)
    if not isinstance(dims, (tuple, list)) or not 1 <= len(dims) <= 3 or \
            any(isinstance(d, bool) or not isinstance(d, int) or d < 1
                for d in dims):
        raise ValueError(where + "ctas_per_cga must be 1 to 3 positive ints "
                         "(CTAs of a cluster along x, y, z), got %r" %
                         (ctas_per_cga,))
    dims = tuple(dims) + (1,) * (3 - len(dims))
    if dims[0] * dims[1] * dims[2] > 8:
        raise ValueError(where + "ctas_per_cga=%r makes clusters of %d CTAs; "
                         "at most 8 are portable" %
                         (ctas_per_cga, dims[0] * dims[1] * dims[2]))
    return dims


def jit(fn=None, *, version=None, repr=None, launch_metadata=None,
        do_not_specialize=None, do_not_specialize_on_alignment=None,
        debug=None, noinline=None, pipeline=None):
    """Decorator: @tpx.jit or @tpx.jit(noinline=True, pipeline=[...])."""
    def decorator(fn):
        return JITFunction(fn, version=version,
                           do_not_specialize=do_not_specialize,
                           do_not_specialize_on_alignment=(
                               do_not_specialize_on_alignment),
                           debug=debug, noinline=noinline, repr=repr,
                           launch_metadata=launch_metadata,
                           pipeline=pipeline)
    if fn is not None:
        return decorator(fn)
    return decorator
