#!/usr/bin/env python3
"""A/B of pipeline edits on the GPU: one benchmark row's TTIR (printed by
stock Triton, as in bench.py) compiled by tpx once per variant, each
variant an edit of the pipeline text `tpx-compile --dump-pipeline` prints
for that kernel, all timed in one process beside Triton's kernel.

  python3 bench/ab_pipeline.py --tpx-bin .device/bin --out ab.json \\
      --row "matmul bf16 4096x4096x4096" \\
      --variant base= \\
      --variant "async=copies{num-stages=3}=>copies{num-stages=3 async-dots=true}"

A variant is NAME=EDITS, EDITS `old=>new` replacements joined by `;;`
(empty: the pipeline as it is). An edit that matches nothing is an error,
so that a renamed pass does not silently measure the base twice. Every
output is checked against torch; `--dump DIR` keeps Triton's ttgir/ptx and
each variant's ptx and cubin. Triton and the variants are timed in interleaved
rounds (`--rounds`); the report gives medians and every round's times.
`--rounds 0` launches each variant once and then Triton's kernel once,
untimed, for a profiler:

  ncu --kernel-name regex:matmul python3 bench/ab_pipeline.py --rounds 0 ...
"""
import argparse
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402

import bench  # noqa: E402


def parse_variant(text):
    name, _, edits = text.partition("=")
    pairs = []
    for edit in filter(None, edits.split(";;")):
        old, sep, new = edit.partition("=>")
        if not sep:
            raise SystemExit(f"variant {name!r}: edit {edit!r} has no '=>'")
        pairs.append((old, new))
    return name, pairs


def edited_pipeline(tpx_bin, src, spec, edits, out):
    """The pipeline tpx runs for this kernel (written to `out` by
    --dump-pipeline), with the edits applied."""
    bench._run_tool(bench._tpx_compile_cmd(
        tpx_bin, src, spec["num_warps"], spec["num_stages"], out,
        "--dump-pipeline"), dict(os.environ))
    with open(out) as f:
        text = f.read()
    for old, new in edits:
        if old not in text:
            raise RuntimeError(f"edit {old!r} matches nothing in:\n{text}")
        text = text.replace(old, new)
    return text


def build_variant(tpx_bin, src, spec, ref, edits, work, name, dump):
    """Compiles one variant and checks its output; returns (launch,
    result) with the result's timing left for the rounds."""
    pipeline = os.path.join(work, name + ".pipeline")
    text = edited_pipeline(tpx_bin, src, spec, edits, pipeline + ".base")
    with open(pipeline, "w") as f:
        f.write(text)
    extra = ("--pipeline-file", pipeline, "--no-cache")
    cubin = os.path.join(work, name + ".cubin")
    bench._run_tool(bench._tpx_compile_cmd(
        tpx_bin, src, spec["num_warps"], spec["num_stages"], cubin, *extra),
        dict(os.environ))
    if dump:
        bench._run_tool(bench._tpx_compile_cmd(
            tpx_bin, src, spec["num_warps"], spec["num_stages"],
            os.path.join(dump, name + ".ptx"), "--stop-after", "ptx",
            *extra), dict(os.environ))
        shutil.copy(cubin, os.path.join(dump, name + ".cubin"))
    with open(cubin + ".json") as f:
        metadata = json.load(f)
    kernel = bench.TpxKernel(cubin, metadata,
                             bench._kernel_arg_names(spec["kernel"]))

    launch = kernel.bind(spec["grid"], *spec["args"])
    spec["out"].zero_()
    launch()
    torch.cuda.synchronize()
    ok, error = bench.check_close(spec["out"], ref, spec["tol"],
                                  spec.get("atol_scale"))
    return launch, {"correct": ok, "max_error": error,
                    "regs": metadata.get("num_regs"),
                    "spills": metadata.get("num_spills"),
                    "shared": metadata.get("shared_memory")}


def median(values):
    values = sorted(values)
    return values[len(values) // 2]


def run_row(opts, name, variants):
    entries = [e for e in bench.all_benchmarks(False) if name in e[0]]
    if not entries:
        raise SystemExit(f"no benchmark row contains {name!r}")
    row_name, builder, *params = entries[0]
    torch.manual_seed(0)
    spec = builder(*params)
    spec.setdefault("num_warps", 4)
    spec.setdefault("num_stages", 3)
    ref = spec["ref"]()
    compiled = bench.compile_triton(spec, bench.new_row(0, row_name), {})
    kernel, grid = spec["kernel"], spec["grid"]
    launch = bench._triton_launch(spec)

    def triton_ms():
        return bench.time_ms(lambda: kernel[grid](*spec["args"], **launch))
    work = tempfile.mkdtemp(prefix="tpx-ab-")
    src = os.path.join(work, "kernel.ttir")
    with open(src, "w") as f:
        f.write(compiled.asm["ttir"])
    dump = None
    if opts.dump:
        dump = os.path.join(opts.dump, row_name.replace(" ", "_"))
        os.makedirs(dump, exist_ok=True)
        for stage in ("ttir", "ttgir", "ptx"):
            with open(os.path.join(dump, "triton." + stage), "w") as f:
                f.write(compiled.asm[stage])
        with open(os.path.join(dump, "triton.cubin"), "wb") as f:
            f.write(compiled.asm["cubin"])
    result = {"row": row_name, "rounds": opts.rounds, "variants": {}}
    launches = {}
    for variant, edits in variants:
        try:
            launches[variant], result["variants"][variant] = build_variant(
                opts.tpx_bin, src, spec, ref, edits, work, variant, dump)
        except Exception as exc:  # a failing variant is a reported result
            result["variants"][variant] = {"error": bench._error_text(exc)}
    # Rounds interleave Triton and every variant, so that clock drift
    # (10% between the start and end of a run has been seen) hits all of
    # them alike; each kernel's figure is its median over the rounds and
    # each variant's ratio the median of its per-round ratios.
    if opts.rounds == 0:
        # For a profiler: Triton's kernel once; each variant has run once
        # already (its check).
        kernel[grid](*spec["args"], **launch)
        torch.cuda.synchronize()
        return result
    triton_times, times = [], {v: [] for v in launches}
    for _ in range(opts.rounds):
        triton_times.append(triton_ms())
        for variant, variant_launch in launches.items():
            times[variant].append(bench.time_ms(variant_launch))
    result["triton_ms"] = median(triton_times)
    result["triton_ms_rounds"] = triton_times
    result["triton_rate"] = spec["work"] / (result["triton_ms"] * 1e-3)
    for variant, ms in times.items():
        got = result["variants"][variant]
        got["ms"] = median(ms)
        got["ms_rounds"] = ms
        got["rate"] = spec["work"] / (got["ms"] * 1e-3)
        got["over_triton"] = median(
            [t / m for t, m in zip(triton_times, ms)])
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tpx-bin", required=True)
    parser.add_argument("--row", action="append", required=True,
                        help="text the row's name contains (repeatable)")
    parser.add_argument("--variant", action="append", required=True,
                        help="NAME=old=>new;;old=>new (repeatable)")
    parser.add_argument("--out", required=True)
    parser.add_argument("--dump", metavar="DIR")
    parser.add_argument("--rounds", type=int, default=5,
                        help="interleaved timing rounds (default 5); 0: "
                        "each kernel launched once, untimed, for a profiler")
    opts = parser.parse_args()
    variants = [parse_variant(v) for v in opts.variant]
    results = []
    for name in opts.row:
        results.append(run_row(opts, name, variants))
        with open(opts.out, "w") as f:
            json.dump(results, f, indent=1)
        r = results[-1]
        if not opts.rounds:
            continue
        spread = r["triton_ms_rounds"]
        print(f"{r['row']}: Triton {r['triton_rate']:.1f} "
              f"({min(spread):.4f}-{max(spread):.4f} ms over "
              f"{r['rounds']} rounds)")
        for variant, got in r["variants"].items():
            if "error" in got:
                print(f"  {variant}: ERROR {got['error'][:300]}")
            else:
                print(f"  {variant}: {got['rate']:.1f} "
                      f"x{got['over_triton']:.3f} regs {got['regs']} "
                      f"spills {got['spills']} shared {got['shared']} "
                      f"{'ok' if got['correct'] else 'WRONG'}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
