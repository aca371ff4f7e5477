"""tpx-run must turn every broken case into one clean FAIL line."""
import os

import numpy as np

from tpxcase import Buf, Scalar, check, cpu_only, expect_fail, kernel, load1d, range_, run_dir, store1d, write_case

COPY = kernel("copy", [("x_ptr", "!tt.ptr<f32>"), ("y_ptr", "!tt.ptr<f32>")],
              range_("%o", 64) + load1d("%x", "x_ptr", "f32", 64, "%o") +
              store1d("y_ptr", "f32", 64, "%o", "%x", "y"))


def test_wrong_expected_value(tmp_path):
    x = np.arange(64, dtype=np.float32)
    want = x.copy()
    want[17] = 99.0
    r = expect_fail(tmp_path, "wrong_value", COPY, [Buf(x), Buf(np.zeros(64, np.float32), want)])
    assert r.verdict.startswith(
        "FAIL wrong_value: buffer 'arg1' differs at arg1[17]: got 17, want 99 "
        "(1 of 64 elements differ; rtol 0, atol 0)"), r.verdict


@cpu_only("bounds checking is the CPU runtime's")
def test_out_of_bounds_read(tmp_path):
    r = expect_fail(tmp_path, "oob", COPY, [Buf(np.zeros(40, np.float32)), Buf(np.zeros(64, np.float32))])
    assert "out-of-bounds" in r.verdict and "'arg0'" in r.verdict, r.verdict


def test_wrong_argument_count(tmp_path):
    r = expect_fail(tmp_path, "argcount", COPY, [Buf(np.zeros(64, np.float32))])
    # Argument names come from Triton's name locations; without them, argN.
    assert "kernel 'copy' takes 2 arguments (arg0, arg1) but 1 were given" in r.verdict, r.verdict


def test_scalar_for_pointer(tmp_path):
    r = expect_fail(tmp_path, "scalar_ptr", COPY, [Scalar("i32", 3), Buf(np.zeros(64, np.float32))])
    assert "pointer" in r.verdict and "scalar" in r.verdict, r.verdict


def test_input_file_of_wrong_size(tmp_path):
    d = write_case(os.path.join(str(tmp_path), "badsize"), "badsize", COPY,
                   [Buf(np.zeros(64, np.float32)), Buf(np.zeros(64, np.float32))])
    np.zeros(10, np.float32).tofile(os.path.join(d, "arg0.in.bin"))
    r = run_dir(d)
    assert r.verdict.startswith(
        "FAIL badsize: case.json: args[0].input: arg0.in.bin holds 40 bytes but "
        "buffer 'arg0' (64 x f32) needs 256"), r.verdict
    assert r.returncode == 1


def test_unparsable_kernel(tmp_path):
    r = expect_fail(tmp_path, "garbage", "module { tt.func public @k( }", [])
    assert "cannot parse" in r.verdict


def copy_kernel(elem):
    return kernel("copy", [("x_ptr", f"!tt.ptr<{elem}>"), ("y_ptr", f"!tt.ptr<{elem}>")],
                  range_("%o", 64) + load1d("%x", "x_ptr", elem, 64, "%o") +
                  store1d("y_ptr", elem, 64, "%o", "%x", "y"))


def test_fail_line_digits_and_coordinates(tmp_path):
    """A FAIL line tells values apart that two decimals would print alike
    and names the element by its coordinates in the buffer's shape."""
    x = np.zeros((8, 8), np.float32)
    x[2, 1] = -1e-30
    want = x.copy()
    want[2, 1] = -1.0000001e-30
    want[5, 3] = 1.0
    r = expect_fail(tmp_path, "digits", COPY, [Buf(x), Buf(np.zeros((8, 8), np.float32), want, name="out")])
    assert ("buffer 'out' differs at out[2, 1] (flat index 17): got -1e-30, "
            "want -1.0000001e-30 (2 of 64 elements differ; rtol 0, atol 0)") in r.verdict, r.verdict


def test_fail_line_f64_and_exact_integers(tmp_path):
    x = np.arange(64, dtype=np.float64) + 0.1
    want = x.copy()
    want[3] = np.nextafter(x[3], 10)
    r = expect_fail(tmp_path, "f64", copy_kernel("f64"), [Buf(x), Buf(np.zeros(64), want)])
    assert "differs at arg1[3]: got 3.1000000000000001, want 3.1000000000000005" in r.verdict, r.verdict
    # 2^62 + 1 and 2^62 are one double apart from nothing: compared and
    # printed exactly.
    big = np.full(64, 2**62 + 1, np.int64)
    want = big.copy()
    want[63] = 2**62
    r = expect_fail(tmp_path, "i64", copy_kernel("i64"), [Buf(big), Buf(np.zeros(64, np.int64), want)])
    assert "differs at arg1[63]: got 4611686018427387905, want 4611686018427387904" in r.verdict, r.verdict


def test_infinity_matches_only_itself(tmp_path):
    """|got - inf| <= atol + rtol * inf would accept any got once rtol > 0."""
    x = np.ones(64, np.float32)
    want = x.copy()
    want[5] = np.inf
    r = expect_fail(tmp_path, "inf", COPY, [Buf(x), Buf(np.zeros(64, np.float32), want, rtol=0.1)])
    assert "differs at arg1[5]: got 1, want inf" in r.verdict, r.verdict
    x[5] = -np.inf
    r = expect_fail(tmp_path, "neginf", COPY, [Buf(x), Buf(np.zeros(64, np.float32), want, rtol=0.1)])
    assert "differs at arg1[5]: got -inf, want inf" in r.verdict, r.verdict
    x[5] = np.nan
    want[5] = np.nan
    check(tmp_path, "nan", COPY, [Buf(x), Buf(np.zeros(64, np.float32), want, rtol=0.1)])


@cpu_only("the CPU defines what x/0 gives")
def test_integer_division_by_zero_does_not_trap(tmp_path):
    """x / 0 and MIN / -1 are undefined in Triton; on the CPU they must not
    trap the process (SIGFPE). tpx defines them as x / 1: x, and x % 1: 0."""
    n = 8
    body = range_("%o", n) + load1d("%x", "x_ptr", "i32", n, "%o") + load1d("%y", "y_ptr", "i32", n, "%o")
    body += f"""    %q = arith.divsi %x, %y : tensor<{n}xi32>
    %r = arith.remsi %x, %y : tensor<{n}xi32>
"""
    body += store1d("q_ptr", "i32", n, "%o", "%q", "q") + store1d("r_ptr", "i32", n, "%o", "%r", "r")
    ttir = kernel("divz", [("x_ptr", "!tt.ptr<i32>"), ("y_ptr", "!tt.ptr<i32>"),
                           ("q_ptr", "!tt.ptr<i32>"), ("r_ptr", "!tt.ptr<i32>")], body)
    imin = np.iinfo(np.int32).min
    x = np.array([7, -7, 5, imin, imin, 9, 0, 3], np.int32)
    y = np.array([2, 0, 0, -1, 0, 3, 0, -2], np.int32)
    safe = np.where((y == 0) | ((x == imin) & (y == -1)), 1, y)
    q = (np.trunc(x.astype(np.float64) / safe)).astype(np.int64).astype(np.int32)
    r = (x.astype(np.int64) - q.astype(np.int64) * safe).astype(np.int32)
    check(tmp_path, "divz", ttir, [Buf(x), Buf(y), Buf(np.zeros(n, np.int32), q),
                                   Buf(np.zeros(n, np.int32), r)])
