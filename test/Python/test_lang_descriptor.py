"""Block pointers and tensor descriptors (tpx.language.descriptor and
tpx.tools.tensor_descriptor), run on the CPU against numpy."""

import re

import numpy as np
import pytest

import tpx
import tpx.language as tl
from tpx.compiler.spec import ArgSpec
from tpx.errors import CompilationError
from tpx.tools import tensor_descriptor as td
from tpx.tools.tensor_descriptor import TensorDescriptor

import frontend_harness as h


def rand(*shape, dtype=np.float32, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def padded_tile(x, r0, c0, rows, cols, fill):
    """numpy: the rows x cols tile of x at (r0, c0), `fill` outside x."""
    out = np.full((rows, cols), fill, x.dtype)
    r1, c1 = min(r0 + rows, x.shape[0]), min(c0 + cols, x.shape[1])
    if r0 < r1 and c0 < c1:
        out[:r1 - r0, :c1 - c0] = x[r0:r1, c0:c1]
    return out


def tiles_of(x, bm, bn, fill):
    """numpy: every (bm, bn) tile of x (padded with `fill`) laid out as the
    full grid of tiles, the shape a kernel storing whole tiles produces."""
    gm, gn = -(-x.shape[0] // bm), -(-x.shape[1] // bn)
    out = np.empty((gm * bm, gn * bn), x.dtype)
    for i in range(gm):
        for j in range(gn):
            out[i * bm:(i + 1) * bm, j * bn:(j + 1) * bn] = padded_tile(
                x, i * bm, j * bn, bm, bn, fill)
    return out


# -- block pointers: tiling with advance in a loop ----------------------------

@tpx.jit
def tiled_products(a_ptr, b_ptr, c_ptr, M, N, K, B: tl.constexpr):
    # C tile (m, n) = sum over k tiles of A(m, k) * B(k, n), elementwise: the
    # access pattern of a tiled matmul (A advances along K's columns, B along
    # K's rows) without needing tl.dot.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a = tl.make_block_ptr(a_ptr, (M, K), (K, 1), (pid_m * B, 0), (B, B),
                          (1, 0))
    b = tl.make_block_ptr(b_ptr, (K, N), (N, 1), (0, pid_n * B), (B, B),
                          (1, 0))
    acc = tl.zeros((B, B), dtype=tl.float32)
    for k in range(0, K, B):
        x = tl.load(a, boundary_check=(0, 1), padding_option="zero")
        y = tl.load(b, boundary_check=(0, 1), padding_option="zero")
        acc += x * y
        a = tl.advance(a, (0, B))
        b = b.advance((B, 0))
    c = tl.make_block_ptr(c_ptr, (M, N), (N, 1), (pid_m * B, pid_n * B),
                          (B, B), (1, 0))
    tl.store(c, acc, boundary_check=(0, 1))


def test_block_pointer_tiling_with_advance_in_a_loop():
    M, N, K, B = 37, 21, 45, 16
    a, b = rand(M, K, seed=1), rand(K, N, seed=2)
    c = np.zeros((M, N), np.float32)
    text = h.run(tiled_products, (3, 2), a, b, c, M, N, K, B=B)
    ta, tb = tiles_of(a, B, B, 0), tiles_of(b, B, B, 0)
    want = np.zeros((3 * B, 2 * B), np.float32)
    for i in range(3):
        for j in range(2):
            for k in range(3):
                want[i * B:(i + 1) * B, j * B:(j + 1) * B] += \
                    ta[i * B:(i + 1) * B, k * B:(k + 1) * B] * \
                    tb[k * B:(k + 1) * B, j * B:(j + 1) * B]
    np.testing.assert_allclose(c, want[:M, :N], rtol=1e-6, atol=1e-6)
    # The block pointers are loop-carried values of the scf.for.
    assert '"tt.make_tensor_ptr"' in text and '"tt.advance"' in text
    assert "!tt.ptr<tensor<16x16xf32>>" in text


@tpx.jit
def block_matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr,
                 BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a = tl.make_block_ptr(a_ptr, (M, K), (K, 1), (pid_m * BM, 0), (BM, BK),
                          (1, 0))
    b = tl.make_block_ptr(b_ptr, (K, N), (N, 1), (0, pid_n * BN), (BK, BN),
                          (1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc += tl.dot(tl.load(a, boundary_check=(0, 1)),
                      tl.load(b, boundary_check=(0, 1)))
        a = tl.advance(a, (0, BK))
        b = tl.advance(b, (BK, 0))
    c = tl.make_block_ptr(c_ptr, (M, N), (N, 1), (pid_m * BM, pid_n * BN),
                          (BM, BN), (1, 0))
    tl.store(c, acc, boundary_check=(0, 1))


@pytest.mark.skipif(not hasattr(tl, "dot"), reason="needs tl.dot")
def test_block_pointer_matmul():
    M, N, K = 50, 40, 70
    a, b = rand(M, K, seed=3), rand(K, N, seed=4)
    c = np.zeros((M, N), np.float32)
    h.run(block_matmul, (4, 3), a, b, c, M, N, K, BM=16, BN=16, BK=32)
    np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-4)


# -- block pointers: boundary checks and padding ------------------------------

@tpx.jit
def block_load_tiles(x_ptr, out_ptr, M, N, BM: tl.constexpr,
                     BN: tl.constexpr, CHECK: tl.constexpr,
                     PAD: tl.constexpr):
    # Each program loads tile (pid_m, pid_n) of x and writes it whole to the
    # tile grid `out` (plain pointers: no bounds there).
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    p = tl.make_block_ptr(x_ptr, (M, N), (N, 1), (pid_m * BM, pid_n * BN),
                          (BM, BN), (1, 0))
    v = tl.load(p, boundary_check=CHECK, padding_option=PAD)
    rows = pid_m * BM + tl.arange(0, BM)[:, None]
    cols = pid_n * BN + tl.arange(0, BN)[None, :]
    tl.store(out_ptr + rows * (tl.num_programs(1) * BN) + cols, v)


@pytest.mark.parametrize("pad,fill", [("zero", 0.0), ("nan", np.nan)])
def test_block_pointer_boundary_check_padding(pad, fill):
    M, N, BM, BN = 19, 27, 8, 16
    x = rand(M, N, seed=5)
    out = np.full((3 * BM, 2 * BN), 7.0, np.float32)
    text = h.run(block_load_tiles, (3, 2), x, out, M, N, BM=BM, BN=BN,
                 CHECK=(0, 1), PAD=pad)
    np.testing.assert_array_equal(out, tiles_of(x, BM, BN, fill))
    assert "boundaryCheck = array<i32: 0, 1>" in text
    assert "padding = %d : i32" % {"zero": 1, "nan": 2}[pad] in text


def test_block_pointer_boundary_check_of_one_dimension():
    # Only the columns are checked: the tiles of the last column pad; rows
    # stay inside because M is a multiple of BM.
    M, N, BM, BN = 16, 27, 8, 16
    x = rand(M, N, seed=6)
    out = np.full((2 * BM, 2 * BN), 7.0, np.float32)
    text = h.run(block_load_tiles, (2, 2), x, out, M, N, BM=BM, BN=BN,
                 CHECK=1, PAD="nan")
    np.testing.assert_array_equal(out, tiles_of(x, BM, BN, np.nan))
    assert "boundaryCheck = array<i32: 1>" in text


@tpx.jit
def block_store_tiles(x_ptr, y_ptr, M, N, ld, BM: tl.constexpr,
                      BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    src = tl.make_block_ptr(x_ptr, (M, N), (ld, 1), (pid_m * BM, pid_n * BN),
                            (BM, BN), (1, 0))
    dst = tl.make_block_ptr(y_ptr, (M, N), (ld, 1), (pid_m * BM, pid_n * BN),
                            (BM, BN), (1, 0))
    v = tl.load(src, boundary_check=(0, 1))
    tl.store(dst, v * 2.0 + 1.0, boundary_check=(0, 1))


def test_block_pointer_store_writes_only_inside():
    # y is a (M, N) view of a larger buffer (row stride 40, 8 spare rows):
    # tiles crossing the edge must leave the rest of the buffer alone.
    M, N, BM, BN, LD = 21, 29, 16, 16, 40
    xbuf = rand(M + 8, LD, seed=7)
    ybuf = np.full((M + 8, LD), -5.0, np.float32)
    h.run(block_store_tiles, (2, 2), xbuf, ybuf, M, N, LD, BM=BM, BN=BN)
    want = np.full_like(ybuf, -5.0)
    want[:M, :N] = xbuf[:M, :N] * 2.0 + 1.0
    np.testing.assert_array_equal(ybuf, want)


@tpx.jit
def column_major_copy(x_ptr, y_ptr, M, N, BM: tl.constexpr,
                      BN: tl.constexpr):
    # x is column-major (strides (1, M)), y row-major.
    pid = tl.program_id(0)
    src = tl.make_block_ptr(x_ptr, (M, N), (1, M), (pid * BM, 0), (BM, BN),
                            (0, 1))
    dst = tl.make_block_ptr(y_ptr, (M, N), (N, 1), (pid * BM, 0), (BM, BN),
                            (1, 0))
    tl.store(dst, tl.load(src, boundary_check=(0, 1)), boundary_check=(0, 1))


def test_block_pointer_column_major_order():
    M, N = 20, 16
    x = np.asfortranarray(rand(M, N, seed=8))
    y = np.zeros((M, N), np.float32)
    flat = np.ravel(x, order="F").copy()  # the column-major buffer
    text = h.run(column_major_copy, (2,), flat, y, M, N, BM=16, BN=16)
    np.testing.assert_array_equal(y, x)
    assert "order = array<i32: 0, 1>" in text


@tpx.jit
def block_pointer_control_flow(x_ptr, y_ptr, out_ptr, n, which,
                               B: tl.constexpr):
    # A block pointer chosen by an `if` on a runtime value, then walked by a
    # `while` loop.
    if which > 0:
        p = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (B,), (0,))
    else:
        p = tl.make_block_ptr(y_ptr, (n,), (1,), (0,), (B,), (0,))
    acc = tl.zeros((B,), dtype=tl.float32)
    i = 0
    while i < n:
        acc += tl.load(p, boundary_check=(0,), padding_option="zero")
        p = tl.advance(p, (B,))
        i += B
    tl.store(out_ptr + tl.arange(0, B), acc)


@pytest.mark.parametrize("which", [1, 0])
def test_block_pointer_through_if_and_while(which):
    n, B = 45, 16
    x, y = rand(n, seed=9), rand(n, seed=10)
    out = np.zeros(B, np.float32)
    h.run(block_pointer_control_flow, (1,), x, y, out, n, which, B=B)
    src = np.zeros(48, np.float32)
    src[:n] = x if which > 0 else y
    np.testing.assert_allclose(out, src.reshape(3, B).sum(0), rtol=1e-6)


@tpx.jit
def int_block_copy(x_ptr, y_ptr, n, B: tl.constexpr):
    p = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (B,), (0,))
    q = tl.make_block_ptr(y_ptr, (n,), (1,), (0,), (B,), (0,))
    tl.store(q, tl.load(p, boundary_check=(0,), padding_option="zero") + 1,
             boundary_check=(0,))


def test_block_pointer_integer_elements():
    x = np.arange(10, dtype=np.int32)
    y = np.full(16, -1, np.int32)
    h.run(int_block_copy, (1,), x, y, 10, B=16)
    np.testing.assert_array_equal(y[:10], x + 1)
    np.testing.assert_array_equal(y[10:], -1)


# -- block pointers: errors ---------------------------------------------------

def compile_error(kernel, *args, **constexprs):
    with pytest.raises(CompilationError) as e:
        h.ttir(kernel, *args, **constexprs)
    return str(e.value)


@tpx.jit
def unused_advance(x_ptr, n):
    p = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (16,), (0,))
    tl.advance(p, (16,))
    tl.store(p, tl.load(p))


def test_unused_advance_is_an_error():
    message = compile_error(unused_advance, np.zeros(16, np.float32), 16)
    assert "The result of tl.advance is not being used. Note that " \
        "tl.advance does not have any side effects. To move the block " \
        "pointer, you need to assign the result of tl.advance to a " \
        "variable." in message
    assert "tl.advance(p, (16,))" in message


@tpx.jit
def block_load_with(x_ptr, n, KIND: tl.constexpr):
    p = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (16,), (0,))
    if KIND == "mask":
        tl.load(p, mask=tl.arange(0, 16) < n)
    if KIND == "nan_int":
        tl.load(p, boundary_check=(0,), padding_option="nan")
    if KIND == "bad_padding":
        tl.load(p, boundary_check=(0,), padding_option="inf")
    if KIND == "bad_dim":
        tl.load(p, boundary_check=(1,))
    if KIND == "duplicate":
        tl.load(p, boundary_check=(0, 0))
    if KIND == "store_mask":
        tl.store(p, tl.load(p), mask=tl.arange(0, 16) < n)
    if KIND == "store_dtype":
        tl.store(p, tl.zeros((16,), dtype=tl.float16))
    if KIND == "store_shape":
        tl.store(p, tl.zeros((8,), dtype=tl.int32))


@pytest.mark.parametrize("kind,message", [
    ("mask", "ValueError: `mask` and `other` arguments cannot be specified "
             "for loading block pointers"),
    ("nan_int", "ValueError: Padding option `nan` is not supported for "
                "integer block pointers"),
    ("bad_padding", "ValueError: Padding option inf not supported"),
    ("bad_dim", "AssertionError: boundary_check dimension 1 is not a "
                "dimension of a rank-1 block"),
    ("duplicate", "AssertionError: Duplicate dimension in `boundary_check`"),
    ("store_mask", "ValueError: `mask` and `other` arguments cannot be "
                   "specified for loading block pointers"),
    ("store_dtype", "AssertionError: Block element type(int32) and value "
                    "element type(fp16) mismatch"),
    ("store_shape", "AssertionError: Block shape((16,)) and value "
                    "shape((8,)) mismatch"),
])
def test_block_pointer_load_store_errors(kind, message):
    assert message in compile_error(block_load_with,
                                    np.zeros(16, np.int32), 16, KIND=kind)


@tpx.jit
def make_block_ptr_with(x_ptr, n, KIND: tl.constexpr):
    if KIND == "tensor_base":
        p = tl.make_block_ptr(x_ptr + tl.arange(0, 16), (n,), (1,), (0,),
                              (16,), (0,))
    if KIND == "order":
        p = tl.make_block_ptr(x_ptr, (n, n), (n, 1), (0, 0), (16, 16),
                              (1, 1))
    if KIND == "lengths":
        p = tl.make_block_ptr(x_ptr, (n, n), (n, 1), (0,), (16, 16), (1, 0))
    if KIND == "offset64":
        p = tl.make_block_ptr(x_ptr, (n,), (1,), (n.to(tl.int64),), (16,),
                              (0,))
    if KIND == "float_shape":
        p = tl.make_block_ptr(x_ptr, (1.5,), (1,), (0,), (16,), (0,))
    if KIND == "block_shape":
        p = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (n,), (0,))
    if KIND == "advance_plain":
        tl.store(x_ptr, tl.load(tl.advance(x_ptr, (16,))))
    if KIND == "advance_rank":
        p = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (16,), (0,))
        p = tl.advance(p, (16, 16))


@pytest.mark.parametrize("kind,message", [
    ("tensor_base", "ValueError: Expected `base` to be a pointer type (but "
                    "not a block pointer type or others)"),
    ("order", "AssertionError: Expected a permutation of (0, 1, ..., "
              "len(order)-1) in order"),
    ("lengths", "AssertionError: Expected shape/strides/offsets/block_shape "
                "to have the same length"),
    ("offset64", "AssertionError: Block pointers only support 32 bit "
                 "`offsets/block_shape`, add a `.to(tl.int32)` or use "
                 "regular indexing for 64 bit support"),
    ("float_shape", "AssertionError: Unsupported element type in "
                    "shape/strides/offsets: <class 'float'>"),
    ("block_shape", "AssertionError: Expected a list of constant integers "
                    "(`int32_t` range) in `block_shape`"),
    ("advance_plain", "ValueError: tl.advance expects a block pointer (made "
                      "by tl.make_block_ptr), got pointer<fp32>"),
    ("advance_rank", "ValueError: tl.advance needs 1 offsets for a rank-1 "
                     "block pointer, got 2"),
])
def test_make_block_ptr_errors(kind, message):
    assert message in compile_error(make_block_ptr_with,
                                    np.zeros(16, np.float32), 16, KIND=kind)


# -- tensor descriptors made in the kernel ------------------------------------

@tpx.jit
def desc_tiles(x_ptr, y_ptr, out_ptr, M, N, ld, BM: tl.constexpr,
               BN: tl.constexpr, PAD: tl.constexpr):
    # x, y: (M, N) with row stride ld. Each program loads tile (m, n) of x
    # (writing it whole to the tile grid `out`) and stores -tile into y.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    src = tl.make_tensor_descriptor(x_ptr, [M, N], [ld, 1], [BM, BN],
                                    padding_option=PAD)
    dst = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[ld, 1],
                                    block_shape=[BM, BN])
    v = src.load([pid_m * BM, pid_n * BN])
    dst.store([pid_m * BM, pid_n * BN], -v)
    rows = pid_m * BM + tl.arange(0, BM)[:, None]
    cols = pid_n * BN + tl.arange(0, BN)[None, :]
    tl.store(out_ptr + rows * (tl.num_programs(1) * BN) + cols, v)


@pytest.mark.parametrize("pad,fill", [("zero", 0.0), ("nan", np.nan)])
def test_descriptor_load_store_out_of_bounds(pad, fill):
    M, N, BM, BN, LD = 19, 21, 8, 16, 32
    xbuf = rand(M + 4, LD, seed=11)
    ybuf = np.full((M + 4, LD), 9.0, np.float32)
    out = np.full((3 * BM, 2 * BN), 7.0, np.float32)
    text = h.run(desc_tiles, (3, 2), xbuf, ybuf, out, M, N, LD, BM=BM,
                 BN=BN, PAD=pad)
    x = xbuf[:M, :N]
    np.testing.assert_array_equal(out, tiles_of(x, BM, BN, fill))
    want = np.full_like(ybuf, 9.0)
    want[:M, :N] = -x
    np.testing.assert_array_equal(ybuf, want)
    assert "!tt.tensordesc<tensor<8x16xf32>>" in text
    assert "padding = %d : i32" % {"zero": 1, "nan": 2}[pad] in text


@tpx.jit
def desc_row_sums(x_ptr, out_ptr, M, N, flip, BM: tl.constexpr,
                  BN: tl.constexpr):
    # A descriptor chosen by an `if` on a runtime value, used in a loop and
    # passed to helpers; its shape is read back after both.
    pid = tl.program_id(0)
    if flip > 0:
        d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [BM, BN])
    else:
        d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [BM, BN],
                                      padding_option="zero")
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, N, BN):
        acc += load_tile(d, pid * BM, k)
    cols = tl.arange(0, BN)[None, :]
    rows = pid * BM + tl.arange(0, BM)[:, None]
    mask = rows < d.shape[0]
    tl.store(out_ptr + rows * BN + cols, acc, mask=mask)
    store_tile(d, pid * BM, 0, acc)


@tpx.jit
def load_tile(desc, i, j):
    return tl.load_tensor_descriptor(desc, [i, j])


@tpx.jit(noinline=True)
def store_tile(desc, i, j, value):
    tl.store_tensor_descriptor(desc, [i, j], value)


@pytest.mark.parametrize("flip", [1, 0])
def test_descriptor_through_control_flow_loops_and_calls(flip):
    M, N, BM, BN = 20, 40, 8, 16
    x = rand(M, N, seed=12)
    original = x.copy()
    out = np.zeros((24, BN), np.float32)
    text = h.run(desc_row_sums, (3,), x, out, M, N, flip, BM=BM, BN=BN)
    padded = np.zeros((24, 48), np.float32)
    padded[:M, :N] = original
    sums = padded[:, 0:16] + padded[:, 16:32] + padded[:, 32:48]
    np.testing.assert_allclose(out[:M], sums[:M], rtol=1e-6)
    np.testing.assert_array_equal(out[M:], 0)
    want = original.copy()
    want[:, :BN] = sums[:M]
    np.testing.assert_allclose(x, want, rtol=1e-6)
    # The noinline helper takes the descriptor as its parts.
    assert "tt.func private @store_tile__" in text
    assert "!tt.tensordesc<tensor<8x16xf32>>, i32, i32, i64, i64" in text


@tpx.jit
def desc_gather_scatter(x_ptr, idx_ptr, out_ptr, y_ptr, M, N, y_off,
                        BN: tl.constexpr):
    src = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [1, BN])
    dst = tl.make_tensor_descriptor(y_ptr, [M, N], [N, 1], [1, BN])
    rows = tl.load(idx_ptr + tl.arange(0, 8))
    g = src.gather(rows, y_off)
    offs = tl.arange(0, 8)[:, None] * BN + tl.arange(0, BN)[None, :]
    tl.store(out_ptr + offs, g)
    dst.scatter(g * 10.0, rows, y_off)


def test_descriptor_gather_scatter():
    M, N, BN, Y = 12, 40, 16, 30
    x = rand(M, N, seed=13)
    idx = np.array([3, 0, 11, 12, 7, 20, 5, 1], np.int32)  # 12, 20: outside
    out = np.full((8, BN), 5.0, np.float32)
    y = np.zeros((M, N), np.float32)
    text = h.run(desc_gather_scatter, (1,), x, idx, out, y, M, N, Y, BN=BN)
    want = np.zeros((8, BN), np.float32)
    for i, r in enumerate(idx):
        if r < M:
            want[i, :N - Y] = x[r, Y:]
    np.testing.assert_array_equal(out, want)
    want_y = np.zeros_like(y)
    for i, r in enumerate(idx):
        if r < M:
            want_y[r, Y:] = want[i, :N - Y] * 10.0
    np.testing.assert_array_equal(y, want_y)
    assert '"tt.descriptor_gather"' in text
    assert '"tt.descriptor_scatter"' in text


@tpx.jit
def desc_atomic_add(x_ptr, acc_ptr, M, N, B: tl.constexpr):
    pid = tl.program_id(0)
    d = tl.make_tensor_descriptor(acc_ptr, [M, N], [N, 1], [B, B])
    offs = tl.arange(0, B)[:, None] * B + tl.arange(0, B)[None, :]
    d.atomic_add([0, 0], tl.load(x_ptr + pid * B * B + offs))


def test_descriptor_atomic_add():
    M, N, B = 6, 10, 8
    x = rand(4, B, B, seed=14)
    acc = np.ones((M, N), np.float32)
    text = h.run(desc_atomic_add, (4,), x, acc, M, N, B=B)
    want = np.ones((M, N), np.float32)
    want[:M, :B] += x.sum(0)[:M, :B]
    np.testing.assert_allclose(acc, want, rtol=1e-5)
    assert "kind = 1 : i32" in text


# -- tensor descriptors: errors -----------------------------------------------

@tpx.jit
def make_desc_with(x_ptr, M, N, KIND: tl.constexpr):
    if KIND == "last_stride":
        d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 2], [16, 16])
    if KIND == "tensor_stride":
        d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, N], [16, 16])
    if KIND == "narrow":
        d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [16, 2])
    if KIND == "ndim":
        d = tl.make_tensor_descriptor(x_ptr, [M, N, M, N, M, N],
                                      [N, N, N, N, N, 1], [1] * 6)
    if KIND == "strides":
        d = tl.make_tensor_descriptor(x_ptr, [M, N], [1], [16, 16])
    if KIND == "block_rank":
        d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [16])
    if KIND == "padding":
        d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [16, 16],
                                      padding_option="inf")
    if KIND == "offsets":
        d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [16, 16])
        d.load([0])
    if KIND == "store_shape":
        d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [16, 16])
        d.store([0, 0], tl.zeros((16, 8), dtype=tl.float32))
    if KIND == "gather_rows":
        d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [1, 16])
        d.gather(tl.arange(0, 4), 0)
    if KIND == "gather_block":
        d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [2, 16])
        d.gather(tl.arange(0, 8), 0)
    if KIND == "gather_args":
        d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [1, 16])
        d.gather(tl.arange(0, 8))


@pytest.mark.parametrize("kind,message", [
    ("last_stride", "ValueError: Tensor descriptor last dim must be 1 but "
                    "got 2"),
    ("tensor_stride", "ValueError: Tensor descriptor last dim must be 1 but "
                      "got a tensor (it must be the constexpr 1)"),
    ("narrow", "ValueError: Descriptor block shape must have at least 16 "
               "bytes in the last dimension, but got 2 * 4 = 8 bytes"),
    ("ndim", "ValueError: Expected 1 <= ndim <= 5 but got 6 dimensions"),
    ("strides", "ValueError: Expected 2 strides but got 1"),
    ("block_rank", "ValueError: Expected block_shape to have 2 dimensions "
                   "but got 2"),
    ("padding", "ValueError: Padding option inf not supported"),
    ("offsets", "AssertionError: expected 2 offsets, but got 1"),
    ("store_shape", "AssertionError"),
    ("gather_rows", "AssertionError: descriptor gather must have at least 8 "
                    "rows, but got [4]"),
    ("gather_block", "AssertionError: descriptor block must have 1 row, but "
                     "got [2, 16]"),
    ("gather_args", "AssertionError: descriptor gather only supports 2D "
                    "indexing, but got 1"),
])
def test_make_tensor_descriptor_errors(kind, message):
    assert message in compile_error(make_desc_with, np.zeros(16, np.float32),
                                    4, 16, KIND=kind)


@tpx.jit
def int_nan_desc(x_ptr, n):
    tl.make_tensor_descriptor(x_ptr, [n], [1], [16], padding_option="nan")


def test_descriptor_nan_padding_of_integers_is_an_error():
    assert "ValueError: Padding option `nan` is not supported for integer " \
        "blocks" in compile_error(int_nan_desc, np.zeros(16, np.int32), 16)


# -- tensor descriptors as kernel arguments -----------------------------------

def kernel_arguments(text):
    """[(type and attributes, parameter name)] of the kernel's tt.func."""
    header = re.search(r"tt\.func public @\w+\((.*)\) attributes", text)
    out = []
    for arg in re.findall(r'%\w+: (.*?) loc\("(\w+)"', header.group(1)):
        out.append(arg)
    return out


@tpx.jit
def desc_arg_copy(in_desc, out_desc, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    v = in_desc.load([pid_m * BM, pid_n * BN])
    out_desc.store([pid_m * BM, pid_n * BN], v + 1.0)


@pytest.mark.parametrize("pad,fill", [("zero", 0.0), ("nan", np.nan)])
def test_descriptor_kernel_arguments(pad, fill):
    M, N, BM, BN = 21, 20, 16, 16
    x = rand(M, N, seed=15)
    # The output descriptor covers the whole tile grid, so out-of-bounds
    # reads of x show up in it.
    out = np.full((2 * BM, 2 * BN), 3.0, np.float32)
    din = TensorDescriptor.from_tensor(x, [BM, BN], padding=pad)
    dout = TensorDescriptor(out, out.shape, [2 * BN, 1], [BM, BN])
    text = h.run(desc_arg_copy, (2, 2), din, dout, BM=BM, BN=BN)
    np.testing.assert_array_equal(out, tiles_of(x, BM, BN, fill) + 1.0)
    # Each descriptor argument is its base pointer, shape and strides; the
    # kernel makes the descriptor first.
    # Leading strides are 16-byte aligned (TensorDescriptor checks it):
    # divisible by 4 f32 elements.
    assert kernel_arguments(text) == [
        ("!tt.ptr<f32> {tt.divisibility = 16 : i32}", "in_desc"),
        ("i32", "in_desc"), ("i32", "in_desc"),
        ("i64 {tt.divisibility = 4 : i32}", "in_desc"), ("i64", "in_desc"),
        ("!tt.ptr<f32> {tt.divisibility = 16 : i32}", "out_desc"),
        # out's rows are 32 elements: specialized on (",div16").
        ("i32", "out_desc"), ("i32 {tt.divisibility = 16 : i32}",
                              "out_desc"),
        ("i64 {tt.divisibility = 4 : i32}", "out_desc"),
        ("i64", "out_desc")]
    assert text.count('"tt.make_tensor_descriptor"') == 2
    assert "padding = %d : i32" % {"zero": 1, "nan": 2}[pad] in text


@tpx.jit
def desc_arg_shape(x_desc, out_ptr, B: tl.constexpr):
    # The descriptor's shape and strides are kernel values.
    offs = tl.arange(0, B)
    tl.store(out_ptr + offs, x_desc.shape[0] * 1000 + x_desc.shape[1] +
             x_desc.strides[0].to(tl.int32) * 0 +
             tl.where(offs < x_desc.shape[0], 1, 0) * 100000)


def test_descriptor_argument_shape_and_strides():
    x = np.zeros((5, 16), np.float32)
    out = np.zeros(8, np.int32)
    h.run(desc_arg_shape, (1,), TensorDescriptor.from_tensor(x, [8, 16]),
          out, B=8)
    want = 5 * 1000 + 16 + np.where(np.arange(8) < 5, 100000, 0)
    np.testing.assert_array_equal(out, want)


@tpx.jit
def desc_arg_properties(x_desc, out_ptr):
    tl.store(out_ptr + tl.arange(0, x_desc.block_shape[0]),
             tl.full([x_desc.block_shape[0]], len(x_desc.block_shape),
                     x_desc.dtype))


def test_descriptor_block_shape_and_dtype():
    x = np.zeros((4, 16), np.int16)
    out = np.zeros(4, np.int16)
    text = h.run(desc_arg_properties, (1,),
                 TensorDescriptor.from_tensor(x, [4, 8]), out)
    np.testing.assert_array_equal(out, [2, 2, 2, 2])
    assert "!tt.tensordesc<tensor<4x8xi16>>" in text


def test_descriptor_spec_parsing():
    value = tl.descriptor_value_from_spec(
        ArgSpec("d", "tensordesc<bf16[64, 32]>"))
    assert value.block_shape == (64, 32) and value.dtype == tl.bfloat16
    assert value.type == tl.tensor_descriptor_type(
        tl.block_type(tl.bfloat16, [64, 32]))
    assert len(value.__tpx_arg_attrs__()) == 5
    nan = tl.descriptor_value_from_spec(
        ArgSpec("d", "tensordesc<fp32[16],nan>", divisibility=16))
    assert nan._padding == 2
    assert nan.__tpx_arg_attrs__()[0] == {"tt.divisibility": 16}
    with pytest.raises(TypeError, match="unknown signature type "
                       "'tensordesc<fp32 16>'"):
        tl.descriptor_value_from_spec(ArgSpec("d", "tensordesc<fp32 16>"))
    with pytest.raises(TypeError, match="Padding option `nan` is only "
                       "supported for floating point tensors"):
        tl.descriptor_value_from_spec(ArgSpec("d", "tensordesc<i32[16],nan>"))


# -- the host TensorDescriptor ------------------------------------------------

def test_host_descriptor_signature_and_launch_values():
    x = np.zeros((8, 24), np.float16)
    d = TensorDescriptor.from_tensor(x, [4, 8])
    assert d.shape == [8, 24] and d.strides == [24, 1]
    assert td.signature(d) == "tensordesc<fp16[4, 8]>"
    assert td.launch_values(d)[0] is x
    assert td.launch_values(d)[1:] == [8, 24, 24, 1]
    n = TensorDescriptor.from_tensor(np.zeros(32, np.float32), [16], "nan")
    # An innermost extent that is a multiple of 16 is specialized on.
    assert td.signature(n) == "tensordesc<fp32[16],div16,nan>"


@pytest.mark.parametrize("make,message", [
    (lambda x: TensorDescriptor(x, [8, 8], [8, 2], [8, 8]),
     "Last dimension must be contiguous"),
    (lambda x: TensorDescriptor(x, [8, 8], [3, 1], [8, 8]),
     "strides must be 16-byte aligned"),
    (lambda x: TensorDescriptor(x[1:], [8, 7], [8, 1], [8, 8]),
     "base must be 16-byte aligned"),
    (lambda x: TensorDescriptor(x, [8, 8], [8, 1], [8, 8], "inf"),
     "Illegal value for padding"),
    (lambda x: TensorDescriptor(x, [8], [8, 1], [8]), "rank mismatch"),
    (lambda x: TensorDescriptor(x.astype(np.int32), [8, 8], [8, 1], [8, 8],
                                "nan"),
     "Padding option `nan` is only supported for floating point tensors"),
])
def test_host_descriptor_checks(make, message):
    x = np.zeros(64, np.float32)
    with pytest.raises(AssertionError, match=message):
        make(x)


def test_host_descriptor_block_shape_checks():
    x = np.zeros((8, 8), np.float32)
    with pytest.raises(ValueError, match="Shape element 1 must be a power "
                       "of 2"):
        TensorDescriptor.from_tensor(x, [8, 6])
    with pytest.raises(TypeError, match="Shape element 0 must have type "
                       r"`constexpr\[int\]`"):
        TensorDescriptor.from_tensor(x, [8.0, 8])


def test_set_allocator_is_accepted():
    calls = []
    tpx.set_allocator(lambda size, alignment, stream: calls.append(size))
    from tpx.runtime.allocation import get_allocator
    assert get_allocator() is not None
    # A kernel making descriptors needs no scratch on tpx's targets.
    x = np.arange(16, dtype=np.float32)
    y = np.zeros(16, np.float32)
    h.run(desc_copy_1d, (1,), x, y, 16)
    np.testing.assert_array_equal(y, x)
    assert calls == []
    tpx.set_allocator(None)


@tpx.jit
def desc_copy_1d(x_ptr, y_ptr, n):
    a = tl.make_tensor_descriptor(x_ptr, [n], [1], [16])
    b = tl.make_tensor_descriptor(y_ptr, [n], [1], [16])
    b.store([0], a.load([0]))


@tpx.jit
def make_desc(p, n):
    return tl.make_tensor_descriptor(p, [n], [1], [16])


@tpx.jit(noinline=True)
def make_desc_noinline(p, n):
    return tl.make_tensor_descriptor(p, [n], [1], [16])


@tpx.jit
def desc_from_helper(x_ptr, y_ptr, n, NOINLINE: tl.constexpr):
    if NOINLINE:
        a = make_desc_noinline(x_ptr, n)
    else:
        a = make_desc(x_ptr, n)
    tl.store(y_ptr + tl.arange(0, 16), a.load([0]) + a.shape[0])


def test_descriptor_returned_by_a_helper():
    x = np.arange(16, dtype=np.float32)
    y = np.zeros(16, np.float32)
    h.run(desc_from_helper, (1,), x, y, 10, NOINLINE=False)
    np.testing.assert_array_equal(y, np.where(x < 10, x, 0) + 10)
    # A noinline helper returns the descriptor's parts (the CPU target
    # cannot lower such a call yet: docs/python.md).
    text = h.ttir(desc_from_helper, x, y, 10, NOINLINE=True)
    assert "-> (!tt.tensordesc<tensor<16xf32>>, i32, i64)" in text


# -- TMA on sm_90a (compiled here; run by bench/checks/tma_descriptors.py) ---

def _compile_for_hopper(jit_fn, *args, **constexprs):
    from tpx.compiler.compiler import compile_ttir
    return compile_ttir(h.ttir(jit_fn, *args, **constexprs), "sm_90a",
                        no_cache=True)


def test_host_descriptors_use_tma_on_sm90a():
    # The input descriptor is only loaded: a TMA load whatever its shape.
    # The output's rows fill whole 16-byte chunks (N divisible by 16), so
    # its store is a TMA store too: two launcher-built tensor maps.
    x = np.zeros((40, 32), np.float32)
    out = np.zeros((48, 32), np.float32)
    kernel = _compile_for_hopper(
        desc_arg_copy, TensorDescriptor.from_tensor(x, [16, 16]),
        TensorDescriptor.from_tensor(out, [16, 16]), BM=16, BN=16)
    maps = kernel.metadata["tensor_maps"]
    assert kernel.metadata["pipeline"] == "simt"
    assert [m["base"] for m in maps] == [0, 5]
    assert maps[0]["shape_args"] == [1, 2]
    assert maps[0]["stride_args"] == [3, -1]
    assert maps[0]["stride_values"][-1] == 1
    assert maps[0]["box"] == [16, 16] and maps[0]["swizzle"] == 64
    ptx = kernel.asm["ptx"]
    assert ptx.count(".param .align 64 .b8") == 2
    assert "cp.async.bulk.tensor.2d.shared::cluster.global" in ptx
    assert "cp.async.bulk.tensor.2d.global.shared::cta" in ptx


def test_stores_to_ragged_rows_do_not_use_tma():
    # N = 21 f32 rows end inside a 16-byte chunk, which a TMA store would
    # overwrite: that descriptor is stored through pointers; the loaded one
    # still uses TMA.
    x = np.zeros((19, 32), np.float32)
    out = np.zeros((19, 32), np.float32)
    kernel = _compile_for_hopper(
        desc_arg_copy, TensorDescriptor(x, [19, 21], [32, 1], [16, 16]),
        TensorDescriptor(out, [19, 21], [32, 1], [16, 16]), BM=16, BN=16)
    assert [m["base"] for m in kernel.metadata["tensor_maps"]] == [0]
    assert "cp.async.bulk.tensor.2d.global.shared::cta" not in \
        kernel.asm["ptx"]
