#!/usr/bin/env python3
"""A dry run of bench.py's plumbing on a machine without a GPU.

tpx's own front end stands in for stock Triton (bench/python/tpx_as_triton),
running bench/kernels.py on the CPU, so its "Triton" column checks the
kernels' algorithms against torch's CPU results; its TTIR then goes through
the real `tpx-compile --target sm_90a` (cold, cached, the ttgir codegen
probe). Only the cubin launch and the CUDA timing are replaced: the fake
launch binds the arguments against the real sm_90a signature, then writes
the reference. Small sizes; rows the CPU torch cannot build (fp8 on an old
torch) show the failure path.

usage: PYTHONPATH=python TPX_BUILD_DIR=build python3 bench/dry_run_cpu.py
       [--tpx-bin build/bin] [--out /tmp/dry.json]
"""
import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "python"))
import tpx_as_triton  # noqa: E402

tpx_as_triton.install()
sys.path.insert(0, HERE)
import torch  # noqa: E402

import bench  # noqa: E402

_last = {}


def _cpu_ms(fn):
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1e3


class FakeTpxKernel:
    """Binds the arguments like TpxKernel, then writes the reference."""

    def __init__(self, cubin, metadata, arg_names):
        assert os.path.getsize(cubin) > 0, cubin
        self.metadata, self.arg_names = metadata, arg_names

    def attribute(self, which):
        return 0

    def bind(self, grid, *args):
        return lambda: self(grid, *args)

    def __call__(self, grid, *args):
        signature = self.metadata["signature"]["args"]
        values = bench.bind_arguments(signature, self.arg_names, args)
        for spec, value in zip(signature, values):
            assert (spec["kind"] == "pointer") == hasattr(value, "data_ptr"),\
                (spec, value)
        out = _last["spec"]["out"]
        out.copy_(_last["ref"].reshape(out.shape))


def math_sdpa(q, k, v, scale, causal):
    """The CPU stand-in for the flash backend."""
    s = (q.float() @ k.float().transpose(-1, -2)) * scale
    if causal:
        n = s.shape[-1]
        keep = torch.ones(n, n, dtype=torch.bool).tril()
        s = s.masked_fill(~keep, float("-inf"))
    return (torch.softmax(s, -1) @ v.float()).to(q.dtype)


def _remember_reference(check):
    def wrapped(spec, row, who, ref):
        _last["spec"], _last["ref"] = spec, ref
        return check(spec, row, who, ref)
    return wrapped


def install_fakes():
    bench.DEVICE = "cpu"
    torch.cuda.synchronize = lambda: None
    torch.cuda.get_device_name = lambda index: "CPU dry run"
    bench._event_ms = _cpu_ms
    bench.time_ms = lambda fn, budget_ms=0, warm=True: _cpu_ms(fn)
    bench.TpxKernel = FakeTpxKernel
    bench.flash_sdpa = math_sdpa
    bench._check_output = _remember_reference(bench._check_output)


ENTRIES = [
    ("vector_add", bench.bench_vector_add, 1 << 12),
    ("softmax", bench.bench_softmax, 64, 256),
    ("layernorm", bench.bench_layernorm, 64, 256),
    # f32: the CPU torch's bf16 matmul, the reference, is itself inexact
    # (torch 1.13: 1.46 off an f32 product where the kernel is 0.12 off).
    ("matmul f32", bench.bench_matmul, 256, 256, 128, torch.float32),
    ("matmul fp8", bench.bench_matmul_fp8, 256, 256, 128),
    ("attention", bench.bench_attention, 256, 64, False, 2),
    ("attention causal", bench.bench_attention, 256, 64, True, 2),
]


def main():
    parser = argparse.ArgumentParser()
    build = os.environ.get("TPX_BUILD_DIR", os.path.join(HERE, "..", "build"))
    parser.add_argument("--tpx-bin", default=os.path.join(build, "bin"))
    parser.add_argument("--out", default="/tmp/tpx-bench-dry-run.json")
    opts = parser.parse_args()
    install_fakes()
    results, compile_times = [], []

    def save(row, times):
        if not results or results[-1] is not row:
            results.append(row)
            compile_times.append(times)
        bench.write_report(opts.out, results, compile_times)
    for index, entry in enumerate(ENTRIES):
        row, times = bench.run_benchmark(index, entry, opts.tpx_bin, save)
        bench.print_row(row, times)
    print(f"wrote {opts.out}")


if __name__ == "__main__":
    main()
