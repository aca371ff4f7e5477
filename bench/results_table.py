#!/usr/bin/env python3
"""Prints a bench.py report (JSON) as the Markdown tables of results/README.md.

usage: results_table.py REPORT.json

Older reports (before the status, path and resource fields) print too: what
a row lacks is shown as '-'.
"""
import json
import sys


def number(value, spec):
    return "-" if value is None else format(value, spec)


def resources(res):
    """'regs / spill bytes / shared bytes', '-' where unknown (-1 is what
    tpx records for a cubin it did not compile itself)."""
    if not res or res.get("regs") in (None, -1):
        return "-"
    return f"{res['regs']} / {number(res.get('spills'), 'd')} / " \
        f"{number(res.get('shared'), 'd')}"


def correct(row):
    """The tpx check, with what else made the row fail."""
    text = "yes" if row.get("tpx_correct") else "NO"
    if row.get("status") == "did not finish":
        return "did not finish"
    if row.get("status") == "failed":
        why = sorted(row.get("errors", {}))
        if "triton" in row.get("max_error", {}) and \
                not row["triton_correct"]:
            why.append("Triton wrong")
        text += " (failed: " + ", ".join(why) + ")" if why else ""
    return text


def name(row):
    notes = []
    if row.get("path") == "one-thread":
        notes.append("one-thread path")
    if row.get("torch_backend") not in (None, "torch"):
        notes.append(f"torch: {row['torch_backend']}")
    return row["name"] + (f" ({'; '.join(notes)})" if notes else "")


def results_table(report):
    print("| benchmark | unit | tpx | Triton 3.6 | torch | tpx/Triton | "
          "tpx/torch | tpx correct |")
    print("|---|---|---|---|---|---|---|---|")
    for r in report["results"]:
        print(f"| {name(r)} | {r.get('unit') or '-'} | "
              f"{number(r.get('tpx'), '.1f')} | "
              f"{number(r.get('triton'), '.1f')} | "
              f"{number(r.get('torch'), '.1f')} | "
              f"{number(r.get('tpx_over_triton'), '.3f')} | "
              f"{number(r.get('tpx_over_torch'), '.3f')} | {correct(r)} |")


def resources_table(report):
    print("| benchmark | tpx regs / spills / shared B | "
          "Triton regs / spills / shared B |")
    print("|---|---|---|")
    for r in report["results"]:
        res = r.get("resources", {})
        print(f"| {r['name']} | {resources(res.get('tpx'))} | "
              f"{resources(res.get('triton'))} |")


def compile_table(report):
    print("| benchmark | tpx cold | tpx cached | Triton cold |")
    print("|---|---|---|---|")
    for c in report["compile_times"]:
        print(f"| {c['name']} | {number(c.get('tpx_cold_s'), '.2f')} | "
              f"{number(c.get('tpx_cached_s'), '.3f')} | "
              f"{number(c.get('triton_cold_s'), '.2f')} |")


def main():
    with open(sys.argv[1]) as f:
        report = json.load(f)
    results_table(report)
    print()
    if any("resources" in r for r in report["results"]):
        resources_table(report)
        print()
    compile_table(report)


if __name__ == "__main__":
    main()
