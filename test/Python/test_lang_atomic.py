"""Atomics: tt.atomic_rmw / tt.atomic_cas with Triton's type rules, memory
semantics and scopes; results and returned old values against numpy."""

import numpy as np
import pytest

import tpx
import tpx.language as tl
from tpx.errors import CompilationError

import frontend_harness as h

N = 64


@tpx.jit
def rmw_kernel(ptr, val_ptr, old_ptr, OP: tl.constexpr, N: tl.constexpr,
               SEM: tl.constexpr, SCOPE: tl.constexpr):
    offs = tl.arange(0, N)
    val = tl.load(val_ptr + offs)
    old = OP(ptr + offs, val, sem=SEM, scope=SCOPE)
    tl.store(old_ptr + offs, old)


def run_rmw(op, init, val, sem=None, scope=None):
    mem, old = init.copy(), np.zeros_like(init)
    text = h.run(rmw_kernel, (1,), mem, val, old, OP=op, N=init.size,
                 SEM=sem, SCOPE=scope)
    np.testing.assert_array_equal(old, init)        # old values come back
    return mem, text


def _values(dtype, seed=0, low=-50, high=50):
    rng = np.random.default_rng(seed)
    if np.issubdtype(dtype, np.floating):
        return rng.uniform(low, high, N).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(max(low, info.min), min(high, info.max), N,
                        endpoint=True).astype(dtype)


@pytest.mark.parametrize("dtype", [np.int32, np.uint32, np.int64, np.float32,
                                   np.float64, np.float16])
def test_atomic_add(dtype):
    low = 0 if np.issubdtype(dtype, np.unsignedinteger) else -50
    init, val = _values(dtype, 0, low), _values(dtype, 1, low)
    mem, text = run_rmw(tl.atomic_add, init, val)
    floating = np.issubdtype(dtype, np.floating)
    assert "atomic_rmw_op = %d : i32" % (5 if floating else 4) in text
    np.testing.assert_array_equal(mem, init + val)


@pytest.mark.parametrize("dtype", [np.int32, np.uint32, np.int64, np.uint64])
@pytest.mark.parametrize("op, ref", [(tl.atomic_max, np.maximum),
                                     (tl.atomic_min, np.minimum),
                                     (tl.atomic_and, np.bitwise_and),
                                     (tl.atomic_or, np.bitwise_or),
                                     (tl.atomic_xor, np.bitwise_xor),
                                     (tl.atomic_xchg, lambda a, b: b)])
def test_integer_atomics(op, ref, dtype):
    unsigned = np.issubdtype(dtype, np.unsignedinteger)
    low = 0 if unsigned else -2 ** 20
    init = _values(dtype, 2, low, 2 ** 20)
    val = _values(dtype, 3, low, 2 ** 20)
    mem, text = run_rmw(op, init, val)
    np.testing.assert_array_equal(mem, ref(init, val))
    if op in (tl.atomic_max, tl.atomic_min):
        name = op.__name__.split("_")[1]
        code = {"max": 6, "min": 7, "umax": 8, "umin": 9}[
            ("u" if unsigned else "") + name]
        assert "atomic_rmw_op = %d : i32" % code in text


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("op, ref", [(tl.atomic_max, np.maximum),
                                     (tl.atomic_min, np.minimum)])
def test_float_max_min_through_integer_atomics(op, ref, dtype):
    init = _values(dtype, 4)
    val = _values(dtype, 5)
    init[:4] = [-0.0, 0.0, -1.0, 2.0]
    val[:4] = [0.0, -0.0, -3.0, -5.0]
    mem, text = run_rmw(op, init, val)
    np.testing.assert_array_equal(mem[4:], ref(init, val)[4:])
    np.testing.assert_array_equal(mem[2:4], ref(init, val)[2:4])
    # Triton's lowering: a signed op where val >= 0, an unsigned one where
    # val < 0, on the bit patterns.
    signed, unsigned = (6, 9) if op is tl.atomic_max else (7, 8)
    assert "atomic_rmw_op = %d : i32" % signed in text
    assert "atomic_rmw_op = %d : i32" % unsigned in text
    assert "atomic_rmw_op = 5" not in text


def test_atomic_xchg_float():
    init, val = _values(np.float32, 6), _values(np.float32, 7)
    mem, _ = run_rmw(tl.atomic_xchg, init, val)
    np.testing.assert_array_equal(mem, val)


@pytest.mark.parametrize("sem, sem_code", [(None, 4), ("acq_rel", 4),
                                           ("acquire", 2), ("release", 3),
                                           ("relaxed", 1)])
@pytest.mark.parametrize("scope, scope_code", [(None, 1), ("gpu", 1),
                                               ("cta", 2), ("sys", 3)])
def test_semantics_and_scopes(sem, sem_code, scope, scope_code):
    init, val = _values(np.int32, 8), _values(np.int32, 9)
    mem, text = run_rmw(tl.atomic_add, init, val, sem, scope)
    assert "scope = %d : i32, sem = %d : i32" % (scope_code, sem_code) in text
    np.testing.assert_array_equal(mem, init + val)


@tpx.jit
def histogram_kernel(bins_ptr, x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.atomic_add(bins_ptr + x, 1, mask=mask)


def test_contended_masked_atomic_add():
    x = np.random.default_rng(1).integers(0, 16, 1000).astype(np.int32)
    bins = np.zeros(16, np.int32)
    h.run(histogram_kernel, (8,), bins, x, 1000, BLOCK=128)
    np.testing.assert_array_equal(bins, np.bincount(x, minlength=16))


@tpx.jit
def masked_kernel(ptr, old_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    old = tl.atomic_max(ptr + offs, 100.0, mask=offs % 2 == 0)
    tl.store(old_ptr + offs, old, mask=offs % 2 == 0)


def test_mask_leaves_memory_alone():
    mem = _values(np.float32, 10)
    init = mem.copy()
    old = np.zeros_like(mem)
    h.run(masked_kernel, (1,), mem, old, N=N)
    np.testing.assert_array_equal(mem[0::2], 100.0)
    np.testing.assert_array_equal(mem[1::2], init[1::2])
    np.testing.assert_array_equal(old[0::2], init[0::2])


@tpx.jit
def scalar_kernel(counter_ptr, max_ptr, old_ptr):
    pid = tl.program_id(0)
    old = tl.atomic_add(counter_ptr, 1)
    counter_ptr.atomic_max(pid)               # the tensor-method form
    tl.atomic_max(max_ptr, pid.to(tl.float32) - 3.5)
    tl.store(old_ptr + pid, old)


def test_scalar_pointer_atomics():
    counter = np.zeros(2, np.int32)
    fmax = np.full(1, -100.0, np.float32)
    old = np.zeros(8, np.int32)
    h.run(scalar_kernel, (8,), counter, fmax, old)
    # 8 increments; then the max of 8 and every pid is 8.
    assert counter[0] == 8
    np.testing.assert_array_equal(np.sort(old), np.arange(8))
    assert fmax[0] == 3.5


@tpx.jit
def cas_kernel(lock_ptr, winners_ptr):
    pid = tl.program_id(0)
    old = tl.atomic_cas(lock_ptr, 0, pid + 1)
    tl.store(winners_ptr + pid, old)


def test_atomic_cas_one_winner():
    lock = np.zeros(1, np.int32)
    winners = np.full(16, -1, np.int32)
    text = h.run(cas_kernel, (16,), lock, winners)
    assert "tt.atomic_cas" in text
    assert np.count_nonzero(winners == 0) == 1
    winner = int(np.flatnonzero(winners == 0)[0])
    assert lock[0] == winner + 1
    np.testing.assert_array_equal(winners[winners != 0], winner + 1)


@tpx.jit
def cas_block_kernel(ptr, cmp_ptr, old_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    old = tl.atomic_cas(ptr + offs, tl.load(cmp_ptr + offs), 7.5,
                        sem="relaxed", scope="cta")
    tl.store(old_ptr + offs, old)


def test_atomic_cas_block_float():
    mem = np.arange(N, dtype=np.float32)
    cmp = mem.copy()
    cmp[1::2] = -1
    old = np.zeros_like(mem)
    text = h.run(cas_block_kernel, (1,), mem, cmp, old, N=N)
    assert "scope = 2 : i32, sem = 1 : i32" in text
    np.testing.assert_array_equal(old, np.arange(N, dtype=np.float32))
    ref = np.arange(N, dtype=np.float32)
    ref[0::2] = 7.5
    np.testing.assert_array_equal(mem, ref)


@tpx.jit
def bad_kernel(ptr, WHICH: tl.constexpr):
    offs = tl.arange(0, 16)
    if WHICH == 0:
        tl.atomic_add(ptr + offs, 1, sem="seq_cst")
    elif WHICH == 1:
        tl.atomic_add(ptr + offs, 1, scope="block")
    elif WHICH == 2:
        tl.atomic_max(ptr + offs, 1.0)
    elif WHICH == 3:
        tl.atomic_add(ptr, offs)


@pytest.mark.parametrize("dtype, which, match", [
    (np.int32, 0, "ValueError: Memory semantic seq_cst not supported"),
    (np.int32, 1, "ValueError: Memory semantic block not supported"),
    (np.float16, 2, "ValueError: atomic_max does not support fp16"),
    (np.int16, 0, "ValueError: atomic_add does not support int16"),
    (np.int8, 2, "ValueError: atomic_max does not support int8"),
    (np.bool_, 2, "ValueError: atomic_max does not support int1"),
    (np.int32, 3, "ValueError: Value argument cannot be block type if "
                  "pointer argument is not a block"),
])
def test_atomic_errors(dtype, which, match):
    with pytest.raises(CompilationError, match=match):
        h.run(bad_kernel, (1,), np.zeros(16, dtype), WHICH=which)


def test_atomic_cas_rejects_8_bit():
    @tpx.jit
    def kernel(ptr):
        tl.atomic_cas(ptr, 0, 1)
    with pytest.raises(CompilationError, match=r"atomic_cas only supports "
                       r"elements with width \{16, 32, 64\}"):
        h.run(kernel, (1,), np.zeros(4, np.int8))


def test_atomic_on_a_non_pointer():
    @tpx.jit
    def kernel(ptr):
        tl.atomic_add(tl.load(ptr), 1)
    with pytest.raises(CompilationError, match="Pointer argument of store "
                       "instruction is tpx.language.int32"):
        h.run(kernel, (1,), np.zeros(4, np.int32))
