"""tt.print, tt.assert, tt.elementwise_inline_asm and tt.map_elementwise on
the GPU's SIMT path (lib/Conversion/TPXGPUToLLVM/DebugPatterns.cpp and
InlineAsmPatterns.cpp), as TTIR cases run by tpx-run:

- prints (signed/unsigned ints, floats, hex, a scalar, several operands of
  different shapes, 2-D) must print the same lines as the CPU target (the
  order of the lines aside: GPU threads print concurrently);
- a passing assert must pass, a failing one must make tpx-run fail cleanly
  (a FAIL line naming the assertion, not a hang);
- inline PTX (one element per statement with two results; f16 pairs and
  f32 -> f16x2 with packed_element = 2; byte permutes with
  packed_element = 4) and map_elementwise (branches; pack = 2) against
  numpy.

Every case also reports the code generator sm_90a picks for it (`simt`
expected; `scalar` is the one-thread fallback).

    TPX_BUILD_DIR=.device PYTHONPATH=python python3 bench/checks/simt_debug_ops.py [--target cuda|cpu]

On a machine without a GPU, `--target cpu` runs everything on the CPU
target (the inline PTX cases are then skipped: PTX is not host assembly),
and `--compile-only` compiles every case to an sm_90a cubin (ptxas
included) without running it.
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "test", "CPU"))

import tpxcase  # noqa: E402
from tpxcase import Buf, kernel, load1d, range_, store1d  # noqa: E402

BUILD_DIR = os.environ.get("TPX_BUILD_DIR", os.path.join(ROOT, "build"))
TPX_RUN = os.path.join(BUILD_DIR, "bin", "tpx-run")
TPX_COMPILE = os.path.join(BUILD_DIR, "bin", "tpx-compile")


def run(directory, target, timeout=120):
    """tpx-run on a case directory: (verdict, stdout, returncode)."""
    flags = ["--target", target] if target != "cpu" else []
    try:
        proc = subprocess.run([TPX_RUN, directory, "--no-cache", *flags],
                              capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return "<timed out: the launch hangs>", "", -1
    lines = [l for l in proc.stdout.splitlines()
             if l.startswith("PASS ") or l.startswith("FAIL ")]
    verdict = lines[-1] if lines else (
        f"<no verdict, rc={proc.returncode}> {proc.stderr[-2000:]}")
    return verdict, proc.stdout, proc.returncode


def codegen(directory):
    """The code generator sm_90a picks for the case's kernel."""
    out = os.path.join(directory, "ttgir.mlir")
    proc = subprocess.run([TPX_COMPILE, os.path.join(directory, "kernel.ttir"),
                           "--target", "sm_90a", "--stop-after", "ttgir",
                           "--no-cache", "-o", out],
                          capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        return "compile error: " + proc.stderr.strip()[-300:]
    text = open(out).read()
    for name in ("simt", "scalar"):
        if f'tpxgpu.codegen = "{name}"' in text:
            return name
    return "unknown"


def printed(stdout):
    """The print lines, sorted: threads print in no fixed order."""
    return sorted(l for l in stdout.splitlines() if l.startswith("pid ("))


def compile_cubin(directory):
    """Compiles the case for sm_90a down to a cubin: (ok, message)."""
    proc = subprocess.run([TPX_COMPILE, os.path.join(directory, "kernel.ttir"),
                           "--target", "sm_90a", "--no-cache", "-o",
                           os.path.join(directory, "kernel.cubin")],
                          capture_output=True, text=True, timeout=300)
    return proc.returncode == 0, proc.stderr.strip()[-500:]


class Checker:
    def __init__(self, target, workdir, compile_only=False):
        self.target = target
        self.workdir = workdir
        self.compile_only = compile_only
        self.ok = True

    def case(self, name, ttir, args, grid=(1, 1, 1), num_warps=4):
        directory = tpxcase.write_case(os.path.join(self.workdir, name), name,
                                       ttir, args, grid, num_warps=num_warps)
        return directory

    def report(self, name, good, directory, detail=""):
        if self.compile_only:
            good, detail = compile_cubin(directory)
        path = codegen(directory)
        good = good and path == "simt"
        print(f"{'PASS' if good else 'FAIL'} {name} (sm_90a codegen: {path})"
              + (f": {detail}" if detail and not good else ""))
        self.ok &= good

    def check_values(self, name, ttir, args, **kw):
        directory = self.case(name, ttir, args, **kw)
        if self.compile_only:
            return self.report(name, True, directory)
        verdict, _, rc = run(directory, self.target)
        self.report(name, verdict == f"PASS {name}" and rc == 0, directory,
                    verdict)

    def check_print(self, name, ttir, args, expected_lines, **kw):
        """The target prints what the CPU target prints (and
        `expected_lines` of them at least)."""
        directory = self.case(name, ttir, args, **kw)
        if self.compile_only:
            return self.report(name, True, directory)
        verdict, stdout, rc = run(directory, self.target)
        cpu_verdict, cpu_stdout, _ = run(directory, "cpu")
        lines, cpu_lines = printed(stdout), printed(cpu_stdout)
        good = (verdict == f"PASS {name}" and rc == 0 and
                cpu_verdict == f"PASS {name}" and lines == cpu_lines and
                len(lines) == expected_lines)
        detail = verdict
        if lines != cpu_lines:
            only = sorted(set(lines) ^ set(cpu_lines))[:6]
            detail = (f"{len(lines)} lines vs {len(cpu_lines)} on the CPU; "
                      f"differing: {only}")
        elif len(lines) != expected_lines:
            detail = f"{len(lines)} lines, expected {expected_lines}"
        self.report(name, good, directory, detail)


def print_cases(c):
    n = 64
    body = range_("%o", n) + load1d("%x", "x_ptr", "i32", n, "%o")
    body += f"""    %pid = tt.get_program_id x : i32
    tt.print " pid: " {{hex = false, isSigned = array<i32: 1>}} : %pid : i32
    tt.print " x: " {{hex = false, isSigned = array<i32: 1>}} : %x : tensor<{n}xi32>
    tt.print " u: " {{hex = false, isSigned = array<i32: 0>}} : %x : tensor<{n}xi32>
    tt.print " h: " {{hex = true, isSigned = array<i32: 1>}} : %x : tensor<{n}xi32>
"""
    x = np.arange(n, dtype=np.int32) * 977 - 20000
    c.check_print("print_ints", kernel("print_ints", [("x_ptr", "!tt.ptr<i32>")],
                                       body), [Buf(x)], 2 * (1 + 3 * n),
                  grid=(2, 1, 1))

    n = 256
    body = range_("%o", n) + load1d("%x", "x_ptr", "f32", n, "%o")
    body += f"""    %h = arith.truncf %x : tensor<{n}xf32> to tensor<{n}xf16>
    tt.print " f: " {{hex = false, isSigned = array<i32: 0, 0>}} : %x, %h : tensor<{n}xf32>, tensor<{n}xf16>
    tt.print " bits: " {{hex = true, isSigned = array<i32: 0>}} : %x : tensor<{n}xf32>
"""
    x = (np.arange(n, dtype=np.float32) - 100) * np.float32(0.37)
    c.check_print("print_floats", kernel("print_floats",
                                         [("x_ptr", "!tt.ptr<f32>")], body),
                  [Buf(x)], 3 * n)

    rows, cols = 8, 32
    body = tpxcase.offsets2d("%off", rows, cols, cols)
    body += tpxcase.ptrs("%p", "x_ptr", "i64", [rows, cols], "%off")
    body += f"""    %v = tt.load %p : tensor<{rows}x{cols}x!tt.ptr<i64>>
    %r = tt.make_range {{end = {rows} : i32, start = 0 : i32}} : tensor<{rows}xi32>
    %b = arith.trunci %r : tensor<{rows}xi32> to tensor<{rows}xi8>
    tt.print " m: " {{hex = false, isSigned = array<i32: 1, 1>}} : %v, %b : tensor<{rows}x{cols}xi64>, tensor<{rows}xi8>
    tt.print " nothing" {{hex = false, isSigned = array<i32>}}
"""
    x = (np.arange(rows * cols, dtype=np.int64) - 100) * 3_000_000_000
    c.check_print("print_2d_multi", kernel("print_2d_multi",
                                           [("x_ptr", "!tt.ptr<i64>")], body),
                  [Buf(x)], 3 * (rows * cols + rows + 1), grid=(3, 1, 1))


def assert_cases(c):
    n = 256
    body = range_("%o", n) + load1d("%x", "x_ptr", "i32", n, "%o")
    body += f"""    %z = arith.constant dense<0> : tensor<{n}xi32>
    %ok = arith.cmpi sge, %x, %z : tensor<{n}xi32>
    tt.assert %ok, "x must be non-negative" : tensor<{n}xi1>
"""
    ttir = kernel("asserter", [("x_ptr", "!tt.ptr<i32>")], body)
    x = np.arange(n, dtype=np.int32)
    c.check_values("assert_ok", ttir, [Buf(x)], grid=(4, 1, 1))

    x[201] = -1
    directory = c.case("assert_fails", ttir, [Buf(x)], grid=(4, 1, 1))
    if c.compile_only:
        return c.report("assert_fails", True, directory)
    verdict, stdout, rc = run(directory, c.target)
    # CUDA reports CUDA_ERROR_ASSERT in the verdict and the device's line
    # on stdout; the CPU target puts the line into the verdict.
    text = verdict + "\n" + stdout
    good = (rc == 1 and verdict.startswith("FAIL assert_fails: ") and
            "x must be non-negative" in text and "element 201" in text)
    c.report("assert_fails", good, directory, verdict)


def asm_cases(c):
    if c.target == "cpu" and not c.compile_only:
        print("SKIP inline PTX cases: PTX does not run on the CPU target")
        return
    rng = np.random.default_rng(0)
    n = 512
    body = range_("%o", n) + load1d("%x", "x_ptr", "i32", n, "%o") + \
        load1d("%y", "y_ptr", "i32", n, "%o")
    body += f"""    %s, %d = tt.elementwise_inline_asm "add.s32 $0, $2, $3; sub.s32 $1, $2, $3;" {{constraints = "=r,=r,r,r", packed_element = 1 : i32, pure = true}} %x, %y : tensor<{n}xi32>, tensor<{n}xi32> -> tensor<{n}xi32>, tensor<{n}xi32>
"""
    body += store1d("s_ptr", "i32", n, "%o", "%s", "s")
    body += store1d("d_ptr", "i32", n, "%o", "%d", "d")
    x = rng.integers(-1000, 1000, n).astype(np.int32)
    y = rng.integers(-1000, 1000, n).astype(np.int32)
    c.check_values("asm_two_results", kernel(
        "asm_two_results", [("x_ptr", "!tt.ptr<i32>"), ("y_ptr", "!tt.ptr<i32>"),
                            ("s_ptr", "!tt.ptr<i32>"), ("d_ptr", "!tt.ptr<i32>")],
        body), [Buf(x), Buf(y), Buf(np.zeros(n, np.int32), x + y),
                Buf(np.zeros(n, np.int32), x - y)])

    # Two f16 of each argument and of the result per 32-bit register.
    body = range_("%o", n) + load1d("%x", "x_ptr", "f16", n, "%o") + \
        load1d("%y", "y_ptr", "f16", n, "%o")
    body += f"""    %s = tt.elementwise_inline_asm "add.rn.f16x2 $0, $1, $2;" {{constraints = "=r,r,r", packed_element = 2 : i32, pure = true}} %x, %y : tensor<{n}xf16>, tensor<{n}xf16> -> tensor<{n}xf16>
"""
    body += store1d("s_ptr", "f16", n, "%o", "%s", "s")
    xh = rng.standard_normal(n).astype(np.float16)
    yh = rng.standard_normal(n).astype(np.float16)
    c.check_values("asm_f16x2", kernel(
        "asm_f16x2", [("x_ptr", "!tt.ptr<f16>"), ("y_ptr", "!tt.ptr<f16>"),
                      ("s_ptr", "!tt.ptr<f16>")], body),
        [Buf(xh), Buf(yh), Buf(np.zeros(n, np.float16), xh + yh)])

    # f32 inputs one per element ($1 the pack's first, the low half).
    body = range_("%o", n) + load1d("%x", "x_ptr", "f32", n, "%o")
    body += f"""    %h = tt.elementwise_inline_asm "cvt.rn.f16x2.f32 $0, $2, $1;" {{constraints = "=r,r,r", packed_element = 2 : i32, pure = true}} %x : tensor<{n}xf32> -> tensor<{n}xf16>
"""
    body += store1d("h_ptr", "f16", n, "%o", "%h", "h")
    xf = rng.standard_normal(n).astype(np.float32) * 10
    c.check_values("asm_f32_to_f16x2", kernel(
        "asm_f32_to_f16x2", [("x_ptr", "!tt.ptr<f32>"), ("h_ptr", "!tt.ptr<f16>")],
        body), [Buf(xf), Buf(np.zeros(n, np.float16), xf.astype(np.float16))])

    # Four bytes per register, reversed: the expectation assumes that a pack
    # is four consecutive elements, as the default layout of an i8 load
    # (16 consecutive bytes a thread) makes it.
    body = range_("%o", n) + load1d("%x", "x_ptr", "i8", n, "%o")
    body += f"""    %r = tt.elementwise_inline_asm "prmt.b32 $0, $1, 0, 0x0123;" {{constraints = "=r,r", packed_element = 4 : i32, pure = true}} %x : tensor<{n}xi8> -> tensor<{n}xi8>
"""
    body += store1d("r_ptr", "i8", n, "%o", "%r", "r")
    xb = rng.integers(-128, 128, n).astype(np.int8)
    c.check_values("asm_bytes_packed", kernel(
        "asm_bytes_packed", [("x_ptr", "!tt.ptr<i8>"), ("r_ptr", "!tt.ptr<i8>")],
        body), [Buf(xb), Buf(np.zeros(n, np.int8),
                             xb.reshape(-1, 4)[:, ::-1].reshape(-1))])


def map_cases(c):
    rng = np.random.default_rng(1)
    n = 1024
    for pack in (1, 2):
        if pack == 1:
            region = """    ^bb0(%a0: f32, %b0: i32):
      %bf = arith.sitofp %b0 : i32 to f32
      %c = arith.cmpf ogt, %a0, %bf : f32
      cf.cond_br %c, ^bb1, ^bb2
    ^bb1:
      %d = arith.subf %a0, %bf : f32
      tt.map_elementwise.return %d, %b0 : f32, i32
    ^bb2:
      %m = arith.mulf %a0, %bf : f32
      %k = arith.constant 7 : i32
      %z = arith.addi %b0, %k : i32
      tt.map_elementwise.return %m, %z : f32, i32
"""
        else:
            region = """    ^bb0(%a0: f32, %a1: f32, %b0: i32, %b1: i32):
      %bf = arith.sitofp %b0 : i32 to f32
      %bg = arith.sitofp %b1 : i32 to f32
      %c0 = arith.cmpf ogt, %a0, %bf : f32
      %c1 = arith.cmpf ogt, %a1, %bg : f32
      %d0 = arith.subf %a0, %bf : f32
      %m0 = arith.mulf %a0, %bf : f32
      %d1 = arith.subf %a1, %bg : f32
      %m1 = arith.mulf %a1, %bg : f32
      %y0 = arith.select %c0, %d0, %m0 : f32
      %y1 = arith.select %c1, %d1, %m1 : f32
      %k = arith.constant 7 : i32
      %e0 = arith.addi %b0, %k : i32
      %e1 = arith.addi %b1, %k : i32
      %z0 = arith.select %c0, %b0, %e0 : i32
      %z1 = arith.select %c1, %b1, %e1 : i32
      tt.map_elementwise.return %y0, %y1, %z0, %z1 : f32, f32, i32, i32
"""
        body = range_("%o", n) + load1d("%a", "a_ptr", "f32", n, "%o") + \
            load1d("%b", "b_ptr", "i32", n, "%o")
        body += f"""    %r:2 = "tt.map_elementwise"(%a, %b) <{{pack = {pack} : i32}}> ({{
{region}    }}) : (tensor<{n}xf32>, tensor<{n}xi32>) -> (tensor<{n}xf32>, tensor<{n}xi32>)
"""
        body += store1d("y_ptr", "f32", n, "%o", "%r#0", "y") + \
            store1d("z_ptr", "i32", n, "%o", "%r#1", "z")
        a = rng.standard_normal(n).astype(np.float32) * 4
        b = rng.integers(-4, 4, n).astype(np.int32)
        cond = a > b
        name = f"map_elementwise_pack{pack}"
        c.check_values(name, kernel(name, [
            ("a_ptr", "!tt.ptr<f32>"), ("b_ptr", "!tt.ptr<i32>"),
            ("y_ptr", "!tt.ptr<f32>"), ("z_ptr", "!tt.ptr<i32>")], body),
            [Buf(a), Buf(b),
             Buf(np.zeros(n, np.float32), np.where(cond, a - b, a * b)),
             Buf(np.zeros(n, np.int32), np.where(cond, b, b + 7))],
            grid=(2, 1, 1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--target", default="cuda", choices=("cuda", "cpu"))
    parser.add_argument("--compile-only", action="store_true",
                        help="compile every case for sm_90a, run nothing")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="simt_debug_ops_") as workdir:
        c = Checker(args.target, workdir, args.compile_only)
        print_cases(c)
        assert_cases(c)
        asm_cases(c)
        map_cases(c)
    print("ALL PASS" if c.ok else "SOME FAILED")
    return 0 if c.ok else 1


if __name__ == "__main__":
    sys.exit(main())
