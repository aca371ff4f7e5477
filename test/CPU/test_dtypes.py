"""Elementwise arithmetic on every storage dtype, unsigned arith ops, casts
and i1 masks stored as bytes."""
import numpy as np

from tpxcase import Buf, Scalar, check, kernel, load1d, range_, store1d

N = 128
rng = np.random.default_rng(1)


def binary_kernel(name, elem, ops, out_elem=None, grid_offset=True):
    """out[i] = ops(a[i], b[i]); `ops` is TTIR using %a, %b, defining %r."""
    out_elem = out_elem or elem
    t = f"tensor<{N}x{elem}>"
    body = range_("%o", N)
    body += load1d("%a", "a_ptr", elem, N, "%o") + load1d("%b", "b_ptr", elem, N, "%o")
    body += ops.replace("T", t).replace("U", f"tensor<{N}x{out_elem}>")
    body += store1d("out_ptr", out_elem, N, "%o", "%r", "r")
    return kernel(name, [("a_ptr", f"!tt.ptr<{elem}>"), ("b_ptr", f"!tt.ptr<{elem}>"),
                         ("out_ptr", f"!tt.ptr<{out_elem}>")], body)


def test_f16_arith(tmp_path):
    a = rng.standard_normal(N).astype(np.float16)
    b = rng.standard_normal(N).astype(np.float16)
    ops = """    %s = arith.addf %a, %b : T
    %m = arith.mulf %s, %a : T
    %r = arith.subf %m, %b : T
"""
    want = ((a + b) * a) - b
    check(tmp_path, "f16_arith", binary_kernel("f16_arith", "f16", ops),
          [Buf(a), Buf(b), Buf(np.zeros(N, np.float16), want)])


def to_bf16(x):
    """f32 -> bf16 bits, round to nearest even."""
    bits = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def from_bf16(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def test_bf16_arith(tmp_path):
    a = to_bf16(rng.standard_normal(N) * 10)
    b = to_bf16(rng.standard_normal(N))
    ops = """    %ax = arith.extf %a : T to tensor<128xf32>
    %bx = arith.extf %b : T to tensor<128xf32>
    %p = arith.mulf %ax, %bx : tensor<128xf32>
    %q = arith.addf %p, %ax : tensor<128xf32>
    %r = arith.truncf %q : tensor<128xf32> to T
"""
    fa, fb = from_bf16(a), from_bf16(b)
    want = to_bf16(fa * fb + fa)
    check(tmp_path, "bf16_arith", binary_kernel("bf16_arith", "bf16", ops),
          [Buf(a, dtype="bf16"), Buf(b, dtype="bf16"),
           Buf(np.zeros(N, np.uint16), want, dtype="bf16")])


def test_bf16_native_ops(tmp_path):
    # Triton keeps bf16 arithmetic in bf16 when the inputs are bf16.
    a = to_bf16(rng.standard_normal(N))
    b = to_bf16(rng.standard_normal(N))
    ops = """    %s = arith.addf %a, %b : T
    %r = arith.maximumf %s, %a : T
"""
    fa, fb = from_bf16(a), from_bf16(b)
    want = to_bf16(np.maximum(from_bf16(to_bf16(fa + fb)), fa))
    check(tmp_path, "bf16_native", binary_kernel("bf16_native", "bf16", ops),
          [Buf(a, dtype="bf16"), Buf(b, dtype="bf16"),
           Buf(np.zeros(N, np.uint16), want, dtype="bf16")])


def test_f64_arith(tmp_path):
    a = rng.standard_normal(N) * 1e100
    b = rng.standard_normal(N)
    ops = """    %m = arith.mulf %a, %b : T
    %d = arith.divf %m, %b : T
    %q = math.sqrt %d : T
    %r = arith.addf %q, %m : T
"""
    want = np.sqrt((a * b) / b) + a * b
    check(tmp_path, "f64_arith", binary_kernel("f64_arith", "f64", ops),
          [Buf(a), Buf(b), Buf(np.zeros(N), want)])


def test_i8_wraparound(tmp_path):
    a = rng.integers(-128, 128, N).astype(np.int8)
    b = rng.integers(-128, 128, N).astype(np.int8)
    ops = """    %s = arith.addi %a, %b : T
    %m = arith.muli %s, %a : T
    %x = arith.xori %m, %b : T
    %c = arith.constant dense<3> : T
    %r = arith.shrsi %x, %c : T
"""
    with np.errstate(over="ignore"):
        want = ((((a + b) * a) ^ b) >> 3).astype(np.int8)
    check(tmp_path, "i8_wrap", binary_kernel("i8_wrap", "i8", ops),
          [Buf(a), Buf(b), Buf(np.zeros(N, np.int8), want)])


def test_i16_divrem(tmp_path):
    a = rng.integers(-32768, 32768, N).astype(np.int16)
    b = rng.integers(1, 300, N).astype(np.int16) * rng.choice([-1, 1], N).astype(np.int16)
    ops = """    %d = arith.divsi %a, %b : T
    %m = arith.remsi %a, %b : T
    %c = arith.constant dense<7> : T
    %dd = arith.muli %d, %c : T
    %r = arith.addi %dd, %m : T
"""
    # C semantics: truncating division, remainder has the dividend's sign.
    q = np.trunc(a.astype(np.int64) / b).astype(np.int64)
    rem = a - q * b
    want = (q * 7 + rem).astype(np.int16)
    check(tmp_path, "i16_divrem", binary_kernel("i16_divrem", "i16", ops),
          [Buf(a), Buf(b), Buf(np.zeros(N, np.int16), want)])


def test_i64_arith(tmp_path):
    a = rng.integers(-2**62, 2**62, N, dtype=np.int64)
    b = rng.integers(1, 2**31, N, dtype=np.int64)
    ops = """    %d = arith.divsi %a, %b : T
    %m = arith.muli %b, %b : T
    %s = arith.addi %d, %m : T
    %c = arith.constant dense<40> : T
    %h = arith.shrsi %a, %c : T
    %r = arith.subi %s, %h : T
"""
    q = np.array([int(x / y) if False else (abs(int(x)) // int(y)) * (1 if x >= 0 else -1)
                  for x, y in zip(a, b)], dtype=np.int64)
    with np.errstate(over="ignore"):
        want = q + b * b - (a >> 40)
    check(tmp_path, "i64_arith", binary_kernel("i64_arith", "i64", ops),
          [Buf(a), Buf(b), Buf(np.zeros(N, np.int64), want)])


def test_unsigned_i32_ops(tmp_path):
    a = rng.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32)
    b = rng.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32)
    b[b == 0] = 3
    ops = """    %q = arith.divui %a, %b : T
    %m = arith.remui %a, %b : T
    %lt = arith.cmpi ult, %a, %b : T
    %mx = arith.maxui %a, %b : T
    %mn = arith.minui %a, %b : T
    %c4 = arith.constant dense<4> : T
    %sh = arith.shrui %a, %c4 : T
    %x1 = arith.addi %q, %m : T
    %x2 = arith.xori %mx, %mn : T
    %x3 = arith.addi %x1, %x2 : T
    %x4 = arith.select %lt, %x3, %sh : tensor<128xi1>, T
    %r = arith.ceildivui %x4, %c4 : T
"""
    ua, ub = a.view(np.uint32).astype(np.uint64), b.view(np.uint32).astype(np.uint64)
    x3 = (ua // ub + ua % ub + (np.maximum(ua, ub) ^ np.minimum(ua, ub))) % 2**32
    x4 = np.where(ua < ub, x3, ua >> 4)
    want = ((x4 + 3) // 4).astype(np.uint32).view(np.int32)
    check(tmp_path, "u32_ops", binary_kernel("u32_ops", "i32", ops),
          [Buf(a), Buf(b), Buf(np.zeros(N, np.int32), want)])


def test_int_float_casts(tmp_path):
    a = (rng.standard_normal(N) * 1000).astype(np.float32)
    a[:4] = [3.7, -3.7, 2.5e9, -0.5]
    b = np.abs(a)
    ops = """    %u = arith.fptoui %b : T to tensor<128xi64>
    %s = arith.fptosi %a : T to tensor<128xi16>
    %se = arith.extsi %s : tensor<128xi16> to tensor<128xi64>
    %sum = arith.addi %u, %se : tensor<128xi64>
    %t8 = arith.trunci %sum : tensor<128xi64> to tensor<128xi8>
    %z = arith.extui %t8 : tensor<128xi8> to tensor<128xi32>
    %f = arith.uitofp %z : tensor<128xi32> to T
    %g = arith.sitofp %t8 : tensor<128xi8> to T
    %r = arith.addf %f, %g : T
"""
    u = b.astype(np.int64)
    s = np.clip(np.trunc(a), -32768, 32767).astype(np.int64)
    s[2] = np.int16(0)  # fptosi out of range: not checked below
    t8 = (u + s).astype(np.int8)
    want = t8.view(np.uint8).astype(np.float32) + t8.astype(np.float32)
    # The out-of-range fptosi lane is undefined; give it an in-range value.
    a2 = a.copy()
    a2[2] = 12.0
    b2 = np.abs(a2)
    u = b2.astype(np.int64)
    s = np.trunc(a2).astype(np.int64)
    t8 = (u + s).astype(np.int8)
    want = t8.view(np.uint8).astype(np.float32) + t8.astype(np.float32)
    check(tmp_path, "casts", binary_kernel("casts", "f32", ops),
          [Buf(a2), Buf(b2), Buf(np.zeros(N, np.float32), want)])


def test_i1_masks_stored_as_bytes(tmp_path):
    # Triton stores bool tensors through i8 pointers (tl.store on a
    # torch.bool pointer bitcasts it); a direct !tt.ptr<i1> store must also
    # write one byte per element.
    a = rng.integers(-5, 5, N).astype(np.int32)
    body = range_("%o", N) + load1d("%a", "a_ptr", "i32", N, "%o")
    body += """    %z = arith.constant dense<0> : tensor<128xi32>
    %m = arith.cmpi sgt, %a, %z : tensor<128xi32>
    %bp = tt.bitcast %flags8 : !tt.ptr<i1> -> !tt.ptr<i8>
    %m8 = arith.extui %m : tensor<128xi1> to tensor<128xi8>
    %ps = tt.splat %bp : !tt.ptr<i8> -> tensor<128x!tt.ptr<i8>>
    %pp = tt.addptr %ps, %o : tensor<128x!tt.ptr<i8>>, tensor<128xi32>
    tt.store %pp, %m8 : tensor<128x!tt.ptr<i8>>
"""
    body += store1d("flags1", "i1", N, "%o", "%m", "f1")
    # Read the bytes back as i1 (non-zero is true) and select with them.
    body += load1d("%back", "flags1", "i1", N, "%o")
    body += """    %n = arith.constant dense<-1> : tensor<128xi32>
    %sv = arith.select %back, %a, %n : tensor<128xi1>, tensor<128xi32>
"""
    body += store1d("sel", "i32", N, "%o", "%sv", "s")
    ttir = kernel("i1_bytes", [("a_ptr", "!tt.ptr<i32>"), ("flags8", "!tt.ptr<i1>"),
                               ("flags1", "!tt.ptr<i1>"), ("sel", "!tt.ptr<i32>")], body)
    want = (a > 0).astype(np.uint8)
    check(tmp_path, "i1_bytes", ttir,
          [Buf(a), Buf(np.full(N, 7, np.uint8), want, dtype="i1"),
           Buf(np.full(N, 9, np.uint8), want, dtype="i1"),
           Buf(np.zeros(N, np.int32), np.where(a > 0, a, -1))])


def test_i1_load_nonzero_bytes_are_true(tmp_path):
    flags = rng.integers(0, 4, N).astype(np.uint8) * 50
    a = np.arange(N, dtype=np.int32)
    body = range_("%o", N) + load1d("%f", "flags", "i1", N, "%o")
    body += load1d("%a", "a_ptr", "i32", N, "%o")
    body += """    %n = arith.constant dense<-1> : tensor<128xi32>
    %sel = arith.select %f, %a, %n : tensor<128xi1>, tensor<128xi32>
"""
    body += store1d("out", "i32", N, "%o", "%sel", "s")
    ttir = kernel("i1_load", [("flags", "!tt.ptr<i1>"), ("a_ptr", "!tt.ptr<i32>"),
                              ("out", "!tt.ptr<i32>")], body)
    check(tmp_path, "i1_load", ttir,
          [Buf(flags, dtype="i1"), Buf(a),
           Buf(np.zeros(N, np.int32), np.where(flags != 0, a, -1))])


def test_scalar_args_of_each_type(tmp_path):
    # Scalars of several widths passed by value, combined into one f64.
    body = """    %e8 = arith.sitofp %s8 : i8 to f64
    %e16 = arith.sitofp %s16 : i16 to f64
    %e64 = arith.sitofp %s64 : i64 to f64
    %e32 = arith.extf %f32 : f32 to f64
    %eh = arith.extf %f16 : f16 to f64
    %a1 = arith.addf %e8, %e16 : f64
    %a2 = arith.addf %a1, %e64 : f64
    %a3 = arith.addf %a2, %e32 : f64
    %a4 = arith.addf %a3, %eh : f64
    %a5 = arith.addf %a4, %f64 : f64
    tt.store %out, %a5 : !tt.ptr<f64>
"""
    ttir = kernel("scalars", [("s8", "i8"), ("s16", "i16"), ("s64", "i64"),
                              ("f32", "f32"), ("f16", "f16"), ("f64", "f64"),
                              ("out", "!tt.ptr<f64>")], body)
    want = -5 + 1000 + 2**40 + 0.25 + 1.5 + 1e-3
    check(tmp_path, "scalars", ttir,
          [Scalar("i8", -5), Scalar("i16", 1000), Scalar("i64", 2**40),
           Scalar("f32", 0.25), Scalar("f16", 1.5), Scalar("f64", 1e-3),
           Buf(np.zeros(1), np.array([want]))])
