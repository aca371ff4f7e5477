#!/usr/bin/env python3
"""Runs convert-tt-to-tpxgpu over the kernel.ttir of every case folder of
the TTIR corpus. For each kernel and each warp count given, tpx-opt must
exit 0 (the pass succeeded and the output verified), the output must carry
the module attributes and a layout on every tensor type, and it must parse
and verify again in a separate tpx-opt run.

Every sub-folder of the corpus directory is a case, so new cases are picked
up without editing the test; a folder without kernel.ttir is a failure.

usage: check-corpus-tpxgpu.py TPX_OPT CORPUS_DIR NUM_WARPS...
"""
import os
import re
import shutil
import subprocess
import sys

# A tensor type whose element type is not followed by an encoding.
BARE_TENSOR = re.compile(r"tensor<[0-9x]+(?:x?(?:[if][0-9]+|bf16|"
                         r"!tt\.ptr<[^<>]*>))>")


def run(tool, args, stdin=None):
    return subprocess.run([tool] + args, input=stdin, capture_output=True,
                          text=True, timeout=120)


def check_case(tool, folder, num_warps):
    kernel = os.path.join(folder, "kernel.ttir")
    if not os.path.isfile(kernel):
        return "no kernel.ttir"
    converted = run(tool, [kernel, "--convert-tt-to-tpxgpu="
                           f"num-warps={num_warps} threads-per-warp=32"])
    if converted.returncode != 0:
        return (f"convert-tt-to-tpxgpu exit {converted.returncode}: "
                f"{converted.stderr.strip()[:600]}")
    text = converted.stdout
    if f'"tpxgpu.num-warps" = {num_warps} : i32' not in text:
        return "output lacks the tpxgpu.num-warps module attribute"
    bare = BARE_TENSOR.search(text)
    if bare:
        return f"tensor type without a layout: {bare.group(0)}"
    reparsed = run(tool, ["-", "-o", os.devnull], stdin=text)
    if reparsed.returncode != 0:
        return (f"re-parsing the output: exit {reparsed.returncode}: "
                f"{reparsed.stderr.strip()[:600]}")
    return None


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    tool = shutil.which(sys.argv[1]) or sys.argv[1]
    corpus = sys.argv[2]
    if not os.path.isdir(corpus):
        print(f"FAIL: corpus directory {corpus} does not exist")
        return 1
    cases = sorted(d for d in os.listdir(corpus)
                   if os.path.isdir(os.path.join(corpus, d))
                   and not d.startswith("."))
    runs = failures = 0
    for case in cases:
        for num_warps in sys.argv[3:]:
            runs += 1
            problem = check_case(tool, os.path.join(corpus, case), num_warps)
            if problem:
                failures += 1
                print(f"FAIL {case} (num-warps={num_warps}): {problem}")
    print(f"{len(cases)} cases, {runs} runs, {failures} failed")
    return 1 if failures or not cases else 0


if __name__ == "__main__":
    sys.exit(main())
