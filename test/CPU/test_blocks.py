"""Block pointers (make_tensor_ptr/advance, boundary checks, padding) and
tensor descriptors (load/store with out-of-bounds blocks, gather/scatter,
reduce)."""
import numpy as np
import pytest

from tpxcase import Buf, Scalar, check, check_rewritten, kernel, offsets2d, ptrs

rng = np.random.default_rng(3)
M, N, B = 50, 40, 16


def padded_block(a, r0, c0, pad):
    out = np.full((B, B), pad, a.dtype)
    rows, cols = a.shape
    for i in range(B):
        for j in range(B):
            if 0 <= r0 + i < rows and 0 <= c0 + j < cols:
                out[i, j] = a[r0 + i, c0 + j]
    return out


@pytest.mark.parametrize("padding", ["zero", "nan"])
def test_block_pointer_boundary_check(tmp_path, padding):
    # Grid (4, 3) of 16x16 blocks over a 50x40 matrix: the last row and
    # column of blocks hang over the edges. Each program loads its block with
    # boundary checks and padding, writes it (padded) to a dense block
    # buffer, and stores block + 1 back through the block pointer, which must
    # skip the out-of-bounds part.
    pad_attr = {"zero": 1, "nan": 2}[padding]
    body = f"""    %pm = tt.get_program_id x : i32
    %pn = tt.get_program_id y : i32
    %c16 = arith.constant 16 : i32
    %c0 = arith.constant 0 : i32
    %m64 = arith.constant {M} : i64
    %n64 = arith.constant {N} : i64
    %one64 = arith.constant 1 : i64
    %om = arith.muli %pm, %c16 : i32
    %on = arith.muli %pn, %c16 : i32
    %bp = tt.make_tensor_ptr %a_ptr, [%m64, %n64], [%n64, %one64], [%om, %c0] {{order = array<i32: 1, 0>}} : <tensor<16x16xf32>>
    %bq = tt.advance %bp, [%c0, %on] : <tensor<16x16xf32>>
    %v = tt.load %bq {{boundaryCheck = array<i32: 0, 1>, padding = {pad_attr} : i32}} : !tt.ptr<tensor<16x16xf32>>
    %ones = arith.constant dense<1.0> : tensor<16x16xf32>
    %w = arith.addf %v, %ones : tensor<16x16xf32>
    %op = tt.make_tensor_ptr %out_ptr, [%m64, %n64], [%n64, %one64], [%om, %on] {{order = array<i32: 1, 0>}} : <tensor<16x16xf32>>
    tt.store %op, %w {{boundaryCheck = array<i32: 0, 1>}} : !tt.ptr<tensor<16x16xf32>>
    %c3 = arith.constant 3 : i32
    %bid0 = arith.muli %pm, %c3 : i32
    %bid = arith.addi %bid0, %pn : i32
    %c256 = arith.constant 256 : i32
    %boff = arith.muli %bid, %c256 : i32
    %bbase = tt.addptr %blocks_ptr, %boff : !tt.ptr<f32>, i32
"""
    body += offsets2d("%bo", B, B, B) + ptrs("%bpp", "bbase", "f32", [B, B], "%bo")
    body += "    tt.store %bpp, %v : tensor<16x16x!tt.ptr<f32>>\n"
    ttir = kernel("blockptr", [("a_ptr", "!tt.ptr<f32>"), ("out_ptr", "!tt.ptr<f32>"),
                               ("blocks_ptr", "!tt.ptr<f32>")], body)
    a = rng.standard_normal((M, N)).astype(np.float32)
    padv = 0.0 if padding == "zero" else np.nan
    blocks = np.stack([padded_block(a, i * B, j * B, padv)
                       for i in range(4) for j in range(3)])
    args = [Buf(a), Buf(np.zeros((M, N), np.float32), a + 1),
            Buf(np.zeros((12, B, B), np.float32), blocks)]
    check(tmp_path, f"blockptr_{padding}", ttir, args, grid=(4, 3, 1))
    # The GPU's rewrite into offsets and pointer tensors computes the same.
    check_rewritten(tmp_path / "lowered", f"blockptr_{padding}", ttir, args,
                    "--tpxgpu-lower-block-pointers", grid=(4, 3, 1))


def test_block_pointer_loop_advance_transposed_order(tmp_path):
    # Row sums of a 32x48 f16 matrix read as 32x16 blocks, advancing along
    # the columns in an scf.for; the base is a column-major view (order
    # [0, 1]) of the transposed matrix.
    R, C = 32, 48
    body = f"""    %c0 = arith.constant 0 : i32
    %c16 = arith.constant 16 : i32
    %c48 = arith.constant {C} : i32
    %r64 = arith.constant {R} : i64
    %cc64 = arith.constant {C} : i64
    %one64 = arith.constant 1 : i64
    %bp = tt.make_tensor_ptr %a_ptr, [%r64, %cc64], [%one64, %r64], [%c0, %c0] {{order = array<i32: 0, 1>}} : <tensor<32x16xf16>>
    %zero = arith.constant dense<0.0> : tensor<32xf32>
    %res:2 = scf.for %k = %c0 to %c48 step %c16 iter_args(%acc = %zero, %p = %bp) -> (tensor<32xf32>, !tt.ptr<tensor<32x16xf16>>)  : i32 {{
      %v = tt.load %p : !tt.ptr<tensor<32x16xf16>>
      %vf = arith.extf %v : tensor<32x16xf16> to tensor<32x16xf32>
      %s = "tt.reduce"(%vf) <{{axis = 1 : i32}}> ({{
      ^bb0(%x: f32, %y: f32):
        %t = arith.addf %x, %y : f32
        tt.reduce.return %t : f32
      }}) : (tensor<32x16xf32>) -> tensor<32xf32>
      %acc2 = arith.addf %acc, %s : tensor<32xf32>
      %p2 = tt.advance %p, [%c0, %c16] : <tensor<32x16xf16>>
      scf.yield %acc2, %p2 : tensor<32xf32>, !tt.ptr<tensor<32x16xf16>>
    }}
    %r = tt.make_range {{end = 32 : i32, start = 0 : i32}} : tensor<32xi32>
"""
    body += ptrs("%op", "out_ptr", "f32", [R], "%r")
    body += "    tt.store %op, %res#0 : tensor<32x!tt.ptr<f32>>\n"
    ttir = kernel("blockloop", [("a_ptr", "!tt.ptr<f16>"), ("out_ptr", "!tt.ptr<f32>")], body)
    logical = rng.standard_normal((R, C)).astype(np.float16)
    storage = np.ascontiguousarray(logical.T)  # element (i, j) at j*R + i
    want = logical.astype(np.float32).sum(axis=1)
    args = [Buf(storage), Buf(np.zeros(R, np.float32), want, rtol=1e-5,
                              atol=1e-5)]
    check(tmp_path, "blockloop", ttir, args)
    check_rewritten(tmp_path / "lowered", "blockloop", ttir, args,
                    "--tpxgpu-lower-block-pointers")


DESC_T = "!tt.tensordesc<tensor<16x16xf32>>"


def desc_prologue(name="%d", ptr="a_ptr", block="16x16"):
    return f"""    %m = arith.constant {M} : i32
    %n = arith.constant {N} : i32
    %n64 = arith.constant {N} : i64
    %one64 = arith.constant 1 : i64
    {name} = tt.make_tensor_descriptor %{ptr}, [%m, %n], [%n64, %one64] : !tt.ptr<f32>, !tt.tensordesc<tensor<{block}xf32>>
"""


def test_descriptor_load_store_out_of_bounds(tmp_path):
    # Blocks at offsets (-8, 32) .. that hang over every edge, including
    # negative offsets: out-of-bounds elements load as zero and are not
    # stored.
    body = desc_prologue() + f"""    %pid = tt.get_program_id x : i32
    %c16 = arith.constant 16 : i32
    %c8 = arith.constant 8 : i32
    %c3 = arith.constant 3 : i32
    %bi = arith.divsi %pid, %c3 : i32
    %bj = arith.remsi %pid, %c3 : i32
    %i0 = arith.muli %bi, %c16 : i32
    %j0 = arith.muli %bj, %c16 : i32
    %i = arith.subi %i0, %c8 : i32
    %j = arith.addi %j0, %c8 : i32
    %v = tt.descriptor_load %d[%i, %j] : {DESC_T} -> tensor<16x16xf32>
    %two = arith.constant dense<2.0> : tensor<16x16xf32>
    %w = arith.mulf %v, %two : tensor<16x16xf32>
    %od = tt.make_tensor_descriptor %out_ptr, [%m, %n], [%n64, %one64] : !tt.ptr<f32>, {DESC_T}
    tt.descriptor_store %od[%i, %j], %w : {DESC_T}, tensor<16x16xf32>
    %c256 = arith.constant 256 : i32
    %boff = arith.muli %pid, %c256 : i32
    %bbase = tt.addptr %blocks_ptr, %boff : !tt.ptr<f32>, i32
"""
    body += offsets2d("%bo", B, B, B) + ptrs("%bpp", "bbase", "f32", [B, B], "%bo")
    body += "    tt.store %bpp, %v : tensor<16x16x!tt.ptr<f32>>\n"
    ttir = kernel("desc_ls", [("a_ptr", "!tt.ptr<f32>"), ("out_ptr", "!tt.ptr<f32>"),
                              ("blocks_ptr", "!tt.ptr<f32>")], body)
    a = rng.standard_normal((M, N)).astype(np.float32)
    out = np.full((M, N), -7.0, np.float32)
    blocks = []
    want = out.copy()
    for p in range(12):
        i, j = (p // 3) * 16 - 8, (p % 3) * 16 + 8
        blk = padded_block(a, i, j, 0.0)
        blocks.append(blk)
        for r in range(B):
            for c in range(B):
                if 0 <= i + r < M and 0 <= j + c < N:
                    want[i + r, j + c] = 2 * blk[r, c]
    args = [Buf(a), Buf(out, want),
            Buf(np.zeros((12, B, B), np.float32), np.stack(blocks))]
    check(tmp_path, "desc_ls", ttir, args, grid=(12, 1, 1))
    # The GPU's rewrite into pointer tensors computes the same.
    check_rewritten(tmp_path / "lowered", "desc_ls", ttir, args,
                    "--tpxgpu-lower-tensor-descriptors", grid=(12, 1, 1))


def test_descriptor_reduce_add(tmp_path):
    # Every program adds a 16x16 block of ones*pid at (pid*8 - 8, 30):
    # blocks overlap each other and the edges.
    body = desc_prologue() + f"""    %pid = tt.get_program_id x : i32
    %c8 = arith.constant 8 : i32
    %c30 = arith.constant 30 : i32
    %i0 = arith.muli %pid, %c8 : i32
    %i = arith.subi %i0, %c8 : i32
    %pf = arith.sitofp %pid : i32 to f32
    %v = tt.splat %pf : f32 -> tensor<16x16xf32>
    tt.descriptor_reduce add, %d[%i, %c30], %v : {DESC_T}, tensor<16x16xf32>
"""
    ttir = kernel("desc_red", [("a_ptr", "!tt.ptr<f32>")], body)
    a = rng.integers(0, 10, (M, N)).astype(np.float32)
    want = a.copy()
    for p in range(8):
        for r in range(B):
            for c in range(B):
                i, j = p * 8 - 8 + r, 30 + c
                if 0 <= i < M and 0 <= j < N:
                    want[i, j] += p
    check(tmp_path, "desc_red", ttir, [Buf(a, want)], grid=(8, 1, 1))
    # The GPU's rewrite into masked atomics computes the same.
    check_rewritten(tmp_path / "lowered", "desc_red", ttir, [Buf(a, want)],
                    "--tpxgpu-lower-tensor-descriptors", grid=(8, 1, 1))


def test_descriptor_gather_scatter(tmp_path):
    # Gather 8 rows (some out of range) of 16 columns starting at column 30
    # (hanging over the right edge); scatter them, negated, to other rows.
    body = desc_prologue(block="1x16") + """    %c30 = arith.constant 30 : i32
    %c0 = arith.constant 0 : i32
    %x = tt.load %idx_ptr_t : tensor<8x!tt.ptr<i32>>
    %g = tt.descriptor_gather %d[%x, %c30] : (!tt.tensordesc<tensor<1x16xf32>>, tensor<8xi32>, i32) -> tensor<8x16xf32>
"""
    body = body.replace("    %x = tt.load", ("    %r8 = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>\n"
                                             + ptrs("%idx_ptr_t", "idx_ptr", "i32", [8], "%r8")
                                             + "    %x = tt.load"))
    body += offsets2d("%go", 8, 16, 16) + ptrs("%gp", "g_ptr", "f32", [8, 16], "%go")
    body += "    tt.store %gp, %g : tensor<8x16x!tt.ptr<f32>>\n"
    body += f"""    %neg = arith.negf %g : tensor<8x16xf32>
    %od = tt.make_tensor_descriptor %out_ptr, [%m, %n], [%n64, %one64] : !tt.ptr<f32>, !tt.tensordesc<tensor<1x16xf32>>
""" + ptrs("%dst_t", "dst_ptr", "i32", [8], "%r8") + """    %y = tt.load %dst_t : tensor<8x!tt.ptr<i32>>
    tt.descriptor_scatter %od[%y, %c30], %neg : !tt.tensordesc<tensor<1x16xf32>>, tensor<8xi32>, i32, tensor<8x16xf32>
"""
    ttir = kernel("desc_gs", [("a_ptr", "!tt.ptr<f32>"), ("idx_ptr", "!tt.ptr<i32>"),
                              ("dst_ptr", "!tt.ptr<i32>"), ("g_ptr", "!tt.ptr<f32>"),
                              ("out_ptr", "!tt.ptr<f32>")], body)
    a = rng.standard_normal((M, N)).astype(np.float32)
    idx = np.array([0, 5, 49, 50, -1, 17, 3, 200], np.int32)
    dst = np.array([1, 2, 3, 4, 60, 49, -3, 10], np.int32)
    g = np.zeros((8, 16), np.float32)
    for k, r in enumerate(idx):
        for c in range(16):
            if 0 <= r < M and 30 + c < N:
                g[k, c] = a[r, 30 + c]
    out = np.full((M, N), 5.0, np.float32)
    want = out.copy()
    for k, r in enumerate(dst):
        for c in range(16):
            if 0 <= r < M and 30 + c < N:
                want[r, 30 + c] = -g[k, c]
    args = [Buf(a), Buf(idx), Buf(dst), Buf(np.zeros((8, 16), np.float32), g),
            Buf(out, want)]
    check(tmp_path, "desc_gs", ttir, args)
    # The GPU's rewrite into masked pointer-tensor loads and stores computes
    # the same.
    check_rewritten(tmp_path / "lowered", "desc_gs", ttir, args,
                    "--tpxgpu-lower-tensor-descriptors")
