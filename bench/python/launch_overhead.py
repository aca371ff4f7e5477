#!/usr/bin/env python3
"""Per-launch time of a cached tiny kernel from Python, tpx vs stock Triton.

    launch_overhead.py [--device cuda|cpu] [--backends tpx,triton]
                       [--launches N] [--repeats R] [--json FILE]

Each backend runs tiny_kernels.measure in a process of its own
(worker.py; tpx stands in for `triton` through tpx_as_triton): every kernel
is compiled once, then launched N times with one synchronization at the
end; the best of R repetitions is reported in microseconds per launch.
With kernels this small the GPU finishes each launch long before the next
one is issued, so the number is the host-side cost of `kernel[grid](...)`.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--backends", default=None,
                    help="comma-separated, default tpx,triton (cpu: tpx)")
    ap.add_argument("--launches", type=int, default=5000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--timeout", type=int, default=240)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    backends = args.backends or ("tpx" if args.device == "cpu"
                                 else "tpx,triton")
    backends = [b.strip() for b in backends.split(",") if b.strip()]
    reports, status = {}, 0
    with tempfile.TemporaryDirectory(prefix="tpx-launch-") as out:
        for backend in backends:
            kwargs = json.dumps({"device": args.device,
                                 "launches": args.launches,
                                 "repeats": args.repeats})
            cmd = [sys.executable, os.path.join(HERE, "worker.py"),
                   "--backend", backend, "--module", "tiny_kernels",
                   "--call", "measure", "--kwargs", kwargs, "--out", out]
            try:
                proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True,
                                      timeout=args.timeout)
                log = proc.stdout
            except subprocess.TimeoutExpired:
                log = "timed out after %ds" % args.timeout
            path = os.path.join(out, "tiny_kernels.%s.json" % backend)
            report = {"error": "no report"}
            if os.path.exists(path):
                with open(path) as f:
                    report = json.load(f)
            if "error" in report:
                status = 1
                print("== %s failed: %s" % (backend, report["error"]))
                print("\n".join(log.splitlines()[-20:]))
            reports[backend] = report

    names = []
    for r in reports.values():
        for c in r.get("cases", []):
            if c["name"] not in names:
                names.append(c["name"])
    head = ["kernel"] + ["%s us/launch" % b for b in backends]
    if len(backends) >= 2:
        head.append("%s/%s" % tuple(backends[:2]))
    rows = [head]
    for name in names:
        by = {b: next((c for c in reports[b].get("cases", [])
                       if c["name"] == name), None) for b in backends}
        row = [name]
        for b in backends:
            c = by[b]
            if c is None:
                row.append("error")
                continue
            row.append("%.2f%s" % (c["us_per_launch"],
                                   "" if c["ran_all"] else " (WRONG)"))
            if not c["ran_all"]:
                status = 1
        if len(backends) >= 2:
            x, y = (by[b] for b in backends[:2])
            row.append("%.2f" % (x["us_per_launch"] / y["us_per_launch"])
                       if x and y else "-")
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    print("%d launches, best of %d, device %s" % (args.launches,
                                                  args.repeats, args.device))
    for n, r in enumerate(rows):
        print("  ".join(v.ljust(w) for v, w in zip(r, widths)))
        if n == 0:
            print("  ".join("-" * w for w in widths))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": args.device, "launches": args.launches,
                       "reports": reports}, f, indent=1)
    return status


if __name__ == "__main__":
    sys.exit(main())
