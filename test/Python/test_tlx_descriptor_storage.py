"""TLX descriptors in explicitly allocated storage (allocate_tensor_descriptor,
make_tensor_descriptor(desc_ptr=...), reinterpret_tensor_descriptor) and
the TMA copies' optional arguments (pred, prefetches, fence scopes).

A slot holds the descriptor last written into it; reinterpreting it gives
a descriptor of that tensor, whatever the slot index (constexpr or run
time) and wherever the write happened in the program before the read.
The kernels run on the CPU; on sm_90a the test checks what compiles.
"""

import numpy as np
import pytest

import tpx
import tpx.language as tl
import tpx.language.extra.tlx as tlx
from tpx.errors import CompilationError

import frontend_harness as h

pytestmark = h.cpu_only("TLX kernels lower for the CPU target only so far")


@tpx.jit
def copy_kernel(input_ptr, output_ptr, SIZE, BLOCK_SIZE: tl.constexpr):
    # TLX's own example: two slots, written, then read back as descriptors.
    desc_ptrs = tlx.allocate_tensor_descriptor(num=2)
    tlx.make_tensor_descriptor(desc_ptr=desc_ptrs[0], base=input_ptr,
                               shape=[SIZE], strides=[tl.constexpr(1)],
                               block_shape=[BLOCK_SIZE])
    tlx.make_tensor_descriptor(desc_ptr=desc_ptrs[1], base=output_ptr,
                               shape=[SIZE], strides=[tl.constexpr(1)],
                               block_shape=[BLOCK_SIZE])
    offset = tl.program_id(0) * BLOCK_SIZE
    desc_in = tlx.reinterpret_tensor_descriptor(
        desc_ptr=desc_ptrs[0], block_shape=[BLOCK_SIZE],
        dtype=tlx.dtype_of(input_ptr))
    desc_out = tlx.reinterpret_tensor_descriptor(
        desc_ptr=desc_ptrs[1], block_shape=[BLOCK_SIZE],
        dtype=tlx.dtype_of(output_ptr))
    desc_out.store([offset], desc_in.load([offset]))


def test_descriptors_written_and_read_back():
    x = np.arange(200, dtype=np.int16)
    y = np.zeros_like(x)
    # 200 is not a multiple of the block: the last block is clipped.
    copy_kernel[(4,)](x, y, 200, BLOCK_SIZE=64)
    np.testing.assert_array_equal(y, x)


@tpx.jit
def tma_through_slots_kernel(x_ptr, y_ptr, M, N, BM: tl.constexpr,
                             BN: tl.constexpr):
    slots = tlx.allocate_tensor_descriptor(2)
    tlx.make_tensor_descriptor(slots[0], x_ptr, [M, N], [N, 1], [BM, BN])
    tlx.make_tensor_descriptor(slots[1], y_ptr, [M, N], [N, 1], [BM, BN])
    buf = tlx.local_alloc((BM, BN), tl.float32, 1)
    bars = tlx.alloc_barriers(1)
    pid = tl.program_id(0)
    desc = tlx.reinterpret_tensor_descriptor(slots[0], [BM, BN], tl.float32)
    tlx.barrier_expect_bytes(bars[0], BM * BN * 4)
    tlx.async_descriptor_load(desc, buf[0], [pid * BM, 0], bars[0])
    tlx.barrier_wait(bars[0], 0)
    tlx.local_store(buf[0], tlx.local_load(buf[0]) * 2)
    tlx.fence_async_shared()
    out = tlx.reinterpret_tensor_descriptor(slots[1], [BM, BN], tl.float32)
    tlx.async_descriptor_store(out, buf[0], [pid * BM, 0])
    tlx.async_descriptor_store_wait(0)


def test_tma_copies_through_reinterpreted_descriptors():
    M, N = 40, 16
    x = np.arange(M * N, dtype=np.float32).reshape(M, N)
    y = np.full_like(x, -1)
    tma_through_slots_kernel[(3,)](x, y, M, N, BM=16, BN=16)
    np.testing.assert_array_equal(y, 2 * x)


@tpx.jit
def grouped_copy_kernel(src_ptrs, dst_ptrs, sizes, GROUPS: tl.constexpr,
                        BLOCK: tl.constexpr):
    # As TLX's grouped GEMM does: descriptors of each group's tensors made
    # into alternating slots (a run-time index), read back in an inner loop.
    slots = tlx.allocate_tensor_descriptor(num=4)
    buf = 0
    for g in range(GROUPS):
        size = tl.load(sizes + g)
        src = tl.load(src_ptrs + g).to(tl.pointer_type(tl.float32))
        dst = tl.load(dst_ptrs + g).to(tl.pointer_type(tl.float32))
        tlx.make_tensor_descriptor(slots[2 * buf], src, [size], [1], [BLOCK])
        tlx.make_tensor_descriptor(slots[2 * buf + 1], dst, [size], [1],
                                   [BLOCK])
        for start in range(0, size, BLOCK):
            d_in = tlx.reinterpret_tensor_descriptor(slots[2 * buf], [BLOCK],
                                                     tl.float32)
            d_out = tlx.reinterpret_tensor_descriptor(slots[2 * buf + 1],
                                                      [BLOCK], tl.float32)
            d_out.store([start], d_in.load([start]) + g)
        buf = 1 - buf


def test_slots_selected_at_run_time_in_loops():
    sizes = [37, 64, 5]
    srcs = [np.arange(n, dtype=np.float32) * (g + 1)
            for g, n in enumerate(sizes)]
    dsts = [np.zeros(n, np.float32) for n in sizes]
    src_ptrs = np.array([a.ctypes.data for a in srcs], np.int64)
    dst_ptrs = np.array([a.ctypes.data for a in dsts], np.int64)
    grouped_copy_kernel[(1,)](src_ptrs, dst_ptrs,
                              np.array(sizes, np.int32), GROUPS=len(sizes),
                              BLOCK=16)
    for g, (src, dst) in enumerate(zip(srcs, dsts)):
        np.testing.assert_array_equal(dst, src + g)


@tpx.jit
def ws_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    # Made before the tasks, read by the producer; the consumer stores.
    slots = tlx.allocate_tensor_descriptor(num=1)
    tlx.make_tensor_descriptor(slots, x_ptr, [N], [1], [BLOCK])
    buf = tlx.local_alloc((BLOCK,), tl.float32, 1)
    full = tlx.alloc_barriers(1)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            tlx.barrier_wait(full[0], 0)
            offs = tl.arange(0, BLOCK)
            tl.store(y_ptr + offs, tlx.local_load(buf[0]) + 1,
                     mask=offs < N)
        with tlx.async_task(num_warps=1):
            desc = tlx.reinterpret_tensor_descriptor(slots, [BLOCK],
                                                     tl.float32)
            tlx.barrier_expect_bytes(full[0], BLOCK * 4)
            tlx.async_descriptor_load(desc, buf[0], [0], full[0])


def test_a_task_reads_a_descriptor_made_before_the_tasks():
    x = np.arange(24, dtype=np.float32)
    y = np.zeros_like(x)
    ws_kernel[(1,)](x, y, 24, BLOCK=32)
    np.testing.assert_array_equal(y, x + 1)


@tpx.jit
def predicated_load_kernel(x_ptr, y_ptr, M, N, BM: tl.constexpr,
                           BN: tl.constexpr):
    desc = tlx.make_tensor_descriptor(None, x_ptr, [M, N], [N, 1], [BM, BN])
    buf = tlx.local_alloc((BM, BN), tl.float32, 1)
    bars = tlx.alloc_barriers(1)
    pid = tl.program_id(0)
    tlx.local_store(buf[0], tl.full((BM, BN), -1.0, tl.float32))
    tlx.fence("async_shared")
    tlx.async_descriptor_prefetch_tensor(desc, [pid * BM, 0])
    first = pid == 0
    tlx.barrier_expect_bytes(bars[0], BM * BN * 4, pred=first)
    tlx.async_descriptor_load(desc, buf[0], [pid * BM, 0], bars[0],
                              pred=first)
    tlx.barrier_wait(bars[0], 0, pred=first)
    out = tlx.make_tensor_descriptor(None, y_ptr, [M, N], [N, 1], [BM, BN])
    tlx.fence("async_shared")
    tlx.async_descriptor_store(out, buf[0], [pid * BM, 0],
                               eviction_policy="evict_first")
    tlx.async_descriptor_store_wait(0)


def test_a_predicated_off_copy_copies_nothing():
    x = np.arange(32 * 16, dtype=np.float32).reshape(32, 16)
    y = np.zeros_like(x)
    predicated_load_kernel[(2,)](x, y, 32, 16, BM=16, BN=16)
    np.testing.assert_array_equal(y[:16], x[:16])
    np.testing.assert_array_equal(y[16:], -1.0)


# -- errors ---------------------------------------------------------------------

_compile_error = h.compile_error


@tpx.jit
def not_a_slot_kernel(x_ptr):
    bufs = tlx.local_alloc((16,), tl.int64, 2)
    tlx.make_tensor_descriptor(bufs[0], x_ptr, [16], [1], [16])


def test_desc_ptr_must_come_from_allocate_tensor_descriptor():
    message = _compile_error(not_a_slot_kernel, np.zeros(16, np.float32))
    assert "desc_ptr must come from tlx.allocate_tensor_descriptor()" in \
        message
    line = not_a_slot_kernel.fn.__code__.co_firstlineno + 3
    assert "test_tlx_descriptor_storage.py:%d" % line in message


@tpx.jit
def slot_out_of_range_kernel(x_ptr):
    slots = tlx.allocate_tensor_descriptor(num=2)
    tlx.make_tensor_descriptor(slots[2], x_ptr, [16], [1], [16])


def test_a_slot_index_out_of_range():
    message = _compile_error(slot_out_of_range_kernel,
                             np.zeros(16, np.float32))
    assert "index 2 is out of range for 2 buffers" in message


@tpx.jit
def nan_slot_kernel(x_ptr):
    slots = tlx.allocate_tensor_descriptor(num=1)
    tlx.make_tensor_descriptor(slots[0], x_ptr, [16], [1], [16],
                               padding_option="nan")


def test_nan_padding_cannot_be_stored():
    message = _compile_error(nan_slot_kernel, np.zeros(16, np.float32))
    assert "a descriptor with NaN padding cannot be stored through " \
        "desc_ptr" in message


@tpx.jit
def runtime_num_kernel(x_ptr, n):
    tlx.allocate_tensor_descriptor(n)


def test_num_must_be_a_constexpr():
    message = _compile_error(runtime_num_kernel, np.zeros(16, np.float32), 2)
    assert "`num` must be a constexpr" in message


@tpx.jit
def reduce_store_kernel(x_ptr):
    desc = tlx.make_tensor_descriptor(None, x_ptr, [16], [1], [16])
    buf = tlx.local_alloc((16,), tl.float32, 1)
    tlx.async_descriptor_store(desc, buf[0], [0], store_reduce="add")


@tpx.jit
def gpu_fence_kernel(x_ptr):
    tlx.fence("gpu")


def test_what_tpx_does_not_provide_is_named():
    x = np.zeros(16, np.float32)
    assert "store_reduce='add' (TMA reductions) is not supported" in \
        _compile_error(reduce_store_kernel, x)
    # multicast_targets without clusters: test_tlx_clusters.py.
    assert "device- and system-scope fences are not provided" in \
        _compile_error(gpu_fence_kernel, x)


# -- sm_90a ---------------------------------------------------------------------

@pytest.mark.skipif(not h.have_ptxas(), reason="no CUDA toolkit (ptxas)")
def test_on_sm_90a_reinterpreted_descriptors_load_through_pointers():
    # tl-level loads and stores through a reinterpreted descriptor take the
    # masked pointer lowering (the launcher cannot build a tensor map from
    # values the kernel reads from memory); TLX's TMA copies need a map,
    # so they are an error there (docs/tlx.md).
    from tpx.compiler.compiler import compile_ttir
    from tpx.pipeline import resolve
    x = np.zeros(128, np.int16)
    text = h.ttir(copy_kernel, x, x, 128, BLOCK_SIZE=64)
    pipeline = resolve(copy_kernel, "sm_90a")[0]
    kernel = compile_ttir(text, "sm_90a", num_warps=4,
                          pipeline_text=pipeline, no_cache=True)
    assert kernel.metadata["pipeline"] == "simt"
    assert not kernel.metadata.get("tensor_maps")
    y = np.zeros((40, 16), np.float32)
    text = h.ttir(tma_through_slots_kernel, y, y, 40, 16, BM=16, BN=16)
    pipeline = resolve(tma_through_slots_kernel, "sm_90a")[0]
    with pytest.raises(CompilationError, match="does not cover tensor "
                       "descriptors"):
        compile_ttir(text, "sm_90a", num_warps=4, pipeline_text=pipeline,
                     no_cache=True)


@pytest.mark.skipif(not h.have_ptxas(), reason="no CUDA toolkit (ptxas)")
def test_on_sm_90a_a_predicated_copy_is_a_conditional_tma_copy():
    from tpx.compiler.compiler import compile_ttir
    from tpx.pipeline import resolve
    x = np.zeros((32, 16), np.float32)
    text = h.ttir(predicated_load_kernel, x, x, 32, 16, BM=16, BN=16)
    assert "scf.if" in text
    pipeline = resolve(predicated_load_kernel, "sm_90a")[0]
    kernel = compile_ttir(text, "sm_90a", num_warps=4,
                          pipeline_text=pipeline, no_cache=True)
    assert kernel.metadata["pipeline"] == "simt"
    assert len(kernel.metadata["tensor_maps"]) == 2
    assert "cp.async.bulk.tensor.2d.shared::cluster.global" in \
        kernel.asm["ptx"]
