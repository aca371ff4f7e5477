"""tpx.testing: do_bench, assert_close, Benchmark/perf_report (CPU)."""

import os
import time

import numpy as np
import pytest

import tpx
import tpx.testing as testing
from tpx import _capi
from tpx.runtime.driver import CPUDriver, driver


@pytest.fixture(autouse=True)
def cpu_driver():
    saved = driver._active
    driver.set_active(CPUDriver())
    yield
    driver._active = saved
    _capi.bump_state_generation()


def _sleeper(ms):
    def fn():
        end = time.perf_counter() + ms / 1e3
        while time.perf_counter() < end:
            pass
    return fn


def test_do_bench_measures_milliseconds():
    t = testing.do_bench(_sleeper(1.0), warmup=5, rep=20)
    assert 0.9 <= t < 20.0   # busy machines stretch it, never shrink it


def test_do_bench_counts_follow_warmup_and_rep():
    calls = []
    testing.do_bench(lambda: calls.append(1) or _sleeper(1.0)(), warmup=5,
                     rep=10)
    # 1 + 5 estimates + ~5 warm-ups + ~10 timed on an idle machine; the
    # counts come from measured times, so a loaded CI machine (sleeps that
    # overshoot) runs fewer: only the order of magnitude is checked.
    assert 8 <= len(calls) <= 60


def test_do_bench_modes_and_quantiles():
    fn = _sleeper(0.2)
    times = testing.do_bench(fn, warmup=1, rep=5, return_mode="all")
    assert isinstance(times, list) and len(times) >= 1
    assert all(t > 0 for t in times)
    for mode in ("min", "max", "mean", "median"):
        assert isinstance(testing.do_bench(fn, warmup=1, rep=2,
                                           return_mode=mode), float)
    q = testing.do_bench(fn, warmup=1, rep=5, quantiles=[0.5, 0.2, 0.8])
    assert len(q) == 3 and q[1] <= q[0] <= q[2]
    assert isinstance(testing.do_bench(fn, warmup=1, rep=2,
                                       quantiles=[0.5]), float)


def test_summary_statistics():
    from tpx.testing import _summarize
    data = [4.0, 1.0, 3.0, 2.0]
    assert _summarize(data, None, "min") == 1.0
    assert _summarize(data, None, "max") == 4.0
    assert _summarize(data, None, "mean") == 2.5
    assert _summarize(data, None, "median") == 2.0   # torch's lower median
    assert _summarize(data, [0.5], "mean") == 2.5
    assert _summarize(data, [0.0, 1.0], "mean") == [1.0, 4.0]
    np.testing.assert_allclose(
        _summarize(data, [0.2, 0.8], "mean"),
        np.quantile(data, [0.2, 0.8]))


def test_do_bench_argument_errors():
    with pytest.raises(ValueError, match="return_mode"):
        testing.do_bench(lambda: None, return_mode="avg")
    with pytest.raises(TypeError, match="callable"):
        testing.do_bench(3)
    with pytest.raises(ValueError, match="warmup"):
        testing.do_bench(lambda: None, warmup=-1)
    with pytest.raises(ValueError, match="quantiles"):
        testing.do_bench(lambda: None, warmup=0, rep=0, quantiles=[2])


def test_grad_to_none():
    class T:
        grad = 1
    t = T()
    testing.do_bench(lambda: None, warmup=0, rep=0, grad_to_none=[t])
    assert t.grad is None


def test_do_bench_cudagraph_falls_back_on_the_cpu():
    t = testing.do_bench_cudagraph(_sleeper(0.5), rep=5)
    assert 0.4 <= t < 20.0


def test_benchmarker_and_device_interface_of_the_driver():
    assert driver.active.get_benchmarker() is testing.do_bench


def test_assert_close():
    testing.assert_close(np.ones(4), np.ones(4) + 5e-3)
    with pytest.raises(AssertionError):
        testing.assert_close(np.ones(4), np.ones(4) + 2e-2)
    testing.assert_close(np.ones(4), np.ones(4) * 1.1, atol=0, rtol=0.2)
    testing.assert_close([1.0, float("nan")], [1.0, float("nan")])
    testing.assert_close(1.0, 1.001)
    with pytest.raises(AssertionError, match="oops 1.0 is not close to 2.0"):
        testing.assert_close(1.0, 2.0, err_msg="oops")
    testing.assert_close(np.float32(3), 3, atol=lambda dtype: 0)


def test_assert_close_torch():
    torch = pytest.importorskip("torch")
    testing.assert_close(torch.ones(8, dtype=torch.bfloat16), torch.ones(8))
    testing.assert_close(torch.ones(8, requires_grad=True), np.ones(8))
    with pytest.raises(AssertionError):
        testing.assert_close(torch.zeros(8), torch.ones(8))


def _report(**extra):
    @testing.perf_report(testing.Benchmark(
        x_names=["size"], x_vals=[2 ** i for i in range(4, 7)],
        line_arg="provider", line_vals=["a", "b"], line_names=["A", "B"],
        plot_name="demo-bench", args={"scale": 2}, ylabel="GB/s", **extra))
    def bench(size, provider, scale):
        base = size * scale
        return (base, base - 1, base + 1) if provider == "a" else base / 4
    return bench


def test_perf_report_prints_a_table(capsys):
    _report().run(print_data=True)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "demo-bench:"
    assert out[1].split() == ["size", "A", "B"]
    assert out[2].split() == ["0", "16.0", "32.0", "8.0"]
    assert len(out) == 5


def test_perf_report_saves_and_returns(tmp_path, capsys):
    df = _report().run(save_path=str(tmp_path), return_df=True)
    assert capsys.readouterr().out == ""
    csv = (tmp_path / "demo-bench.csv").read_text().splitlines()
    assert csv[0] == "size,A,B"
    assert csv[1] == "16.000000,32.000000,8.000000"
    assert (tmp_path / "results.html").exists()
    assert list(df["A"]) == [32, 64, 128]


def test_perf_report_several_benchmarks_and_x_tuples():
    @testing.perf_report([
        testing.Benchmark(x_names=["M", "N"], x_vals=[(1, 2), (3, 4)],
                          line_arg="p", line_vals=[0], line_names=["P"],
                          plot_name="two", args={}),
        testing.Benchmark(x_names="M", x_vals=[5], line_arg="p",
                          line_vals=[0], line_names=["P"], plot_name="one",
                          args={})])
    def bench(M, p, N=0):
        return M + N
    dfs = bench.run(return_df=True)
    assert len(dfs) == 2 and list(dfs[0]["P"]) == [3, 7]
    with pytest.raises(ValueError, match="expected 2 x values"):
        testing.perf_report(testing.Benchmark(
            x_names=["M", "N"], x_vals=[(1, 2, 3)], line_arg="p",
            line_vals=[0], line_names=["P"], plot_name="bad",
            args={}))(bench).run()


def test_benchmark_validation():
    with pytest.raises(ValueError, match="line_vals and line_names"):
        testing.Benchmark(x_names=["n"], x_vals=[1], line_arg="p",
                          line_vals=[1, 2], line_names=["a"], plot_name="x",
                          args={})


def test_plots_without_matplotlib_warn(tmp_path):
    try:
        import matplotlib  # noqa: F401
        pytest.skip("matplotlib is installed")
    except ImportError:
        pass
    with pytest.warns(RuntimeWarning, match="matplotlib is not installed"):
        _report().run(save_path=str(tmp_path))
    assert (tmp_path / "demo-bench.csv").exists()


def test_top_level_exports():
    assert tpx.testing is testing
    assert tpx.cdiv(10, 4) == 3 and tpx.cdiv(8, 4) == 2
    assert [tpx.next_power_of_2(n) for n in (0, 1, 2, 3, 17, 1024)] == \
        [1, 1, 2, 4, 32, 1024]
