"""tt.fp_to_fp to and from float8 (f8E4M3FN, f8E5M2) with rtne and rtz,
against an exact encoder written here from the format definitions.

Semantics checked (those of Triton on NVIDIA GPUs):
  - rtne rounds to nearest, ties to even, and saturates: finite values past
    the largest finite value and infinities give +-max (cvt.rn.satfinite);
  - rtz truncates; finite overflow gives +-max; e5m2 keeps infinities
    (it has them), e4m3fn (which has none) saturates them;
  - NaN gives NaN; the sign of zero is kept.
"""
import numpy as np
import pytest

from tpxcase import Buf, check, kernel, load1d, range_, store1d

N = 256


def decode_table(fmt):
    """Value of every positive code 0..127 (NaN where it is one)."""
    vals = []
    for c in range(128):
        if fmt == "e4m3":
            e, m = c >> 3, c & 7
            if c == 0x7F:
                v = np.nan
            elif e == 0:
                v = m * 2.0 ** -9
            else:
                v = (1 + m / 8) * 2.0 ** (e - 7)
        else:
            e, m = c >> 2, c & 3
            if e == 31:
                v = np.inf if m == 0 else np.nan
            elif e == 0:
                v = m * 2.0 ** -16
            else:
                v = (1 + m / 4) * 2.0 ** (e - 15)
        vals.append(v)
    return np.array(vals)


def decode(codes, fmt):
    table = decode_table(fmt)
    mag = table[codes & 0x7F]
    return np.where(codes & 0x80, -mag, mag)


def encode(x, fmt, rounding):
    """Exact float8 encoding of float64 values `x` (codes as uint8)."""
    table = decode_table(fmt)
    finite_codes = [c for c in range(128) if np.isfinite(table[c])]
    maxcode = max(finite_codes, key=lambda c: table[c])
    out = []
    for v in np.asarray(x, np.float64):
        sign = 0x80 if np.signbit(v) else 0
        a = abs(v)
        if np.isnan(v):
            out.append(0x7F)
            continue
        if np.isinf(a):
            if rounding == "rtz" and fmt == "e5m2":
                out.append(sign | 0x7C)
            else:
                out.append(sign | maxcode)
            continue
        if a >= table[maxcode]:
            out.append(sign | maxcode)
            continue
        # Codes of one sign are ordered like their values.
        lo = max(c for c in finite_codes if table[c] <= a)
        hi = lo + 1
        if rounding == "rtz" or table[lo] == a:
            code = lo
        else:
            dlo, dhi = a - table[lo], table[hi] - a
            code = lo if dlo < dhi else hi if dhi < dlo else (lo if lo % 2 == 0 else hi)
        out.append(sign | code)
    return np.array(out, np.uint8)


def interesting_values(fmt):
    rng = np.random.default_rng(7)
    table = decode_table(fmt)
    finite = table[np.isfinite(table)]
    mx = finite.max()
    # Every representable value, the midpoints between neighbours (ties),
    # values just off the midpoints, beyond the range, specials.
    mids = (finite[:-1] + finite[1:]) / 2
    vals = np.concatenate([finite, mids, mids * (1 + 2 ** -12),
                           mids * (1 - 2 ** -12),
                           [mx * 1.03, mx * 1.2, mx * 4, 1e30, np.inf, np.nan,
                            finite[1] / 4, finite[1] * 0.75, 1e-30, 0.0]])
    vals = np.concatenate([vals, -vals])
    vals = np.concatenate([vals, rng.standard_normal(64) * mx / 8])
    return vals


def padded(vals, n):
    out = np.zeros(((len(vals) + n - 1) // n) * n)
    out[:len(vals)] = vals
    return out


def downcast_kernel(name, src, dst, rounding, n):
    fp8 = {"e4m3": "f8E4M3FN", "e5m2": "f8E5M2"}[dst]
    body = """    %pid = tt.get_program_id x : i32
    %c = arith.constant NN : i32
    %base = arith.muli %pid, %c : i32
    %bs = tt.splat %base : i32 -> tensor<NNxi32>
""".replace("NN", str(n))
    body += range_("%r", n) + f"    %o = arith.addi %bs, %r : tensor<{n}xi32>\n"
    body += load1d("%x", "x_ptr", src, n, "%o")
    body += (f"    %y = tt.fp_to_fp %x, rounding = {rounding} : "
             f"tensor<{n}x{src}> -> tensor<{n}x{fp8}>\n")
    body += store1d("y_ptr", fp8, n, "%o", "%y", "y")
    return kernel(name, [("x_ptr", f"!tt.ptr<{src}>"), ("y_ptr", f"!tt.ptr<{fp8}>")],
                  body)


@pytest.mark.parametrize("fmt", ["e4m3", "e5m2"])
@pytest.mark.parametrize("rounding", ["rtne", "rtz"])
def test_f32_to_fp8(tmp_path, fmt, rounding):
    n = 128
    vals = padded(interesting_values(fmt), n).astype(np.float32)
    want = encode(vals.astype(np.float64), fmt, rounding)
    name = f"f32_to_{fmt}_{rounding}"
    dtype = {"e4m3": "f8e4m3fn", "e5m2": "f8e5m2"}[fmt]
    check(tmp_path, name, downcast_kernel(name, "f32", fmt, rounding, n),
          [Buf(vals), Buf(np.full(len(vals), 0x55, np.uint8), want, dtype=dtype)],
          grid=(len(vals) // n, 1, 1))


@pytest.mark.parametrize("fmt", ["e4m3", "e5m2"])
def test_f16_to_fp8_rtne(tmp_path, fmt):
    n = 128
    vals = padded(interesting_values(fmt), n).astype(np.float16)
    want = encode(vals.astype(np.float64), fmt, "rtne")
    name = f"f16_to_{fmt}"
    dtype = {"e4m3": "f8e4m3fn", "e5m2": "f8e5m2"}[fmt]
    check(tmp_path, name, downcast_kernel(name, "f16", fmt, "rtne", n),
          [Buf(vals), Buf(np.zeros(len(vals), np.uint8), want, dtype=dtype)],
          grid=(len(vals) // n, 1, 1))


@pytest.mark.parametrize("fmt", ["e4m3", "e5m2"])
@pytest.mark.parametrize("dst", ["f32", "f16", "bf16"])
def test_fp8_upcast(tmp_path, fmt, dst):
    codes = np.arange(256, dtype=np.uint8)
    fp8 = {"e4m3": "f8E4M3FN", "e5m2": "f8E5M2"}[fmt]
    n = 256
    body = range_("%o", n) + load1d("%x", "x_ptr", fp8, n, "%o")
    body += f"    %y = tt.fp_to_fp %x : tensor<{n}x{fp8}> -> tensor<{n}x{dst}>\n"
    body += store1d("y_ptr", dst, n, "%o", "%y", "y")
    name = f"{fmt}_to_{dst}"
    ttir = kernel(name, [("x_ptr", f"!tt.ptr<{fp8}>"), ("y_ptr", f"!tt.ptr<{dst}>")], body)
    vals = decode(codes, fmt)
    if dst == "bf16":
        want = (vals.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
        out = Buf(np.zeros(n, np.uint16), want, dtype="bf16")
    else:
        out = Buf(np.zeros(n, np.dtype(dst.replace("f", "float"))),
                  vals.astype(np.dtype(dst.replace("f", "float"))))
    dtype = {"e4m3": "f8e4m3fn", "e5m2": "f8e5m2"}[fmt]
    check(tmp_path, name, ttir, [Buf(codes, dtype=dtype), out])


def test_fp8_roundtrip_between_formats(tmp_path):
    # e4m3 -> e5m2 (rtne) and back: through the exact value in between.
    codes = np.arange(256, dtype=np.uint8)
    n = 256
    body = range_("%o", n) + load1d("%x", "x_ptr", "f8E4M3FN", n, "%o")
    body += (f"    %y = tt.fp_to_fp %x, rounding = rtne : tensor<{n}xf8E4M3FN> -> tensor<{n}xf8E5M2>\n"
             f"    %z = tt.fp_to_fp %y : tensor<{n}xf8E5M2> -> tensor<{n}xf32>\n")
    body += store1d("y_ptr", "f8E5M2", n, "%o", "%y", "y")
    body += store1d("z_ptr", "f32", n, "%o", "%z", "z")
    ttir = kernel("e4m3_e5m2", [("x_ptr", "!tt.ptr<f8E4M3FN>"), ("y_ptr", "!tt.ptr<f8E5M2>"),
                                ("z_ptr", "!tt.ptr<f32>")], body)
    y = encode(decode(codes, "e4m3"), "e5m2", "rtne")
    check(tmp_path, "e4m3_e5m2", ttir,
          [Buf(codes, dtype="f8e4m3fn"), Buf(np.zeros(n, np.uint8), y, dtype="f8e5m2"),
           Buf(np.zeros(n, np.float32), decode(y, "e5m2").astype(np.float32))])
