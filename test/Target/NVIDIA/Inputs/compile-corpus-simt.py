"""Compiles every corpus case for sm_90a through llir; prints one line per
failure and a summary (corpus-simt.test)."""
import json
import os
import subprocess
import sys

tool, corpus = sys.argv[1], sys.argv[2]
cases = sorted(d for d in os.listdir(corpus)
               if os.path.isfile(os.path.join(corpus, d, "kernel.ttir")))
failed = 0
for name in cases:
    folder = os.path.join(corpus, name)
    with open(os.path.join(folder, "case.json")) as f:
        num_warps = json.load(f).get("num_warps", 4)
    proc = subprocess.run(
        [tool, os.path.join(folder, "kernel.ttir"), "--target=sm_90a",
         "--num-warps=%d" % num_warps, "--stop-after=llir", "--no-cache",
         "-o", os.devnull],
        capture_output=True, text=True, timeout=300)
    # Success means simt: the compiler never picks one-thread itself.
    if proc.returncode != 0:
        failed += 1
        print("FAIL %s: %s" % (name, proc.stderr.strip()[-500:]))
print("%d cases compile on simt, %d failed" % (len(cases), failed))
