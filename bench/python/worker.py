#!/usr/bin/env python3
"""Runs one program module under one backend; compare.py starts it.

    worker.py --backend tpx|triton --module NAME --out DIR
              [--call run] [--device cuda] [--size full|small] [--no-bench]
              [--kwargs JSON]

With `--backend tpx`, `triton` is tpx in this process (tpx_as_triton);
with `triton`, it is the installed Triton. The module is imported after
that and `module.<call>(triton, **kwargs)` runs; for `run` the kwargs are
device, size and bench.

A `run` returns cases (tutorial_common.case); each output is checked
against its reference here, and DIR/NAME.BACKEND.json gets, per case, the
check and the times, DIR/NAME.BACKEND.npz the outputs (for comparing
backends). Any other call's return value (JSON-able) is written as is.
An exception is written as {"error": ...} and the exit status is 1.
"""

import argparse
import json
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))


def _host(t):
    """A tensor as a float64 (or bool) NumPy array on the host."""
    import numpy as np
    a = t.detach().cpu()
    if str(a.dtype) == "torch.bool":
        return a.numpy()
    if str(a.dtype) == "torch.bfloat16":
        a = a.float()
    a = a.numpy()
    return a.astype(np.float64) if a.dtype.kind == "f" else a


def mismatch(got, want, rtol, atol):
    """(ok, max_abs_err, what) for got vs want, NaN == NaN."""
    import numpy as np
    if got.shape != want.shape:
        return False, float("inf"), "shape %s, expected %s" % (got.shape,
                                                               want.shape)
    if got.dtype.kind in "biu" and want.dtype.kind in "biu":
        bad = got != want
        err = float(np.abs(got.astype(np.int64) -
                           want.astype(np.int64)).max()) if got.size else 0.
    else:
        g = got.astype(np.float64)
        w = want.astype(np.float64)
        same = (np.isnan(g) & np.isnan(w)) | (g == w)
        diff = np.where(same, 0.0, np.abs(g - w))
        diff = np.nan_to_num(diff, nan=np.inf)
        bad = diff > atol + rtol * np.abs(np.nan_to_num(w))
        err = float(diff.max()) if diff.size else 0.0
    if not bad.any():
        return True, err, ""
    i = np.unravel_index(np.argmax(bad), bad.shape)
    return False, err, "%d of %d outside rtol=%g atol=%g, first at %s: " \
        "%r, expected %r" % (int(bad.sum()), bad.size, rtol, atol,
                             tuple(int(j) for j in i), got[i].item(),
                             want[i].item())


def _check_cases(cases):
    import numpy as np
    report, arrays = [], {}
    for index, c in enumerate(cases):
        checks = {}
        for key in sorted(c["outputs"]):
            got = _host(c["outputs"][key])
            want = _host(c["reference"][key])
            rtol, atol = c["tolerances"].get(key, (c["rtol"], c["atol"]))
            ok, err, what = mismatch(got, want, rtol, atol)
            checks[key] = {"ok": ok, "max_err": err, "detail": what,
                           "rtol": rtol, "atol": atol}
            arrays["%d/%s" % (index, key)] = np.asarray(got)
        report.append({"name": c["name"], "ms": c["ms"],
                       "torch_ms": c["torch_ms"], "checks": checks,
                       "ok": all(v["ok"] for v in checks.values())})
    return report, arrays


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--backend", choices=["tpx", "triton"], required=True)
    ap.add_argument("--module", required=True)
    ap.add_argument("--call", default="run")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--size", default="full", choices=["full", "small"])
    ap.add_argument("--no-bench", action="store_true")
    ap.add_argument("--kwargs", default="{}")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)

    os.environ.setdefault("TUTORIAL_SIZE", args.size)
    sys.path.insert(0, HERE)
    stem = os.path.join(args.out, "%s.%s" % (args.module, args.backend))
    started = time.time()
    try:
        if args.backend == "tpx":
            import tpx_as_triton
            tpx_as_triton.install()
        import triton
        module = __import__(args.module)
        kwargs = json.loads(args.kwargs)
        if args.call == "run":
            kwargs.update(device=args.device, size=args.size,
                          bench=not args.no_bench)
        result = getattr(module, args.call)(triton, **kwargs)
        if args.call == "run":
            cases, arrays = _check_cases(result)
            import numpy as np
            np.savez(stem + ".npz", **arrays)
            result = {"cases": cases}
        result.update(backend=args.backend,
                      version=getattr(triton, "__version__", "?"),
                      wall_s=time.time() - started)
        status = 0
    except BaseException as e:  # noqa: B902 -- reported, then exit 1
        traceback.print_exc()
        result = {"backend": args.backend, "wall_s": time.time() - started,
                  "error": "%s: %s" % (type(e).__name__, e),
                  "traceback": traceback.format_exc()[-4000:]}
        status = 1
    with open(stem + ".json", "w") as f:
        json.dump(result, f, indent=1, default=str)
    return status


if __name__ == "__main__":
    sys.exit(main())
