"""`tl.random`: Triton's counter-based Philox generator.

Philox4x32 with `n_rounds` rounds (default 10) on the counter (offset's low
word, its high word, 0, 0) keyed by the 64-bit seed's two words; `philox`
on 64-bit counters is Philox4x64. The arithmetic, constants and conversions
are `triton.language.random`'s, so `tl.randint(seed, offsets)` gives
Triton's values bit for bit. `rand` maps the bits to [0, 1) and `randn` applies the
Box-Muller transform (its log/sqrt/cos/sin are the target's, so normal
samples agree to the last few ulps only).
"""

from tpx.language import basic, core
from tpx.language import math as _math
from tpx.language.core import builtin, constexpr

N_ROUNDS_DEFAULT = 10

# Philox constants: the Weyl key increments (golden ratio, sqrt(3) - 1) and
# the round multipliers, for 32- and 64-bit words.
_PHILOX32 = (0x9E3779B9, 0xBB67AE85, 0xD2511F53, 0xCD9E8D57)
_PHILOX64 = (0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B, 0xD2E7470EE14C6C93,
             0xCA5A826395121157)


from tpx.language.core import _unwrap_if_constexpr as _unwrap  # noqa


def _rounds(n_rounds):
    n = _unwrap(n_rounds)
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise ValueError("n_rounds must be a non-negative constexpr int, got "
                         "%r" % (n,))
    return n


def _const(sem, value, dt):
    return sem.constant(value, dt)


@builtin
def philox_impl(c0, c1, c2, c3, k0, k1, n_rounds=N_ROUNDS_DEFAULT,
                _semantic=None):
    """`n_rounds` Philox rounds on the counter (c0, c1, c2, c3) with key
    (k0, k1); all uint32 or all uint64. Returns the four output words."""
    sem = _semantic
    c0, c1, c2, c3, k0, k1 = (sem.to_tensor(_unwrap(v))
                              for v in (c0, c1, c2, c3, k0, k1))
    if c0.dtype == core.uint32:
        key_a, key_b, round_a, round_b = _PHILOX32
        word = core.uint32
    elif c0.dtype == core.uint64:
        key_a, key_b, round_a, round_b = _PHILOX64
        word = core.uint64
    else:
        raise AssertionError("dtype not supported in philox_impl")
    a = _const(sem, round_a, word)
    b = _const(sem, round_b, word)
    for _ in range(_rounds(n_rounds)):
        hi_b = _math.umulhi(b, c2, _semantic=sem)
        hi_a = _math.umulhi(a, c0, _semantic=sem)
        new_c0 = sem.xor_(sem.xor_(hi_b, c1), k0)
        new_c2 = sem.xor_(sem.xor_(hi_a, c3), k1)
        new_c1 = sem.mul(b, c2)
        new_c3 = sem.mul(a, c0)
        c0, c1, c2, c3 = new_c0, new_c1, new_c2, new_c3
        k0 = sem.add(k0, _const(sem, key_a, word))
        k1 = sem.add(k1, _const(sem, key_b, word))
    return c0, c1, c2, c3


@builtin
def philox(seed, c0, c1, c2, c3, n_rounds=N_ROUNDS_DEFAULT, _semantic=None):
    """Philox on counters c0..c3 (32- or 64-bit integers, reinterpreted as
    unsigned) keyed by the 64-bit `seed`: its low and high words for 32-bit
    counters, the whole seed (and a zero word) for 64-bit ones."""
    sem = _semantic
    seed = sem.cast(sem.to_tensor(_unwrap(seed)), core.uint64)
    c0, c1, c2, c3 = (sem.to_tensor(_unwrap(v)) for v in (c0, c1, c2, c3))
    bits = c0.dtype.primitive_bitwidth
    if bits == 32:
        word = core.uint32
        mask = _const(sem, 0xFFFFFFFF, core.uint64)
        seed_hi = sem.cast(sem.and_(sem.lshr(seed, _const(sem, 32,
                                                          core.uint64)),
                                    mask), word)
        seed_lo = sem.cast(sem.and_(seed, mask), word)
    elif bits == 64:
        word = core.uint64
        # Triton keys the 64-bit generator with a one-element zero block.
        seed_hi = sem.full([1], 0, word)
        seed_lo = seed
    else:
        raise AssertionError("bitwidth not supported in philox")
    c0, c1, c2, c3 = (sem.bitcast(v, word) for v in (c0, c1, c2, c3))
    return philox_impl(c0, c1, c2, c3, seed_lo, seed_hi, n_rounds,
                       _semantic=sem)


@builtin
def randint4x(seed, offset, n_rounds=N_ROUNDS_DEFAULT, _semantic=None):
    """Four blocks of random uint32 for the `seed` scalar and the `offset`
    block: Philox4x32 on the counter (low word of offset, its high word for
    64-bit offsets, 0, 0), as Triton 3.6."""
    sem = _semantic
    offset = sem.to_tensor(_unwrap(offset))
    low = sem.cast(offset, core.uint32)
    zero = sem.mul(low, 0)
    if offset.dtype.primitive_bitwidth > 32:
        high = sem.cast(sem.ashr(offset, 32) if offset.dtype.is_int_signed()
                        else sem.lshr(offset, 32), core.uint32)
    else:
        high = zero
    return philox(seed, low, high, zero, zero, n_rounds, _semantic=sem)


@builtin
def randint(seed, offset, n_rounds=N_ROUNDS_DEFAULT, _semantic=None):
    """One block of random unsigned integers (the first of randint4x)."""
    return randint4x(seed, offset, n_rounds, _semantic=_semantic)[0]


@builtin
def uint_to_uniform_float(x, _semantic=None):
    """Maps random 32- or 64-bit integers to float32 in [0, 1)."""
    sem = _semantic
    x = sem.to_tensor(_unwrap(x))
    if x.dtype in (core.uint32, core.int32):
        x = sem.bitcast(x, core.int32)
        # The largest scale with MAX_INT * scale < 1.0 in float32.
        scale = 4.6566127342e-10
    elif x.dtype in (core.uint64, core.int64):
        x = sem.bitcast(x, core.int64)
        scale = 1.0842020432385337e-19
    else:
        raise AssertionError("uint_to_uniform_float: expected a 32- or "
                             "64-bit integer, got %s" % x.dtype)
    negative = sem.less_than(x, 0)
    x = sem.where(negative, sem.sub(sem.minus(x), 1), x)
    return sem.mul(x, scale)


@builtin
def rand(seed, offset, n_rounds=N_ROUNDS_DEFAULT, _semantic=None):
    """A block of random float32 in [0, 1)."""
    bits = randint(seed, offset, n_rounds, _semantic=_semantic)
    return uint_to_uniform_float(bits, _semantic=_semantic)


@builtin
def rand4x(seed, offsets, n_rounds=N_ROUNDS_DEFAULT, _semantic=None):
    """Four blocks of random float32 in [0, 1)."""
    words = randint4x(seed, offsets, n_rounds, _semantic=_semantic)
    return tuple(uint_to_uniform_float(w, _semantic=_semantic)
                 for w in words)


@builtin
def pair_uniform_to_normal(u1, u2, _semantic=None):
    """Box-Muller: two uniform blocks -> two standard normal blocks."""
    sem = _semantic
    u1 = basic.maximum(1.0e-7, u1, _semantic=sem)
    th = sem.mul(6.283185307179586, u2)
    r = _math.sqrt(sem.mul(-2.0, _math.log(u1, _semantic=sem)),
                   _semantic=sem)
    return (sem.mul(r, _math.cos(th, _semantic=sem)),
            sem.mul(r, _math.sin(th, _semantic=sem)))


@builtin
def randn(seed, offset, n_rounds=N_ROUNDS_DEFAULT, _semantic=None):
    """A block of random float32 from N(0, 1)."""
    sem = _semantic
    i1, i2, _, _ = randint4x(seed, offset, n_rounds, _semantic=sem)
    u1 = uint_to_uniform_float(i1, _semantic=sem)
    u2 = uint_to_uniform_float(i2, _semantic=sem)
    return pair_uniform_to_normal(u1, u2, _semantic=sem)[0]


@builtin
def randn4x(seed, offset, n_rounds=N_ROUNDS_DEFAULT, _semantic=None):
    """Four blocks of random float32 from N(0, 1)."""
    sem = _semantic
    u1, u2, u3, u4 = rand4x(seed, offset, n_rounds, _semantic=sem)
    n1, n2 = pair_uniform_to_normal(u1, u2, _semantic=sem)
    n3, n4 = pair_uniform_to_normal(u3, u4, _semantic=sem)
    return n1, n2, n3, n4


__all__ = ["pair_uniform_to_normal", "philox", "philox_impl", "rand",
           "rand4x", "randint", "randint4x", "randn", "randn4x",
           "uint_to_uniform_float"]
