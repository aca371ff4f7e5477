#!/usr/bin/env python3
"""The tutorial programs under tpx and under stock Triton, side by side.

    compare.py [--device cuda|cpu] [--backends tpx,triton]
               [--programs vector_add,matmul,...] [--size full|small]
               [--no-bench] [--timeout S] [--json FILE]

Every program (a module of this folder written against `import triton` /
`import triton.language as tl`) runs once per backend, each in a process of
its own (worker.py): for `tpx` the names `triton` and `triton.language` are
tpx (tpx_as_triton), for `triton` they are the installed Triton. Each run
checks its outputs against torch; this script then compares the backends'
outputs with each other (same tolerances) and prints one table row per case:
the times per call (the backend's testing.do_bench, median), the ratio, and
the checks. Exit status 0 when every check passed.

The CPU smoke mode, `--device cpu --backends tpx --size small --no-bench`,
runs the programs on small problems with tpx only (stock Triton has no CPU
backend); test/Python/test_tutorials_cpu.py runs it in CI.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = ["vector_add", "fused_softmax", "matmul", "dropout", "layernorm",
            "attention"]


def run_backend(program, backend, args, out_dir):
    """Runs worker.py; returns its JSON report (with "error" on failure)."""
    cmd = [sys.executable, os.path.join(HERE, "worker.py"),
           "--backend", backend, "--module", program, "--device",
           args.device, "--size", args.size, "--out", out_dir]
    if args.no_bench:
        cmd.append("--no-bench")
    env = dict(os.environ, TUTORIAL_SIZE=args.size)
    if args.device == "cpu":
        # tpx's driver picks a GPU when there is one; this run is the CPU's.
        env["TPX_TARGET"] = "cpu"
    started = time.time()
    try:
        proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              timeout=args.timeout)
        log, status = proc.stdout, proc.returncode
    except subprocess.TimeoutExpired as e:
        log = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) \
            else (e.stdout or "")
        return {"error": "timed out after %ds" % args.timeout, "log": log,
                "wall_s": time.time() - started}
    path = os.path.join(out_dir, "%s.%s.json" % (program, backend))
    report = None
    if os.path.exists(path):
        with open(path) as f:
            report = json.load(f)
    if report is None:
        report = {"error": "worker exited with status %d and no report" %
                  status}
    elif status != 0 and "error" not in report:
        report["error"] = "worker exited with status %d" % status
    report["log"] = log
    report.setdefault("wall_s", time.time() - started)
    return report


def compare_backends(program, backends, reports, out_dir):
    """{case name: (agree, max difference)} between the first two
    backends' outputs, with each output's own tolerances."""
    import numpy as np
    sys.path.insert(0, HERE)
    from worker import mismatch
    if len(backends) < 2:
        return {}
    a, b = backends[:2]
    if "error" in reports[a] or "error" in reports[b]:
        return {}
    arrays = [np.load(os.path.join(out_dir, "%s.%s.npz" % (program, x)))
              for x in (a, b)]
    index_b = {c["name"]: i for i, c in enumerate(reports[b]["cases"])}
    result = {}
    for i, c in enumerate(reports[a]["cases"]):
        if c["name"] not in index_b:
            continue
        j = index_b[c["name"]]
        agree, worst = True, 0.0
        for key, check in c["checks"].items():
            name_a, name_b = "%d/%s" % (i, key), "%d/%s" % (j, key)
            if name_a not in arrays[0] or name_b not in arrays[1]:
                agree = False
                continue
            ok, err, _ = mismatch(arrays[0][name_a], arrays[1][name_b],
                                  check["rtol"], check["atol"])
            agree = agree and ok
            worst = max(worst, err)
        result[c["name"]] = (agree, worst)
    return result


def _ms(x):
    return "-" if x is None else ("%.4f" % x if x < 1 else "%.3f" % x)


def _check_text(case):
    worst = max(v["max_err"] for v in case["checks"].values())
    return ("ok" if case["ok"] else "FAIL") + " %.1e" % worst


def print_table(rows, backends):
    head = ["program", "case"] + ["%s ms" % b for b in backends] + \
        ["torch ms"]
    if len(backends) >= 2:
        head.append("%s/%s" % tuple(backends[:2]))
    head += ["%s vs torch" % b for b in backends]
    if len(backends) >= 2:
        head.append("%s = %s" % tuple(backends[:2]))
    table = [head] + rows
    widths = [max(len(str(r[i])) for r in table) for i in range(len(head))]
    for n, r in enumerate(table):
        print("  ".join(str(v).ljust(w) for v, w in zip(r, widths)))
        if n == 0:
            print("  ".join("-" * w for w in widths))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--backends", default=None,
                    help="comma-separated, default tpx,triton (cpu: tpx)")
    ap.add_argument("--programs", default=",".join(PROGRAMS))
    ap.add_argument("--size", default=None, choices=["full", "small"],
                    help="default: full on a GPU, small on the CPU")
    ap.add_argument("--no-bench", action="store_true",
                    help="check outputs only, no timing")
    ap.add_argument("--timeout", type=int, default=240,
                    help="seconds per program and backend")
    ap.add_argument("--json", help="also write the reports here")
    args = ap.parse_args(argv)
    on_cpu = args.device == "cpu"
    args.size = args.size or ("small" if on_cpu else "full")
    backends = (args.backends or ("tpx" if on_cpu else "tpx,triton"))
    backends = [b.strip() for b in backends.split(",") if b.strip()]
    programs = [p.strip() for p in args.programs.split(",") if p.strip()]
    unknown = sorted(set(programs) - set(PROGRAMS))
    if unknown:
        ap.error("unknown programs: %s (known: %s)" % (
            ", ".join(unknown), ", ".join(PROGRAMS)))

    rows, failures, everything = [], [], {}
    walls = {b: 0.0 for b in backends}
    with tempfile.TemporaryDirectory(prefix="tpx-compare-") as out_dir:
        for program in programs:
            reports = {}
            for backend in backends:
                reports[backend] = run_backend(program, backend, args,
                                               out_dir)
                walls[backend] += reports[backend].get("wall_s", 0.0)
            everything[program] = reports
            agreement = compare_backends(program, backends, reports, out_dir)
            for backend in backends:
                if "error" in reports[backend]:
                    failures.append("%s under %s: %s" % (
                        program, backend, reports[backend]["error"]))
                    print("== %s under %s failed: %s" % (
                        program, backend, reports[backend]["error"]))
                    print("\n".join(reports[backend].get("log", "")
                                    .splitlines()[-25:]))
            names = []
            for backend in backends:
                for c in reports[backend].get("cases", []):
                    if c["name"] not in names:
                        names.append(c["name"])
            for name in names:
                by = {b: next((c for c in reports[b].get("cases", [])
                               if c["name"] == name), None)
                      for b in backends}
                some = next(c for c in by.values() if c is not None)
                row = [program, name]
                row += [_ms(by[b]["ms"]) if by[b] else "-" for b in backends]
                row.append(_ms(some["torch_ms"]))
                if len(backends) >= 2:
                    x, y = (by[b] for b in backends[:2])
                    row.append("%.2f" % (x["ms"] / y["ms"])
                               if x and y and x["ms"] and y["ms"] else "-")
                for b in backends:
                    row.append(_check_text(by[b]) if by[b] else "error")
                    if by[b] and not by[b]["ok"]:
                        bad = {k: v["detail"] for k, v in
                               by[b]["checks"].items() if not v["ok"]}
                        failures.append("%s %s under %s vs torch: %s" % (
                            program, name, b, bad))
                if len(backends) >= 2:
                    agree = agreement.get(name)
                    row.append("-" if agree is None else
                               ("yes" if agree[0] else "NO") +
                               " %.1e" % agree[1])
                    if agree is not None and not agree[0]:
                        failures.append("%s %s: %s and %s disagree" % (
                            program, name, backends[0], backends[1]))
                rows.append(row)
            done = [r for r in rows if r[0] == program]
            print("-- %s: %s" % (program, ", ".join(
                "%s %.0fs" % (b, reports[b].get("wall_s", 0.0))
                for b in backends)))
            for r in done:
                print("   " + " | ".join(str(v) for v in r[1:]))
            sys.stdout.flush()
    print()
    print_table(rows, backends)
    print()
    print("wall time per backend (s): " + ", ".join(
        "%s %.1f" % (b, walls[b]) for b in backends))
    if args.json:
        for reports in everything.values():
            for r in reports.values():
                r.pop("log", None)
        with open(args.json, "w") as f:
            json.dump({"device": args.device, "size": args.size,
                       "programs": everything}, f, indent=1)
    if failures:
        print("\n%d problem(s):" % len(failures))
        for f in failures:
            print("  - " + f)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
