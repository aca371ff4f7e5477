#!/usr/bin/env python3
"""Writes a tpx-run case directory for fused_fma.ttir: out = x * y + z.

The kernel uses `tpxex.fma`, an op of the example dialect plugin
(plugins/examples/tpxex-dialect); it only compiles with that plugin loaded.

usage: make_case.py OUT_DIR [--n N] [--nan-at I]
  --nan-at I  puts a NaN into x[I] (the expected output then holds NaN too),
              to show the example-nan-guard plugin catching it.
"""
import argparse
import json
import os
import shutil

import numpy as np

BLOCK = 1024


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out_dir")
    parser.add_argument("--n", type=int, default=10007)
    parser.add_argument("--nan-at", type=int, default=None)
    args = parser.parse_args()

    rng = np.random.default_rng(7)
    n = args.n
    x = rng.standard_normal(n, dtype=np.float32)
    y = rng.standard_normal(n, dtype=np.float32)
    z = rng.standard_normal(n, dtype=np.float32)
    if args.nan_at is not None:
        x[args.nan_at] = np.nan
    out = np.full(n, -7.0, dtype=np.float32)
    # The plugin lowers tpxex.fma to a multiply then an add, rounding twice.
    expected = (x * y).astype(np.float32) + z

    os.makedirs(args.out_dir, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    shutil.copy(os.path.join(here, "fused_fma.ttir"),
                os.path.join(args.out_dir, "kernel.ttir"))
    arrays = [x, y, z, out]
    specs = []
    for i, (name, array) in enumerate(zip(["x_ptr", "y_ptr", "z_ptr", "out_ptr"],
                                          arrays)):
        array.tofile(os.path.join(args.out_dir, f"arg{i}.in.bin"))
        spec = {"kind": "buffer", "python_name": name, "dtype": "f32",
                "shape": [n], "input": f"arg{i}.in.bin"}
        if name == "out_ptr":
            expected.tofile(os.path.join(args.out_dir, f"arg{i}.out.bin"))
            spec["expected"] = f"arg{i}.out.bin"
            spec["tolerance"] = {"rtol": 1e-6, "atol": 1e-6}
        specs.append(spec)
    specs.append({"kind": "scalar", "python_name": "n", "type": "i32",
                  "value": n})
    case = {"name": "fused_fma", "kernel": "fused_fma",
            "grid": [(n + BLOCK - 1) // BLOCK, 1, 1], "num_warps": 4,
            "num_stages": 3, "constexprs": {"BLOCK": BLOCK}, "args": specs}
    with open(os.path.join(args.out_dir, "case.json"), "w") as f:
        json.dump(case, f, indent=1)


if __name__ == "__main__":
    main()
