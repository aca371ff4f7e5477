#!/usr/bin/env python3
"""A/B of pipeline edits on the GPU: one benchmark row's TTIR (printed by
stock Triton, as in bench.py) compiled by tpx once per variant, each
variant an edit of the pipeline text `tpx-compile --dump-pipeline` prints
for that kernel, all timed in one process beside Triton's kernel.

  python3 bench/ab_pipeline.py --tpx-bin .device/bin --out ab.json \\
      --row "matmul bf16 4096x4096x4096" \\
      --variant base= \\
      --variant "async=num-stages=3}=>num-stages=3 async-dots=true}"

A variant is NAME=EDITS, EDITS `old=>new` replacements joined by `;;`
(empty: the pipeline as it is). An edit that matches nothing is an error,
so that a renamed pass does not silently measure the base twice. Every
output is checked against torch; `--dump DIR` keeps Triton's ttgir/ptx and
each variant's ptx. Triton is timed before and after the variants, so the
report shows the clock's drift.
"""
import argparse
import json
import os
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


def run_variant(tpx_bin, src, spec, ref, edits, work, name, dump):
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
    with open(cubin + ".json") as f:
        metadata = json.load(f)
    kernel = bench.TpxKernel(cubin, metadata,
                             bench._kernel_arg_names(spec["kernel"]))

    def launch():
        kernel(spec["grid"], *spec["args"])
    spec["out"].zero_()
    launch()
    torch.cuda.synchronize()
    ok, error = bench.check_close(spec["out"], ref, spec["tol"],
                                  spec.get("atol_scale"))
    ms = bench.time_ms(launch, warm=False)
    return {"ms": ms, "rate": spec["work"] / (ms * 1e-3), "correct": ok,
            "max_error": error, "regs": metadata.get("num_regs"),
            "spills": metadata.get("num_spills"),
            "shared": metadata.get("shared_memory")}


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
    result = {"row": row_name, "triton_ms_before": triton_ms(),
              "variants": {}}
    for variant, edits in variants:
        try:
            result["variants"][variant] = run_variant(
                opts.tpx_bin, src, spec, ref, edits, work, variant, dump)
        except Exception as exc:  # a failing variant is a reported result
            result["variants"][variant] = {"error": bench._error_text(exc)}
    result["triton_ms_after"] = triton_ms()
    triton_rate = spec["work"] / (min(result["triton_ms_before"],
                                      result["triton_ms_after"]) * 1e-3)
    result["triton_rate"] = triton_rate
    for variant, got in result["variants"].items():
        if "rate" in got:
            got["over_triton"] = got["rate"] / triton_rate
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
    opts = parser.parse_args()
    variants = [parse_variant(v) for v in opts.variant]
    results = []
    for name in opts.row:
        results.append(run_row(opts, name, variants))
        with open(opts.out, "w") as f:
            json.dump(results, f, indent=1)
        r = results[-1]
        print(f"{r['row']}: Triton {r['triton_rate']:.1f} "
              f"({r['triton_ms_before']:.4f} / {r['triton_ms_after']:.4f} ms)")
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
