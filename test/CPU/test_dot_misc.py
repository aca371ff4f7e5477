"""tt.dot / tt.dot_scaled, extern_elementwise (libdevice), clampf,
precise ops, bitcast, int_to_ptr/ptr_to_int, get_num_programs, control flow
(scf.if, scf.while, noinline tt.call), tt.print and tt.assert."""
import math

import numpy as np
import pytest

from tpxcase import (Buf, Scalar, check, cpu_only, check_rewritten, expect_fail, kernel, load1d, load2d,
                     offsets2d, ptrs, range_, run_case, store1d, store2d)
from test_dtypes import from_bf16, to_bf16

rng = np.random.default_rng(13)


@pytest.mark.parametrize("kind", ["f16", "bf16", "f32", "i8"])
def test_dot(tmp_path, kind):
    M, K, N = 16, 32, 16
    acc = "i32" if kind == "i8" else "f32"
    prec = ", inputPrecision = ieee" if kind == "f32" else ""
    body = load2d("%a", "a_ptr", kind, M, K) + load2d("%b", "b_ptr", kind, K, N) + load2d("%c", "c_ptr", acc, M, N)
    body += (f"    %d = tt.dot %a, %b, %c{prec} : tensor<{M}x{K}x{kind}> * "
             f"tensor<{K}x{N}x{kind}> -> tensor<{M}x{N}x{acc}>\n")
    body += store2d("d_ptr", acc, M, N, "%d", "d")
    ttir = kernel(f"dot_{kind}", [("a_ptr", f"!tt.ptr<{kind}>"), ("b_ptr", f"!tt.ptr<{kind}>"),
                                  ("c_ptr", f"!tt.ptr<{acc}>"), ("d_ptr", f"!tt.ptr<{acc}>")], body)
    if kind == "i8":
        a = rng.integers(-128, 128, (M, K)).astype(np.int8)
        b = rng.integers(-128, 128, (K, N)).astype(np.int8)
        c = rng.integers(-1000, 1000, (M, N)).astype(np.int32)
        want = a.astype(np.int32) @ b.astype(np.int32) + c
        args = [Buf(a), Buf(b), Buf(c), Buf(np.zeros((M, N), np.int32), want)]
    else:
        af = rng.standard_normal((M, K)).astype(np.float32)
        bf = rng.standard_normal((K, N)).astype(np.float32)
        c = rng.standard_normal((M, N)).astype(np.float32)
        if kind == "f16":
            a, b = af.astype(np.float16), bf.astype(np.float16)
            af, bf = a.astype(np.float32), b.astype(np.float32)
            extra = {}
        elif kind == "bf16":
            a, b = to_bf16(af), to_bf16(bf)
            af, bf = from_bf16(a), from_bf16(b)
            extra = {"dtype": "bf16"}
        else:
            a, b, extra = af, bf, {}
        want = (af.astype(np.float64) @ bf.astype(np.float64) + c).astype(np.float32)
        args = [Buf(a, **extra), Buf(b, **extra), Buf(c),
                Buf(np.zeros((M, N), np.float32), want, rtol=1e-5, atol=1e-5)]
    check(tmp_path, f"dot_{kind}", ttir, args)


def test_dot_3d_batched(tmp_path):
    Bt, M, K, N = 2, 16, 16, 8
    body = range_("%oa", Bt * M * K) + load1d("%af", "a_ptr", "f32", Bt * M * K, "%oa")
    body += range_("%ob", Bt * K * N) + load1d("%bf", "b_ptr", "f32", Bt * K * N, "%ob")
    body += f"""    %a = tt.reshape %af : tensor<{Bt*M*K}xf32> -> tensor<{Bt}x{M}x{K}xf32>
    %b = tt.reshape %bf : tensor<{Bt*K*N}xf32> -> tensor<{Bt}x{K}x{N}xf32>
    %z = arith.constant dense<0.0> : tensor<{Bt}x{M}x{N}xf32>
    %d = tt.dot %a, %b, %z, inputPrecision = ieee : tensor<{Bt}x{M}x{K}xf32> * tensor<{Bt}x{K}x{N}xf32> -> tensor<{Bt}x{M}x{N}xf32>
    %df = tt.reshape %d : tensor<{Bt}x{M}x{N}xf32> -> tensor<{Bt*M*N}xf32>
""" + range_("%od", Bt * M * N) + store1d("d_ptr", "f32", Bt * M * N, "%od", "%df", "d")
    ttir = kernel("dot3d", [("a_ptr", "!tt.ptr<f32>"), ("b_ptr", "!tt.ptr<f32>"), ("d_ptr", "!tt.ptr<f32>")], body)
    a = rng.standard_normal((Bt, M, K)).astype(np.float32)
    b = rng.standard_normal((Bt, K, N)).astype(np.float32)
    check(tmp_path, "dot3d", ttir, [Buf(a), Buf(b), Buf(np.zeros((Bt, M, N), np.float32), a @ b, rtol=1e-5, atol=1e-5)])


E2M1 = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6], np.float64)


def test_dot_scaled_e2m1_e4m3(tmp_path):
    # lhs: e2m1, two values per byte along K (low nibble first); rhs: e4m3.
    # Scales: e8m0 bytes (2^(s - 127)), one per 32 elements of K.
    from test_fp8 import decode
    M, K, N = 16, 64, 16
    body = load2d("%a", "a_ptr", "i8", M, K // 2) + load2d("%as", "as_ptr", "i8", M, K // 32)
    body += load2d("%b", "b_ptr", "f8E4M3FN", K, N) + load2d("%bs", "bs_ptr", "i8", N, K // 32)
    body += f"    %z = arith.constant dense<0.0> : tensor<{M}x{N}xf32>\n"
    body += (f"    %d = tt.dot_scaled %a scale %as, %b scale %bs, %z lhs = e2m1 rhs = e4m3 {{fastMath = false}} : "
             f"tensor<{M}x{K//2}xi8>, tensor<{M}x{K//32}xi8> * tensor<{K}x{N}xf8E4M3FN>, tensor<{N}x{K//32}xi8> -> tensor<{M}x{N}xf32>\n")
    body += store2d("d_ptr", "f32", M, N, "%d", "d")
    ttir = kernel("dot_scaled", [("a_ptr", "!tt.ptr<i8>"), ("as_ptr", "!tt.ptr<i8>"),
                                 ("b_ptr", "!tt.ptr<f8E4M3FN>"), ("bs_ptr", "!tt.ptr<i8>"),
                                 ("d_ptr", "!tt.ptr<f32>")], body)
    nib = rng.integers(0, 16, (M, K)).astype(np.uint8)
    packed = (nib[:, 0::2] | (nib[:, 1::2] << 4)).astype(np.uint8)
    aval = np.where(nib & 8, -1, 1) * E2M1[nib & 7]
    bcodes = rng.integers(0, 256, (K, N)).astype(np.uint8)
    bcodes[(bcodes & 0x7F) == 0x7F] = 0x38  # no NaNs
    bval = decode(bcodes, "e4m3")
    as_ = rng.integers(120, 134, (M, K // 32)).astype(np.uint8)
    bs = rng.integers(120, 134, (N, K // 32)).astype(np.uint8)
    asc = np.repeat(2.0 ** (as_.astype(np.float64) - 127), 32, axis=1)
    bsc = np.repeat(2.0 ** (bs.astype(np.float64) - 127), 32, axis=1).T
    want = ((aval * asc) @ (bval * bsc)).astype(np.float32)
    args = [Buf(packed.view(np.int8)), Buf(as_.view(np.int8)), Buf(bcodes, dtype="f8e4m3fn"),
            Buf(bs.view(np.int8)), Buf(np.zeros((M, N), np.float32), want, rtol=1e-5, atol=1e-5)]
    check(tmp_path, "dot_scaled", ttir, args)
    # The GPU's decomposition (bf16 operands of a tt.dot) computes the same.
    check_rewritten(tmp_path / "lowered", "dot_scaled", ttir, args,
                    "--tpxgpu-decompose-scaled-dots")


def test_dot_scaled_e5m2_e2m1_rhs_packed(tmp_path):
    # lhs: e5m2 without scales; rhs: e2m1 packed two per byte along K (low
    # nibble first), with scales.
    from test_fp8 import decode
    M, K, N = 16, 64, 32
    body = load2d("%a", "a_ptr", "f8E5M2", M, K)
    body += load2d("%b", "b_ptr", "i8", K // 2, N) + load2d("%bs", "bs_ptr", "i8", N, K // 32)
    body += f"    %z = arith.constant dense<0.0> : tensor<{M}x{N}xf32>\n"
    body += (f"    %d = tt.dot_scaled %a, %b scale %bs, %z lhs = e5m2 rhs = e2m1 {{fastMath = false}} : "
             f"tensor<{M}x{K}xf8E5M2> * tensor<{K//2}x{N}xi8>, tensor<{N}x{K//32}xi8> -> tensor<{M}x{N}xf32>\n")
    body += store2d("d_ptr", "f32", M, N, "%d", "d")
    ttir = kernel("dot_scaled_rhs", [("a_ptr", "!tt.ptr<f8E5M2>"), ("b_ptr", "!tt.ptr<i8>"),
                                     ("bs_ptr", "!tt.ptr<i8>"), ("d_ptr", "!tt.ptr<f32>")], body)
    acodes = rng.integers(0, 256, (M, K)).astype(np.uint8)
    acodes[(acodes & 0x7C) == 0x7C] = 0x3C  # no infinities or NaNs
    aval = decode(acodes, "e5m2")
    nib = rng.integers(0, 16, (K, N)).astype(np.uint8)
    packed = (nib[0::2, :] | (nib[1::2, :] << 4)).astype(np.uint8)
    bval = np.where(nib & 8, -1, 1) * E2M1[nib & 7]
    bs = rng.integers(120, 134, (N, K // 32)).astype(np.uint8)
    bsc = np.repeat(2.0 ** (bs.astype(np.float64) - 127), 32, axis=1).T
    want = (aval @ (bval * bsc)).astype(np.float32)
    args = [Buf(acodes, dtype="f8e5m2"), Buf(packed.view(np.int8)), Buf(bs.view(np.int8)),
            Buf(np.zeros((M, N), np.float32), want, rtol=1e-4, atol=1e-4)]
    check(tmp_path, "dot_scaled_rhs", ttir, args)
    check_rewritten(tmp_path / "lowered", "dot_scaled_rhs", ttir, args,
                    "--tpxgpu-decompose-scaled-dots")


def test_dot_scaled_nvfp4_e4m3_scales(tmp_path):
    # nvfp4: e2m1 operands (packed along K) with e4m3 scales, one per 16
    # elements of K (the scale tensors' second dimension says the group).
    from test_fp8 import decode
    M, K, N = 16, 64, 16
    G = K // 16
    body = load2d("%a", "a_ptr", "i8", M, K // 2) + load2d("%as", "as_ptr", "f8E4M3FN", M, G)
    body += load2d("%b", "b_ptr", "i8", K // 2, N) + load2d("%bs", "bs_ptr", "f8E4M3FN", N, G)
    body += f"    %z = arith.constant dense<0.0> : tensor<{M}x{N}xf32>\n"
    body += (f"    %d = tt.dot_scaled %a scale %as, %b scale %bs, %z lhs = e2m1 rhs = e2m1 {{fastMath = false}} : "
             f"tensor<{M}x{K//2}xi8>, tensor<{M}x{G}xf8E4M3FN> * tensor<{K//2}x{N}xi8>, tensor<{N}x{G}xf8E4M3FN> -> tensor<{M}x{N}xf32>\n")
    body += store2d("d_ptr", "f32", M, N, "%d", "d")
    ttir = kernel("dot_nvfp4", [("a_ptr", "!tt.ptr<i8>"), ("as_ptr", "!tt.ptr<f8E4M3FN>"),
                                ("b_ptr", "!tt.ptr<i8>"), ("bs_ptr", "!tt.ptr<f8E4M3FN>"),
                                ("d_ptr", "!tt.ptr<f32>")], body)
    anib = rng.integers(0, 16, (M, K)).astype(np.uint8)
    apacked = (anib[:, 0::2] | (anib[:, 1::2] << 4)).astype(np.uint8)
    aval = np.where(anib & 8, -1, 1) * E2M1[anib & 7]
    bnib = rng.integers(0, 16, (K, N)).astype(np.uint8)
    bpacked = (bnib[0::2, :] | (bnib[1::2, :] << 4)).astype(np.uint8)
    bval = np.where(bnib & 8, -1, 1) * E2M1[bnib & 7]
    # Positive e4m3 scales from 1/8 to 8 (codes 0x20 .. 0x50).
    as_ = rng.integers(0x20, 0x51, (M, G)).astype(np.uint8)
    bs = rng.integers(0x20, 0x51, (N, G)).astype(np.uint8)
    asc = np.repeat(decode(as_, "e4m3"), 16, axis=1)
    bsc = np.repeat(decode(bs, "e4m3"), 16, axis=1).T
    want = ((aval * asc) @ (bval * bsc)).astype(np.float32)
    args = [Buf(apacked.view(np.int8)), Buf(as_, dtype="f8e4m3fn"),
            Buf(bpacked.view(np.int8)), Buf(bs, dtype="f8e4m3fn"),
            Buf(np.zeros((M, N), np.float32), want, rtol=1e-5, atol=1e-5)]
    check(tmp_path, "dot_nvfp4", ttir, args)
    check_rewritten(tmp_path / "lowered", "dot_nvfp4", ttir, args,
                    "--tpxgpu-decompose-scaled-dots")


def test_extern_libdevice(tmp_path):
    n = 64
    fns = [("__nv_expf", np.exp), ("__nv_logf", np.log), ("__nv_erff", np.vectorize(math.erf)),
           ("__nv_sinf", np.sin), ("__nv_tanhf", np.tanh), ("__nv_rsqrtf", lambda x: 1 / np.sqrt(x))]
    body = range_("%o", n) + load1d("%x", "x_ptr", "f32", n, "%o") + load1d("%y", "y_ptr", "f32", n, "%o")
    outs = []
    for k, (sym, _) in enumerate(fns):
        body += (f"    %e{k} = tt.extern_elementwise %x {{libname = \"\", libpath = \"\", pure = true, "
                 f"symbol = \"{sym}\"}} : (tensor<{n}xf32>) -> tensor<{n}xf32>\n")
    body += (f"    %p = tt.extern_elementwise %x, %y {{libname = \"\", libpath = \"\", pure = true, "
             f"symbol = \"__nv_powf\"}} : (tensor<{n}xf32>, tensor<{n}xf32>) -> tensor<{n}xf32>\n")
    for k in range(len(fns)):
        body += store1d(f"o{k}_ptr", "f32", n, "%o", f"%e{k}", f"e{k}")
    body += store1d("p_ptr", "f32", n, "%o", "%p", "p")
    params = [("x_ptr", "!tt.ptr<f32>"), ("y_ptr", "!tt.ptr<f32>")] + \
        [(f"o{k}_ptr", "!tt.ptr<f32>") for k in range(len(fns))] + [("p_ptr", "!tt.ptr<f32>")]
    ttir = kernel("libdevice", params, body)
    x = rng.uniform(0.1, 3, n).astype(np.float32)
    y = rng.uniform(-2, 2, n).astype(np.float32)
    args = [Buf(x), Buf(y)]
    for _, f in fns:
        args.append(Buf(np.zeros(n, np.float32), f(x.astype(np.float64)).astype(np.float32), rtol=1e-5, atol=1e-6))
    args.append(Buf(np.zeros(n, np.float32), (x.astype(np.float64) ** y).astype(np.float32), rtol=1e-5, atol=1e-6))
    check(tmp_path, "libdevice", ttir, args)


def test_clampf_precise_bitcast(tmp_path):
    n = 64
    body = range_("%o", n) + load1d("%x", "x_ptr", "f32", n, "%o") + load1d("%y", "y_ptr", "f32", n, "%o")
    body += f"""    %lo = arith.constant dense<-1.0> : tensor<{n}xf32>
    %hi = arith.constant dense<2.0> : tensor<{n}xf32>
    %cn = tt.clampf %x, %lo, %hi, propagateNan = none : tensor<{n}xf32>
    %ca = tt.clampf %x, %lo, %hi, propagateNan = all : tensor<{n}xf32>
    %ax = math.absf %x : tensor<{n}xf32>
    %sq = tt.precise_sqrt %ax : tensor<{n}xf32>
    %dv = tt.precise_divf %x, %y : tensor<{n}xf32>
    %bi = tt.bitcast %x : tensor<{n}xf32> -> tensor<{n}xi32>
"""
    for k, v in enumerate(["%cn", "%ca", "%sq", "%dv"]):
        body += store1d(f"o{k}_ptr", "f32", n, "%o", v, f"o{k}")
    body += store1d("bits_ptr", "i32", n, "%o", "%bi", "b")
    ttir = kernel("clamp", [("x_ptr", "!tt.ptr<f32>"), ("y_ptr", "!tt.ptr<f32>")] +
                  [(f"o{k}_ptr", "!tt.ptr<f32>") for k in range(4)] + [("bits_ptr", "!tt.ptr<i32>")], body)
    x = (rng.standard_normal(n) * 3).astype(np.float32)
    x[:3] = [np.nan, np.inf, -np.inf]
    y = rng.uniform(0.5, 2, n).astype(np.float32)
    # propagateNan none: NaN does not propagate (max/min return the other
    # operand), so a NaN clamps to the lower bound.
    none = np.where(np.isnan(x), -1.0, np.clip(x, -1, 2)).astype(np.float32)
    allp = np.clip(x, -1, 2).astype(np.float32)
    with np.errstate(invalid="ignore"):
        sq = np.sqrt(np.abs(x)).astype(np.float32)
    check(tmp_path, "clamp", ttir,
          [Buf(x), Buf(y), Buf(np.zeros(n, np.float32), none), Buf(np.zeros(n, np.float32), allp),
           Buf(np.zeros(n, np.float32), sq), Buf(np.zeros(n, np.float32), x / y),
           Buf(np.zeros(n, np.int32), x.view(np.int32))])


def test_int_to_ptr_and_num_programs_3d(tmp_path):
    # ptr_to_int / int_to_ptr round trip with a byte offset; every program of
    # a 2x3x4 grid writes its linear id, computed from get_program_id and
    # get_num_programs, to out[linear] and the grid size to n_ptr.
    body = """    %x = tt.get_program_id x : i32
    %y = tt.get_program_id y : i32
    %z = tt.get_program_id z : i32
    %nx = tt.get_num_programs x : i32
    %ny = tt.get_num_programs y : i32
    %nz = tt.get_num_programs z : i32
    %zy = arith.muli %z, %ny : i32
    %zyy = arith.addi %zy, %y : i32
    %zyx = arith.muli %zyy, %nx : i32
    %lin = arith.addi %zyx, %x : i32
    %addr = tt.ptr_to_int %out_ptr : !tt.ptr<i32> -> i64
    %lin64 = arith.extsi %lin : i32 to i64
    %four = arith.constant 4 : i64
    %bytes = arith.muli %lin64, %four : i64
    %a2 = arith.addi %addr, %bytes : i64
    %p = tt.int_to_ptr %a2 : i64 -> !tt.ptr<i32>
    %v0 = arith.muli %lin, %lin : i32
    tt.store %p, %v0 : !tt.ptr<i32>
    %nxy = arith.muli %nx, %ny : i32
    %n = arith.muli %nxy, %nz : i32
    %one = arith.constant 1 : i32
    %old = tt.atomic_rmw max, acq_rel, gpu, %n_ptr, %n : (!tt.ptr<i32>, i32) -> i32
"""
    ttir = kernel("grid3d", [("out_ptr", "!tt.ptr<i32>"), ("n_ptr", "!tt.ptr<i32>")], body)
    lin = np.arange(24, dtype=np.int32)
    check(tmp_path, "grid3d", ttir, [Buf(np.zeros(24, np.int32), lin * lin),
                                     Buf(np.zeros(1, np.int32), np.array([24], np.int32))], grid=(2, 3, 4))


@pytest.mark.parametrize("use_call", [False, True])
def test_scf_if_while_and_noinline_call(tmp_path, use_call):
    # Collatz step counts with scf.while, an scf.if per program, and a
    # noinline helper called with tt.call.
    n = 32
    helper = """  tt.func private @step(%v: tensor<32xi32>) -> tensor<32xi32> attributes {noinline = true} {
    %one = arith.constant dense<1> : tensor<32xi32>
    %two = arith.constant dense<2> : tensor<32xi32>
    %three = arith.constant dense<3> : tensor<32xi32>
    %r = arith.remsi %v, %two : tensor<32xi32>
    %odd = arith.cmpi eq, %r, %one : tensor<32xi32>
    %h = arith.divsi %v, %two : tensor<32xi32>
    %t = arith.muli %v, %three : tensor<32xi32>
    %t1 = arith.addi %t, %one : tensor<32xi32>
    %s = arith.select %odd, %t1, %h : tensor<32xi1>, tensor<32xi32>
    tt.return %s : tensor<32xi32>
  }
"""
    body = range_("%o", n) + load1d("%x", "x_ptr", "i32", n, "%o")
    body += """    %one = arith.constant dense<1> : tensor<32xi32>
    %zero = arith.constant dense<0> : tensor<32xi32>
    %res:2 = scf.while (%v = %x, %c = %zero) : (tensor<32xi32>, tensor<32xi32>) -> (tensor<32xi32>, tensor<32xi32>) {
      %gt = arith.cmpi sgt, %v, %one : tensor<32xi32>
      %any = "tt.reduce"(%gt) <{axis = 0 : i32}> ({
      ^bb0(%p: i1, %q: i1):
        %t = arith.ori %p, %q : i1
        tt.reduce.return %t : i1
      }) : (tensor<32xi1>) -> i1
      scf.condition(%any) %v, %c : tensor<32xi32>, tensor<32xi32>
    } do {
    ^bb0(%v2: tensor<32xi32>, %c2: tensor<32xi32>):
      %gt2 = arith.cmpi sgt, %v2, %one : tensor<32xi32>
      CALL
      %v3 = arith.select %gt2, %nv, %v2 : tensor<32xi1>, tensor<32xi32>
      %inc = arith.extui %gt2 : tensor<32xi1> to tensor<32xi32>
      %c3 = arith.addi %c2, %inc : tensor<32xi32>
      scf.yield %v3, %c3 : tensor<32xi32>, tensor<32xi32>
    }
    %pid = tt.get_program_id x : i32
    %c0 = arith.constant 0 : i32
    %is0 = arith.cmpi eq, %pid, %c0 : i32
    %out = scf.if %is0 -> (tensor<32xi32>) {
      scf.yield %res#1 : tensor<32xi32>
    } else {
      %neg = arith.subi %zero, %res#1 : tensor<32xi32>
      scf.yield %neg : tensor<32xi32>
    }
    %pn = arith.muli %pid, %c32 : i32
    %c32 = arith.constant 32 : i32
""".replace("    %pn = arith.muli %pid, %c32 : i32\n    %c32 = arith.constant 32 : i32\n",
            "    %c32 = arith.constant 32 : i32\n    %pn = arith.muli %pid, %c32 : i32\n")
    if use_call:
        body = body.replace("CALL", "%nv = tt.call @step(%v2) : (tensor<32xi32>) -> tensor<32xi32>")
    else:
        inline = helper.split("{", 2)[2].rsplit("tt.return", 1)[0]
        inline = inline.replace("%v", "%v2").replace("%one", "%one_").replace("%s =", "%nv =")
        body = body.replace("      CALL\n", inline.replace("    %", "      %"))
        helper = ""
    body += "    %pns = tt.splat %pn : i32 -> tensor<32xi32>\n    %oo = arith.addi %pns, %o : tensor<32xi32>\n"
    body += store1d("y_ptr", "i32", n, "%oo", "%out", "y")
    name = "collatz_call" if use_call else "collatz"
    ttir = kernel(name, [("x_ptr", "!tt.ptr<i32>"), ("y_ptr", "!tt.ptr<i32>")], body, extra_funcs=helper)
    x = rng.integers(1, 200, n).astype(np.int32)

    def steps(v):
        k = 0
        while v > 1:
            v = 3 * v + 1 if v % 2 else v // 2
            k += 1
        return k
    s = np.array([steps(int(v)) for v in x], np.int32)
    check(tmp_path, name, ttir, [Buf(x), Buf(np.zeros(2 * n, np.int32), np.concatenate([s, -s]))],
          grid=(2, 1, 1))


def test_print(tmp_path):
    body = range_("%o", 4) + load1d("%x", "x_ptr", "i32", 4, "%o")
    body += """    %pid = tt.get_program_id x : i32
    tt.print " pid: " {hex = false, isSigned = array<i32: 1>} : %pid : i32
    tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %x : tensor<4xi32>
"""
    ttir = kernel("printer", [("x_ptr", "!tt.ptr<i32>")], body)
    x = np.array([5, -6, 7, 123456], np.int32)
    r = check(tmp_path, "printer", ttir, [Buf(x)], grid=(2, 1, 1))
    lines = r.stdout.splitlines()
    assert lines[-1] == "PASS printer"
    for pid in range(2):
        assert any(l.startswith(f"pid ({pid}, 0, 0)") and l.rstrip().endswith(f"pid: {pid}") for l in lines), lines
        for k, v in enumerate(x):
            assert any(l.startswith(f"pid ({pid}, 0, 0)") and f"idx ({k:3d})" in l and l.rstrip().endswith(f"x: {v}")
                       for l in lines), lines


@cpu_only("a failed device assert ends the CUDA context; tpx-run reports it as a launch failure")
def test_assert_failure_is_a_fail_line(tmp_path):
    body = range_("%o", 16) + load1d("%x", "x_ptr", "i32", 16, "%o")
    body += """    %z = arith.constant dense<0> : tensor<16xi32>
    %ok = arith.cmpi sge, %x, %z : tensor<16xi32>
    tt.assert %ok, "x must be non-negative" : tensor<16xi1>
"""
    ttir = kernel("asserter", [("x_ptr", "!tt.ptr<i32>")], body)
    x = np.arange(16, dtype=np.int32)
    check(tmp_path, "assert_ok", ttir, [Buf(x)])
    x[9] = -1
    r = expect_fail(tmp_path, "asserter", ttir, [Buf(x)])
    assert "x must be non-negative" in r.verdict and "element 9" in r.verdict, r.verdict


@cpu_only("x86 assembly")
def test_inline_asm_runs_host_assembly(tmp_path):
    # On the CPU target the assembly is the host's: x86 `lea` adds two i32
    # per element, and a second result comes back through a struct.
    n = 64
    body = range_("%o", n) + load1d("%x", "x_ptr", "i32", n, "%o") + load1d("%y", "y_ptr", "i32", n, "%o")
    body += f"""    %s, %d = tt.elementwise_inline_asm "leal ($2,$3), $0; movl $2, $1; subl $3, $1" {{constraints = "=&r,=&r,r,r", packed_element = 1 : i32, pure = true}} %x, %y : tensor<{n}xi32>, tensor<{n}xi32> -> tensor<{n}xi32>, tensor<{n}xi32>
"""
    body += store1d("s_ptr", "i32", n, "%o", "%s", "s")
    body += store1d("d_ptr", "i32", n, "%o", "%d", "d")
    ttir = kernel("asm", [("x_ptr", "!tt.ptr<i32>"), ("y_ptr", "!tt.ptr<i32>"),
                          ("s_ptr", "!tt.ptr<i32>"), ("d_ptr", "!tt.ptr<i32>")], body)
    x = rng.integers(-1000, 1000, n).astype(np.int32)
    y = rng.integers(-1000, 1000, n).astype(np.int32)
    check(tmp_path, "asm", ttir, [Buf(x), Buf(y), Buf(np.zeros(n, np.int32), x + y),
                                  Buf(np.zeros(n, np.int32), x - y)])


@cpu_only("PTX assembly is an error only on the CPU")
def test_inline_ptx_fails_cleanly_on_cpu(tmp_path):
    # GPU assembly cannot run on the host: LLVM's assembler names it.
    n = 64
    body = range_("%o", n) + load1d("%x", "x_ptr", "i32", n, "%o")
    body += f"""    %s = tt.elementwise_inline_asm "mov.b32 $0, $1;" {{constraints = "=r,r", packed_element = 1 : i32, pure = true}} %x : tensor<{n}xi32> -> tensor<{n}xi32>
"""
    body += store1d("s_ptr", "i32", n, "%o", "%s", "s")
    ttir = kernel("ptxasm", [("x_ptr", "!tt.ptr<i32>"), ("s_ptr", "!tt.ptr<i32>")], body)
    result = expect_fail(tmp_path, "ptxasm", ttir,
                         [Buf(np.zeros(n, np.int32)), Buf(np.zeros(n, np.int32))])
    assert "mov.b32" in result.verdict or "invalid instruction" in result.verdict, result.verdict
