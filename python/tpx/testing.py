"""`tpx.testing`: Triton's benchmarking and checking helpers.

    ms = tpx.testing.do_bench(lambda: kernel[grid](x, y, out, n, BLOCK=1024))
    tpx.testing.assert_close(out, expected)

* `do_bench` times `fn` as Triton 3.6 does: warmup and rep are in
  milliseconds; the runtime is estimated from 5 calls and the warm-up and
  timed call counts are derived from it. On CUDA every timed call is
  bracketed by CUDA events and preceded by writing a 256 MB buffer, which
  flushes the L2 cache; on the CPU driver calls are timed with
  time.perf_counter and the cache is not flushed (writing a buffer larger
  than a CPU's last-level cache would cost more than most kernels).
* `do_bench_cudagraph` captures the calls in a CUDA graph (torch needed)
  and times replays; on the CPU (or without torch) it is `do_bench`.
* `assert_close` compares numpy arrays, torch tensors and Python numbers
  (atol 1e-2 and rtol 0 by default, as Triton's).
* `Benchmark` and `perf_report` build Triton's benchmark tables; plots need
  matplotlib and are skipped with a warning without it, tables print
  without pandas (`run(return_df=True)` gives a pandas DataFrame when
  pandas is installed, else a small table object with the same
  `to_string`/`to_csv`/column access).

torch is optional everywhere here.
"""

import math
import os
import sys
import time
import warnings

__all__ = ["do_bench", "do_bench_cudagraph", "assert_close", "Benchmark",
           "Mark", "perf_report"]

_RETURN_MODES = ("min", "max", "mean", "median", "all")


def _check_return_mode(return_mode):
    if return_mode not in _RETURN_MODES:
        raise ValueError("return_mode must be one of %s, got %r" %
                         (", ".join(_RETURN_MODES), return_mode))


def _quantile(sorted_times, q):
    """Linear interpolation between closest ranks (torch.quantile's and
    numpy's default)."""
    if not 0 <= q <= 1:
        raise ValueError("quantiles must be in [0, 1], got %r" % (q,))
    position = q * (len(sorted_times) - 1)
    low = math.floor(position)
    high = min(low + 1, len(sorted_times) - 1)
    fraction = position - low
    return sorted_times[low] + (sorted_times[high] - sorted_times[low]) * \
        fraction


def _summarize(times, quantiles, return_mode):
    """Triton's _summarize_statistics over a list of milliseconds."""
    times = [float(t) for t in times]
    if quantiles is not None:
        ordered = sorted(times)
        values = [_quantile(ordered, q) for q in quantiles]
        return values[0] if len(values) == 1 else values
    if return_mode == "all":
        return times
    if return_mode == "min":
        return min(times)
    if return_mode == "max":
        return max(times)
    if return_mode == "mean":
        return sum(times) / len(times)
    # torch.median is the lower of the two middle values.
    return sorted(times)[(len(times) - 1) // 2]


def _active_driver():
    from tpx.runtime.driver import driver
    return driver.active


def _clear_grads(grad_to_none):
    if grad_to_none is not None:
        for x in grad_to_none:
            x.grad = None


def _check_times(warmup, rep):
    for name, value in (("warmup", warmup), ("rep", rep)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not value >= 0:
            raise ValueError("%s must be a number of milliseconds >= 0, got "
                             "%r" % (name, value))


def do_bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None,
             return_mode="mean"):
    """Milliseconds per call of `fn` (see the module doc for the method).

    `grad_to_none`: tensors whose .grad is reset before every timed call;
    `quantiles`: e.g. [0.5, 0.2, 0.8] returns those quantiles instead;
    `return_mode`: "mean", "median", "min", "max" or "all" (every time).
    """
    if not callable(fn):
        raise TypeError("do_bench: fn must be callable, got %r" % (fn,))
    _check_return_mode(return_mode)
    _check_times(warmup, rep)
    active = _active_driver()
    if active.backend == "cpu":
        return _bench_cpu(fn, warmup, rep, grad_to_none, quantiles,
                          return_mode)
    return _bench_gpu(active, fn, warmup, rep, grad_to_none, quantiles,
                      return_mode)


def _counts(estimate_ms, warmup, rep):
    estimate_ms = max(estimate_ms, 1e-6)
    return max(1, int(warmup / estimate_ms)), max(1, int(rep / estimate_ms))


def _bench_cpu(fn, warmup, rep, grad_to_none, quantiles, return_mode):
    fn()
    start = time.perf_counter()
    for _ in range(5):
        fn()
    estimate_ms = (time.perf_counter() - start) * 1e3 / 5
    n_warmup, n_repeat = _counts(estimate_ms, warmup, rep)
    for _ in range(n_warmup):
        fn()
    times = []
    clock = time.perf_counter
    for _ in range(n_repeat):
        _clear_grads(grad_to_none)
        t0 = clock()
        fn()
        times.append((clock() - t0) * 1e3)
    return _summarize(times, quantiles, return_mode)


def _bench_gpu(active, fn, warmup, rep, grad_to_none, quantiles,
               return_mode):
    di = active.get_device_interface()
    fn()
    di.synchronize()
    cache = active.get_empty_cache_for_benchmark()
    start_event = di.Event(enable_timing=True)
    end_event = di.Event(enable_timing=True)
    start_event.record()
    for _ in range(5):
        active.clear_cache(cache)
        fn()
    end_event.record()
    di.synchronize()
    estimate_ms = start_event.elapsed_time(end_event) / 5
    n_warmup, n_repeat = _counts(estimate_ms, warmup, rep)
    starts = [di.Event(enable_timing=True) for _ in range(n_repeat)]
    ends = [di.Event(enable_timing=True) for _ in range(n_repeat)]
    for _ in range(n_warmup):
        fn()
    for i in range(n_repeat):
        _clear_grads(grad_to_none)
        active.clear_cache(cache)
        starts[i].record()
        fn()
        ends[i].record()
    di.synchronize()
    times = [s.elapsed_time(e) for s, e in zip(starts, ends)]
    return _summarize(times, quantiles, return_mode)


def do_bench_cudagraph(fn, rep=20, grad_to_none=None, quantiles=None,
                       return_mode="mean"):
    """Milliseconds per call of `fn`, replayed from a CUDA graph (less
    launch overhead in the number). Falls back to do_bench on the CPU and
    without torch."""
    if not callable(fn):
        raise TypeError("do_bench_cudagraph: fn must be callable")
    _check_return_mode(return_mode)
    _check_times(0, rep)
    active = _active_driver()
    torch = sys.modules.get("torch")
    if active.backend == "cpu" or torch is None or \
            not torch.cuda.is_available():
        return do_bench(fn, rep=rep, grad_to_none=grad_to_none,
                        quantiles=quantiles, return_mode=return_mode)
    with torch.cuda.stream(torch.cuda.Stream()):
        fn()  # compile, load, and allocate outside the capture
        _clear_grads(grad_to_none)
        start_event = torch.cuda.Event(enable_timing=True)
        end_event = torch.cuda.Event(enable_timing=True)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            fn()
        torch.cuda.synchronize()
        start_event.record()
        graph.replay()
        end_event.record()
        torch.cuda.synchronize()
        estimate_ms = max(start_event.elapsed_time(end_event), 1e-6)
        n_repeat = max(1, int(rep / estimate_ms))
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            for _ in range(n_repeat):
                _clear_grads(grad_to_none)
                fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(10):
            start_event = torch.cuda.Event(enable_timing=True)
            end_event = torch.cuda.Event(enable_timing=True)
            start_event.record()
            graph.replay()
            end_event.record()
            torch.cuda.synchronize()
            times.append(start_event.elapsed_time(end_event) / n_repeat)
    return _summarize(times, quantiles, return_mode)


# -- assert_close -------------------------------------------------------------

def _to_numpy(value):
    import numpy as np
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(value, torch.Tensor):
        value = value.detach()
        if value.dtype == torch.bfloat16 or "float8" in str(value.dtype):
            value = value.float()
        return value.cpu().numpy()
    if hasattr(value, "__cuda_array_interface__") and hasattr(value, "get"):
        return np.asarray(value.get())  # CuPy
    array = np.asarray(value)
    if array.dtype.name == "bfloat16" or array.dtype.name.startswith(
            "float8"):
        array = array.astype(np.float32)
    return array


def _dtype_of(value):
    dtype = getattr(value, "dtype", None)
    if dtype is not None:
        return dtype
    import numpy as np
    return np.asarray(value).dtype


def assert_close(x, y, atol=None, rtol=None, err_msg=""):
    """Asserts |x - y| <= atol + rtol * |y| elementwise (NaNs equal).

    x, y: numpy arrays, torch tensors (any device), CuPy arrays or Python
    numbers / lists. atol defaults to 1e-2 and rtol to 0 (Triton's); either
    may be a callable of x's dtype.
    """
    import numpy as np
    if atol is None:
        atol = 1e-2
    if callable(atol):
        atol = atol(_dtype_of(x))
    if rtol is None:
        rtol = 0.0
    if callable(rtol):
        rtol = rtol(_dtype_of(x))
    a = _to_numpy(x)
    b = _to_numpy(y)
    if a.size > 1 or b.size > 1:
        np.testing.assert_allclose(a, b, atol=atol, rtol=rtol,
                                   equal_nan=True, err_msg=err_msg)
        return
    if not np.allclose(a, b, atol=atol, rtol=rtol, equal_nan=True):
        raise AssertionError("%s %s is not close to %s (atol=%s, rtol=%s)" %
                             (err_msg, a, b, atol, rtol))


# -- Benchmark / perf_report --------------------------------------------------

class Benchmark:
    """One benchmark table (Triton's triton.testing.Benchmark).

    x_names: argument names that vary along the x axis, x_vals their values
    (a value per row, or a tuple per row for several names); line_arg the
    argument that selects the line, line_vals its values and line_names
    their column titles; args fixed keyword arguments; plot_name names the
    table, plot and files; styles (color, linestyle) per line.
    """

    def __init__(self, x_names, x_vals, line_arg, line_vals, line_names,
                 plot_name, args, xlabel="", ylabel="", x_log=False,
                 y_log=False, styles=None):
        if isinstance(x_names, str):
            x_names = [x_names]
        if len(line_vals) != len(line_names):
            raise ValueError("Benchmark: line_vals and line_names differ in "
                             "length (%d and %d)" %
                             (len(line_vals), len(line_names)))
        self.x_names = list(x_names)
        self.x_vals = list(x_vals)
        self.x_log = x_log
        self.line_arg = line_arg
        self.line_vals = list(line_vals)
        self.line_names = list(line_names)
        self.y_log = y_log
        self.styles = styles
        self.xlabel = xlabel
        self.ylabel = ylabel
        self.plot_name = plot_name
        self.args = dict(args or {})


class Table:
    """A minimal stand-in for a pandas DataFrame (when pandas is absent)."""

    def __init__(self, columns):
        self.columns = list(columns)
        self.rows = []

    def append(self, row):
        self.rows.append(list(row))

    def __getitem__(self, column):
        if isinstance(column, list):
            table = Table(column)
            index = [self.columns.index(c) for c in column]
            table.rows = [[row[i] for i in index] for row in self.rows]
            return table
        i = self.columns.index(column)
        return [row[i] for row in self.rows]

    def __len__(self):
        return len(self.rows)

    @property
    def shape(self):
        return (len(self.rows), len(self.columns))

    def to_string(self):
        """Right-aligned columns with a row index, like pandas'."""
        def fmt(value, integral):
            if value is None:
                return "NaN"
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                return str(value)
            if isinstance(value, float) and math.isnan(value):
                return "NaN"
            return "%.1f" % value if integral else "%.6f" % value
        cells = []
        for i, column in enumerate(self.columns):
            values = [row[i] for row in self.rows]
            numbers = [v for v in values if isinstance(v, (int, float)) and
                       not isinstance(v, bool) and v is not None and
                       not (isinstance(v, float) and math.isnan(v))]
            integral = all(float(v).is_integer() for v in numbers)
            cells.append([fmt(v, integral) for v in values])
        index = [str(i) for i in range(len(self.rows))]
        widths = [max([len(str(c))] + [len(v) for v in col])
                  for c, col in zip(self.columns, cells)]
        iw = max([0] + [len(s) for s in index])
        lines = [" " * iw + "".join("  " + str(c).rjust(w)
                                     for c, w in zip(self.columns, widths))]
        for r in range(len(self.rows)):
            lines.append(index[r].ljust(iw) + "".join(
                "  " + cells[c][r].rjust(widths[c])
                for c in range(len(self.columns))))
        return "\n".join(lines)

    def to_csv(self, path, float_format="%.6f", index=False):
        import csv
        with open(path, "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(self.columns)
            for row in self.rows:
                writer.writerow([float_format % v if isinstance(v, float)
                                 else ("" if v is None else v) for v in row])

    def to_pandas(self):
        import pandas
        return pandas.DataFrame(self.rows, columns=self.columns)

    def __repr__(self):
        return self.to_string()


def _matplotlib():
    try:
        import matplotlib
        if not os.environ.get("DISPLAY") and not os.environ.get(
                "MPLBACKEND"):
            matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except Exception:
        warnings.warn("tpx.testing: matplotlib is not installed; plots are "
                      "skipped (the data is still printed and saved)",
                      RuntimeWarning, stacklevel=3)
        return None


class Mark:
    """What @perf_report returns: `run(...)` measures and reports."""

    def __init__(self, fn, benchmarks):
        self.fn = fn
        self.benchmarks = benchmarks

    def _run(self, bench, save_path, show_plots, print_data, diff_col=False,
             save_precision=6, **kwargs):
        y_mean = bench.line_names
        y_min = ["%s-min" % x for x in bench.line_names]
        y_max = ["%s-max" % x for x in bench.line_names]
        x_names = list(bench.x_names)
        table = Table(x_names + y_mean + y_min + y_max)
        for x in bench.x_vals:
            if not isinstance(x, (list, tuple)):
                x = [x for _ in x_names]
            if len(x) != len(x_names):
                raise ValueError("Benchmark %r: expected %d x values, got %r"
                                 % (bench.plot_name, len(x_names), x))
            x_args = dict(zip(x_names, x))
            row_mean, row_min, row_max = [], [], []
            for y in bench.line_vals:
                ret = self.fn(**x_args, **{bench.line_arg: y}, **bench.args,
                              **kwargs)
                try:
                    mean, low, high = ret
                except TypeError:
                    mean, low, high = ret, None, None
                row_mean.append(mean)
                row_min.append(low)
                row_max.append(high)
            table.append([float(v) if isinstance(v, int) and
                          not isinstance(v, bool) else v
                          for v in list(x) + row_mean + row_min + row_max])
        if bench.plot_name and (show_plots or save_path):
            plt = _matplotlib()
            if plt is not None:
                self._plot(plt, bench, table, x_names, show_plots, save_path)
        shown = table[x_names + bench.line_names]
        if diff_col and len(bench.line_names) == 2:
            a, b = bench.line_names
            shown.columns.append("Diff")
            for row, (va, vb) in zip(shown.rows,
                                     zip(table[a], table[b])):
                row.append(None if va is None or vb is None else vb - va)
        if print_data:
            print(bench.plot_name + ":")
            print(shown.to_string())
        if save_path:
            shown.to_csv(os.path.join(save_path, "%s.csv" % bench.plot_name),
                         float_format="%%.%df" % save_precision, index=False)
        return shown

    @staticmethod
    def _plot(plt, bench, table, x_names, show_plots, save_path):
        plt.figure()
        ax = plt.subplot()
        first_x = x_names[0]
        xs = table[first_x]
        for i, name in enumerate(bench.line_names):
            col = bench.styles[i][0] if bench.styles else None
            sty = bench.styles[i][1] if bench.styles else None
            ax.plot(xs, table[name], label=name, color=col, ls=sty)
            low, high = table[name + "-min"], table[name + "-max"]
            if all(v is not None for v in low + high):
                ax.fill_between(xs, low, high, alpha=0.15, color=col)
        ax.legend()
        ax.set_xlabel(bench.xlabel or first_x)
        ax.set_ylabel(bench.ylabel)
        ax.set_xscale("log" if bench.x_log else "linear")
        ax.set_yscale("log" if bench.y_log else "linear")
        if show_plots:
            plt.show()
        if save_path:
            plt.savefig(os.path.join(save_path, "%s.png" % bench.plot_name))
        plt.close()

    def run(self, show_plots=False, print_data=False, save_path="",
            return_df=False, **kwargs):
        """Runs every benchmark: prints its table with print_data, shows
        or saves (<save_path>/<plot_name>.png/.csv, results.html) plots.
        Returns the table(s) with return_df (pandas DataFrames when pandas
        is installed)."""
        single = isinstance(self.benchmarks, Benchmark)
        benchmarks = [self.benchmarks] if single else self.benchmarks
        if save_path:
            os.makedirs(save_path, exist_ok=True)
        results = []
        html = []
        for bench in benchmarks:
            results.append(self._run(bench, save_path, show_plots, print_data,
                                     **kwargs))
            html.append('<image src="%s.png"/>' % bench.plot_name)
        if save_path:
            with open(os.path.join(save_path, "results.html"), "w") as f:
                f.write("<html><body>\n%s\n</body></html>\n" %
                        "\n".join(html))
        if not return_df:
            return None
        try:
            import pandas  # noqa: F401
            results = [r.to_pandas() for r in results]
        except ImportError:
            pass
        return results[0] if single else results


def perf_report(benchmarks):
    """Decorator: @perf_report(Benchmark(...)) def bench(**args) -> Mark."""
    def decorator(fn):
        return Mark(fn, benchmarks)
    return decorator
