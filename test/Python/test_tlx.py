"""TLX (the bundled plugin, tpx.language.extra.tlx) from Python.

TLX kernels run on the CPU: buffers on each program's stack, async copies
and dots complete at their issue (so at their wait, as TLX requires). On
sm_90a they compile to the SIMT path (no GPU here: the test checks what
was compiled).
These tests check values against numpy, the front end's and the dialect's
diagnostics, and that the plugin is found and selected by itself.
"""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tpx
import tpx.language as tl
import tpx.language.extra.tlx as tlx

import frontend_harness as h

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))

from tlx_tutorials import (attention_pipelined, attention_ws,  # noqa: E402
                           gemm_pingpong, gemm_pipelined, gemm_tma, gemm_ws)

pytestmark = h.cpu_only("TLX kernels lower for the CPU target only so far")


def _rng():
    return np.random.default_rng(1234)


# -- the pipelined GEMM tutorial -----------------------------------------------

@pytest.mark.parametrize("shape", [(64, 64, 64), (96, 80, 200), (33, 17, 70),
                                   (128, 32, 32)])
def test_pipelined_gemm_f16(shape):
    M, N, K = shape
    rng = _rng()
    a = rng.standard_normal((M, K)).astype(np.float16)
    b = rng.standard_normal((K, N)).astype(np.float16)
    c = gemm_pipelined.matmul(a, b)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(c.astype(np.float32), ref, atol=0.06,
                               rtol=0.01)


@pytest.mark.parametrize("stages", [2, 4])
def test_pipelined_gemm_stages_and_f32(stages):
    rng = _rng()
    a = rng.standard_normal((48, 72)).astype(np.float32)
    b = rng.standard_normal((72, 40)).astype(np.float32)
    config = dict(gemm_pipelined.CPU_CONFIG, NUM_STAGES=stages,
                  BLOCK_SIZE_K=16)
    c = gemm_pipelined.matmul(a, b, config)
    np.testing.assert_allclose(c, a @ b, atol=1e-3, rtol=1e-4)


def test_pipelined_gemm_transposed_b_strides():
    # B given as a transposed view: its strides are (1, K).
    rng = _rng()
    a = rng.standard_normal((40, 64)).astype(np.float16)
    bt = rng.standard_normal((24, 64)).astype(np.float16)
    c = gemm_pipelined.matmul(a, bt.T)
    ref = a.astype(np.float32) @ bt.T.astype(np.float32)
    np.testing.assert_allclose(c.astype(np.float32), ref, atol=0.06,
                               rtol=0.01)


# -- the TMA GEMM tutorial (mbarriers, descriptors) ---------------------------

@pytest.mark.parametrize("shape", [(64, 64, 64), (96, 80, 200), (40, 24, 48)])
def test_tma_gemm_f16(shape):
    # Ragged shapes: TMA zero-fills the edge tiles, and the store through
    # C's descriptor drops what lies outside.
    M, N, K = shape
    rng = _rng()
    a = rng.standard_normal((M, K)).astype(np.float16)
    b = rng.standard_normal((K, N)).astype(np.float16)
    c = gemm_tma.matmul(a, b)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(c.astype(np.float32), ref, atol=0.06,
                               rtol=0.01)


def test_tma_gemm_compiles_for_hopper_with_tensor_maps():
    # On sm_90a the TMA copies complete on the tutorial's mbarriers, read
    # through launcher-built tensor maps (checked on the H200 by
    # bench/tlx_bench.py).
    from tpx.compiler.compiler import compile_ttir
    from tpx.tools.tensor_descriptor import TensorDescriptor
    a = np.zeros((256, 128), np.float16)
    b = np.zeros((128, 256), np.float16)
    config = dict(gemm_tma.HOPPER_CONFIG)
    num_warps = config.pop("num_warps")
    descs = [TensorDescriptor.from_tensor(a, [128, 64]),
             TensorDescriptor.from_tensor(b, [64, 256]),
             TensorDescriptor.from_tensor(a, [128, 256])]
    text = h.ttir(gemm_tma.matmul_kernel_tma, *descs, 256, 256, 128,
                  **config)
    from tpx.pipeline import resolve
    pipeline = resolve(gemm_tma.matmul_kernel_tma, "sm_90a")[0]
    kernel = compile_ttir(text, "sm_90a", num_warps=num_warps,
                          pipeline_text=pipeline, no_cache=True)
    assert kernel.metadata["pipeline"] == "simt"
    # A and B; C's store offsets (grouped tile order over M and N) are not
    # known non-negative, so C is stored through pointers.
    assert len(kernel.metadata["tensor_maps"]) == 2
    ptx = kernel.asm["ptx"]
    assert "mbarrier.try_wait.parity" in ptx
    assert "mbarrier.arrive.expect_tx" in ptx
    assert "cp.async.bulk.tensor.2d.shared::cluster.global" in ptx
    assert "wgmma.mma_async" in ptx


def test_the_kernel_selects_the_tlx_extension():
    a = np.zeros((32, 32), np.float16)
    text = h.ttir(gemm_pipelined.matmul_kernel_pipelined, a, a, a, 32, 32, 32,
                  32, 1, 32, 1, 32, 1, **dict(
                      (k, v) for k, v in gemm_pipelined.CPU_CONFIG.items()
                      if k != "num_warps"))
    assert text.startswith('module attributes {tpx.pipeline = ["tlx"]}')
    assert '"tlx.async_load"' in text and '"tlx.async_dot"' in text


# -- buffers ----------------------------------------------------------------------

@tpx.jit
def views_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    rows = tl.arange(0, BLOCK)[:, None]
    cols = tl.arange(0, BLOCK)[None, :]
    x = tl.load(x_ptr + rows * BLOCK + cols)
    bufs = tlx.local_alloc((BLOCK, BLOCK), tl.float32, 2)
    tlx.local_store(bufs[1], x)
    # out[0] = x^T, out[1] = the top-right quarter of x, tiled, out[2] = x as
    # int32 bits plus one, back as floats.
    t = tlx.local_load(tlx.local_trans(bufs[1]))
    tl.store(out_ptr + rows * BLOCK + cols, t)
    quarter = tlx.local_slice(bufs[1], [0, BLOCK // 2], [BLOCK // 2,
                                                         BLOCK // 2])
    q = tlx.local_load(quarter)
    qr = tl.arange(0, BLOCK // 2)[:, None]
    qc = tl.arange(0, BLOCK // 2)[None, :]
    tl.store(out_ptr + BLOCK * BLOCK + qr * BLOCK + qc, q)
    bits = tlx.local_reinterpret(bufs[1], tl.int32)
    tlx.local_store(bits, tlx.local_load(bits) + 1)
    y = tlx.local_load(bufs[1])
    tl.store(out_ptr + 2 * BLOCK * BLOCK + rows * BLOCK + cols, y)


def test_buffer_views():
    B = 8
    x = _rng().standard_normal((B, B)).astype(np.float32)
    out = np.zeros((3, B, B), np.float32)
    h.run(views_kernel, (1,), x, out, BLOCK=B)
    np.testing.assert_array_equal(out[0], x.T)
    np.testing.assert_array_equal(out[1, :B // 2, :B // 2], x[:B // 2, B // 2:])
    expected = (x.view(np.int32) + 1).view(np.float32)
    np.testing.assert_array_equal(out[2], expected)


@tpx.jit
def picked_view_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    # TLX's way of picking a half at run time (the clustered GEMM's B
    # halves): the view comes out of an if, and its store moves into both
    # arms (TLXBufferSelections.cpp; 2-D halves, whose strides are not a
    # row-major buffer's, in test_tlx_clusters.py).
    pid = tl.program_id(0)
    half = tl.arange(0, BLOCK // 2)
    buf = tlx.local_alloc((BLOCK,), tl.float32, 1)
    tlx.local_store(buf[0], tl.zeros((BLOCK,), tl.float32))
    if pid == 0:
        view = tlx.local_slice(buf[0], [0], [BLOCK // 2])
    else:
        view = tlx.local_slice(buf[0], [BLOCK // 2], [BLOCK // 2])
    tlx.local_store(view, tl.load(x_ptr + half) + pid)
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + pid * BLOCK + offs, tlx.local_load(buf[0]))


def test_a_view_picked_by_an_if():
    B = 8
    x = np.arange(B // 2, dtype=np.float32)
    out = np.full((2, B), -1, np.float32)
    text = h.run(picked_view_kernel, (2,), x, out, BLOCK=B)
    assert "scf.if" in text
    zeros = np.zeros(B // 2, np.float32)
    np.testing.assert_array_equal(out[0], np.concatenate([x, zeros]))
    np.testing.assert_array_equal(out[1], np.concatenate([zeros, x + 1]))


@tpx.jit
def masked_copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr,
                       OTHER: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    bufs = tlx.local_alloc((BLOCK,), tl.float32, 1)
    if OTHER:
        token = tlx.async_load(x_ptr + offs, bufs[0], mask=offs < n,
                               other=-1.0)
    else:
        token = tlx.async_load(x_ptr + offs, bufs[0], mask=offs < n)
    group = tlx.async_load_commit_group([token])
    done = tlx.async_load_wait_group(0, [group])
    tl.store(out_ptr + offs, tlx.local_load(bufs[0], done))


@pytest.mark.parametrize("other", [False, True])
def test_masked_async_load_fills_other_or_zero(other):
    x = np.arange(16, dtype=np.float32) + 1
    out = np.full(16, 99.0, np.float32)
    h.run(masked_copy_kernel, (1,), x, out, 5, BLOCK=16, OTHER=other)
    expected = np.where(np.arange(16) < 5, x, -1.0 if other else 0.0)
    np.testing.assert_array_equal(out, expected)


@tpx.jit
def register_a_kernel(a_ptr, b_ptr, c_ptr, USE: tl.constexpr):
    r = tl.arange(0, 16)
    a = tl.load(a_ptr + r[:, None] * 16 + r[None, :])
    b_bufs = tlx.local_alloc((16, 16), tl.float16, 1)
    tlx.local_store(b_bufs[0], tl.load(b_ptr + r[:, None] * 16 + r[None, :]))
    acc = tl.full((16, 16), 1.0, tl.float32)
    acc = tlx.async_dot(a, b_bufs[0], acc, use_acc=USE)
    acc = tlx.async_dot_wait(0, acc)
    tl.store(c_ptr + r[:, None] * 16 + r[None, :], acc)


@pytest.mark.parametrize("use_acc", [True, False])
def test_async_dot_with_a_in_registers(use_acc):
    rng = _rng()
    a = rng.standard_normal((16, 16)).astype(np.float16)
    b = rng.standard_normal((16, 16)).astype(np.float16)
    c = np.zeros((16, 16), np.float32)
    h.run(register_a_kernel, (1,), a, b, c, USE=use_acc)
    ref = a.astype(np.float32) @ b.astype(np.float32) + (1.0 if use_acc
                                                         else 0.0)
    np.testing.assert_allclose(c, ref, atol=1e-2)


@tpx.jit
def runtime_use_acc_kernel(a_ptr, c_ptr, flag):
    r = tl.arange(0, 16)
    bufs = tlx.local_alloc((16, 16), tl.float32, 2)
    tlx.local_store(bufs[0], tl.load(a_ptr + r[:, None] * 16 + r[None, :]))
    tlx.local_store(bufs[1], tl.full((16, 16), 0.0, tl.float32) +
                    (r[:, None] == r[None, :]).to(tl.float32))
    acc = tl.full((16, 16), 5.0, tl.float32)
    acc = tlx.async_dot(bufs[0], bufs[1], acc, use_acc=flag != 0,
                        input_precision="ieee")
    acc = tlx.async_dot_wait(0, acc)
    tl.store(c_ptr + r[:, None] * 16 + r[None, :], acc)


@pytest.mark.parametrize("flag", [0, 1])
def test_use_acc_at_run_time(flag):
    a = _rng().standard_normal((16, 16)).astype(np.float32)
    c = np.zeros((16, 16), np.float32)
    h.run(runtime_use_acc_kernel, (1,), a, c, flag)
    np.testing.assert_allclose(c, a + (5.0 if flag else 0.0), rtol=1e-6)


# -- barriers, TMA and warp specialization -------------------------------------

# The cooperative kernel (one consumer) and the ping-pong one (two consumer
# replicas taking the tiles in turn; both tasks name a variable `step`, each
# its own: a task's names are local to it).
@pytest.mark.parametrize("module", [gemm_ws, gemm_pingpong],
                         ids=["cooperative", "ping-pong"])
@pytest.mark.parametrize("shape", [(64, 64, 64), (100, 72, 88), (256, 64, 128),
                                   (160, 96, 40)])
def test_warp_specialized_tma_gemm(module, shape):
    M, N, K = shape
    rng = _rng()
    a = rng.standard_normal((M, K)).astype(np.float16)
    b = rng.standard_normal((K, N)).astype(np.float16)
    c = module.matmul(a, b)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(c.astype(np.float32), ref, atol=0.06,
                               rtol=0.01)


def _attention_reference(q, k, v, causal):
    q, k, v = (t.astype(np.float32) for t in (q, k, v))
    s = q @ k.transpose(0, 2, 1) / np.sqrt(q.shape[-1])
    if causal:
        n = s.shape[-1]
        s = np.where(np.tril(np.ones((n, n), bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    return (p / p.sum(-1, keepdims=True)) @ v


@pytest.mark.parametrize("d", [64, 128])
@pytest.mark.parametrize("causal", [False, True])
def test_warp_specialized_pingpong_attention(d, causal):
    rng = _rng()
    q, k, v = (rng.standard_normal((2, 64, d)).astype(np.float16)
               for _ in range(3))
    o = attention_ws.attention(q, k, v, causal)
    np.testing.assert_allclose(o.astype(np.float32),
                               _attention_reference(q, k, v, causal),
                               atol=2e-3, rtol=1e-2)


@pytest.mark.parametrize("d", [64, 128])
@pytest.mark.parametrize("causal", [False, True])
def test_pipelined_attention(d, causal):
    rng = _rng()
    q, k, v = (rng.standard_normal((2, 64, d)).astype(np.float16)
               for _ in range(3))
    o = attention_pipelined.attention(q, k, v, causal)
    np.testing.assert_allclose(o.astype(np.float32),
                               _attention_reference(q, k, v, causal),
                               atol=2e-3, rtol=1e-2)


@tpx.jit
def producer_consumer_kernel(x_ptr, y_ptr, n_tiles, BLOCK: tl.constexpr,
                             NUM_BUF: tl.constexpr, REPLICAS: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    bufs = tlx.local_alloc((BLOCK,), tl.float32, NUM_BUF)
    full = tlx.alloc_barriers(NUM_BUF, 1)
    empty = tlx.alloc_barriers(NUM_BUF, 1)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            for i in range(n_tiles):
                s = i % NUM_BUF
                tlx.barrier_wait(full[s], (i // NUM_BUF) & 1)
                v = tlx.local_load(bufs[s])
                tlx.barrier_arrive(empty[s])
                tl.store(y_ptr + i * BLOCK + offs, v * 2)
        with tlx.async_task(num_warps=1, replicate=REPLICAS):
            # The replicas take turns: replica r fills tiles r, r + R, ...
            r = tlx.async_task_replica_id()
            for i in range(r, n_tiles, REPLICAS):
                s = i % NUM_BUF
                tlx.barrier_wait(empty[s], ((i // NUM_BUF) & 1) ^ 1)
                tlx.local_store(bufs[s], tl.load(x_ptr + i * BLOCK + offs))
                tlx.barrier_arrive(full[s])


@pytest.mark.parametrize("replicas", [1, 2])
def test_tasks_hand_buffers_over_through_barriers(replicas):
    n = 37
    x = _rng().standard_normal(n * 16).astype(np.float32)
    y = np.zeros_like(x)
    producer_consumer_kernel[(3,)](x, y, n, BLOCK=16, NUM_BUF=3,
                                   REPLICAS=replicas)
    np.testing.assert_array_equal(y, 2 * x)


@tpx.jit
def warp_barrier_kernel(x_ptr, y_ptr, n_tiles, BLOCK: tl.constexpr,
                        NUM_BUF: tl.constexpr):
    # TLX's warp barriers (every thread arrives): `full` counts the one
    # producer warp's threads, `empty` both 4-warp consumer replicas'.
    offs = tl.arange(0, BLOCK)
    bufs = tlx.local_alloc((BLOCK,), tl.float32, NUM_BUF)
    full = tlx.alloc_warp_barrier(NUM_BUF, num_warps=1)
    empty = tlx.alloc_warp_barrier(NUM_BUF, num_warps=4, num_arrivals=2)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            tl.store(y_ptr + n_tiles * BLOCK, 1.0)
        with tlx.async_task(num_warps=1):
            for i in range(n_tiles):
                s = i % NUM_BUF
                tlx.barrier_wait(empty[s], ((i // NUM_BUF) & 1) ^ 1)
                tlx.local_store(bufs[s], tl.load(x_ptr + i * BLOCK + offs))
                tlx.barrier_arrive(full[s])
        with tlx.async_task(num_warps=4, replicate=2):
            r = tlx.async_task_replica_id()
            for i in range(n_tiles):
                s = i % NUM_BUF
                tlx.barrier_wait(full[s], (i // NUM_BUF) & 1)
                v = tlx.local_load(bufs[s])
                tlx.barrier_arrive(empty[s])
                tl.store(y_ptr + i * BLOCK + offs, v * 2,
                         mask=offs % 2 == r)


def test_warp_barriers_count_whole_tasks():
    n = 23
    x = _rng().standard_normal(n * 16).astype(np.float32)
    y = np.zeros(n * 16 + 1, np.float32)
    warp_barrier_kernel[(2,)](x, y, n, BLOCK=16, NUM_BUF=2)
    np.testing.assert_array_equal(y[:-1], 2 * x)


@tpx.jit
def bad_warp_barrier_kernel(x_ptr):
    tlx.alloc_warp_barrier(1, num_warps=0)


def test_warp_barrier_arguments_are_checked():
    assert "tlx.alloc_warp_barrier() needs num_warps and num_arrivals of " \
        "at least 1, got 0 and 1" in _compile_error(
            bad_warp_barrier_kernel, np.zeros(1, np.float32))


@tpx.jit
def deadlock_kernel(y_ptr, TASKS: tl.constexpr):
    bars = tlx.alloc_barriers(2, 1)
    if TASKS:
        with tlx.async_tasks():
            with tlx.async_task("default"):
                tlx.barrier_wait(bars[0], 0)
            with tlx.async_task(num_warps=1):
                tlx.barrier_arrive(bars[1])
                tlx.barrier_wait(bars[1], 1)
    else:
        tlx.barrier_wait(bars[1], 0)
    tl.store(y_ptr, 1.0)


def test_a_deadlock_is_reported_not_hung():
    with pytest.raises(tpx.LaunchError) as info:
        deadlock_kernel[(1,)](np.zeros(1, np.float32), TASKS=True)
    message = str(info.value)
    assert "deadlock in program (0, 0, 0)" in message
    line = deadlock_kernel.fn.__code__.co_firstlineno
    assert "task 0 waits at line %d for phase 0 of barrier 0 of the " \
        "mbarriers allocated at line %d" % (line + 6, line + 2) in message
    assert "task 1 waits at line %d for phase 1 of barrier 1" % (line + 9) \
        in message
    with pytest.raises(tpx.LaunchError) as info:
        deadlock_kernel[(2,)](np.zeros(1, np.float32), TASKS=False)
    assert "the wait at line %d for phase 0 of barrier 1" % (line + 11) in \
        str(info.value)
    assert "can never complete (no other task runs)" in str(info.value)


@tpx.jit
def tma_kernel(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    desc = tlx.make_tensor_descriptor(None, x_ptr, [M, N], [N, 1], [BM, BN])
    buf = tlx.local_alloc((BM, BN), tl.float32, 1)
    bars = tlx.alloc_barriers(1)
    pid = tl.program_id(0)
    tlx.barrier_expect_bytes(bars[0], BM * BN * 4)
    tlx.async_descriptor_load(desc, buf[0], [pid * BM, 0], bars[0])
    tlx.barrier_wait(bars[0], 0)
    out = tlx.make_tensor_descriptor(None, y_ptr, [M, N], [N, 1], [BM, BN])
    tlx.local_store(buf[0], tlx.local_load(buf[0]) + 1)
    tlx.fence_async_shared()
    tlx.async_descriptor_store(out, buf[0], [pid * BM, 0])
    tlx.async_descriptor_store_wait(0)


def test_tma_copies_pad_and_clip():
    M, N = 40, 16
    x = np.arange(M * N, dtype=np.float32).reshape(M, N)
    y = np.zeros_like(x)
    tma_kernel[(3,)](x, y, M, N, BM=16, BN=16)
    np.testing.assert_array_equal(y, x + 1)


@tpx.jit
def bad_regs_kernel(x_ptr):
    with tlx.async_tasks():
        with tlx.async_task("default"):
            tl.store(x_ptr, 1.0)
        with tlx.async_task(num_warps=4, num_regs=300):
            tl.store(x_ptr, 2.0)


def test_num_regs_outside_the_hardware_range():
    message = _compile_error(bad_regs_kernel, np.zeros(1, np.float32))
    assert "num_regs 300 is outside what the hardware allows" in message


@tpx.jit
def stray_task_kernel(x_ptr):
    with tlx.async_task(num_warps=4):
        tl.store(x_ptr, 2.0)


def test_a_task_outside_async_tasks():
    message = _compile_error(stray_task_kernel, np.zeros(1, np.float32))
    assert "must be used directly inside `with tlx.async_tasks():`" in message


@tpx.jit
def overlap_kernel(x_ptr):
    with tlx.async_tasks():
        with tlx.async_task(num_warps=4, warp_group_start_id=4):
            tl.store(x_ptr, 1.0)
        with tlx.async_task(num_warps=4, warp_group_start_id=6):
            tl.store(x_ptr, 2.0)


def test_tasks_whose_warps_overlap():
    message = _compile_error(overlap_kernel, np.zeros(1, np.float32))
    assert "warps [6, 10) overlap another task's [4, 8)" in message


@tpx.jit
def shared_tensor_kernel(x_ptr):
    v = tl.load(x_ptr + tl.arange(0, 4))
    with tlx.async_tasks():
        with tlx.async_task("default"):
            tl.store(x_ptr + tl.arange(0, 4), v)


def test_a_task_cannot_take_a_loaded_tensor():
    message = _compile_error(shared_tensor_kernel, np.zeros(4, np.float32))
    assert "computed outside tlx.async_tasks" in message


@tpx.jit
def named_barrier_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    buf = tlx.local_alloc((BLOCK,), tl.float32, 1)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            tl.store(y_ptr + n * BLOCK + offs, tl.zeros((BLOCK,), tl.float32))
        with tlx.async_task(num_warps=4, replicate=2):
            # Replica 0 writes a tile and arrives at barrier 9; replica 1
            # waits there (2 x 128 threads), copies it out and arrives at
            # barrier 10, which replica 0 waits at before the next tile.
            r = tlx.async_task_replica_id()
            for i in range(n):
                if r == 0:
                    if i > 0:
                        tlx.named_barrier_wait(10, 256)
                    tlx.local_store(buf[0],
                                    tl.load(x_ptr + i * BLOCK + offs) + 1)
                    tlx.named_barrier_arrive(9, 256)
                else:
                    tlx.named_barrier_wait(9, 256)
                    tl.store(y_ptr + i * BLOCK + offs, tlx.local_load(buf[0]))
                    tlx.named_barrier_arrive(10, 256)


def test_named_barriers_order_tasks():
    n = 20
    x = _rng().standard_normal(n * 8).astype(np.float32)
    y = np.ones((n + 1) * 8, np.float32)
    named_barrier_kernel[(2,)](x, y, n, BLOCK=8)
    np.testing.assert_array_equal(y[:n * 8], x + 1)
    np.testing.assert_array_equal(y[n * 8:], 0)


@tpx.jit
def named_deadlock_kernel(y_ptr):
    with tlx.async_tasks():
        with tlx.async_task("default"):
            tlx.named_barrier_wait(3, 512)
        with tlx.async_task(num_warps=4):
            tl.store(y_ptr, 1.0)


def test_a_named_barrier_nobody_completes_is_a_deadlock():
    with pytest.raises(tpx.LaunchError) as info:
        named_deadlock_kernel[(1,)](np.zeros(1, np.float32))
    line = named_deadlock_kernel.fn.__code__.co_firstlineno + 4
    assert "task 0 waits at line %d at named barrier 3" % line in \
        str(info.value)


@tpx.jit
def expect_mismatch_kernel(x_ptr, M, N):
    desc = tlx.make_tensor_descriptor(None, x_ptr, [M, N], [N, 1], [16, 16])
    buf = tlx.local_alloc((16, 16), tl.float32, 1)
    bars = tlx.alloc_barriers(1)
    tlx.barrier_expect_bytes(bars[0], 16 * 16 * 2)
    tlx.async_descriptor_load(desc, buf[0], [0, 0], bars[0])
    tlx.barrier_wait(bars[0], 0)


def test_expect_bytes_that_cannot_match_the_copies():
    message = _compile_error(expect_mismatch_kernel,
                             np.zeros((16, 16), np.float32), 16, 16)
    assert "expects 512 bytes, but the TMA copies signalling this barrier " \
        "deliver 1024" in message
    line = expect_mismatch_kernel.fn.__code__.co_firstlineno + 5
    assert "test_tlx.py:%d:5: error" % line in message


# -- helpers ------------------------------------------------------------------

@tpx.jit
def helpers_kernel(x_ptr, out_ptr):
    out = tlx.size_of(tlx.dtype_of(x_ptr)) * 10 + \
        tlx.size_of(tl.float16)
    tl.store(out_ptr, out)


def test_dtype_of_and_size_of():
    x = np.zeros(4, np.float64)
    out = np.zeros(1, np.int32)
    h.run(helpers_kernel, (1,), x, out)
    assert out[0] == 82


@tpx.jit
def thread_id_kernel(out_ptr, BLOCK: tl.constexpr):
    # Thread 0 of the block stores; tasks record the first thread of their
    # warps (on the CPU a task runs as that thread).
    offs = tl.arange(0, BLOCK)
    if tlx.thread_id(0) == 0:
        tl.store(out_ptr + offs, offs + 1)
    tl.store(out_ptr + BLOCK, tlx.thread_id(1) + tlx.thread_id(2))
    with tlx.async_tasks():
        with tlx.async_task("default"):
            tl.store(out_ptr + BLOCK + 1, tlx.thread_id(0))
        with tlx.async_task(num_warps=1, replicate=2):
            r = tlx.async_task_replica_id()
            tl.store(out_ptr + BLOCK + 2 + r, tlx.thread_id(0))
        with tlx.async_task(num_warps=4):
            tl.store(out_ptr + BLOCK + 4, tlx.thread_id(0))


def test_thread_id_on_the_cpu():
    out = np.full(21, -1, np.int32)
    thread_id_kernel[(1,)](out, BLOCK=16, num_warps=4)
    np.testing.assert_array_equal(out[:16], np.arange(1, 17))
    # The 4-warp task is placed first after the default task's warps 0-3
    # (largest first): warps 4-7; the replicas of the 1-warp task 8 and 9.
    assert list(out[16:21]) == [0, 0, 256, 288, 128]


@tpx.jit
def replica_constexpr_kernel(out_ptr):
    # Each replica's body is generated on its own: its id is a constexpr,
    # usable where only compile-time values are (TLX's ping-pong kernels).
    with tlx.async_tasks():
        with tlx.async_task("default"):
            tl.store(out_ptr, 1)
        with tlx.async_task(num_warps=1, replicate=3):
            cid: tl.constexpr = tlx.async_task_replica_id()
            if cid == 2:
                tl.store(out_ptr + 1 + cid, 100 + tl.arange(0, 1).sum())
            else:
                tl.store(out_ptr + 1 + cid, cid * 10)


def test_replica_id_is_a_constexpr():
    out = np.full(4, -1, np.int32)
    text = h.ttir(replica_constexpr_kernel, out)
    assert text.count("tlx.async_task") == 1 + 4  # tasks + three replicas
    replica_constexpr_kernel[(1,)](out)
    assert list(out) == [1, 0, 10, 100]


@tpx.jit
def cluster_kernel(out_ptr):
    tl.store(out_ptr, tlx.cluster_cta_rank())
    tl.store(out_ptr + 1, tlx.cluster_size_1d())


def test_every_cta_is_a_cluster_of_one():
    out = np.full(2, -1, np.int32)
    cluster_kernel[(2,)](out)
    assert list(out) == [0, 1]


@tpx.jit
def ballot_kernel(x_ptr, out_ptr):
    v = tl.load(x_ptr + tl.program_id(0))
    tl.store(out_ptr + 2 * tl.program_id(0),
             tlx.vote_ballot_sync(0xFFFFFFFF, v > 0))
    tl.store(out_ptr + 2 * tl.program_id(0) + 1,
             tlx.vote_ballot_sync(0x0000FFFF, v))


def test_a_ballot_of_a_scalar():
    # A scalar is every lane's: the ballot is the mask where it holds.
    x = np.array([3, 0, -2], np.int32)
    out = np.zeros(6, np.int32)
    ballot_kernel[(3,)](x, out)
    assert list(out) == [-1, 0xFFFF, 0, 0, 0, 0xFFFF]


@tpx.jit
def tensor_ballot_kernel(x_ptr):
    tlx.vote_ballot_sync(0xFFFFFFFF, tl.load(x_ptr + tl.arange(0, 16)) > 0)


def test_a_ballot_of_a_tensor_is_an_error():
    assert "tlx.vote_ballot_sync() takes a scalar predicate" in \
        _compile_error(tensor_ballot_kernel, np.zeros(16, np.int32))


@pytest.mark.skipif(not h.have_ptxas(), reason="no CUDA toolkit (ptxas)")
def test_a_ballot_compiles_for_sm_90a():
    from tpx.compiler.compiler import compile_ttir
    from tpx.pipeline import resolve
    text = h.ttir(ballot_kernel, np.zeros(3, np.int32), np.zeros(6, np.int32))
    kernel = compile_ttir(text, "sm_90a", num_warps=4,
                          pipeline_text=resolve(ballot_kernel, "sm_90a")[0],
                          no_cache=True)
    assert "vote.sync.ballot.b32" in kernel.asm["ptx"]


@tpx.jit
def bad_thread_id_kernel(out_ptr):
    tl.store(out_ptr, tlx.thread_id(3))


def test_thread_id_axis_out_of_range():
    message = _compile_error(bad_thread_id_kernel, np.zeros(1, np.int32))
    assert "axis must be 0, 1 or 2, got 3" in message


# -- errors with the Python location ------------------------------------------------

_compile_error = h.compile_error


@tpx.jit
def bad_view_kernel(x_ptr):
    bufs = tlx.local_alloc((16,), tl.float32, 2)
    tlx.local_store(bufs[2], tl.zeros((16,), tl.float32))


def test_view_index_out_of_range():
    message = _compile_error(bad_view_kernel, np.zeros(16, np.float32))
    assert "index 2 is out of range for 2 buffers" in message
    assert "test_tlx.py" in message and "tlx.local_store(bufs[2]" in message


@tpx.jit
def bad_dot_kernel(x_ptr):
    a = tlx.local_alloc((16, 32), tl.float16, 1)
    b = tlx.local_alloc((16, 16), tl.float16, 1)
    acc = tlx.async_dot(a[0], b[0])


def test_dot_shape_mismatch():
    message = _compile_error(bad_dot_kernel, np.zeros(16, np.float32))
    assert "shapes (16, 32) and (16, 16) cannot be multiplied" in message


@tpx.jit
def bad_copy_kernel(x_ptr):
    buf = tlx.local_alloc((32,), tl.float16, 1)
    tlx.async_load(x_ptr + tl.arange(0, 32), buf[0])


def test_async_load_element_type_mismatch():
    message = _compile_error(bad_copy_kernel, np.zeros(32, np.float32))
    assert "pointers to fp32 cannot fill a buffer of fp16" in message


@tpx.jit
def whole_allocation_kernel(x_ptr):
    bufs = tlx.local_alloc((32,), tl.float32, 2)
    tlx.local_load(bufs)


def test_whole_allocation_where_one_buffer_is_needed():
    message = _compile_error(whole_allocation_kernel,
                             np.zeros(32, np.float32))
    assert "must be one buffer: select it with tlx.local_view" in message


@tpx.jit
def tmem_kernel(x_ptr):
    tlx.local_alloc((32, 32), tl.float32, 1, tlx.storage_kind.tmem)


def test_tensor_memory_is_rejected():
    message = _compile_error(tmem_kernel, np.zeros(32, np.float32))
    assert "storage 'tmem' is not available" in message


# -- finding the plugin ------------------------------------------------------

def test_import_loads_the_bundled_plugin_in_a_fresh_process(tmp_path):
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent("""
        import numpy as np
        import tpx as triton
        import tpx.language as tl
        import tpx.language.extra.tlx as tlx

        @triton.jit
        def k(x_ptr, y_ptr):
            offs = tl.arange(0, 8)
            b = tlx.local_alloc((8,), tl.float32, 1)
            t = tlx.async_load(x_ptr + offs, b[0])
            tlx.async_load_wait_group(0)
            tl.store(y_ptr + offs, tlx.local_load(b[0]) * 2)

        x = np.arange(8, dtype=np.float32)
        y = np.zeros(8, np.float32)
        k[(1,)](x, y)
        print(sorted(p.name for p in triton.loaded_plugins()), list(y))
    """))
    env = dict(os.environ)
    env.pop("TRITON_PLUGIN_PATHS", None)
    env["PYTHONPATH"] = os.path.join(ROOT, "python")
    proc = subprocess.run([sys.executable, str(script)], env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == \
        "['tlx'] [0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0]"


def test_a_scoped_pipeline_keeps_the_tlx_lowering():
    x = np.arange(16, dtype=np.float32)
    out = np.zeros(16, np.float32)
    seen = []

    def hook(pipeline, name, target):
        seen.append(name)
        return pipeline

    tpx.set_pipeline_hook(hook)
    try:
        masked_copy_kernel[(1,)](x, out, 16, BLOCK=16, OTHER=False)
    finally:
        tpx.unset_pipeline_hook()
    assert "masked_copy_kernel" in seen
    np.testing.assert_array_equal(out, x)


@pytest.mark.skipif(not h.have_ptxas(), reason="no CUDA toolkit (ptxas)")
def test_the_gemm_compiles_for_sm_90a_on_the_simt_path(tmp_path):
    # The `tlx` extension lowers TLX on NVIDIA's SIMT path
    # (tlx-lower-to-tpxgpu): the whole block runs the program, the buffers
    # are the kernel's shared memory, copies are cp.async and the dots
    # async wgmma.
    a = np.zeros((256, 256), np.float16)
    config = dict(gemm_pipelined.HOPPER_CONFIG)
    num_warps = config.pop("num_warps")
    text = h.ttir(gemm_pipelined.matmul_kernel_pipelined, a, a, a, 256, 256,
                  256, 256, 1, 256, 1, 256, 1, **config)
    from tpx.compiler.compiler import compile_ttir
    kernel = compile_ttir(text, "sm_90a", num_warps, config["NUM_STAGES"],
                          dump_dir=tmp_path, no_cache=True)
    assert kernel.metadata.block_threads == num_warps * 32
    # Three 128x64 and three 64x256 fp16 buffers.
    assert kernel.metadata.shared_memory == 3 * (128 * 64 + 64 * 256) * 2
    ttgir = (tmp_path / "matmul_kernel_pipelined.ttgir.mlir").read_text()
    assert 'tpxgpu.codegen = "simt"' in ttgir
    assert "tpxgpu.warp_group_dot" in ttgir and " async " in ttgir
    assert "tpxgpu.async_copy_global_to_local" in ttgir
    assert "tlx." not in ttgir
    ptx = (tmp_path / "matmul_kernel_pipelined.ptx").read_text()
    assert "wgmma.mma_async" in ptx and "mma.sync" not in ptx


@pytest.mark.skipif(not h.have_ptxas(), reason="no CUDA toolkit (ptxas)")
def test_thread_id_is_the_hardware_thread_index_on_sm_90a():
    from tpx.compiler.compiler import compile_ttir
    from tpx.pipeline import resolve
    text = h.ttir(thread_id_kernel, np.zeros(21, np.int32), BLOCK=16)
    pipeline = resolve(thread_id_kernel, "sm_90a")[0]
    kernel = compile_ttir(text, "sm_90a", num_warps=4,
                          pipeline_text=pipeline, no_cache=True)
    assert kernel.metadata["pipeline"] == "simt"
    ptx = kernel.asm["ptx"]
    assert "%tid.x" in ptx and "%tid.y" in ptx and "%tid.z" in ptx


def _gemm_ws_ttir():
    """The warp-specialized GEMM tutorial's TTIR at HOPPER_CONFIG, and its
    num_warps."""
    from tpx.tools.tensor_descriptor import TensorDescriptor
    a = np.zeros((256, 128), np.float16)
    b = np.zeros((128, 256), np.float16)
    config = dict(gemm_ws.HOPPER_CONFIG)
    num_warps = config.pop("num_warps")
    descs = [TensorDescriptor.from_tensor(a, [128, 64]),
             TensorDescriptor.from_tensor(b, [64, 256])]
    return h.ttir(gemm_ws.matmul_kernel_tma_ws, *descs, a, 256, 256, 128,
                  256, 1, **config), num_warps


@pytest.mark.skipif(not h.have_ptxas(), reason="no CUDA toolkit (ptxas)")
def test_warp_specialized_tutorials_compile_for_sm_90a():
    # tlx-lower-tasks-to-tpxgpu gives each task warps of its own: the block
    # has the partitions' warps, and attention_ws's consumers take their
    # num_regs with setmaxnreg from its producer (the default task).
    from tpx.compiler.compiler import compile_ttir
    from tpx.pipeline import resolve
    from tpx.tools.tensor_descriptor import TensorDescriptor
    text, num_warps = _gemm_ws_ttir()
    pipeline = resolve(gemm_ws.matmul_kernel_tma_ws, "sm_90a")[0]
    kernel = compile_ttir(text, "sm_90a", num_warps=num_warps,
                          pipeline_text=pipeline, no_cache=True)
    assert kernel.metadata["pipeline"] == "simt"
    assert kernel.metadata.block_threads == (8 + 1) * 32
    assert "bar.sync \t15, 256;" in kernel.asm["ptx"]

    config = dict(attention_ws.HOPPER_CONFIG)
    num_warps = config.pop("num_warps")
    q = np.zeros((1024, 64), np.float16)
    qd = TensorDescriptor.from_tensor(q, [config["BLOCK_M"], 64])
    kd = TensorDescriptor.from_tensor(q, [config["BLOCK_N"], 64])
    text = h.ttir(attention_ws.attention_fwd_ws, qd, kd, kd, q, 0.125, 1024,
                  D=64, CAUSAL=True, **config)
    pipeline = resolve(attention_ws.attention_fwd_ws, "sm_90a")[0]
    kernel = compile_ttir(text, "sm_90a", num_warps=num_warps,
                          pipeline_text=pipeline, no_cache=True)
    assert kernel.metadata.block_threads == 3 * 4 * 32
    ptx = kernel.asm["ptx"]
    assert ".maxnreg 168" in ptx
    assert "setmaxnreg.dec.sync.aligned.u32 \t40;" in ptx
    assert ptx.count("setmaxnreg.inc.sync.aligned.u32 \t232;") == 2
    assert "bar.sync \t9, 256;" in ptx and "bar.sync \t10, 256;" in ptx


def test_names_assigned_in_a_task_are_local_to_it():
    @tpx.jit
    def kernel(out_ptr):
        step = 7
        with tlx.async_tasks():
            with tlx.async_task("default"):
                step = 1
                tl.store(out_ptr, step)
            with tlx.async_task(num_warps=1):
                for i in range(2):
                    step = i + 10  # not carried from the other task
                tl.store(out_ptr + 1, step)
        tl.store(out_ptr + 2, step)

    out = np.zeros(3, np.int32)
    kernel[(1,)](out)
    np.testing.assert_array_equal(out, [1, 11, 7])


def test_pipelined_tutorials_compile_for_gfx950(tmp_path):
    # The same kernels for AMD CDNA4 (no GPU needed: LLVM's AMDGPU backend
    # and ld.lld make the hsaco): async_dot is MFMA on operands read from
    # LDS (docs/amd-target.md, "TLX on gfx950"). The harness does not
    # specialize the strides, so the copies are not provably contiguous
    # here and go through registers; test/TLX/gemm-gfx950.test checks the
    # direct-to-LDS form on the launcher's specialized TTIR.
    from tpx.compiler.compiler import compile_ttir
    from tpx.pipeline import resolve
    a = np.zeros((256, 256), np.float16)
    config = dict(gemm_pipelined.HOPPER_CONFIG)
    config.pop("num_warps")
    text = h.ttir(gemm_pipelined.matmul_kernel_pipelined, a, a, a, 256, 256,
                  256, 256, 1, 256, 1, 256, 1, **config)
    pipeline = resolve(gemm_pipelined.matmul_kernel_pipelined, "gfx950")[0]
    kernel = compile_ttir(text, "gfx950", 4, config["NUM_STAGES"],
                          pipeline_text=pipeline, dump_dir=tmp_path,
                          no_cache=True)
    assert kernel.metadata.block_threads == 4 * 64
    amdgcn = (tmp_path / "matmul_kernel_pipelined.amdgcn").read_text()
    assert "v_mfma_f32_32x32x16_f16" in amdgcn
    assert "v_fma_f32" not in amdgcn

    q = np.zeros((1024, 64), np.float16)
    config = dict(attention_pipelined.HOPPER_CONFIG)
    config.pop("num_warps")
    text = h.ttir(attention_pipelined.attention_fwd_pipelined, q, q, q, q,
                  0.125, 1024, D=64, CAUSAL=True, **config)
    pipeline = resolve(attention_pipelined.attention_fwd_pipelined,
                       "gfx950")[0]
    kernel = compile_ttir(text, "gfx950", 4, config["NUM_STAGES"],
                          pipeline_text=pipeline, no_cache=True)
    assert kernel.metadata.shared_memory <= 160 * 1024
    assert "v_mfma_f32_32x32x16_f16" in kernel.asm["amdgcn"]


def _gfx950_ttir(module):
    """(kernel, TTIR, num_warps) of a tutorial at its GFX950_CONFIG, on
    numpy arrays of the config's blocks (TMA descriptors where it takes
    them)."""
    from tpx.tools.tensor_descriptor import TensorDescriptor as Desc
    config = dict(module.GFX950_CONFIG)
    num_warps = config.pop("num_warps")
    if module in (attention_pipelined, attention_ws):
        q = np.zeros((1024, 64), np.float16)
        if module is attention_pipelined:
            return (module.attention_fwd_pipelined,
                    h.ttir(module.attention_fwd_pipelined, q, q, q, q, 0.125,
                           1024, D=64, CAUSAL=True, **config), num_warps)
        qd = Desc.from_tensor(q, [config["BLOCK_M"], 64])
        kd = Desc.from_tensor(q, [config["BLOCK_N"], 64])
        return (module.attention_fwd_ws,
                h.ttir(module.attention_fwd_ws, qd, kd, kd, q, 0.125, 1024,
                       D=64, CAUSAL=True, **config), num_warps)
    bm, bn, bk = (config["BLOCK_SIZE_M"], config["BLOCK_SIZE_N"],
                  config["BLOCK_SIZE_K"])
    a = np.zeros((256, 256), np.float16)
    if module is gemm_pipelined:
        kernel = module.matmul_kernel_pipelined
        args = (a, a, a, 256, 256, 256, 256, 1, 256, 1, 256, 1)
    elif module is gemm_tma:
        kernel = module.matmul_kernel_tma
        args = (Desc.from_tensor(a, [bm, bk]), Desc.from_tensor(a, [bk, bn]),
                Desc.from_tensor(a, [bm, bn]), 256, 256, 256)
    else:
        kernel = (module.matmul_kernel_tma_ws if module is gemm_ws
                  else module.matmul_kernel_pingpong)
        args = (Desc.from_tensor(a, [bm, bk]), Desc.from_tensor(a, [bk, bn]),
                a, 256, 256, 256, 256, 1)
    return kernel, h.ttir(kernel, *args, **config), num_warps


@pytest.mark.parametrize("module", [gemm_pipelined, gemm_tma, gemm_ws,
                                    gemm_pingpong, attention_pipelined,
                                    attention_ws],
                         ids=lambda m: m.__name__.rsplit(".", 1)[1])
def test_every_tutorial_compiles_for_gfx950(module, tmp_path):
    # The same kernel source at the tutorial's GFX950_CONFIG: mbarriers and
    # named barriers in LDS, TMA loads as direct-to-LDS copies, async tasks
    # as wavefront ranges (docs/amd-target.md, "TLX on gfx950"). The hsaco
    # must fit gfx950's 160 KiB of LDS, and llvm-objdump disassemble it.
    import shutil
    import subprocess
    from tpx.compiler.compiler import compile_ttir
    from tpx.pipeline import resolve
    kernel, text, num_warps = _gfx950_ttir(module)
    pipeline = resolve(kernel, "gfx950")[0]
    compiled = compile_ttir(text, "gfx950", num_warps=num_warps,
                            num_stages=module.GFX950_CONFIG["NUM_STAGES"],
                            pipeline_text=pipeline, no_cache=True)
    assert compiled.metadata.shared_memory <= 160 * 1024
    amdgcn = compiled.asm["amdgcn"]
    assert "v_mfma_f32_" in amdgcn
    if module in (gemm_ws, gemm_pingpong, attention_ws):
        # More wavefronts than num_warps (a producer task), barriers of
        # LDS words updated by compare-and-swap.
        assert compiled.metadata.block_threads > num_warps * 64
        assert "ds_cmpst" in amdgcn or "ds_cmpswap" in amdgcn
    objdump = (shutil.which("llvm-objdump", path="/usr/lib/llvm-22/bin")
               or shutil.which("llvm-objdump-22")
               or shutil.which("llvm-objdump"))
    assert objdump, "llvm-objdump not found (scripts/install-deps.sh " \
        "installs llvm-22)"
    hsaco = tmp_path / "kernel.hsaco"
    hsaco.write_bytes(compiled.asm["hsaco"])
    disassembly = subprocess.run(
        [objdump, "-d", "--mcpu=gfx950", str(hsaco)], capture_output=True,
        text=True, check=True, timeout=120).stdout
    assert "v_mfma_f32_" in disassembly
    assert "s_endpgm" in disassembly
