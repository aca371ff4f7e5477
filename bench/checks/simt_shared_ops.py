"""tt.cat, tt.gather and tt.histogram on the GPU's SIMT path (through the
op's shared-memory scratch, SharedExchangePatterns.cpp) against numpy:
cat of 1-D and 2-D tensors and of i1; gather along each axis of 2-D
tensors, with i32 and i64 indices, in several layouts; histograms with and
without a mask, with values below 0 and at or above the bin count, with a
source replicated across warps, and i64 counts. Every case is a tpx-run
corpus case (test/CPU/tpxcase.py); each line says PASS/FAIL and the
codegen path tpx-compile takes for sm_90a ("simt", or "one-thread" when the
coverage check sent the kernel to the slow path).

    TPX_BUILD_DIR=.device python3 bench/checks/simt_shared_ops.py
    TPX_BUILD_DIR=build python3 bench/checks/simt_shared_ops.py --target cpu

On the GPU machine set LD_LIBRARY_PATH as bench/run-on-h200.sh does
(the MLIR runtime and .device/lib). --target cpu runs the same cases on the
CPU target (the reference lowering); the codegen column still reports the
sm_90a choice, and tpx-compile's ptxas run checks the SIMT kernels
assemble. --keep DIR keeps the cases (tpx-run corpus cases).
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "test", "CPU"))

from tpxcase import (Buf, kernel, load1d, load2d, range_, store1d,  # noqa: E402
                     store2d, write_case)

BUILD_DIR = os.environ.get("TPX_BUILD_DIR", os.path.join(ROOT, "build"))
TPX_RUN = os.path.join(BUILD_DIR, "bin", "tpx-run")
TPX_COMPILE = os.path.join(BUILD_DIR, "bin", "tpx-compile")

rng = np.random.default_rng(11)
CASES = []


def case(fn):
    CASES.append(fn)
    return fn


# --- cat --------------------------------------------------------------------

@case
def cat_1d_i32():
    n = 64
    body = range_("%o", n) + load1d("%a", "a_ptr", "i32", n, "%o")
    body += load1d("%b", "b_ptr", "i32", n, "%o")
    body += f"    %c = tt.cat %a, %b : tensor<{n}xi32> -> tensor<{2 * n}xi32>\n"
    body += range_("%o2", 2 * n) + store1d("c_ptr", "i32", 2 * n, "%o2", "%c", "c")
    ttir = kernel("cat_1d_i32", [("a_ptr", "!tt.ptr<i32>"), ("b_ptr", "!tt.ptr<i32>"),
                                 ("c_ptr", "!tt.ptr<i32>")], body)
    a = rng.integers(-1000, 1000, n).astype(np.int32)
    b = rng.integers(-1000, 1000, n).astype(np.int32)
    return ttir, [Buf(a), Buf(b), Buf(np.zeros(2 * n, np.int32), np.concatenate([a, b]))], {}


@case
def cat_1d_f32_wide():
    # 512 floats: each thread holds vectors of 4, 8 warps.
    n = 512
    body = range_("%o", n) + load1d("%a", "a_ptr", "f32", n, "%o")
    body += load1d("%b", "b_ptr", "f32", n, "%o")
    body += f"    %c = tt.cat %a, %b : tensor<{n}xf32> -> tensor<{2 * n}xf32>\n"
    body += range_("%o2", 2 * n) + store1d("c_ptr", "f32", 2 * n, "%o2", "%c", "c")
    ttir = kernel("cat_1d_f32_wide", [("a_ptr", "!tt.ptr<f32>"), ("b_ptr", "!tt.ptr<f32>"),
                                      ("c_ptr", "!tt.ptr<f32>")], body)
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    return ttir, [Buf(a), Buf(b), Buf(np.zeros(2 * n, np.float32), np.concatenate([a, b]))], \
        {"num_warps": 8}


@case
def cat_2d_f16():
    rows, cols = 32, 16
    body = load2d("%a", "a_ptr", "f16", rows, cols) + load2d("%b", "b_ptr", "f16", rows, cols)
    body += (f"    %c = tt.cat %a, %b : tensor<{rows}x{cols}xf16> -> "
             f"tensor<{2 * rows}x{cols}xf16>\n")
    body += store2d("c_ptr", "f16", 2 * rows, cols, "%c", "c")
    ttir = kernel("cat_2d_f16", [("a_ptr", "!tt.ptr<f16>"), ("b_ptr", "!tt.ptr<f16>"),
                                 ("c_ptr", "!tt.ptr<f16>")], body)
    a = rng.standard_normal((rows, cols)).astype(np.float16)
    b = rng.standard_normal((rows, cols)).astype(np.float16)
    return ttir, [Buf(a), Buf(b), Buf(np.zeros((2 * rows, cols), np.float16),
                                      np.concatenate([a, b], axis=0))], {}


@case
def cat_i1():
    # i1 travels through shared memory as bytes.
    n = 128
    body = range_("%o", n) + load1d("%a", "a_ptr", "i32", n, "%o")
    body += load1d("%b", "b_ptr", "i32", n, "%o")
    body += f"""    %z = arith.constant dense<0> : tensor<{n}xi32>
    %pa = arith.cmpi sgt, %a, %z : tensor<{n}xi32>
    %pb = arith.cmpi sgt, %b, %z : tensor<{n}xi32>
    %c = tt.cat %pa, %pb : tensor<{n}xi1> -> tensor<{2 * n}xi1>
    %ci = arith.extui %c : tensor<{2 * n}xi1> to tensor<{2 * n}xi32>
"""
    body += range_("%o2", 2 * n) + store1d("c_ptr", "i32", 2 * n, "%o2", "%ci", "c")
    ttir = kernel("cat_i1", [("a_ptr", "!tt.ptr<i32>"), ("b_ptr", "!tt.ptr<i32>"),
                             ("c_ptr", "!tt.ptr<i32>")], body)
    a = rng.integers(-5, 5, n).astype(np.int32)
    b = rng.integers(-5, 5, n).astype(np.int32)
    want = np.concatenate([a > 0, b > 0]).astype(np.int32)
    return ttir, [Buf(a), Buf(b), Buf(np.zeros(2 * n, np.int32), want)], {}


# --- gather -----------------------------------------------------------------

def gather_case(name, src_shape, idx_shape, axis, idx_type="i32", elem="f32",
                num_warps=4):
    sr, sc = src_shape
    ir, ic = idx_shape
    body = load2d("%x", "x_ptr", elem, sr, sc) + load2d("%i", "i_ptr", idx_type, ir, ic)
    body += (f"    %g = tt.gather %x[%i] {{axis = {axis} : i32}} : (tensor<{sr}x{sc}x{elem}>, "
             f"tensor<{ir}x{ic}x{idx_type}>) -> tensor<{ir}x{ic}x{elem}>\n")
    body += store2d("g_ptr", elem, ir, ic, "%g", "g")
    ttir = kernel(name, [("x_ptr", f"!tt.ptr<{elem}>"), ("i_ptr", f"!tt.ptr<{idx_type}>"),
                         ("g_ptr", f"!tt.ptr<{elem}>")], body)
    np_elem = {"f32": np.float32, "i32": np.int32, "f16": np.float16}[elem]
    x = (rng.standard_normal(src_shape) * 100).astype(np_elem)
    idx = rng.integers(0, src_shape[axis], idx_shape).astype(
        np.int64 if idx_type == "i64" else np.int32)
    # take_along_axis needs the other dimension to match: slice the source.
    if axis == 1:
        want = np.take_along_axis(x[:ir, :], idx, axis=1)
    else:
        want = np.take_along_axis(x[:, :ic], idx, axis=0)
    return ttir, [Buf(x), Buf(idx), Buf(np.zeros(idx_shape, np_elem), want)], \
        {"num_warps": num_warps}


@case
def gather_axis1():
    return gather_case("gather_axis1", (32, 16), (32, 8), 1)


@case
def gather_axis0():
    return gather_case("gather_axis0", (16, 32), (64, 32), 0)


@case
def gather_axis0_fewer_columns():
    # Indices narrower than the source along the other axis.
    return gather_case("gather_axis0_fewer_columns", (32, 64), (16, 16), 0,
                       idx_type="i64", elem="i32")


@case
def gather_same_shape_f16():
    return gather_case("gather_same_shape_f16", (64, 64), (64, 64), 1,
                       elem="f16", num_warps=8)


@case
def gather_cat_grid():
    # The CPU suite's kernel: cat, gather and histogram over 48 programs.
    programs, n, bins = 48, 64, 16
    body = f"""    %pid = tt.get_program_id x : i32
    %cn = arith.constant {n} : i32
    %c2n = arith.constant {2 * n} : i32
    %cb = arith.constant {bins} : i32
    %base = arith.muli %pid, %cn : i32
    %base2 = arith.muli %pid, %c2n : i32
    %baseb = arith.muli %pid, %cb : i32
"""
    body += range_("%r", n) + f"    %bs = tt.splat %base : i32 -> tensor<{n}xi32>\n"
    body += f"    %o = arith.addi %bs, %r : tensor<{n}xi32>\n"
    body += load1d("%a", "a_ptr", "i32", n, "%o") + load1d("%b", "b_ptr", "i32", n, "%o")
    body += f"    %c = tt.cat %a, %b : tensor<{n}xi32> -> tensor<{2 * n}xi32>\n"
    body += range_("%r2", 2 * n) + f"    %bs2 = tt.splat %base2 : i32 -> tensor<{2 * n}xi32>\n"
    body += f"    %o2 = arith.addi %bs2, %r2 : tensor<{2 * n}xi32>\n"
    body += load1d("%i", "idx_ptr", "i32", 2 * n, "%o2")
    body += (f"    %g = tt.gather %c[%i] {{axis = 0 : i32}} : (tensor<{2 * n}xi32>, "
             f"tensor<{2 * n}xi32>) -> tensor<{2 * n}xi32>\n")
    body += f"    %h = tt.histogram %g : tensor<{2 * n}xi32> -> tensor<{bins}xi32>\n"
    body += range_("%rb", bins) + f"    %bsb = tt.splat %baseb : i32 -> tensor<{bins}xi32>\n"
    body += f"    %ob = arith.addi %bsb, %rb : tensor<{bins}xi32>\n"
    body += store1d("h_ptr", "i32", bins, "%ob", "%h", "h")
    ttir = kernel("gather_cat_grid", [("a_ptr", "!tt.ptr<i32>"), ("b_ptr", "!tt.ptr<i32>"),
                                      ("idx_ptr", "!tt.ptr<i32>"), ("h_ptr", "!tt.ptr<i32>")],
                  body)
    a = rng.integers(0, bins, programs * n).astype(np.int32)
    b = rng.integers(0, bins, programs * n).astype(np.int32)
    idx = rng.integers(0, 2 * n, programs * 2 * n).astype(np.int32)
    want = np.zeros(programs * bins, np.int32)
    for p in range(programs):
        c = np.concatenate([a[p * n:(p + 1) * n], b[p * n:(p + 1) * n]])
        g = c[idx[p * 2 * n:(p + 1) * 2 * n]]
        want[p * bins:(p + 1) * bins] = np.bincount(g, minlength=bins)
    return ttir, [Buf(a), Buf(b), Buf(idx), Buf(np.full(programs * bins, -1, np.int32), want)], \
        {"grid": (programs, 1, 1)}


# --- histogram --------------------------------------------------------------

def histogram_case(name, n, bins, masked, low, high, src="i32", count="i32",
                   num_warps=4):
    body = range_("%o", n) + load1d("%x", "x_ptr", src, n, "%o")
    if masked:
        body += f"""    %lim = arith.constant dense<{n * 3 // 4}> : tensor<{n}xi32>
    %m = arith.cmpi slt, %o, %lim : tensor<{n}xi32>
    %h = tt.histogram %x, %m : tensor<{n}x{src}> -> tensor<{bins}x{count}>
"""
    else:
        body += f"    %h = tt.histogram %x : tensor<{n}x{src}> -> tensor<{bins}x{count}>\n"
    body += range_("%ob", bins) + store1d("h_ptr", count, bins, "%ob", "%h", "h")
    ttir = kernel(name, [("x_ptr", f"!tt.ptr<{src}>"), ("h_ptr", f"!tt.ptr<{count}>")], body)
    np_src = {"i32": np.int32, "i64": np.int64, "i8": np.int8}[src]
    np_count = {"i32": np.int32, "i64": np.int64}[count]
    x = rng.integers(low, high, n).astype(np_src)
    used = x[:n * 3 // 4] if masked else x
    used = used[(used >= 0) & (used < bins)]
    want = np.bincount(used.astype(np.int64), minlength=bins).astype(np_count)
    return ttir, [Buf(x), Buf(np.full(bins, -1, np_count), want)], {"num_warps": num_warps}


@case
def histogram_plain():
    return histogram_case("histogram_plain", 256, 32, False, 0, 32)


@case
def histogram_masked():
    return histogram_case("histogram_masked", 256, 32, True, 0, 32)


@case
def histogram_out_of_range():
    # Values below 0 and at or above the bin count are not counted.
    return histogram_case("histogram_out_of_range", 1024, 64, False, -40, 100)


@case
def histogram_out_of_range_masked_i64():
    return histogram_case("histogram_out_of_range_masked_i64", 512, 16, True,
                          -(1 << 40), 1 << 40, src="i64")


@case
def histogram_i64_values_small():
    return histogram_case("histogram_i64_values_small", 512, 16, True, -8, 24,
                          src="i64")


@case
def histogram_i8():
    # i8 values are read as signed (as the CPU target does).
    return histogram_case("histogram_i8", 256, 64, False, -128, 128, src="i8")


@case
def histogram_replicated():
    # 64 values on 8 warps: the source is replicated across warps; each
    # value must still count once. More bins than values.
    return histogram_case("histogram_replicated", 64, 128, False, -4, 128,
                          num_warps=8)


@case
def histogram_i64_counts():
    return histogram_case("histogram_i64_counts", 2048, 8, True, 0, 10,
                          count="i64")


# --- driver -----------------------------------------------------------------

def codegen_path(case_dir, num_warps):
    proc = subprocess.run([TPX_COMPILE, "--target=sm_90a", "--no-cache",
                           f"--num-warps={num_warps}", "-o",
                           os.path.join(case_dir, "kernel.cubin"),
                           os.path.join(case_dir, "kernel.ttir")],
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        return "compile-error: " + proc.stderr.strip().splitlines()[-1]
    return "one-thread" if "does not cover" in proc.stderr else "simt"


def run(case_dir, target):
    flags = ["--no-cache"] + (["--target", target] if target != "cpu" else [])
    proc = subprocess.run([TPX_RUN, case_dir, *flags], capture_output=True,
                          text=True, timeout=300)
    lines = [l for l in proc.stdout.splitlines()
             if l.startswith("PASS ") or l.startswith("FAIL ")]
    if lines:
        return lines[-1].startswith("PASS "), lines[-1]
    return False, f"no verdict (rc={proc.returncode}): {proc.stderr.strip()[-500:]}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", default="cuda", choices=["cuda", "cpu"])
    parser.add_argument("-k", default="", help="only cases whose name has this")
    parser.add_argument("--keep", help="write the cases here (default: a temp dir)")
    args = parser.parse_args()
    root = args.keep or tempfile.mkdtemp(prefix="simt_shared_ops_")
    ok = True
    for fn in CASES:
        name = fn.__name__
        if args.k not in name:
            continue
        ttir, bufs, kw = fn()
        grid = kw.get("grid", (1, 1, 1))
        num_warps = kw.get("num_warps", 4)
        case_dir = write_case(os.path.join(root, name), name, ttir, bufs, grid,
                              num_warps=num_warps)
        path = codegen_path(case_dir, num_warps)
        passed, verdict = run(case_dir, args.target)
        good = passed and path == "simt"
        ok &= good
        print(f"{'PASS' if good else 'FAIL'} {name} [{args.target}, sm_90a codegen: {path}]"
              + ("" if passed else f" {verdict}"), flush=True)
    print("cases in", root)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
