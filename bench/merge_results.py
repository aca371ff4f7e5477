#!/usr/bin/env python3
"""Merges reports of bench.py (one per benchmark, or one per run of a
subset) into one, on stdout, rows in benchmark order.

usage: merge_results.py REPORT.json... [--missing INDEX:NAME]...

A file that cannot be read is skipped. Each `--missing` names a benchmark
whose process left no report at all; they are added as 'did not finish' rows.
"""
import json
import sys


def _order(row):
    # Reports written before rows carried their index keep file order.
    return row.get("index", float("inf"))


def _missing_row(text):
    index, _, name = text.partition(":")
    return {"index": int(index), "name": name, "unit": None,
            "status": "did not finish", "path": None, "tpx": None,
            "triton": None, "torch": None, "tpx_over_triton": None,
            "tpx_over_torch": None, "tpx_correct": False,
            "triton_correct": False, "errors": {}}


def main(argv):
    paths, missing = [], []
    args = iter(argv)
    for arg in args:
        if arg == "--missing":
            missing.append(next(args))
        else:
            paths.append(arg)
    merged = None
    for path in paths:
        try:
            with open(path) as f:
                report = json.load(f)
        except (OSError, ValueError):
            continue
        if merged is None:
            merged = dict(report, results=[], compile_times=[])
        merged["results"] += report.get("results", [])
        merged["compile_times"] += report.get("compile_times", [])
    merged = merged or {"results": [], "compile_times": []}
    merged["results"] += [_missing_row(m) for m in missing]
    merged["results"].sort(key=_order)
    merged["compile_times"].sort(key=_order)
    json.dump(merged, sys.stdout, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
