"""Writes tpx-run cases in the corpus format and runs them.

A case is a directory with kernel.ttir, case.json and one argN.in.bin (and,
for checked buffers, argN.out.bin) per buffer argument; see
shared/ttir-corpus/README.md. Tests build the inputs and the expected
outputs with numpy and assert on the one-line verdict of tpx-run.
"""

import json
import os
import re
import subprocess
from dataclasses import dataclass, field

import numpy as np

BUILD_DIR = os.environ.get("TPX_BUILD_DIR", "/work/main/build")
TPX_RUN = os.path.join(BUILD_DIR, "bin", "tpx-run")
TPX_OPT = os.path.join(BUILD_DIR, "bin", "tpx-opt")
# `cuda` runs the same cases on the GPU (bench/run-on-h200.sh does, on the
# GPU machine); CI runs them on the CPU.
TARGET = os.environ.get("TPX_TEST_TARGET", "cpu")


CPU_ONLY_REASON = "CPU target only: "


def cpu_only(reason):
    """Marks a test of behaviour only the CPU target has (host assembly, its
    bounds checking and traps, tensor shapes Triton does not allow): it is
    skipped when the suite runs on the GPU, with the reason."""
    import pytest
    return pytest.mark.skipif(TARGET != "cpu", reason=CPU_ONLY_REASON + reason)


# On the CPU, every kernel a test checks (but those of cpu_only tests) is
# also compiled for sm_90a through its llir stage: the SIMT code generator
# must cover it (a kernel it does not is a compile error on the GPU).
# conftest.py sets CURRENT_TEST_IS_CPU_ONLY per test. TPX_TEST_SIMT_CHECK=0
# turns the check off.
SIMT_CHECK = TARGET == "cpu" and os.environ.get("TPX_TEST_SIMT_CHECK",
                                                "1") != "0"
CURRENT_TEST_IS_CPU_ONLY = False
TPX_COMPILE = os.path.join(BUILD_DIR, "bin", "tpx-compile")


def check_simt_covers(directory):
    """Asserts that the case's kernel compiles for sm_90a on the SIMT
    pipeline, through its llir stage (no ptxas needed)."""
    with open(os.path.join(directory, "case.json")) as f:
        num_warps = json.load(f).get("num_warps", 4)
    proc = subprocess.run(
        [TPX_COMPILE, os.path.join(directory, "kernel.ttir"),
         "--target=sm_90a", f"--num-warps={num_warps}", "--stop-after=llir",
         "--no-cache", "-o", os.devnull],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, (
        "the kernel does not compile on the SIMT path for sm_90a:\n" +
        proc.stderr[-3000:])

# numpy dtype -> case.json dtype. bf16 and float8 have no numpy dtype; pass
# their bit patterns (uint16 / uint8) with an explicit `dtype=`.
_DTYPES = {
    np.dtype(np.float64): "f64",
    np.dtype(np.float32): "f32",
    np.dtype(np.float16): "f16",
    np.dtype(np.int64): "i64",
    np.dtype(np.int32): "i32",
    np.dtype(np.int16): "i16",
    np.dtype(np.int8): "i8",
    np.dtype(np.uint64): "u64",
    np.dtype(np.uint32): "u32",
    np.dtype(np.uint16): "u16",
    np.dtype(np.uint8): "u8",
    np.dtype(np.bool_): "i1",
}


@dataclass
class Buf:
    """A buffer argument: `data` is the initial contents; when `expected` is
    given the buffer is checked after the launch."""
    data: np.ndarray
    expected: np.ndarray = None
    rtol: float = 0.0
    atol: float = 0.0
    dtype: str = None  # case dtype; derived from data.dtype when None
    name: str = None


@dataclass
class Scalar:
    type: str  # i32, i64, f32, ...
    value: object
    name: str = None


@dataclass
class Result:
    verdict: str
    stdout: str
    stderr: str
    returncode: int

    @property
    def passed(self):
        return self.verdict.startswith("PASS ")


def write_case(directory, name, ttir, args, grid=(1, 1, 1), kernel=None,
               num_warps=4):
    os.makedirs(directory, exist_ok=True)
    if kernel is None:
        match = re.search(r"tt\.func public @([\w$.]+)", ttir)
        kernel = match.group(1) if match else name
    with open(os.path.join(directory, "kernel.ttir"), "w") as f:
        f.write(ttir)
    entries = []
    for i, arg in enumerate(args):
        argname = arg.name or f"arg{i}"
        if isinstance(arg, Scalar):
            value = arg.value
            if isinstance(value, (np.integer, np.floating)):
                value = value.item()
            entries.append({"kind": "scalar", "python_name": argname,
                            "type": arg.type, "value": value})
            continue
        data = np.ascontiguousarray(arg.data)
        dtype = arg.dtype or _DTYPES[data.dtype]
        entry = {"kind": "buffer", "python_name": argname, "dtype": dtype,
                 "shape": list(data.shape) or [1],
                 "input": f"arg{i}.in.bin"}
        data.tofile(os.path.join(directory, f"arg{i}.in.bin"))
        if arg.expected is not None:
            expected = np.ascontiguousarray(arg.expected, dtype=data.dtype)
            expected.tofile(os.path.join(directory, f"arg{i}.out.bin"))
            entry["expected"] = f"arg{i}.out.bin"
            entry["tolerance"] = {"rtol": arg.rtol, "atol": arg.atol}
        entries.append(entry)
    case = {"name": name, "kernel": kernel, "grid": list(grid),
            "num_warps": num_warps, "num_stages": 3, "constexprs": {},
            "args": entries}
    with open(os.path.join(directory, "case.json"), "w") as f:
        json.dump(case, f, indent=1)
    return directory


def run_dir(directory, *flags, timeout=120):
    target = ["--target", TARGET] if TARGET != "cpu" else []
    proc = subprocess.run([TPX_RUN, str(directory), *target, *flags],
                          capture_output=True, text=True, timeout=timeout)
    lines = [l for l in proc.stdout.splitlines()
             if l.startswith("PASS ") or l.startswith("FAIL ")]
    verdict = lines[-1] if lines else (
        f"<no verdict, rc={proc.returncode}> {proc.stderr[-2000:]}")
    return Result(verdict, proc.stdout, proc.stderr, proc.returncode)


def run_case(tmp_path, name, ttir, args, grid=(1, 1, 1), flags=(), **kw):
    directory = write_case(os.path.join(str(tmp_path), name), name, ttir,
                           args, grid, **kw)
    return run_dir(directory, *flags)


def check(tmp_path, name, ttir, args, grid=(1, 1, 1), flags=(), **kw):
    """Runs the case and asserts that tpx-run prints `PASS <name>` (and, on
    the CPU, that the SIMT code generator covers the kernel)."""
    result = run_case(tmp_path, name, ttir, args, grid, flags, **kw)
    assert result.verdict == f"PASS {name}", result.verdict + "\n" + \
        result.stderr[-3000:]
    assert result.returncode == 0
    if SIMT_CHECK and not CURRENT_TEST_IS_CPU_ONLY:
        check_simt_covers(os.path.join(str(tmp_path), name))
    return result


def check_rewritten(tmp_path, name, ttir, args, pass_flag, grid=(1, 1, 1),
                    **kw):
    """Runs `ttir` after `tpx-opt <pass_flag>` and asserts PASS: checks that
    a TTIR-to-TTIR rewrite keeps the kernel's results."""
    proc = subprocess.run([TPX_OPT, pass_flag], input=ttir,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return check(tmp_path, name, proc.stdout, args, grid, **kw)


def expect_fail(tmp_path, name, ttir, args, grid=(1, 1, 1), flags=(), **kw):
    """Runs the case and asserts a clean FAIL line (no crash)."""
    result = run_case(tmp_path, name, ttir, args, grid, flags, **kw)
    assert result.verdict.startswith(f"FAIL {name}: "), (
        result.verdict + "\n" + result.stderr[-3000:])
    assert result.returncode == 1, result.returncode
    return result


# --- TTIR text helpers ------------------------------------------------------

def kernel(name, params, body, extra_funcs=""):
    """A module with one public kernel; `params` are (name, type) pairs.
    Pointer arguments get tt.divisibility = 16 as Triton prints them."""
    parts = []
    for pname, ptype in params:
        attrs = " {tt.divisibility = 16 : i32}" if ptype.startswith("!tt.ptr") else ""
        parts.append(f"%{pname}: {ptype}{attrs}")
    return (f"module {{\n{extra_funcs}"
            f"  tt.func public @{name}({', '.join(parts)}) "
            f"attributes {{noinline = false}} {{\n{body}\n    tt.return\n  }}\n}}\n")


def ptrs(var, base, elem, shape, offsets):
    """`var` = splat(base) + offsets, a tensor of pointers."""
    s = "x".join(str(d) for d in shape)
    return (f"    {var}_s = tt.splat %{base} : !tt.ptr<{elem}> -> tensor<{s}x!tt.ptr<{elem}>>\n"
            f"    {var} = tt.addptr {var}_s, {offsets} : tensor<{s}x!tt.ptr<{elem}>>, tensor<{s}xi32>\n")


def range_(var, n):
    return f"    {var} = tt.make_range {{end = {n} : i32, start = 0 : i32}} : tensor<{n}xi32>\n"


def load1d(var, base, elem, n, offs):
    return ptrs(var + "_p", base, elem, [n], offs) + \
        f"    {var} = tt.load {var}_p : tensor<{n}x!tt.ptr<{elem}>>\n"


def store1d(base, elem, n, offs, value, tag):
    return ptrs(f"%st_{tag}", base, elem, [n], offs) + \
        f"    tt.store %st_{tag}, {value} : tensor<{n}x!tt.ptr<{elem}>>\n"


def offsets2d(var, rows, cols, row_stride):
    """var : tensor<rows x cols x i32> = r * row_stride + c."""
    return (f"    {var}_r = tt.make_range {{end = {rows} : i32, start = 0 : i32}} : tensor<{rows}xi32>\n"
            f"    {var}_c = tt.make_range {{end = {cols} : i32, start = 0 : i32}} : tensor<{cols}xi32>\n"
            f"    {var}_re = tt.expand_dims {var}_r {{axis = 1 : i32}} : tensor<{rows}xi32> -> tensor<{rows}x1xi32>\n"
            f"    {var}_st = arith.constant dense<{row_stride}> : tensor<{rows}x1xi32>\n"
            f"    {var}_rm = arith.muli {var}_re, {var}_st : tensor<{rows}x1xi32>\n"
            f"    {var}_ce = tt.expand_dims {var}_c {{axis = 0 : i32}} : tensor<{cols}xi32> -> tensor<1x{cols}xi32>\n"
            f"    {var}_rb = tt.broadcast {var}_rm : tensor<{rows}x1xi32> -> tensor<{rows}x{cols}xi32>\n"
            f"    {var}_cb = tt.broadcast {var}_ce : tensor<1x{cols}xi32> -> tensor<{rows}x{cols}xi32>\n"
            f"    {var} = arith.addi {var}_rb, {var}_cb : tensor<{rows}x{cols}xi32>\n")


def load2d(var, base, elem, rows, cols, row_stride=None):
    row_stride = cols if row_stride is None else row_stride
    return offsets2d(var + "_o", rows, cols, row_stride) + \
        ptrs(var + "_p", base, elem, [rows, cols], var + "_o") + \
        f"    {var} = tt.load {var}_p : tensor<{rows}x{cols}x!tt.ptr<{elem}>>\n"


def store2d(base, elem, rows, cols, value, tag, row_stride=None):
    row_stride = cols if row_stride is None else row_stride
    v = f"%st_{tag}"
    return offsets2d(v + "_o", rows, cols, row_stride) + \
        ptrs(v, base, elem, [rows, cols], v + "_o") + \
        f"    tt.store {v}, {value} : tensor<{rows}x{cols}x!tt.ptr<{elem}>>\n"
