"""tpx-run must turn every broken case into one clean FAIL line."""
import os

import numpy as np

from tpxcase import Buf, Scalar, expect_fail, kernel, load1d, range_, run_dir, store1d, write_case

COPY = kernel("copy", [("x_ptr", "!tt.ptr<f32>"), ("y_ptr", "!tt.ptr<f32>")],
              range_("%o", 64) + load1d("%x", "x_ptr", "f32", 64, "%o") +
              store1d("y_ptr", "f32", 64, "%o", "%x", "y"))


def test_wrong_expected_value(tmp_path):
    x = np.arange(64, dtype=np.float32)
    want = x.copy()
    want[17] = 99.0
    r = expect_fail(tmp_path, "wrong_value", COPY, [Buf(x), Buf(np.zeros(64, np.float32), want)])
    assert r.verdict.startswith(
        "FAIL wrong_value: buffer 'arg1' differs at index 17: got 17"), r.verdict
    assert "want 99" in r.verdict


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
    assert r.verdict.startswith("FAIL badsize: arg0.in.bin holds 40 bytes"), r.verdict
    assert r.returncode == 1


def test_unparsable_kernel(tmp_path):
    r = expect_fail(tmp_path, "garbage", "module { tt.func public @k( }", [])
    assert "cannot parse" in r.verdict
