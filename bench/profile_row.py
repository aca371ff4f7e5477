#!/usr/bin/env python3
"""Launches one benchmark row's kernel once through stock Triton and once
through tpx (the same TTIR, config and arguments), so that a profiler sees
exactly the two kernels side by side:

  ncu --clock-control none --kernel-name regex:NAME --launch-count 2 \\
      python3 bench/profile_row.py --tpx-bin .device/bin "matmul bf16 4096"

The Triton launch comes first (it also compiles), then the tpx one.
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402

import bench  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tpx-bin", required=True)
    parser.add_argument("row", help="text the row's name contains")
    parser.add_argument("--dump", metavar="DIR",
                        help="write Triton's ttgir and ptx and tpx's cubin "
                        "metadata into DIR, to compare the two schedules")
    opts = parser.parse_args()
    entries = [e for e in bench.all_benchmarks(False) if opts.row in e[0]]
    if not entries:
        sys.exit(f"no benchmark row contains {opts.row!r}")
    name, builder, *params = entries[0]
    torch.manual_seed(0)
    spec = builder(*params)
    spec.setdefault("num_warps", 4)
    spec.setdefault("num_stages", 3)
    row, times = bench.new_row(0, name), {}
    compiled = bench.compile_triton(spec, row, times)
    work = tempfile.mkdtemp(prefix="tpx-profile-")
    src = os.path.join(work, "kernel.ttir")
    with open(src, "w") as f:
        f.write(compiled.asm["ttir"])
    cubin = os.path.join(work, "kernel.cubin")
    metadata, _ = bench.tpx_compile(opts.tpx_bin, src, cubin,
                                    spec["num_warps"], spec["num_stages"],
                                    tempfile.mkdtemp(prefix="tpx-cache-"))
    if opts.dump:
        os.makedirs(opts.dump, exist_ok=True)
        for stage in ("ttir", "ttgir", "ptx"):
            with open(os.path.join(opts.dump, "triton." + stage), "w") as f:
                f.write(compiled.asm[stage])
        with open(os.path.join(opts.dump, "tpx.json"), "w") as f:
            f.write(repr(metadata))
    kernel = bench.TpxKernel(cubin, metadata,
                             bench._kernel_arg_names(spec["kernel"]))
    kernel(spec["grid"], *spec["args"])
    torch.cuda.synchronize()
    print(f"profiled {name}: Triton then tpx")


if __name__ == "__main__":
    main()
