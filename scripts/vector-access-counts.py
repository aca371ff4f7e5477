#!/usr/bin/env python3
"""Counts the global memory instructions of every corpus kernel by width.

Compiles each `kernel.ttir` of the TTIR corpus, with --bench the kernels of
bench/kernels.py (their TTIR made by tpx's own Python front end, with the
argument specialization stock Triton would give the benchmark's arguments),
and any extra `FILE.ttir[:WARPS[:STAGES]]` named on the command line, to PTX for sm_90a with the case's num_warps and
num_stages, and counts ld.global / st.global (and atom/red) by vector width.
Used to check that a change to the contiguity analysis or the memory
lowering vectorizes no access less than before:

    scripts/vector-access-counts.py --out before.json
    ... change, rebuild ...
    scripts/vector-access-counts.py --out after.json --compare before.json

--compare prints both counts side by side and exits 1 when some kernel has
fewer vector accesses (v2/v4/v8) of some kind than before.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# ld.global.v4.b32, st.global.f32, ld.global.nc.v2.u64, ...: the op, the
# modifiers up to the first type, and the vector width when there is one.
INSTRUCTION = re.compile(r"\b(ld|st)\.global((?:\.[a-z0-9_]+)*)")
WIDTH = re.compile(r"\.v(\d+)\b")


def count(ptx):
    counts = {}
    for match in INSTRUCTION.finditer(ptx):
        width = WIDTH.search(match.group(2))
        key = f"{match.group(1)}.v{width.group(1) if width else 1}"
        counts[key] = counts.get(key, 0) + 1
    return counts


def compile_case(compiler, ttir, warps, stages, work):
    out = os.path.join(work, "kernel.ptx")
    env = dict(os.environ, TPX_CACHE_DIR=os.path.join(work, "cache"))
    command = [compiler, ttir, "--target", "sm_90a", "--stop-after", "ptx",
               "--no-cache", "-o", out]
    if warps:
        command += ["--num-warps", str(warps)]
    if stages:
        command += ["--num-stages", str(stages)]
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        return {"error": result.stderr.strip().splitlines()[-1:]}
    with open(out) as f:
        return count(f.read())


def cases(corpus, extra):
    for case in sorted(glob.glob(os.path.join(corpus, "*", "kernel.ttir"))):
        folder = os.path.dirname(case)
        meta = {}
        spec = os.path.join(folder, "case.json")
        if os.path.exists(spec):
            with open(spec) as f:
                meta = json.load(f)
        yield (os.path.basename(folder), case, meta.get("num_warps"),
               meta.get("num_stages"))
    for entry in extra:
        path, *config = entry.split(":")
        config += [None] * (2 - len(config))
        yield os.path.relpath(path, ROOT), path, config[0], config[1]


# bench/kernels.py's kernels with the benchmark's constexprs and warps; every
# pointer and integer argument is a multiple of 16, which Triton's launcher
# turns into tt.divisibility = 16.
def bench_cases(work):
    sys.path[:0] = [os.path.join(ROOT, "python"), os.path.join(ROOT, "bench")]
    import tpx
    import tpx.language
    sys.modules["triton"] = tpx
    sys.modules["triton.language"] = tpx.language
    import kernels
    from tpx.compiler.frontend import compile_to_ttir
    from tpx.compiler.spec import ArgSpec, CompileSpec

    def ptr(name, ty="*fp32"):
        return ArgSpec(name, ty, divisibility=16)

    def i32(name):
        return ArgSpec(name, "i32", divisibility=16)

    def const(name, value):
        return ArgSpec(name, "constexpr", value=value)

    def f32(name):
        return ArgSpec(name, "fp32")

    bf16 = "*bf16"
    specs = {
        "vector_add": (kernels.vector_add, 4, [
            ptr("x"), ptr("y"), ptr("out"), i32("n"), const("BLOCK", 1024)]),
        "layernorm_16384": (kernels.layernorm, 8, [
            ptr("x"), ptr("y"), ptr("w"), ptr("b"), i32("stride"),
            i32("n_cols"), f32("eps"), const("BLOCK", 16384)]),
        "matmul_bf16": (kernels.matmul, 8, [
            ptr("a", bf16), ptr("b", bf16), ptr("c", bf16), i32("M"),
            i32("N"), i32("K"), i32("stride_am"), i32("stride_bk"),
            i32("stride_cm"), const("BM", 128), const("BN", 128),
            const("BK", 64), const("GROUP", 8)]),
    }
    for block in (4096, 16384):
        specs[f"softmax_{block}"] = (kernels.softmax, 8, [
            ptr("out"), ptr("in"), i32("stride"), i32("n_cols"),
            const("BLOCK", block)])
    for d in (64, 128):
        specs[f"attention_d{d}"] = (kernels.attention, 8, [
            ptr("Q", bf16), ptr("K", bf16), ptr("V", bf16), ptr("O", bf16),
            f32("sm_scale"), i32("stride_s"), i32("N_CTX"),
            const("BLOCK_M", 128), const("BLOCK_N", 64), const("D", d),
            const("CAUSAL", False)])
    for name, (function, warps, args) in sorted(specs.items()):
        path = os.path.join(work, f"bench_{name}.ttir")
        with open(path, "w") as f:
            f.write(compile_to_ttir(function, args,
                                    CompileSpec(target="sm_90a",
                                                num_warps=warps)))
        yield f"bench:{name}", path, warps, 3


def compare(before, after):
    kinds = sorted({k for counts in list(before.values()) + list(after.values())
                    for k in counts if k != "error"})
    print(f"{'kernel':<40} " + " ".join(f"{k:>13}" for k in kinds))
    worse = []
    for name in sorted(set(before) | set(after)):
        old, new = before.get(name, {}), after.get(name, {})
        cells = []
        for k in kinds:
            a, b = old.get(k, 0), new.get(k, 0)
            cells.append(f"{a:>6}->{b:<6}" if a != b else f"{a:>13}")
            if not k.endswith(".v1") and b < a:
                worse.append(f"{name}: {k} {a} -> {b}")
        note = ""
        if "error" in old or "error" in new:
            note = f"  error before={old.get('error')} after={new.get('error')}"
        print(f"{name:<40} " + " ".join(cells) + note)
    for line in worse:
        print("FEWER VECTOR ACCESSES:", line)
    return not worse


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("extra", nargs="*", help="more .ttir files")
    parser.add_argument("--compiler",
                        default=os.path.join(ROOT, "build/bin/tpx-compile"))
    parser.add_argument("--corpus",
                        default=os.path.join(ROOT, "../shared/ttir-corpus"))
    parser.add_argument("--bench", action="store_true",
                        help="also bench/kernels.py's kernels")
    parser.add_argument("--out", help="write the counts here (json)")
    parser.add_argument("--compare", help="counts from before (json)")
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory(prefix="tpx-vector-counts-") as work:
        inputs = list(cases(args.corpus, args.extra))
        if args.bench:
            inputs += list(bench_cases(work))
        for name, ttir, warps, stages in inputs:
            results[name] = compile_case(args.compiler, ttir, warps, stages,
                                         work)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(results, f, indent=1, sort_keys=True)
    if args.compare:
        with open(args.compare) as f:
            return 0 if compare(json.load(f), results) else 1
    compare(results, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
