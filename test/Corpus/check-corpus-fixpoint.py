#!/usr/bin/env python3
"""Checks every case folder of the TTIR corpus: for its kernel.ttir x,
tpx-opt must exit 0 and print(parse(print(parse(x)))) must equal
print(parse(x)) byte for byte, locations included.

Every sub-folder of the corpus directory is a case, so new cases are picked
up without editing the test; a folder without kernel.ttir is a failure.

usage: check-corpus-fixpoint.py TPX_OPT CORPUS_DIR
"""
import os
import shutil
import subprocess
import sys


def run(tool, args, stdin=None):
    return subprocess.run([tool] + args, input=stdin, capture_output=True,
                          text=True, timeout=120)


def check_case(tool, folder):
    kernel = os.path.join(folder, "kernel.ttir")
    if not os.path.isfile(kernel):
        return "no kernel.ttir"
    first = run(tool, [kernel])
    if first.returncode != 0:
        return f"tpx-opt exit {first.returncode}: {first.stderr.strip()[:400]}"
    if "loc(" not in first.stdout:
        return "printed IR carries no locations"
    second = run(tool, ["-"], stdin=first.stdout)
    if second.returncode != 0:
        return (f"re-parsing the printed IR: exit {second.returncode}: "
                f"{second.stderr.strip()[:400]}")
    if second.stdout != first.stdout:
        a, b = first.stdout.splitlines(), second.stdout.splitlines()
        for n, (x, y) in enumerate(zip(a, b), 1):
            if x != y:
                return f"not a fixpoint at line {n}:\n  - {x}\n  + {y}"
        return f"not a fixpoint: {len(a)} vs {len(b)} lines"
    return None


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    tool = shutil.which(sys.argv[1]) or sys.argv[1]
    corpus = sys.argv[2]
    if not os.path.isdir(corpus):
        print(f"FAIL: corpus directory {corpus} does not exist")
        return 1
    cases = sorted(d for d in os.listdir(corpus)
                   if os.path.isdir(os.path.join(corpus, d))
                   and not d.startswith("."))
    failures = 0
    for case in cases:
        problem = check_case(tool, os.path.join(corpus, case))
        if problem:
            failures += 1
            print(f"FAIL {case}: {problem}")
        else:
            print(f"PASS {case}")
    print(f"{len(cases)} cases, {failures} failed")
    if not cases:
        print("FAIL: no case folders found")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
