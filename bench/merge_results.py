#!/usr/bin/env python3
"""Merges per-benchmark reports of bench.py into one (stdout)."""
import json
import sys

merged = None
for path in sorted(sys.argv[1:], key=lambda p: int(p.rsplit("-", 1)[1].split(".")[0])):
    try:
        report = json.load(open(path))
    except (OSError, ValueError):
        continue
    if merged is None:
        merged = dict(report, results=[], compile_times=[])
    merged["results"] += report["results"]
    merged["compile_times"] += report["compile_times"]
json.dump(merged or {}, sys.stdout, indent=1)
