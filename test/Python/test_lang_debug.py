"""Debugging and hints: static_print/static_assert at compile time,
device_print (tt.print, printed by the CPU runtime), device_assert
(tt.assert, only with debug on; a failure is a launch error), the
tt.divisibility/contiguity/constancy hints, assume and debug_barrier."""

import numpy as np
import pytest

import tpx
import tpx.language as tl
from tpx.errors import CompilationError, TpxError
from tpx.language.debug import CompileTimeAssertionFailure

import frontend_harness as h


# -- compile time -------------------------------------------------------------

@tpx.jit
def static_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.static_print("BLOCK =", BLOCK, "offs:", offs)
    tl.static_print(f"fstring {BLOCK * 2}", sep="|", end="!\n")
    tl.static_assert(BLOCK % 16 == 0, "BLOCK must be a multiple of 16")
    tl.store(x_ptr + offs, offs)


def test_static_print_runs_once_per_compile(capsys):
    h.ttir(static_kernel, np.zeros(32, np.int32), BLOCK=32)
    out = capsys.readouterr().out
    assert out.count("BLOCK = 32 offs: int32[32]\n") == 1
    assert out.count("fstring 64!\n") == 1


def test_static_assert_failure_names_the_line():
    with pytest.raises(CompileTimeAssertionFailure) as info:
        h.ttir(static_kernel, np.zeros(8, np.int32), BLOCK=8)
    e = info.value
    assert isinstance(e, CompilationError)
    assert e.message == "BLOCK must be a multiple of 16"
    assert "tl.static_assert(BLOCK % 16 == 0" in str(e)
    assert e.line == static_kernel.starting_line + 4


@tpx.jit
def static_tensor_kernel(x_ptr):
    tl.static_assert(tl.load(x_ptr) > 0)


def test_static_assert_needs_a_constexpr():
    with pytest.raises(CompilationError, match="NotImplementedError: "
                       "Assertion condition could not be determined at "
                       "compile-time. Make sure that it depends only on "
                       "`constexpr` values"):
        h.ttir(static_tensor_kernel, np.zeros(1, np.int32))


@tpx.jit
def static_no_msg_kernel(x_ptr, N: tl.constexpr):
    tl.static_assert(N > 4)


def test_static_assert_without_message():
    h.ttir(static_no_msg_kernel, np.zeros(1, np.int32), N=8)
    with pytest.raises(CompileTimeAssertionFailure):
        h.ttir(static_no_msg_kernel, np.zeros(1, np.int32), N=2)


# -- device_print -------------------------------------------------------------

@tpx.jit
def print_kernel(x_ptr, n):
    offs = tl.arange(0, 4)
    x = tl.load(x_ptr + offs)
    tl.device_print("x", x)
    print("n", n)
    tl.device_print("hex ", offs - 2, hex=True)
    tl.device_print("u: ", (offs - 2).to(tl.uint32))
    tl.device_print(" two: ", n, n * 2)


def test_device_print(capfd):
    text = h.run(print_kernel, (2,), np.array([1.5, -2, 3, 4], np.float32),
                 -7)
    assert 'prefix = " x: "' in text
    assert 'prefix = " hex: "' in text and "hex = true" in text
    assert "isSigned = array<i32: 1, 1>" in text
    lines = capfd.readouterr().out.splitlines()
    for pid in (0, 1):
        mine = [l for l in lines if l.startswith("pid (%d, 0, 0)" % pid)]
        assert "pid (%d, 0, 0) idx (  0)  x: 1.5" % pid in \
            [l[:len("pid (0, 0, 0) idx (  0)  x: 1.5")] for l in mine]
        assert "pid (%d, 0, 0)  n: -7" % pid in mine
        assert "pid (%d, 0, 0) idx (  0)  hex: 0xfffffffe" % pid in mine
        assert "pid (%d, 0, 0) idx (  3)  hex: 0x1" % pid in mine
        assert "pid (%d, 0, 0) idx (  0)  u: 4294967294" % pid in mine
        assert "pid (%d, 0, 0)  two: -14" % pid in mine
    assert len(lines) == 2 * (4 + 1 + 4 + 4 + 2)


@tpx.jit
def bad_print_kernel(x_ptr, WHICH: tl.constexpr):
    if WHICH == 0:
        tl.device_print(tl.load(x_ptr))
    else:
        tl.device_print("caf\u00e9", tl.load(x_ptr))


def test_device_print_prefix_must_be_an_ascii_string():
    with pytest.raises(CompilationError, match="is not string"):
        h.ttir(bad_print_kernel, np.zeros(1, np.int32), WHICH=0)
    with pytest.raises(CompilationError, match="is not an ascii string"):
        h.ttir(bad_print_kernel, np.zeros(1, np.int32), WHICH=1)


# -- device_assert ------------------------------------------------------------

@tpx.jit
def assert_kernel(x_ptr, limit):
    offs = tl.arange(0, 8)
    x = tl.load(x_ptr + tl.program_id(0) * 8 + offs)
    tl.device_assert(x < limit, "x is too large")
    tl.device_assert(x < limit + 100, "masked", mask=offs < 4)


@tpx.jit(debug=True)
def debug_assert_kernel(x_ptr, limit):
    offs = tl.arange(0, 8)
    x = tl.load(x_ptr + tl.program_id(0) * 8 + offs)
    tl.device_assert(x < limit, "x is too large")
    assert x >= 0, "x is negative"
    tl.device_assert(x < 50, "masked off", mask=x < 40)


def test_device_assert_is_dropped_without_debug(monkeypatch):
    monkeypatch.delenv("TRITON_DEBUG", raising=False)
    x = np.arange(16, dtype=np.int32)
    text = h.run(assert_kernel, (2,), x, 5)   # would fail; not checked
    assert "tt.assert" not in text


def test_device_assert_passes_with_debug():
    x = np.arange(16, dtype=np.int32)
    text = h.run(debug_assert_kernel, (2,), x, 100)
    assert text.count('"tt.assert"') == 3
    assert 'message = "x is too large"' in text


@h.cpu_only(h.DEVICE_ASSERT)
def test_device_assert_failure_is_a_launch_error():
    x = np.arange(16, dtype=np.int32)
    with pytest.raises(TpxError, match=r"device-side assertion failed in "
                       r"program \(1, 0, 0\) at element 4: x is too large"):
        h.run(debug_assert_kernel, (2,), x, 12)


@h.cpu_only(h.DEVICE_ASSERT)
def test_python_assert_statement_becomes_device_assert():
    x = np.arange(16, dtype=np.int32)
    x[3] = -1
    with pytest.raises(TpxError, match="x is negative"):
        h.run(debug_assert_kernel, (2,), x, 100)


@h.cpu_only(h.DEVICE_ASSERT)
def test_device_assert_mask():
    x = np.arange(16, dtype=np.int32) * 4      # up to 60
    # Elements >= 50 are all >= 40: masked off, so no failure.
    h.run(debug_assert_kernel, (2,), x, 100)
    x[0] = 45                                  # < 50 and unmasked: fine
    h.run(debug_assert_kernel, (2,), x, 100)


@h.cpu_only(h.DEVICE_ASSERT)
def test_triton_debug_environment_variable(monkeypatch):
    monkeypatch.setenv("TRITON_DEBUG", "1")
    x = np.arange(16, dtype=np.int32)
    with pytest.raises(TpxError, match="x is too large"):
        h.run(assert_kernel, (2,), x, 5)
    # the masked assertion checks only lanes 0..3 of each program
    text = h.run(assert_kernel, (2,), x, 100)
    assert text.count('"tt.assert"') == 2


# -- hints --------------------------------------------------------------------

@tpx.jit
def hint_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    start = tl.multiple_of(pid * BLOCK, BLOCK)
    offs = start + tl.arange(0, BLOCK)
    offs = tl.max_contiguous(tl.multiple_of(offs, [BLOCK]), BLOCK)
    group = tl.max_constancy(offs // 4, [4])
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) + group)


def test_hints_become_op_attributes():
    x = np.arange(64, dtype=np.int32)
    out = np.zeros_like(x)
    text = h.run(hint_kernel, (4,), x, out, BLOCK=16)
    assert "tt.divisibility = dense<16> : tensor<1xi32>" in text
    assert "tt.divisibility = dense<16> : tensor<1xi32>, tt.contiguity = " \
           "dense<16> : tensor<1xi32>" in text
    assert "tt.constancy = dense<4> : tensor<1xi32>" in text
    np.testing.assert_array_equal(out, x + x // 4)


@tpx.jit
def bad_hint_kernel(x_ptr, n, WHICH: tl.constexpr):
    offs = tl.arange(0, 16)
    if WHICH == 0:
        tl.max_contiguous(offs, [16, 16])
    elif WHICH == 1:
        tl.multiple_of(offs, n)
    elif WHICH == 2:
        tl.max_constancy(offs, 2.5)
    else:
        tl.max_contiguous(n, 16)


@pytest.mark.parametrize("which, match", [
    (0, "ValueError: Shape of input to max_contiguous does not match the "
        "length of values"),
    (1, "TypeError: values element 0 must have type `constexpr`"),
    (2, r"TypeError: values element 0 must have type `constexpr\[int\]`, got "
        r"`constexpr\[<class 'float'>\]"),
    (3, "Shape of input to max_contiguous does not match"),
])
def test_hint_errors(which, match):
    with pytest.raises(CompilationError, match=match):
        h.ttir(bad_hint_kernel, np.zeros(16, np.int32), 4, WHICH=which)


@tpx.jit
def scalar_hint_kernel(x_ptr, n):
    m = tl.multiple_of(n * 16, 16)
    tl.assume(m > 0)
    tl.debug_barrier()
    tl.store(x_ptr, m)


def test_scalar_hint_assume_and_barrier():
    x = np.zeros(1, np.int32)
    text = h.run(scalar_hint_kernel, (1,), x, 3)
    assert x[0] == 48
    assert "gpu.barrier" not in text and "llvm.intr.assume" not in text


def test_assume_needs_a_boolean():
    @tpx.jit
    def kernel(x_ptr):
        tl.assume(tl.load(x_ptr))
    with pytest.raises(CompilationError, match="TypeError: tl.assume needs a "
                       "boolean condition, got int32"):
        h.ttir(kernel, np.zeros(1, np.int32))
