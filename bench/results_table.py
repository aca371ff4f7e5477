#!/usr/bin/env python3
"""Prints a bench.py report (JSON) as the Markdown tables of results/README.md."""
import json
import sys

report = json.load(open(sys.argv[1]))
print("| benchmark | unit | tpx | Triton 3.6 | torch | tpx/Triton | tpx/torch | tpx correct |")
print("|---|---|---|---|---|---|---|---|")
for r in report["results"]:
    print(f"| {r['name']} | {r['unit']} | {r['tpx']:.1f} | {r['triton']:.1f} | "
          f"{r['torch']:.1f} | {r['tpx_over_triton']:.3f} | "
          f"{r['tpx_over_torch']:.3f} | {'yes' if r['tpx_correct'] else 'NO'} |")
print()
print("| benchmark | tpx cold | tpx cached | Triton cold |")
print("|---|---|---|---|")
for c in report["compile_times"]:
    print(f"| {c['name']} | {c['tpx_cold_s']:.2f} | {c['tpx_cached_s']:.3f} | "
          f"{c['triton_cold_s']:.2f} |")
