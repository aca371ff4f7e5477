"""tpx.autotune / Config / heuristics on the CPU."""

import threading

import numpy as np
import pytest

import tpx
import tpx as triton
import tpx.language as tl
from tpx import _capi
from tpx.compiler.compiler import CompiledKernel
from tpx.errors import OutOfResources
from tpx.runtime import Autotuner, Heuristics
from tpx.runtime.driver import CPUDriver, driver
from tpx.runtime.jit import JITFunction


@pytest.fixture(autouse=True)
def cpu_driver():
    saved = driver._active
    driver.set_active(CPUDriver())
    yield
    driver._active = saved
    _capi.bump_state_generation()


CONFIGS = [triton.Config({"BLOCK": 64}, num_warps=2),
           triton.Config({"BLOCK": 128}, num_warps=4),
           triton.Config({"BLOCK": 256}, num_warps=8, num_stages=2)]


def _make_add(**autotune_kwargs):
    @triton.autotune(configs=CONFIGS, key=["n"], **autotune_kwargs)
    @triton.jit
    def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offsets < n
        tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) +
                 tl.load(y_ptr + offsets, mask=mask), mask=mask)
    return add


def _grid(meta):
    return (triton.cdiv(meta["n"], meta["BLOCK"]),)


def _fake_bench(times, calls):
    """do_bench replacement: the time of the config whose BLOCK the call
    launches with, read from the launch itself."""
    def bench(fn, quantiles):
        fn()
        block = calls[-1]
        t = times[block]
        return [t, t, t]
    return bench


def _recording(kernel, calls):
    jit_fn = kernel.base_fn
    original = jit_fn.run

    def run(*args, **kwargs):
        if not kwargs.get("warmup"):
            calls.append(kwargs["BLOCK"])
        return original(*args, **kwargs)
    jit_fn.run = run


def test_autotune_picks_the_fastest_and_caches_per_key():
    calls = []
    times = {64: 3.0, 128: 1.0, 256: 2.0}
    add = _make_add(do_bench=_fake_bench(times, calls))
    _recording(add, calls)
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, np.float32)
    out = np.zeros(1000, np.float32)
    add[_grid](x, y, out, 1000)
    np.testing.assert_array_equal(out, x + y)
    assert add.best_config == CONFIGS[1]
    assert calls == [64, 128, 256, 128]
    assert set(add.configs_timings) == set(CONFIGS)
    assert add.bench_time >= 0
    calls.clear()
    add[_grid](x, y, out, 1000)          # same key: no tuning
    assert calls == [128]
    add[_grid](x[:500], y, out, 500)     # new key: tunes again
    assert calls == [128, 64, 128, 256, 128]
    assert len(add.cache) == 2


def test_tuning_key_includes_dtypes():
    calls = []
    add = _make_add(do_bench=_fake_bench({64: 1, 128: 2, 256: 3}, calls))
    _recording(add, calls)
    for dtype in (np.float32, np.float16):
        x = np.ones(64, dtype)
        add[_grid](x, x, np.zeros(64, dtype), 64)
    assert len(add.cache) == 2


def test_real_benchmark_and_result():
    add = _make_add(warmup=1, rep=2)
    x = np.arange(5000, dtype=np.float32)
    out = np.zeros_like(x)
    add[_grid](x, x, out, 5000)
    np.testing.assert_array_equal(out, 2 * x)
    assert add.best_config in CONFIGS


def test_configs_compile_in_parallel_before_benchmarking(monkeypatch):
    events = []
    lock = threading.Lock()
    original = JITFunction._compile

    def compile_(self, *a, **k):
        with lock:
            events.append(("compile", threading.get_ident()))
        return original(self, *a, **k)
    monkeypatch.setattr(JITFunction, "_compile", compile_)
    monkeypatch.setenv("TPX_AUTOTUNE_COMPILE_THREADS", "3")

    def bench(fn, quantiles):
        events.append(("bench", None))
        fn()
        return [1.0, 1.0, 1.0]
    add = _make_add(do_bench=bench)
    x = np.ones(128, np.float32)
    add[_grid](x, x, np.zeros_like(x), 128)
    kinds = [e[0] for e in events]
    assert kinds == ["compile"] * 3 + ["bench"] * 3
    # (which threads ran them depends on timing: compiles may come from the
    # on-disk cache faster than the pool starts its threads)
    assert threading.get_ident() not in {e[1] for e in events[:3]}


def test_out_of_resources_configs_are_skipped():
    def oor(nargs):
        raise OutOfResources(300000, 232448, "shared memory")
    configs = [triton.Config({"BLOCK": 64}, pre_hook=oor),
               triton.Config({"BLOCK": 128})]

    @triton.autotune(configs=configs, key=["n"],
                     do_bench=lambda fn, quantiles: (fn(), [1.0] * 3)[1])
    @triton.jit
    def copy(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out_ptr + o, tl.load(x_ptr + o, mask=o < n), mask=o < n)
    x = np.arange(300, dtype=np.float32)
    out = np.zeros_like(x)
    copy[_grid](x, out, 300)
    assert copy.best_config is configs[1]
    assert copy.configs_timings[configs[0]] == [float("inf")] * 3
    np.testing.assert_array_equal(out, x)


def test_reset_to_zero_and_restore_value():
    @triton.autotune(configs=CONFIGS, key=["n"], reset_to_zero=["acc_ptr"],
                     restore_value=["x_ptr"], warmup=1, rep=1)
    @triton.jit
    def accumulate(x_ptr, acc_ptr, n, BLOCK: tl.constexpr):
        o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = o < n
        x = tl.load(x_ptr + o, mask=m)
        tl.store(acc_ptr + o, tl.load(acc_ptr + o, mask=m) + x, mask=m)
        tl.store(x_ptr + o, x + 1, mask=m)
    x = np.arange(512, dtype=np.float32)
    acc = np.zeros_like(x)
    original = x.copy()
    accumulate[_grid](x, acc, 512)
    # tuning ran the kernel many times; acc was zeroed and x restored
    # around each run, so the result is one launch's
    np.testing.assert_array_equal(acc, original)
    np.testing.assert_array_equal(x, original + 1)


def test_pruning():
    seen = {}

    def early(configs, nargs, **kwargs):
        seen["nargs"] = sorted(nargs)
        return [c for c in configs if c.kwargs["BLOCK"] >= 128]

    def perf_model(**kwargs):
        return -kwargs["BLOCK"]   # predicts bigger is faster

    calls = []
    add = _make_add(prune_configs_by={"early_config_prune": early,
                                      "perf_model": perf_model, "top_k": 1},
                    do_bench=_fake_bench({64: 1, 128: 1, 256: 1}, calls))
    _recording(add, calls)
    x = np.ones(256, np.float32)
    add[_grid](x, x, np.zeros_like(x), 256)
    assert calls == [256, 256]
    assert seen["nargs"] == ["n", "out_ptr", "x_ptr", "y_ptr"]
    add.nargs = {"n": 256}
    assert add.prune_configs({}) == [CONFIGS[2]]
    add.early_config_prune = lambda configs, nargs, **kw: []
    with pytest.raises(ValueError, match="No valid autotuner configs"):
        add.nargs = {}
        add.prune_configs({})
    add.early_config_prune = None
    add.configs_top_k = "two"
    with pytest.raises(TypeError, match="top_k"):
        add.prune_configs({})


def test_conflicting_meta_parameters():
    add = _make_add(do_bench=lambda fn, quantiles: (fn(), [1] * 3)[1])
    x = np.ones(64, np.float32)
    with pytest.raises(ValueError, match="Conflicting meta-parameters: "
                       "BLOCK"):
        add[_grid](x, x, np.zeros_like(x), 64, BLOCK=64)


def test_heuristics():
    @triton.heuristics({"BLOCK": lambda args: triton.next_power_of_2(
        args["n"]), "EVEN": lambda args: args["n"] % 2 == 0})
    @triton.jit
    def fill(out_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
        o = tl.arange(0, BLOCK)
        value = 2.0 if EVEN else 1.0
        tl.store(out_ptr + o, tl.zeros((BLOCK,), tl.float32) + value,
                 mask=o < n)
    assert isinstance(fill, Heuristics)
    out = np.zeros(100, np.float32)
    fill[(1,)](out, 100)
    assert (out == 2.0).all()
    out = np.zeros(33, np.float32)
    fill[(1,)](out, 33)
    assert (out == 1.0).all()
    kernel = fill.warmup(out, 33, grid=(1,))
    assert isinstance(kernel, CompiledKernel)


def test_autotune_over_heuristics():
    @triton.autotune(configs=[triton.Config({"BLOCK": 64}),
                              triton.Config({"BLOCK": 128})], key=["n"],
                     warmup=1, rep=1)
    @triton.heuristics({"SCALE": lambda args: 3.0})
    @triton.jit
    def scale(x_ptr, out_ptr, n, SCALE: tl.constexpr, BLOCK: tl.constexpr):
        o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out_ptr + o, tl.load(x_ptr + o, mask=o < n) * SCALE,
                 mask=o < n)
    assert isinstance(scale, Autotuner) and scale.base_fn.__name__ == "scale"
    x = np.arange(1000, dtype=np.float32)
    out = np.zeros_like(x)
    scale[_grid](x, out, 1000)
    np.testing.assert_array_equal(out, 3 * x)


def test_config_options_and_backend_options():
    c = triton.Config({"BLOCK": 32}, num_warps=2, num_stages=1, maxnreg=128,
                      waves_per_eu=2, matrix_instr_nonkdim=16)
    assert c.all_kwargs() == {"BLOCK": 32, "num_warps": 2, "num_ctas": 1,
                              "num_stages": 1, "maxnreg": 128,
                              "waves_per_eu": 2, "matrix_instr_nonkdim": 16}
    assert str(c) == ("BLOCK: 32, num_warps: 2, num_ctas: 1, num_stages: 1, "
                      "maxnreg: 128, waves_per_eu: 2, "
                      "matrix_instr_nonkdim: 16")
    assert c == triton.Config({"BLOCK": 32}, num_warps=2, num_stages=1,
                              maxnreg=128, waves_per_eu=2,
                              matrix_instr_nonkdim=16)
    assert len({c, triton.Config({"BLOCK": 32})}) == 2
    with pytest.raises(TypeError, match="kwargs must be a dict"):
        triton.Config([("BLOCK", 32)])

    @triton.autotune(configs=[c, triton.Config({"BLOCK": 64}, kpack=2)],
                     key=[], warmup=1, rep=1)
    @triton.jit
    def copy(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out_ptr + o, tl.load(x_ptr + o, mask=o < n), mask=o < n)
    x = np.arange(100, dtype=np.float32)
    out = np.zeros_like(x)
    copy[_grid](x, out, 100)
    np.testing.assert_array_equal(out, x)


def test_cache_results_on_disk(tmp_path, monkeypatch):
    monkeypatch.setenv("TPX_CACHE_DIR", str(tmp_path))
    calls = []
    add = _make_add(cache_results=True,
                    do_bench=_fake_bench({64: 5, 128: 4, 256: 1}, calls))
    _recording(add, calls)
    x = np.ones(256, np.float32)
    add[_grid](x, x, np.zeros_like(x), 256)
    assert add.best_config == CONFIGS[2]
    files = list((tmp_path / "autotune").iterdir())
    assert len(files) == 1
    # a new process (a new Autotuner) reads the result instead of tuning
    calls2 = []
    again = _make_add(cache_results=True,
                      do_bench=_fake_bench({64: 1, 128: 1, 256: 1}, calls2))
    _recording(again, calls2)
    again[_grid](x, x, np.zeros_like(x), 256)
    assert calls2 == [256] and again.best_config == CONFIGS[2]


def test_print_autotuning(monkeypatch, capsys):
    monkeypatch.setenv("TRITON_PRINT_AUTOTUNING", "1")
    calls = []
    add = _make_add(do_bench=_fake_bench({64: 1, 128: 2, 256: 3}, calls))
    _recording(add, calls)
    x = np.ones(64, np.float32)
    add[_grid](x, x, np.zeros_like(x), 64)
    out = capsys.readouterr().out
    assert "Triton autotuning for function add finished after" in out
    assert "best config selected: BLOCK: 64, num_warps: 2" in out


def test_warmup_compiles_every_config():
    add = _make_add()
    x = np.ones(64, np.float32)
    kernels = add.warmup(x, x, x, 64, grid=(1,))
    assert len(kernels) == 3
    assert all(isinstance(k, CompiledKernel) for k in kernels)
    assert [k.metadata.num_warps for k in kernels] == [2, 4, 8]


def test_decorator_errors():
    with pytest.raises(TypeError, match="must decorate a @tpx.jit"):
        triton.autotune(configs=CONFIGS, key=["n"])(lambda: None)
    with pytest.raises(TypeError, match="configs must be tpx.Config"):
        @triton.autotune(configs=[{"BLOCK": 1}], key=["n"])
        @triton.jit
        def k(n):
            pass
    with pytest.raises(ValueError, match="reset_to_zero: 'nope' is not a "
                       "parameter"):
        @triton.autotune(configs=CONFIGS, key=["n"], reset_to_zero=["nope"])
        @triton.jit
        def k2(n):
            pass
    with pytest.raises(TypeError, match="expected a dict"):
        triton.heuristics([1])


def test_exports():
    for name in ("autotune", "Config", "heuristics", "testing", "runtime",
                 "cdiv", "next_power_of_2", "set_allocator",
                 "OutOfResources", "KernelInterface", "jit", "JITFunction"):
        assert hasattr(tpx, name), name
    from tpx import runtime
    for name in ("driver", "Autotuner", "Heuristics", "JITFunction",
                 "KernelInterface", "Config"):
        assert hasattr(runtime, name), name
    assert issubclass(Autotuner, tpx.KernelInterface)
    assert issubclass(JITFunction, tpx.KernelInterface)
