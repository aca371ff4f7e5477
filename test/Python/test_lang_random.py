"""tl.random against a numpy Philox written from the published algorithm
(Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11),
checked first against Random123's known-answer vectors. The integer and
uniform outputs must match bit for bit; the normal ones to float32
rounding (their log/sqrt/cos/sin are the target's)."""

import numpy as np
import pytest

import tpx
import tpx.language as tl
from tpx.errors import CompilationError

import frontend_harness as h

N = 128

# Philox4x32 / 4x64 round multipliers and Weyl key increments.
M32 = (0xD2511F53, 0xCD9E8D57)
W32 = (0x9E3779B9, 0xBB67AE85)
M64 = (0xD2E7470EE14C6C93, 0xCA5A826395121157)
W64 = (0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B)


def philox4x32(c0, c1, c2, c3, k0, k1, rounds=10):
    """Vectorized Philox4x32 on uint32 arrays (products in uint64)."""
    c = [np.asarray(v, np.uint64) & 0xFFFFFFFF for v in (c0, c1, c2, c3)]
    k0, k1 = np.uint64(k0), np.uint64(k1)
    mask = np.uint64(0xFFFFFFFF)
    for _ in range(rounds):
        p0 = np.uint64(M32[0]) * c[0]
        p1 = np.uint64(M32[1]) * c[2]
        c = [((p1 >> np.uint64(32)) ^ c[1] ^ k0) & mask, p1 & mask,
             ((p0 >> np.uint64(32)) ^ c[3] ^ k1) & mask, p0 & mask]
        k0 = (k0 + np.uint64(W32[0])) & mask
        k1 = (k1 + np.uint64(W32[1])) & mask
    return [v.astype(np.uint32) for v in c]


def philox4x64(c0, c1, c2, c3, k0, k1, rounds=10):
    """Philox4x64 with Python integers (exact 128-bit products)."""
    mask = (1 << 64) - 1
    out = []
    for x0, x1, x2, x3 in zip(c0, c1, c2, c3):
        x = [int(x0) & mask, int(x1) & mask, int(x2) & mask, int(x3) & mask]
        a, b = k0, k1
        for _ in range(rounds):
            p0, p1 = M64[0] * x[0], M64[1] * x[2]
            x = [((p1 >> 64) ^ x[1] ^ a) & mask, p1 & mask,
                 ((p0 >> 64) ^ x[3] ^ b) & mask, p0 & mask]
            a, b = (a + W64[0]) & mask, (b + W64[1]) & mask
        out.append(x)
    return [np.array([o[i] for o in out], np.uint64) for i in range(4)]


def test_reference_matches_known_answers():
    ones = 0xFFFFFFFF
    assert [int(v[0]) for v in philox4x32([0], [0], [0], [0], 0, 0)] == \
        [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]
    assert [int(v[0]) for v in philox4x32([ones], [ones], [ones], [ones],
                                          ones, ones)] == \
        [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]
    assert [int(v[0]) for v in philox4x32(
        [0x243f6a88], [0x85a308d3], [0x13198a2e], [0x03707344], 0xa4093822,
        0x299f31d0)] == [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]
    assert [int(v[0]) for v in philox4x64([0], [0], [0], [0], 0, 0)] == \
        [0x16554d9eca36314c, 0xdb20fe9d672d0fdc, 0xd7e772cee186176b,
         0x7e68b68aec7ba23b]
    assert [int(v[0]) for v in philox4x64(
        [0x243f6a8885a308d3], [0x13198a2e03707344], [0xa4093822299f31d0],
        [0x082efa98ec4e6c89], 0x452821e638d01377, 0xbe5466cf34e90c6c)] == \
        [0xa528f45403e61d95, 0x38c72dbd566e9788, 0xa5a1610e72fd18b5,
         0x57bd43b5e52b7fe6]


def triton_randint4x(seed, offsets, rounds=10):
    """What tl.randint4x computes: counter (offset, 0, 0, 0), key = the
    64-bit seed's low and high words (32-bit offsets) or (seed, 0)."""
    seed &= (1 << 64) - 1
    zeros = np.zeros_like(offsets)
    if offsets.dtype.itemsize == 4:
        return philox4x32(offsets.view(np.uint32), zeros, zeros, zeros,
                          seed & 0xFFFFFFFF, seed >> 32, rounds)
    return philox4x64(offsets.view(np.uint64), zeros, zeros, zeros, seed, 0,
                      rounds)


def triton_uniform(bits):
    if bits.dtype.itemsize == 4:
        x = bits.view(np.int32)
        scale = np.float32(4.6566127342e-10)
    else:
        x = bits.view(np.int64)
        scale = np.float32(1.0842020432385337e-19)
    with np.errstate(over="ignore"):
        x = np.where(x < 0, -x - 1, x)
    return x.astype(np.float32) * scale


def triton_normal(u1, u2):
    u1 = np.maximum(np.float32(1e-7), u1)
    th = np.float32(6.283185307179586) * u2
    r = np.sqrt(np.float32(-2.0) * np.log(u1))
    return r * np.cos(th), r * np.sin(th)


@tpx.jit
def randint4x_kernel(seed, out_ptr, base, N: tl.constexpr,
                     ROUNDS: tl.constexpr, WIDE: tl.constexpr):
    i = tl.arange(0, N)
    offs = i + base
    if WIDE:
        offs = offs.to(tl.int64) * 4294967311
    a, b, c, d = tl.randint4x(seed, offs, ROUNDS)
    tl.store(out_ptr + i, a)
    tl.store(out_ptr + N + i, b)
    tl.store(out_ptr + 2 * N + i, c)
    tl.store(out_ptr + 3 * N + i, d)


def _offsets(base, wide):
    offs = np.arange(N, dtype=np.int64) + base
    if wide:
        return (offs * 4294967311).astype(np.int64)
    return offs.astype(np.int32)


@pytest.mark.parametrize("seed", [0, 42, -7, 0x7FFFFFFF, 2 ** 40 + 5])
@pytest.mark.parametrize("rounds", [10, 7])
def test_randint4x_bit_exact(seed, rounds):
    out = np.zeros(4 * N, np.uint32)
    text = h.run(randint4x_kernel, (1,), seed, out, 1000, N=N, ROUNDS=rounds,
                 WIDE=False)
    assert "tt.mulhiui" in text
    ref = triton_randint4x(seed, _offsets(1000, False), rounds)
    np.testing.assert_array_equal(out.reshape(4, N), np.stack(ref))


@pytest.mark.parametrize("seed", [3, -1])
def test_randint4x_64_bit_offsets(seed):
    out = np.zeros(4 * N, np.uint64)
    h.run(randint4x_kernel, (1,), seed, out, 5, N=N, ROUNDS=10, WIDE=True)
    ref = triton_randint4x(seed, _offsets(5, True))
    np.testing.assert_array_equal(out.reshape(4, N), np.stack(ref))


@tpx.jit
def rand_kernel(out_ptr, SEED: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(out_ptr + offs, tl.randint(SEED, offs))
    tl.store(out_ptr + N + offs, tl.rand(SEED, offs).to(tl.uint32,
                                                        bitcast=True))
    tl.store(out_ptr + 2 * N + offs, tl.random.randint(SEED, offs))


@pytest.mark.parametrize("seed", [123, 0xDEADBEEF])
def test_randint_and_rand_with_a_constexpr_seed(seed):
    out = np.zeros(3 * N, np.uint32)
    h.run(rand_kernel, (1,), out, SEED=seed, N=N)
    bits = triton_randint4x(seed, np.arange(N, dtype=np.int32))[0]
    np.testing.assert_array_equal(out[:N], bits)
    np.testing.assert_array_equal(out[N:2 * N].view(np.float32),
                                  triton_uniform(bits))
    np.testing.assert_array_equal(out[2 * N:], bits)


@tpx.jit
def rand4x_kernel(seed, out_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    offs = (i[:, None] * N + i[None, :]) * 3
    u1, u2, u3, u4 = tl.rand4x(seed, offs)
    n1, n2, n3, n4 = tl.randn4x(seed, offs)
    single = tl.randn(seed, offs)
    base = i[:, None] * N + i[None, :]
    tl.store(out_ptr + base, u1)
    tl.store(out_ptr + N * N + base, u4)
    tl.store(out_ptr + 2 * N * N + base, n1)
    tl.store(out_ptr + 3 * N * N + base, n4)
    tl.store(out_ptr + 4 * N * N + base, single)


def test_rand4x_and_randn_on_2d_offsets():
    n = 16
    out = np.zeros(5 * n * n, np.float32)
    h.run(rand4x_kernel, (1,), 77, out, N=n)
    out = out.reshape(5, n * n)
    offs = (np.arange(n * n, dtype=np.int32)) * 3
    words = triton_randint4x(77, offs)
    u = [triton_uniform(w) for w in words]
    np.testing.assert_array_equal(out[0], u[0])
    np.testing.assert_array_equal(out[1], u[3])
    n1, _ = triton_normal(u[0], u[1])
    _, n4 = triton_normal(u[2], u[3])
    np.testing.assert_allclose(out[2], n1, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(out[3], n4, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(out[4], n1, rtol=1e-5, atol=1e-5)
    assert out[0].min() >= 0 and out[0].max() < 1


@tpx.jit
def philox_kernel(out_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    a, b, c, d = tl.philox(0, i, i * 2, i * 3, i * 5, 10)
    p, q, r, s = tl.philox_impl(i.to(tl.uint32), i.to(tl.uint32),
                                i.to(tl.uint32), i.to(tl.uint32),
                                tl.full([], 7, tl.uint32),
                                tl.full([], 9, tl.uint32), 3)
    tl.store(out_ptr + i, a)
    tl.store(out_ptr + N + i, d)
    tl.store(out_ptr + 2 * N + i, p)
    tl.store(out_ptr + 3 * N + i, s)


def test_philox_and_philox_impl():
    out = np.zeros(4 * N, np.uint32)
    h.run(philox_kernel, (1,), out, N=N)
    i = np.arange(N, dtype=np.uint32)
    full = philox4x32(i, 2 * i, 3 * i, 5 * i, 0, 0)
    impl = philox4x32(i, i, i, i, 7, 9, 3)
    np.testing.assert_array_equal(out[:N], full[0])
    np.testing.assert_array_equal(out[N:2 * N], full[3])
    np.testing.assert_array_equal(out[2 * N:3 * N], impl[0])
    np.testing.assert_array_equal(out[3 * N:], impl[3])


@tpx.jit
def uniform_kernel(x_ptr, out_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    tl.store(out_ptr + i, tl.uint_to_uniform_float(tl.load(x_ptr + i)))


def test_uint_to_uniform_float_extremes():
    x = np.array([0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF] * 2,
                 np.uint32)[:8]
    out = np.zeros(8, np.float32)
    h.run(uniform_kernel, (1,), x, out, N=8)
    np.testing.assert_array_equal(out, triton_uniform(x))
    assert out.max() < 1.0
    with pytest.raises(CompilationError, match="AssertionError"):
        h.run(uniform_kernel, (1,), np.zeros(8, np.float32), out, N=8)


def test_random_namespace():
    for name in ("randint", "randint4x", "rand", "rand4x", "randn",
                 "randn4x", "philox", "philox_impl", "pair_uniform_to_normal",
                 "uint_to_uniform_float"):
        assert getattr(tl.random, name) is getattr(tl, name), name
    assert tl.random.N_ROUNDS_DEFAULT == 10
