"""Shape ops (join/split/cat/trans/reshape/expand_dims/broadcast/gather/
unsplat), custom and multi-operand reductions along every axis, scans,
map_elementwise and histogram."""
import numpy as np
import pytest

from tpxcase import Buf, check, cpu_only, kernel, load1d, load2d, offsets2d, ptrs, range_, store1d, store2d

rng = np.random.default_rng(5)


def test_join_split_cat_trans_reshape(tmp_path):
    body = range_("%o", 8) + load1d("%a", "a_ptr", "f32", 8, "%o") + load1d("%b", "b_ptr", "f32", 8, "%o")
    body += """    %j = tt.join %a, %b : tensor<8xf32> -> tensor<8x2xf32>
    %t = tt.trans %j {order = array<i32: 1, 0>} : tensor<8x2xf32> -> tensor<2x8xf32>
    %rs = tt.reshape %t : tensor<2x8xf32> -> tensor<16xf32>
    %l, %r = tt.split %j : tensor<8x2xf32> -> tensor<8xf32>
    %d = arith.subf %l, %r : tensor<8xf32>
    %c = tt.cat %d, %a : tensor<8xf32> -> tensor<16xf32>
    %s = arith.addf %rs, %c : tensor<16xf32>
    %r3 = tt.reshape %s : tensor<16xf32> -> tensor<2x2x4xf32>
    %t3 = tt.trans %r3 {order = array<i32: 2, 0, 1>} : tensor<2x2x4xf32> -> tensor<4x2x2xf32>
    %f = tt.reshape %t3 : tensor<4x2x2xf32> -> tensor<16xf32>
"""
    body += range_("%o16", 16) + store1d("out_ptr", "f32", 16, "%o16", "%f", "o")
    ttir = kernel("shapes", [("a_ptr", "!tt.ptr<f32>"), ("b_ptr", "!tt.ptr<f32>"),
                             ("out_ptr", "!tt.ptr<f32>")], body)
    a = rng.standard_normal(8).astype(np.float32)
    b = rng.standard_normal(8).astype(np.float32)
    j = np.stack([a, b], axis=1)
    s = j.T.reshape(16) + np.concatenate([a - b, a])
    want = s.reshape(2, 2, 4).transpose(2, 0, 1).reshape(16)
    check(tmp_path, "shapes", ttir, [Buf(a), Buf(b), Buf(np.zeros(16, np.float32), want)])


@cpu_only("tensors of 4x3, 5x8 and 12 elements, which Triton does not allow")
def test_expand_broadcast_gather_unsplat(tmp_path):
    body = load2d("%x", "x_ptr", "f32", 4, 8) + load2d("%i", "idx_ptr", "i32", 4, 3, 3)
    body += """    %g = tt.gather %x[%i] {axis = 1 : i32} : (tensor<4x8xf32>, tensor<4x3xi32>) -> tensor<4x3xf32>
    %i0 = tt.load %idx0_p : tensor<5x!tt.ptr<i32>>
    %g0 = tt.gather %x[%i0] {axis = 0 : i32} : (tensor<4x8xf32>, tensor<5x8xi32>) -> tensor<5x8xf32>
    %one = tt.reshape %g : tensor<4x3xf32> -> tensor<1x12xf32>
    %first = tt.reshape %i0 : tensor<5x8xi32> -> tensor<40xi32>
"""
    body = body.replace("    %i0 = tt.load %idx0_p : tensor<5x!tt.ptr<i32>>\n",
                        offsets2d("%io", 5, 8, 8) + ptrs("%idx0_p", "idx0_ptr", "i32", [5, 8], "%io")
                        + "    %i0 = tt.load %idx0_p : tensor<5x8x!tt.ptr<i32>>\n")
    body += store2d("g_ptr", "f32", 4, 3, "%g", "g", 3) + store2d("g0_ptr", "f32", 5, 8, "%g0", "g0")
    # unsplat a 1x1 tensor to a scalar and broadcast it back over a row.
    body += """    %x11 = tt.reshape %one : tensor<1x12xf32> -> tensor<12x1xf32>
    %sum = "tt.reduce"(%x11) <{axis = 0 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %t = arith.addf %p, %q : f32
      tt.reduce.return %t : f32
    }) : (tensor<12x1xf32>) -> tensor<1xf32>
    %e = tt.expand_dims %sum {axis = 0 : i32} : tensor<1xf32> -> tensor<1x1xf32>
    %sc = tt.unsplat %e : tensor<1x1xf32>
    %bc = tt.broadcast %e : tensor<1x1xf32> -> tensor<1x4xf32>
    %bcr = tt.reshape %bc : tensor<1x4xf32> -> tensor<4xf32>
    %sp = tt.splat %sc : f32 -> tensor<4xf32>
    %two = arith.addf %bcr, %sp : tensor<4xf32>
"""
    body += range_("%o4", 4) + store1d("s_ptr", "f32", 4, "%o4", "%two", "s")
    ttir = kernel("gather", [("x_ptr", "!tt.ptr<f32>"), ("idx_ptr", "!tt.ptr<i32>"),
                             ("idx0_ptr", "!tt.ptr<i32>"), ("g_ptr", "!tt.ptr<f32>"),
                             ("g0_ptr", "!tt.ptr<f32>"), ("s_ptr", "!tt.ptr<f32>")], body)
    x = rng.standard_normal((4, 8)).astype(np.float32)
    idx = rng.integers(0, 8, (4, 3)).astype(np.int32)
    idx0 = rng.integers(0, 4, (5, 8)).astype(np.int32)
    g = np.take_along_axis(x, idx, axis=1)
    g0 = np.take_along_axis(x, idx0, axis=0)
    total = np.float32(g.sum())
    check(tmp_path, "gather", ttir,
          [Buf(x), Buf(idx), Buf(idx0), Buf(np.zeros((4, 3), np.float32), g),
           Buf(np.zeros((5, 8), np.float32), g0),
           Buf(np.zeros(4, np.float32), np.full(4, 2 * total), rtol=1e-5, atol=1e-5)])


ARGMAX_REGION = """    ^bb0(%v0: f32, %i0: i32, %v1: f32, %i1: i32):
      %tie = arith.cmpf oeq, %v0, %v1 : f32
      %lt = arith.cmpi slt, %i0, %i1 : i32
      %tie2 = arith.andi %tie, %lt : i1
      %gt = arith.cmpf ogt, %v0, %v1 : f32
      %take = arith.ori %gt, %tie2 : i1
      %v = arith.select %take, %v0, %v1 : f32
      %i = arith.select %take, %i0, %i1 : i32
      tt.reduce.return %v, %i : f32, i32
"""


def test_argmax_with_ties_along_rows(tmp_path):
    # Values drawn from a small set so that every row has ties: the smallest
    # index of the maximum must win.
    R, C = 16, 32
    body = load2d("%x", "x_ptr", "f32", R, C) + offsets2d("%ix", R, C, 0)
    body += f"""    %res:2 = "tt.reduce"(%x, %ix) <{{axis = 1 : i32}}> ({{
{ARGMAX_REGION}    }}) : (tensor<{R}x{C}xf32>, tensor<{R}x{C}xi32>) -> (tensor<{R}xf32>, tensor<{R}xi32>)
"""
    body += range_("%o", R) + store1d("v_ptr", "f32", R, "%o", "%res#0", "v")
    body += store1d("i_ptr", "i32", R, "%o", "%res#1", "i")
    ttir = kernel("argmax", [("x_ptr", "!tt.ptr<f32>"), ("v_ptr", "!tt.ptr<f32>"),
                             ("i_ptr", "!tt.ptr<i32>")], body)
    x = rng.integers(0, 4, (R, C)).astype(np.float32)
    check(tmp_path, "argmax", ttir,
          [Buf(x), Buf(np.zeros(R, np.float32), x.max(axis=1)),
           Buf(np.zeros(R, np.int32), x.argmax(axis=1).astype(np.int32))])


@pytest.mark.parametrize("shape", [
    pytest.param([4, 6, 8], marks=cpu_only("a dimension that is not a power "
                                           "of two, which Triton does not "
                                           "allow"), id="4x6x8"),
    pytest.param([2, 4, 8], id="2x4x8")])
@pytest.mark.parametrize("axis", [0, 1, 2])
def test_reduce_3d_each_axis(tmp_path, axis, shape):
    # Integer max and float sum of a 3-D tensor along `axis`.
    n = shape[0] * shape[1] * shape[2]
    out_shape = [d for k, d in enumerate(shape) if k != axis]
    t3 = "tensor<%dx%dx%dx{}>" % tuple(shape)
    to = "tensor<{}x{}x{{}}>".format(*out_shape)
    body = range_("%o", n) + load1d("%xf", "x_ptr", "f32", n, "%o") + load1d("%xi", "y_ptr", "i32", n, "%o")
    body += f"""    %f3 = tt.reshape %xf : tensor<{n}xf32> -> {t3.format('f32')}
    %i3 = tt.reshape %xi : tensor<{n}xi32> -> {t3.format('i32')}
    %s = "tt.reduce"(%f3) <{{axis = {axis} : i32}}> ({{
    ^bb0(%p: f32, %q: f32):
      %t = arith.addf %p, %q : f32
      tt.reduce.return %t : f32
    }}) : ({t3.format('f32')}) -> {to.format('f32')}
    %m = "tt.reduce"(%i3) <{{axis = {axis} : i32}}> ({{
    ^bb0(%p: i32, %q: i32):
      %t = arith.maxsi %p, %q : i32
      tt.reduce.return %t : i32
    }}) : ({t3.format('i32')}) -> {to.format('i32')}
"""
    k = out_shape[0] * out_shape[1]
    body += f"""    %sf = tt.reshape %s : {to.format('f32')} -> tensor<{k}xf32>
    %mf = tt.reshape %m : {to.format('i32')} -> tensor<{k}xi32>
""" + range_("%ok", k) + store1d("s_ptr", "f32", k, "%ok", "%sf", "s") + store1d("m_ptr", "i32", k, "%ok", "%mf", "m")
    ttir = kernel("reduce3d", [("x_ptr", "!tt.ptr<f32>"), ("y_ptr", "!tt.ptr<i32>"),
                               ("s_ptr", "!tt.ptr<f32>"), ("m_ptr", "!tt.ptr<i32>")], body)
    x = rng.standard_normal(shape).astype(np.float32)
    y = rng.integers(-1000, 1000, shape).astype(np.int32)
    check(tmp_path, f"reduce3d_{axis}_{shape[1]}", ttir,
          [Buf(x), Buf(y), Buf(np.zeros(k, np.float32), x.sum(axis=axis).reshape(k), rtol=1e-5, atol=1e-5),
           Buf(np.zeros(k, np.int32), y.max(axis=axis).reshape(k))])


def test_reduce_to_scalar_and_axis0_2d(tmp_path):
    body = load2d("%x", "x_ptr", "i64", 8, 16)
    body += """    %col = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%p: i64, %q: i64):
      %t = arith.muli %p, %q : i64
      tt.reduce.return %t : i64
    }) : (tensor<8x16xi64>) -> tensor<16xi64>
    %tot = "tt.reduce"(%col) <{axis = 0 : i32}> ({
    ^bb0(%p: i64, %q: i64):
      %t = arith.addi %p, %q : i64
      tt.reduce.return %t : i64
    }) : (tensor<16xi64>) -> i64
    tt.store %t_ptr, %tot : !tt.ptr<i64>
"""
    body += range_("%o", 16) + store1d("c_ptr", "i64", 16, "%o", "%col", "c")
    ttir = kernel("reduce_scalar", [("x_ptr", "!tt.ptr<i64>"), ("c_ptr", "!tt.ptr<i64>"),
                                    ("t_ptr", "!tt.ptr<i64>")], body)
    x = rng.integers(-3, 4, (8, 16)).astype(np.int64)
    col = np.prod(x, axis=0)
    check(tmp_path, "reduce_scalar", ttir,
          [Buf(x), Buf(np.zeros(16, np.int64), col), Buf(np.zeros(1, np.int64), np.array([col.sum()]))])


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("axis", [0, 1])
def test_scan_2d(tmp_path, axis, reverse):
    R, C = 8, 16
    rev = "true" if reverse else "false"
    body = load2d("%x", "x_ptr", "i32", R, C)
    body += f"""    %s = "tt.scan"(%x) <{{axis = {axis} : i32, reverse = {rev}}}> ({{
    ^bb0(%p: i32, %q: i32):
      %t = arith.addi %p, %q : i32
      tt.scan.return %t : i32
    }}) : (tensor<{R}x{C}xi32>) -> tensor<{R}x{C}xi32>
"""
    body += store2d("y_ptr", "i32", R, C, "%s", "y")
    ttir = kernel("scan2d", [("x_ptr", "!tt.ptr<i32>"), ("y_ptr", "!tt.ptr<i32>")], body)
    x = rng.integers(-100, 100, (R, C)).astype(np.int32)
    if reverse:
        want = np.flip(np.cumsum(np.flip(x, axis), axis=axis), axis)
    else:
        want = np.cumsum(x, axis=axis)
    check(tmp_path, f"scan_{axis}_{rev}", ttir,
          [Buf(x), Buf(np.zeros((R, C), np.int32), want.astype(np.int32))])


@pytest.mark.parametrize("reverse", [False, True])
def test_scan_multi_operand_running_argmax(tmp_path, reverse):
    # Running (max, index of first max) pairs: a two-operand, non-trivial
    # combine, order-sensitive on ties.
    n = 64
    rev = "true" if reverse else "false"
    body = range_("%o", n) + load1d("%x", "x_ptr", "f32", n, "%o")
    body += f"""    %s:2 = "tt.scan"(%x, %o) <{{axis = 0 : i32, reverse = {rev}}}> ({{
    ^bb0(%v0: f32, %i0: i32, %v1: f32, %i1: i32):
      %gt = arith.cmpf ogt, %v1, %v0 : f32
      %v = arith.select %gt, %v1, %v0 : f32
      %i = arith.select %gt, %i1, %i0 : i32
      tt.scan.return %v, %i : f32, i32
    }}) : (tensor<{n}xf32>, tensor<{n}xi32>) -> (tensor<{n}xf32>, tensor<{n}xi32>)
"""
    body += store1d("v_ptr", "f32", n, "%o", "%s#0", "v") + store1d("i_ptr", "i32", n, "%o", "%s#1", "i")
    ttir = kernel("scan_argmax", [("x_ptr", "!tt.ptr<f32>"), ("v_ptr", "!tt.ptr<f32>"),
                                  ("i_ptr", "!tt.ptr<i32>")], body)
    x = rng.integers(0, 6, n).astype(np.float32)
    vs, idx = np.zeros(n, np.float32), np.zeros(n, np.int32)
    order = range(n - 1, -1, -1) if reverse else range(n)
    acc = None
    for k in order:
        # combine(acc, new): the new element wins only if strictly greater.
        if acc is None or x[k] > acc[0]:
            acc = (x[k], k)
        vs[k], idx[k] = acc
    check(tmp_path, f"scan_argmax_{rev}", ttir,
          [Buf(x), Buf(np.zeros(n, np.float32), vs), Buf(np.zeros(n, np.int32), idx)])


@pytest.mark.parametrize("pack", [1, 2])
def test_map_elementwise(tmp_path, pack):
    # A scalar region with control flow (as Triton emits for
    # tl.map_elementwise with an if): y = a > b ? a - b : a * b, plus a
    # second result. With pack 2 the region sees two elements of each
    # source: (a0, a1, b0, b1) and yields (y0, y1, z0, z1).
    n = 64
    if pack == 1:
        region = """    ^bb0(%a0: f32, %b0: i32):
      %bf = arith.sitofp %b0 : i32 to f32
      %c = arith.cmpf ogt, %a0, %bf : f32
      cf.cond_br %c, ^bb1, ^bb2
    ^bb1:
      %d = arith.subf %a0, %bf : f32
      tt.map_elementwise.return %d, %b0 : f32, i32
    ^bb2:
      %m = arith.mulf %a0, %bf : f32
      %k = arith.constant 7 : i32
      %z = arith.addi %b0, %k : i32
      tt.map_elementwise.return %m, %z : f32, i32
"""
    else:
        region = """    ^bb0(%a0: f32, %a1: f32, %b0: i32, %b1: i32):
      %bf = arith.sitofp %b0 : i32 to f32
      %bg = arith.sitofp %b1 : i32 to f32
      %c0 = arith.cmpf ogt, %a0, %bf : f32
      %c1 = arith.cmpf ogt, %a1, %bg : f32
      %d0 = arith.subf %a0, %bf : f32
      %m0 = arith.mulf %a0, %bf : f32
      %d1 = arith.subf %a1, %bg : f32
      %m1 = arith.mulf %a1, %bg : f32
      %y0 = arith.select %c0, %d0, %m0 : f32
      %y1 = arith.select %c1, %d1, %m1 : f32
      %k = arith.constant 7 : i32
      %e0 = arith.addi %b0, %k : i32
      %e1 = arith.addi %b1, %k : i32
      %z0 = arith.select %c0, %b0, %e0 : i32
      %z1 = arith.select %c1, %b1, %e1 : i32
      tt.map_elementwise.return %y0, %y1, %z0, %z1 : f32, f32, i32, i32
"""
    body = range_("%o", n) + load1d("%a", "a_ptr", "f32", n, "%o") + load1d("%b", "b_ptr", "i32", n, "%o")
    body += f"""    %r:2 = "tt.map_elementwise"(%a, %b) <{{pack = {pack} : i32}}> ({{
{region}    }}) : (tensor<{n}xf32>, tensor<{n}xi32>) -> (tensor<{n}xf32>, tensor<{n}xi32>)
"""
    body += store1d("y_ptr", "f32", n, "%o", "%r#0", "y") + store1d("z_ptr", "i32", n, "%o", "%r#1", "z")
    ttir = kernel("mapew", [("a_ptr", "!tt.ptr<f32>"), ("b_ptr", "!tt.ptr<i32>"),
                            ("y_ptr", "!tt.ptr<f32>"), ("z_ptr", "!tt.ptr<i32>")], body)
    a = rng.standard_normal(n).astype(np.float32) * 4
    b = rng.integers(-4, 4, n).astype(np.int32)
    c = a > b
    check(tmp_path, f"mapew_{pack}", ttir,
          [Buf(a), Buf(b), Buf(np.zeros(n, np.float32), np.where(c, a - b, a * b)),
           Buf(np.zeros(n, np.int32), np.where(c, b, b + 7))])


@pytest.mark.parametrize("masked", [False, True])
def test_histogram(tmp_path, masked):
    n, bins = 256, 32
    body = range_("%o", n) + load1d("%x", "x_ptr", "i32", n, "%o")
    if masked:
        body += f"""    %lim = arith.constant dense<200> : tensor<{n}xi32>
    %m = arith.cmpi slt, %o, %lim : tensor<{n}xi32>
    %h = tt.histogram %x, %m : tensor<{n}xi32> -> tensor<{bins}xi32>
"""
    else:
        body += f"    %h = tt.histogram %x : tensor<{n}xi32> -> tensor<{bins}xi32>\n"
    body += range_("%ob", bins) + store1d("h_ptr", "i32", bins, "%ob", "%h", "h")
    ttir = kernel("hist", [("x_ptr", "!tt.ptr<i32>"), ("h_ptr", "!tt.ptr<i32>")], body)
    x = rng.integers(0, bins, n).astype(np.int32)
    used = x[:200] if masked else x
    want = np.bincount(used, minlength=bins).astype(np.int32)
    check(tmp_path, f"hist_{masked}", ttir, [Buf(x), Buf(np.full(bins, -1, np.int32), want)])


def test_cat_gather_histogram_grid(tmp_path):
    """cat, gather and histogram in one kernel over a grid of programs: on
    the GPU every program allocates its tensor buffers at once (the case a
    memcheck run once failed on)."""
    programs, n, bins = 48, 64, 16
    body = f"""    %pid = tt.get_program_id x : i32
    %cn = arith.constant {n} : i32
    %c2n = arith.constant {2 * n} : i32
    %cb = arith.constant {bins} : i32
    %base = arith.muli %pid, %cn : i32
    %base2 = arith.muli %pid, %c2n : i32
    %baseb = arith.muli %pid, %cb : i32
"""
    body += range_("%r", n) + f"    %bs = tt.splat %base : i32 -> tensor<{n}xi32>\n"
    body += f"    %o = arith.addi %bs, %r : tensor<{n}xi32>\n"
    body += load1d("%a", "a_ptr", "i32", n, "%o") + load1d("%b", "b_ptr", "i32", n, "%o")
    body += f"    %c = tt.cat %a, %b : tensor<{n}xi32> -> tensor<{2 * n}xi32>\n"
    body += range_("%r2", 2 * n) + f"    %bs2 = tt.splat %base2 : i32 -> tensor<{2 * n}xi32>\n"
    body += f"    %o2 = arith.addi %bs2, %r2 : tensor<{2 * n}xi32>\n"
    body += load1d("%i", "idx_ptr", "i32", 2 * n, "%o2")
    body += (f"    %g = tt.gather %c[%i] {{axis = 0 : i32}} : (tensor<{2 * n}xi32>, "
             f"tensor<{2 * n}xi32>) -> tensor<{2 * n}xi32>\n")
    body += f"    %h = tt.histogram %g : tensor<{2 * n}xi32> -> tensor<{bins}xi32>\n"
    body += range_("%rb", bins) + f"    %bsb = tt.splat %baseb : i32 -> tensor<{bins}xi32>\n"
    body += f"    %ob = arith.addi %bsb, %rb : tensor<{bins}xi32>\n"
    body += store1d("h_ptr", "i32", bins, "%ob", "%h", "h")
    ttir = kernel("cat_gather_hist", [("a_ptr", "!tt.ptr<i32>"), ("b_ptr", "!tt.ptr<i32>"),
                                      ("idx_ptr", "!tt.ptr<i32>"), ("h_ptr", "!tt.ptr<i32>")], body)
    a = rng.integers(0, bins, programs * n).astype(np.int32)
    b = rng.integers(0, bins, programs * n).astype(np.int32)
    idx = rng.integers(0, 2 * n, programs * 2 * n).astype(np.int32)
    want = np.zeros(programs * bins, np.int32)
    for p in range(programs):
        c = np.concatenate([a[p * n:(p + 1) * n], b[p * n:(p + 1) * n]])
        g = c[idx[p * 2 * n:(p + 1) * 2 * n]]
        want[p * bins:(p + 1) * bins] = np.bincount(g, minlength=bins)
    check(tmp_path, "cat_gather_hist", ttir,
          [Buf(a), Buf(b), Buf(idx), Buf(np.full(programs * bins, -1, np.int32), want)],
          grid=(programs, 1, 1))
