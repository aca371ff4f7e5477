"""`tpx.autotune`, `tpx.Config`, `tpx.heuristics`: Triton's tuning decorators.

    @tpx.autotune(configs=[tpx.Config({"BLOCK": 128}, num_warps=4),
                           tpx.Config({"BLOCK": 256}, num_warps=8)],
                  key=["n"])
    @tpx.jit
    def kernel(x_ptr, n, BLOCK: tl.constexpr): ...

The first launch for a new value of the `key` arguments (and new dtypes of
the tensor arguments) tunes: the configs left after `prune_configs_by` are
first all compiled at once on a thread pool -- the front end runs one at a
time, the C compile (most of the time) runs without the GIL, in parallel --
and then each is benchmarked with `do_bench` (median of the 0.5/0.2/0.8
quantiles, as Triton's). A config that raises OutOfResources (needs more
shared memory, threads or registers than the device has) or
CompileTimeAssertionFailure (a `tl.static_assert` that fails for it) times
as infinity and is skipped. The fastest config is remembered per key (and, with
`cache_results=True`, on disk under $TPX_CACHE_DIR/autotune) and used for
every later launch; `best_config` is the last one used.

Config options that do not apply to tpx's targets -- `num_ctas` (no CTA
clusters), `maxnreg`, and backend options such as `waves_per_eu`,
`matrix_instr_nonkdim`, `kpack` (AMD) -- are accepted and passed on; the
JIT ignores them. `$TRITON_PRINT_AUTOTUNING=1` (or `$TPX_PRINT_AUTOTUNING`)
prints the chosen config after each tuning.
"""

import builtins
import concurrent.futures
import hashlib
import json
import os
import sys
import tempfile
import time

from tpx.errors import OutOfResources
from tpx.runtime.jit import KernelInterface

__all__ = ["Autotuner", "Config", "Heuristics", "autotune", "heuristics"]


class Config:
    """One point of the tuning space: constexpr values (`kwargs`) and launch
    options. Unknown backend options are kept in `backend_options` and
    passed to the launch with the rest (see the module doc)."""

    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1,
                 maxnreg=None, pre_hook=None, ir_override=None,
                 **backend_options):
        if not isinstance(kwargs, dict):
            raise TypeError("Config: kwargs must be a dict of meta-parameters"
                            ", got %r" % (kwargs,))
        self.kwargs = dict(kwargs)
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook
        self.ir_override = ir_override
        self.backend_options = backend_options

    def all_kwargs(self):
        """Everything the launch gets: meta-parameters and options."""
        options = {k: v for k, v in (
            ("num_warps", self.num_warps), ("num_ctas", self.num_ctas),
            ("num_stages", self.num_stages), ("maxnreg", self.maxnreg),
            ("ir_override", self.ir_override)) if v is not None}
        return {**self.kwargs, **options, **self.backend_options}

    def _identity(self):
        return tuple(sorted((k, repr(v)) for k, v in
                            self.all_kwargs().items()))

    def __eq__(self, other):
        return isinstance(other, Config) and \
            self._identity() == other._identity()

    def __hash__(self):
        return hash(self._identity())

    def __str__(self):
        parts = ["%s: %s" % (k, v) for k, v in self.kwargs.items()]
        parts += ["num_warps: %s" % self.num_warps,
                  "num_ctas: %s" % self.num_ctas,
                  "num_stages: %s" % self.num_stages,
                  "maxnreg: %s" % self.maxnreg]
        parts += ["%s: %s" % (k, v) for k, v in self.backend_options.items()]
        return ", ".join(parts)

    __repr__ = __str__


def _zero(x):
    if hasattr(x, "zero_"):
        x.zero_()
    else:
        x[...] = 0


def _clone(x):
    return x.clone() if hasattr(x, "clone") else x.copy()


def _restore(x, saved):
    if hasattr(x, "copy_"):
        x.copy_(saved)
    else:
        x[...] = saved


def _base_fn(fn):
    while not hasattr(fn, "params") and hasattr(fn, "fn"):
        fn = fn.fn
    return fn


def _check_names(names, arg_names, what):
    names = list(names or [])
    for n in names:
        if n not in arg_names:
            raise ValueError("%s: %r is not a parameter of the kernel (its "
                             "parameters are %s)" %
                             (what, n, ", ".join(arg_names)))
    return names


class Autotuner(KernelInterface):
    """What @tpx.autotune makes of a kernel (see the module doc)."""

    def __init__(self, fn, arg_names, configs, key, reset_to_zero=None,
                 restore_value=None, pre_hook=None, post_hook=None,
                 prune_configs_by=None, warmup=None, rep=None,
                 use_cuda_graph=False, do_bench=None, cache_results=False):
        if isinstance(key, str):
            key = [key]
        self.configs = list(configs) if configs else [Config({})]
        for c in self.configs:
            if not isinstance(c, Config):
                raise TypeError("autotune: configs must be tpx.Config "
                                "objects, got %r" % (c,))
        self.keys = list(key or [])
        self.cache = {}
        self.arg_names = list(arg_names)
        self.fn = fn
        self.base_fn = _base_fn(fn)
        self.reset_to_zero = _check_names(reset_to_zero, self.arg_names,
                                          "autotune reset_to_zero")
        self.restore_value = _check_names(restore_value, self.arg_names,
                                          "autotune restore_value")
        self.restore_copies = {}
        self.user_pre_hook = pre_hook is not None
        self.user_post_hook = post_hook is not None
        self.pre_hook = pre_hook if pre_hook is not None else self._pre_hook
        self.post_hook = post_hook if post_hook is not None else \
            self._post_hook
        self.perf_model = None
        self.configs_top_k = 1.0
        self.early_config_prune = None
        if prune_configs_by:
            self.perf_model = prune_configs_by.get("perf_model", None)
            self.configs_top_k = prune_configs_by.get("top_k", 1.0)
            self.early_config_prune = prune_configs_by.get(
                "early_config_prune", None)
        self.warmup_ms = warmup
        self.rep_ms = rep
        self.use_cuda_graph = use_cuda_graph
        self._do_bench = do_bench
        self.cache_results = cache_results or os.environ.get(
            "TRITON_CACHE_AUTOTUNING") == "1"
        self.best_config = None
        self.configs_timings = None
        self.bench_time = 0.0
        self.nargs = None

    # -- hooks --------------------------------------------------------------

    def _pre_hook(self, kwargs, reset_only=False):
        for name in self.reset_to_zero:
            _zero(kwargs[name])
        if not reset_only:
            self.restore_copies = {name: _clone(kwargs[name])
                                   for name in self.restore_value}

    def _post_hook(self, kwargs, exception):
        for name in self.restore_value:
            _restore(kwargs[name], self.restore_copies[name])
        self.restore_copies = {}

    # -- benchmarking -------------------------------------------------------

    def do_bench(self, fn, quantiles):
        if self._do_bench is not None:
            return self._do_bench(fn, quantiles=quantiles)
        from tpx import testing
        if self.use_cuda_graph:
            return testing.do_bench_cudagraph(
                fn, rep=self.rep_ms or 100, quantiles=quantiles)
        from tpx.runtime.driver import driver
        bench = driver.active.get_benchmarker()
        return bench(fn, warmup=self.warmup_ms or 25, rep=self.rep_ms or 100,
                     quantiles=quantiles)

    def _bench(self, *args, config, **meta):
        conflicts = sorted(set(meta) & set(config.kwargs))
        if conflicts:
            raise ValueError(
                "Conflicting meta-parameters: %s. Make sure that you don't "
                "re-define auto-tuned symbols." % ", ".join(conflicts))
        current = dict(meta, **config.all_kwargs())
        full_nargs = {**self.nargs, **current}

        def kernel_call():
            if config.pre_hook:
                config.pre_hook(full_nargs)
            self.pre_hook(full_nargs)
            try:
                self.fn.run(*args, **current)
            except Exception as e:
                try:
                    self.post_hook(full_nargs, exception=e)
                finally:
                    raise
            self.post_hook(full_nargs, exception=None)
        # As Triton's: a config the device cannot hold, or whose
        # tl.static_assert fails, is never the best one.
        from tpx.language.debug import CompileTimeAssertionFailure
        try:
            return self.do_bench(kernel_call, quantiles=(0.5, 0.2, 0.8))
        except (OutOfResources, CompileTimeAssertionFailure):
            return [float("inf"), float("inf"), float("inf")]

    def _precompile(self, configs, args, kwargs):
        """Compiles every config before any is timed, on threads. Errors are
        left for the timing pass, which reports them as it does for one
        config."""
        workers = _compile_threads(len(configs))
        if workers <= 1 or len(configs) <= 1:
            return

        def compile_one(config):
            current = dict(kwargs, **config.all_kwargs())
            current["warmup"] = True
            try:
                self.fn.run(*args, **current)
            except Exception:
                pass
        with concurrent.futures.ThreadPoolExecutor(workers) as pool:
            list(pool.map(compile_one, configs))

    def prune_configs(self, kwargs):
        pruned = self.configs
        if self.early_config_prune:
            pruned = self.early_config_prune(self.configs, self.nargs,
                                             **kwargs)
            if not pruned:
                raise ValueError(
                    "No valid autotuner configs after pruning: "
                    "`early_config_prune` should return at least one config")
        if self.perf_model:
            top_k = self.configs_top_k
            if isinstance(top_k, float) and top_k <= 1.0:
                top_k = int(len(self.configs) * top_k)
            elif not isinstance(top_k, int):
                raise TypeError("Error while pruning configs, top_k must be "
                                "either 1) a float <= 1.0 or 2) an int")
            if len(pruned) > top_k:
                estimates = {
                    config: self.perf_model(**self.nargs, **kwargs,
                                            **config.all_kwargs())
                    for config in pruned}
                pruned = sorted(estimates, key=estimates.get)[:top_k]
        return list(pruned)

    # -- the launch -----------------------------------------------------------

    def _tuning_key(self, kwargs):
        all_args = {**self.nargs, **kwargs}
        named = {k: v for k, v in all_args.items() if k in self.arg_names}
        key = [named[k] for k in self.keys if k in named]
        for arg in named.values():
            if hasattr(arg, "dtype"):
                key.append(str(arg.dtype))
        return tuple(key)

    def run(self, *args, **kwargs):
        self.nargs = dict(zip(self.arg_names, args))
        used_cached = True
        if len(self.configs) > 1:
            key = self._tuning_key(kwargs)
            if key not in self.cache:
                config = self._load_result(key) if self.cache_results \
                    else None
                if config is None:
                    used_cached = False
                    config = self._tune(key, args, kwargs)
                self.cache[key] = config
            config = self.cache[key]
        else:
            config = self.configs[0]
        self.best_config = config
        if not used_cached and (
                os.environ.get("TRITON_PRINT_AUTOTUNING") == "1" or
                os.environ.get("TPX_PRINT_AUTOTUNING") == "1"):
            print("Triton autotuning for function %s finished after %.2fs; "
                  "best config selected: %s;" %
                  (self.base_fn.__name__, self.bench_time, config))
        if config.pre_hook is not None:
            config.pre_hook({**self.nargs, **kwargs, **config.all_kwargs()})
        ret = self.fn.run(*args, **kwargs, **config.all_kwargs())
        self.nargs = None
        return ret

    def _tune(self, key, args, kwargs):
        pruned = self.prune_configs(kwargs)
        start = time.time()
        self._precompile(pruned, args, kwargs)
        timings = {config: self._bench(*args, config=config, **kwargs)
                   for config in pruned}
        self.bench_time = time.time() - start
        best = builtins.min(timings, key=timings.get)
        full_nargs = {**self.nargs, **kwargs, **best.all_kwargs()}
        if not self.user_pre_hook:
            self._pre_hook(full_nargs, reset_only=True)
        self.configs_timings = timings
        if self.cache_results:
            self._store_result(key, best, timings)
        return best

    def warmup(self, *args, **kwargs):
        """Compiles every (pruned) config; returns the CompiledKernels."""
        self.nargs = dict(zip(self.arg_names, args))
        kernels = [self.fn.warmup(*args, **kwargs, **config.all_kwargs())
                   for config in self.prune_configs(kwargs)]
        self.nargs = None
        return kernels

    # -- the on-disk results ----------------------------------------------

    def _result_path(self, key):
        from tpx.runtime.driver import driver
        base = os.environ.get("TPX_CACHE_DIR") or os.path.join(
            os.path.expanduser("~"), ".cache", "tpx")
        target = driver.active.get_current_target()
        material = json.dumps([
            getattr(self.base_fn, "hash", self.base_fn.__name__),
            "%s/%s" % (target.backend, target.arch), repr(key),
            [str(c) for c in self.configs]])
        digest = hashlib.sha256(material.encode()).hexdigest()
        return os.path.join(base, "autotune", digest + ".json")

    def _load_result(self, key):
        try:
            with open(self._result_path(key)) as f:
                data = json.load(f)
            return self.configs[int(data["best"])]
        except (OSError, ValueError, KeyError, IndexError, TypeError):
            return None

    def _store_result(self, key, best, timings):
        path = self._result_path(key)
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            data = {"best": self.configs.index(best),
                    "config": str(best),
                    "timings": {str(c): t for c, t in timings.items()}}
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path))
            with os.fdopen(fd, "w") as f:
                json.dump(data, f)
            os.replace(tmp, path)
        except OSError as e:
            print("tpx: could not save autotuning results to %s: %s" %
                  (path, e), file=sys.stderr)


def _compile_threads(count):
    text = os.environ.get("TPX_AUTOTUNE_COMPILE_THREADS", "").strip()
    if text:
        try:
            return max(1, int(text))
        except ValueError:
            pass
    return min(count, os.cpu_count() or 1, 16)


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None,
             restore_value=None, pre_hook=None, post_hook=None, warmup=None,
             rep=None, use_cuda_graph=False, do_bench=None,
             cache_results=False):
    """Decorator tuning a @jit kernel over `configs` per value of the `key`
    arguments (see the module doc). `prune_configs_by` is a dict with
    `perf_model`, `top_k` and/or `early_config_prune`; `reset_to_zero` and
    `restore_value` name arguments zeroed / restored around each timed
    call; `do_bench(fn, quantiles)` replaces the benchmark."""
    def decorator(fn):
        arg_names = getattr(fn, "arg_names", None)
        if arg_names is None:
            raise TypeError("autotune must decorate a @tpx.jit function (or "
                            "one wrapped by @tpx.heuristics), got %r" % (fn,))
        return Autotuner(fn, arg_names, configs, key, reset_to_zero,
                         restore_value, pre_hook=pre_hook,
                         post_hook=post_hook,
                         prune_configs_by=prune_configs_by, warmup=warmup,
                         rep=rep, use_cuda_graph=use_cuda_graph,
                         do_bench=do_bench, cache_results=cache_results)
    return decorator


class Heuristics(KernelInterface):
    """What @tpx.heuristics makes of a kernel: meta-parameters computed from
    the other arguments at each launch."""

    def __init__(self, fn, arg_names, values):
        self.fn = fn
        self.values = dict(values)
        self.arg_names = list(arg_names)
        self.base_fn = _base_fn(fn)

    def _apply(self, args, kwargs):
        for name, heuristic in self.values.items():
            kwargs[name] = heuristic({**dict(zip(self.arg_names, args)),
                                      **kwargs})
        return kwargs

    def run(self, *args, **kwargs):
        return self.fn.run(*args, **self._apply(args, kwargs))

    def warmup(self, *args, **kwargs):
        return self.fn.warmup(*args, **self._apply(args, kwargs))


def heuristics(values):
    """Decorator: @heuristics({"BLOCK": lambda args: ...}) computes those
    meta-parameters from the launch arguments (a dict of name -> value)."""
    if not isinstance(values, dict):
        raise TypeError("heuristics: expected a dict of name -> function, "
                        "got %r" % (values,))

    def decorator(fn):
        arg_names = getattr(fn, "arg_names", None)
        if arg_names is None:
            raise TypeError("heuristics must decorate a @tpx.jit function, "
                            "got %r" % (fn,))
        return Heuristics(fn, arg_names, values)
    return decorator
