"""Writes a tpx-run case directory for case/kernel.ttir (z = 2.5 * x + y).

usage: python3 make_case.py OUT_DIR   (needs numpy; Debian's /usr/bin/python3)
The format is the TTIR corpus's (shared/ttir-corpus/README.md).
"""
import json
import os
import shutil
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
shutil.copy(os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernel.ttir"),
            os.path.join(out, "kernel.ttir"))

n, block = 1000, 128  # n is not a multiple of the block: the mask matters
rng = np.random.default_rng(7)
x = rng.standard_normal(n).astype(np.float32)
y = rng.standard_normal(n).astype(np.float32)
z = np.full(n, 123.0, dtype=np.float32)  # must be overwritten
x.tofile(os.path.join(out, "arg0.in.bin"))
y.tofile(os.path.join(out, "arg1.in.bin"))
z.tofile(os.path.join(out, "arg2.in.bin"))
(np.float32(2.5) * x + y).astype(np.float32).tofile(os.path.join(out, "arg2.out.bin"))


def buf(i, name, **extra):
    d = {"kind": "buffer", "python_name": name, "dtype": "f32", "shape": [n],
         "input": f"arg{i}.in.bin"}
    d.update(extra)
    return d


case = {
    "name": "oot_axpy",
    "kernel": "oot_axpy",
    "grid": [(n + block - 1) // block, 1, 1],
    "num_warps": 4,
    "num_stages": 3,
    "constexprs": {"BLOCK": block},
    "args": [
        buf(0, "x_ptr"),
        buf(1, "y_ptr"),
        buf(2, "z_ptr", expected="arg2.out.bin",
            tolerance={"rtol": 1e-6, "atol": 1e-6}),
        {"kind": "scalar", "python_name": "n", "type": "i32", "value": n},
    ],
    "ttir_arg_types": ["!tt.ptr<f32>", "!tt.ptr<f32>", "!tt.ptr<f32>", "i32"],
}
with open(os.path.join(out, "case.json"), "w") as f:
    json.dump(case, f, indent=1)
print(f"wrote {out}")
