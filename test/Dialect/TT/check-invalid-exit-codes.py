#!/usr/bin/env python3
"""Runs every `// -----` case of a -verify-diagnostics test file through a
plain tpx-opt (no -verify-diagnostics) and checks that each one

  * makes tpx-opt exit with a non-zero status, not by a signal,
  * does not crash (no "PLEASE submit a bug report", no stack dump),
  * prints every `expected-error` text of the case on stderr.

-verify-diagnostics alone cannot show this: it turns the diagnostics into
a success, so a case that is diagnosed and then crashes, or that is
diagnosed but still exits 0, would pass it.

usage: check-invalid-exit-codes.py TPX_OPT FILE
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SPLIT = re.compile(r"^// -----\s*$", re.MULTILINE)
EXPECTED = re.compile(r"expected-error\s*(?:@[^\s{]+)?\s*\{\{(.*?)\}\}")
CRASH_MARKERS = ("PLEASE submit a bug report", "Stack dump", "LLVM ERROR",
                 "Assertion `")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    tool = shutil.which(sys.argv[1]) or sys.argv[1]
    with open(sys.argv[2]) as f:
        text = f.read()

    chunks = SPLIT.split(text)
    failures = 0
    checked = 0
    line = 1
    for index, chunk in enumerate(chunks):
        start_line = line
        line += chunk.count("\n")
        expected = EXPECTED.findall(chunk)
        # Chunks without a diagnostic (the file header) are not cases.
        if not expected:
            if re.search(r"^\s*(tt\.|module|func)", chunk, re.MULTILINE):
                print(f"FAIL case {index} (line {start_line}): "
                      "has IR but no expected-error")
                failures += 1
            continue
        checked += 1
        with tempfile.NamedTemporaryFile("w", suffix=".mlir",
                                         delete=False) as tmp:
            # Pad so that reported line numbers match the original file, and
            # blank the expected-* comments: tpx-opt would otherwise echo them
            # (source lines appear in diagnostics), which could satisfy the
            # text check without the diagnostic itself.
            body = re.sub(r"//\s*expected-(error|note|warning|remark).*",
                          "", chunk)
            tmp.write("\n" * (start_line - 1) + body)
            path = tmp.name
        try:
            proc = subprocess.run([tool, path], capture_output=True, text=True,
                                  timeout=60)
        finally:
            os.unlink(path)
        problems = []
        if proc.returncode < 0:
            problems.append(f"killed by signal {-proc.returncode}")
        elif proc.returncode == 0:
            problems.append("exit status 0")
        for marker in CRASH_MARKERS:
            if marker in proc.stderr:
                problems.append(f"crash marker {marker!r} on stderr")
        if "error:" not in proc.stderr:
            problems.append("no 'error:' on stderr")
        for message in expected:
            if message not in proc.stderr:
                problems.append(f"missing expected text {message!r}")
        if problems:
            failures += 1
            print(f"FAIL case {index} (line {start_line}): "
                  + "; ".join(problems))
            for l in proc.stderr.splitlines()[:10]:
                print(f"    | {l}")
        else:
            print(f"PASS case {index} (line {start_line}): "
                  f"exit {proc.returncode}, {len(expected)} message(s)")
    print(f"{checked} cases checked, {failures} failed")
    if checked == 0:
        print("FAIL: no cases found")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
