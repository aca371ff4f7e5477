"""Thread-block clusters: the launch option `ctas_per_cga` and TLX's
cluster ops (cluster_cta_rank, cluster_size_1d, cluster_barrier,
barrier_arrive(remote_cta_rank=), async_descriptor_load(multicast_targets=)).

sm_90a and the CPU run clusters (the CPU a cluster's programs at once,
docs/tlx.md): here the option's checks, clustered kernels on the CPU (ranks,
a multicast pair copy, the clustered GEMMs, a cluster's deadlock), the
errors of cluster ops in kernels without clusters and of targets without
clusters, and what the sm_90a compiles contain; with an NVIDIA GPU
(TPX_TEST_TARGET=cuda, bench/run-on-h200.sh clusters) the GPU tests run the
kernels against torch.
"""

import os
import sys

import numpy as np
import pytest

import tpx
import tpx.language as tl
import tpx.language.extra.tlx as tlx
from tpx.compiler.frontend import compile_to_ttir
from tpx.compiler.spec import CompileSpec
from tpx.errors import CompilationError, OutOfResources

import frontend_harness as h

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))

from tlx_tutorials import gemm_ws  # noqa: E402

cpu_only = h.cpu_only("the CPU target's cluster errors")

gpu = pytest.mark.skipif(h.TARGET != "cuda",
                         reason="runs on an NVIDIA GPU (TPX_TEST_TARGET=cuda)")


@tpx.jit
def rank_kernel(out_ptr):
    tl.store(out_ptr, tlx.cluster_cta_rank())
    tl.store(out_ptr + 1, tlx.cluster_size_1d())
    tlx.cluster_barrier()


@cpu_only
@pytest.mark.parametrize("bad", [(0, 1, 1), (2, 2, 2, 2), (4, 4, 1), "2",
                                 (2.0,), (True,)])
def test_ctas_per_cga_is_checked(bad):
    out = np.zeros(2, np.int32)
    with pytest.raises(ValueError, match="ctas_per_cga"):
        rank_kernel[(2,)](out, ctas_per_cga=bad)


@tpx.jit
def ranks_kernel(out_ptr):
    pid = tl.program_id(0) + tl.num_programs(0) * tl.program_id(1)
    n = tl.num_programs(0) * tl.num_programs(1)
    tl.store(out_ptr + pid, tlx.cluster_cta_rank())
    tl.store(out_ptr + n + pid, tlx.cluster_size_1d())


@cpu_only
@pytest.mark.parametrize("grid,cluster", [((4, 1), (2, 1, 1)),
                                          ((4, 3), (4, 1, 1)),
                                          ((2, 4), (2, 2, 1))])
def test_the_cpu_runs_clusters(grid, cluster):
    # Ranks x fastest, as %cluster_ctarank orders a cluster's CTAs.
    n = grid[0] * grid[1]
    out = np.full(2 * n, -1, np.int32)
    kernel = ranks_kernel[grid](out, ctas_per_cga=cluster)
    assert kernel.metadata.cluster_dims == cluster
    x = np.arange(n) % grid[0]
    y = np.arange(n) // grid[0]
    expected = x % cluster[0] + cluster[0] * (y % cluster[1])
    np.testing.assert_array_equal(out[:n], expected)
    assert (out[n:] == cluster[0] * cluster[1]).all()


@cpu_only
def test_clusters_of_one_are_no_clusters():
    out = np.zeros(2, np.int32)
    kernel = rank_kernel[(2,)](out, ctas_per_cga=(1, 1, 1))
    assert kernel.metadata.cluster_dims == (1, 1, 1)
    rank_kernel[(2,)](out, ctas_per_cga=[1])
    assert list(out) == [0, 1]


@cpu_only
def test_a_grid_of_part_clusters_is_an_error():
    out = np.zeros(6, np.int32)
    with pytest.raises(Exception, match=r"grid \(3, 1, 1\) is not a whole "
                       r"number of clusters of \(2, 1, 1\) programs"):
        ranks_kernel[(3,)](out, ctas_per_cga=(2, 1, 1))


def test_targets_without_clusters_refuse_them():
    # AMD has no clusters: the JIT's check is OutOfResources, which
    # autotuners skip (TLX tunes over ctas_per_cga); the compiler's own is
    # an error naming the target.
    from tpx.compiler.compiler import compile_ttir
    from tpx.runtime.jit import check_cluster, cluster_limit
    assert [cluster_limit(t) for t in ("cpu", "sm_90a", "sm_80",
                                       "gfx950")] == [8, 8, 1, 1]
    check_cluster((2, 1, 1), "sm_90a")
    with pytest.raises(OutOfResources, match="CTAs per thread-block cluster "
                       r"\(ctas_per_cga\) on target 'gfx950', required: 2, "
                       "hardware limit: 1"):
        check_cluster((2, 1, 1), "gfx950")
    text = _clustered_ttir(rank_kernel, np.zeros(2, np.int32))
    with pytest.raises(CompilationError,
                       match="thread-block clusters .* which target 'gfx950' "
                             "does not provide"):
        compile_ttir(text, "gfx950", no_cache=True)


@tpx.jit
def stuck_pair_kernel(out_ptr):
    # CTA 0 waits for an arrival CTA 1 never makes.
    bars = tlx.alloc_barriers(1, arrive_count=1)
    if tlx.cluster_cta_rank() == 0:
        tlx.barrier_wait(bars[0], 0)
    tl.store(out_ptr + tl.program_id(0), 1)


@tpx.jit
def stuck_tasks_kernel(out_ptr):
    # Every program's producer task waits for an arrival nobody makes,
    # while its default task finishes and the program's thread joins.
    bars = tlx.alloc_barriers(1, arrive_count=1)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            tl.store(out_ptr + tl.program_id(0), 1)
        with tlx.async_task(num_warps=1):
            tlx.barrier_wait(bars[0], 0)


@cpu_only
def test_a_deadlock_in_a_clusters_tasks_is_reported():
    out = np.zeros(2, np.int32)
    with pytest.raises(Exception, match=r"deadlock in the cluster of 2 "
                       r"programs") as info:
        stuck_tasks_kernel[(2,)](out, ctas_per_cga=(2, 1, 1))
    for cta in (0, 1):
        assert "CTA %d task 1 waits at line" % cta in str(info.value)


@cpu_only
def test_a_deadlock_of_a_cluster_is_reported():
    out = np.zeros(2, np.int32)
    with pytest.raises(Exception, match=r"deadlock in the cluster of 2 "
                       r"programs from program \(0, 0, 0\): no task can "
                       r"make progress; CTA 0 task 0 waits at line \d+ for "
                       r"phase 0 of barrier 0 .*CTA 1 task 0 waits at line "
                       r"\d+ at the cluster barrier"):
        stuck_pair_kernel[(2,)](out, ctas_per_cga=(2, 1, 1))


@cpu_only
def test_the_option_is_part_of_the_key():
    out = np.zeros(2, np.int32)
    _, plain = rank_kernel.specialization_key(out)
    _, clustered = rank_kernel.specialization_key(out, ctas_per_cga=[2, 1])
    assert plain != clustered and clustered[-1] == (2, 1)


@tpx.jit
def remote_arrive_kernel(x_ptr):
    bars = tlx.alloc_barriers(1)
    tlx.barrier_arrive(bars[0], remote_cta_rank=1)


@tpx.jit
def multicast_kernel(x_ptr):
    desc = tlx.make_tensor_descriptor(None, x_ptr, [16], [1], [16])
    buf = tlx.local_alloc((16,), tl.float32, 1)
    bars = tlx.alloc_barriers(1)
    tlx.async_descriptor_load(desc, buf[0], [0], bars[0],
                              multicast_targets=[0, 1])


@cpu_only
def test_cluster_ops_need_a_clustered_kernel():
    x = np.zeros(16, np.float32)
    assert "remote_cta_rank needs a kernel launched in thread-block " \
        "clusters" in h.compile_error(remote_arrive_kernel, x)
    assert "multicast_targets needs a kernel launched in thread-block " \
        "clusters" in h.compile_error(multicast_kernel, x)


def _clustered_ttir(kernel, *args, cluster=(2, 1, 1), num_warps=4,
                    **constexprs):
    """The TTIR of `kernel` for sm_90a launched in clusters `cluster`."""
    args = list(args) + [constexprs.pop(p.name) for p in
                         kernel.params[len(args):] if p.name in constexprs]
    specs = h.arg_specs(kernel, args, constexprs)
    return compile_to_ttir(kernel, specs, CompileSpec(
        target="sm_90a", num_warps=num_warps, cluster_dims=cluster))


def test_constant_ranks_are_checked_against_the_cluster():
    x = np.zeros(16, np.float32)
    with pytest.raises(CompilationError, match="remote_cta_rank 1 names no "
                       "CTA of a cluster of 1|needs a kernel launched"):
        _clustered_ttir(remote_arrive_kernel, x, cluster=(1, 1, 1))

    @tpx.jit
    def far_kernel(x_ptr):
        bars = tlx.alloc_barriers(1)
        tlx.barrier_arrive(bars[0], remote_cta_rank=2)
    with pytest.raises(CompilationError,
                       match="remote_cta_rank 2 names no CTA of a cluster "
                             "of 2"):
        _clustered_ttir(far_kernel, x)


def test_the_module_carries_the_cluster():
    text = _clustered_ttir(rank_kernel, np.zeros(2, np.int32))
    first = text.split("\n", 1)[0]
    assert '"tpxgpu.cluster-dims" = array<i32: 2, 1, 1>' in first
    assert "tlx.cluster_cta_rank" in text and "tlx.cluster_barrier" in text


@pytest.mark.skipif(not h.have_ptxas(), reason="no CUDA toolkit (ptxas)")
def test_the_clustered_gemm_compiles_for_sm_90a():
    # Each CTA copies half of B's columns to both CTAs of its cluster
    # (multicast) and releases a buffer on both CTAs' barriers (mapa +
    # a cluster-scope arrival); the barriers are published to the cluster
    # before use, and the cluster leaves together.
    from tpx.compiler.compiler import compile_ttir
    from tpx.pipeline import resolve
    from tpx.tools.tensor_descriptor import TensorDescriptor
    config = dict(gemm_ws.HOPPER_CLUSTER_CONFIG)
    num_warps = config.pop("num_warps")
    a = np.zeros((512, 128), np.float16)
    b = np.zeros((128, 256), np.float16)
    descs = [TensorDescriptor.from_tensor(a, [128, 64]),
             TensorDescriptor.from_tensor(b, [64, 128])]
    text = _clustered_ttir(gemm_ws.matmul_kernel_tma_ws, *descs, a, 512, 256,
                           128, 256, 1, num_warps=num_warps, **config)
    pipeline = resolve(gemm_ws.matmul_kernel_tma_ws, "sm_90a")[0]
    kernel = compile_ttir(text, "sm_90a", num_warps=num_warps,
                          pipeline_text=pipeline, no_cache=True)
    assert list(kernel.metadata["cluster_dims"]) == [2, 1, 1]
    ptx = kernel.asm["ptx"]
    # B's boxes multicast (each CTA copies its half under its rank), A's not.
    assert ".multicast::cluster" in ptx
    assert "global.tile.mbarrier::complete_tx::bytes [" in ptx
    assert "%cluster_ctarank" in ptx
    assert "mapa.shared::cluster.u32" in ptx
    assert "mbarrier.arrive.release.cluster.shared::cluster.b64" in ptx
    assert "fence.mbarrier_init.release.cluster;" in ptx
    assert "barrier.cluster.arrive;" in ptx and "barrier.cluster.wait;" in ptx
    assert kernel.metadata["num_spills"] == 0


@tpx.jit
def pair_copy_kernel(b_desc, out_ptr, BK: tl.constexpr, BN: tl.constexpr):
    """TLX's multicast pattern with run-time ranks: both CTAs of a pair say
    they are ready on each other's barrier, then each copies its half of a
    block to both (the half picked by an if)."""
    cta = tlx.cluster_cta_rank()
    buf = tlx.local_alloc((BK, BN), tl.float16, 1)
    full = tlx.alloc_barriers(1, arrive_count=1)
    pair = tlx.alloc_barriers(1, arrive_count=2)
    tlx.barrier_arrive(pair[0], 1)
    tlx.barrier_arrive(pair[0], 1, remote_cta_rank=cta ^ 1)
    tlx.barrier_wait(pair[0], 0)
    tlx.barrier_expect_bytes(full[0], BK * BN * 2)
    if cta == 0:
        half = tlx.local_slice(buf[0], [0, 0], [BK, BN // 2])
    else:
        half = tlx.local_slice(buf[0], [0, BN // 2], [BK, BN // 2])
    tlx.async_descriptor_load(b_desc, half, [0, cta * (BN // 2)], full[0],
                              multicast_targets=[cta, cta ^ 1])
    tlx.barrier_wait(full[0], 0)
    rows = tl.arange(0, BK)[:, None]
    cols = tl.arange(0, BN)[None, :]
    tl.store(out_ptr + tl.program_id(0) * BK * BN + rows * BN + cols,
             tlx.local_load(buf[0]))


@pytest.mark.skipif(not h.have_ptxas(), reason="no CUDA toolkit (ptxas)")
def test_run_time_ranks_and_picked_halves_compile_for_sm_90a():
    from tpx.compiler.compiler import compile_ttir
    from tpx.pipeline import resolve
    from tpx.tools.tensor_descriptor import TensorDescriptor
    b = np.zeros((64, 128), np.float16)
    desc = TensorDescriptor.from_tensor(b, [64, 64])
    text = _clustered_ttir(pair_copy_kernel, desc, b, BK=64, BN=128)
    # The rank-dependent mask is computed: 1 << cta | 1 << (cta ^ 1).
    assert "arith.shli" in text
    kernel = compile_ttir(text, "sm_90a", num_warps=4,
                          pipeline_text=resolve(pair_copy_kernel,
                                                "sm_90a")[0],
                          no_cache=True)
    ptx = kernel.asm["ptx"]
    assert ".multicast::cluster" in ptx and "mapa.shared::cluster" in ptx
    assert kernel.metadata["pipeline"] == "simt"


@cpu_only
def test_pairs_share_a_block_by_multicast_on_the_cpu():
    from tpx.tools.tensor_descriptor import TensorDescriptor
    b = np.random.default_rng(5).random((64, 128)).astype(np.float16)
    out = np.zeros((4, 64, 128), np.float16)
    desc = TensorDescriptor.from_tensor(b, [64, 64])
    pair_copy_kernel[(4,)](desc, out, BK=64, BN=128, ctas_per_cga=(2, 1, 1))
    for program in range(4):   # each program holds both halves
        np.testing.assert_array_equal(out[program], b)


@gpu
def test_gpu_pairs_share_a_block_by_multicast():
    import torch
    from tpx.errors import LaunchError
    from tpx.tools.tensor_descriptor import TensorDescriptor
    b = torch.randn(64, 128, device="cuda", dtype=torch.float16)
    out = torch.zeros(4, 64, 128, device="cuda", dtype=torch.float16)
    desc = TensorDescriptor.from_tensor(b, [64, 64])
    pair_copy_kernel[(4,)](desc, out, BK=64, BN=128, ctas_per_cga=(2, 1, 1))
    torch.cuda.synchronize()
    for program in range(4):   # each CTA holds both halves
        assert torch.equal(out[program], b)
    with pytest.raises(LaunchError, match="not a whole number of clusters"):
        pair_copy_kernel[(3,)](desc, out, BK=64, BN=128,
                               ctas_per_cga=(2, 1, 1))


@gpu
@pytest.mark.parametrize("shape", [(512, 768, 384), (300, 392, 200),
                                   (1024, 1024, 1024)])
def test_gpu_clustered_gemm(shape):
    import torch
    m, n, k = shape
    a = torch.randn(m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    config = dict(gemm_ws.HOPPER_CLUSTER_CONFIG, NUM_PROGRAMS=8)
    c = gemm_ws.matmul(a, b, config)
    torch.testing.assert_close(c.float(), (a @ b).float(), atol=0.5,
                               rtol=2e-2)


@tpx.jit
def remote_view_kernel(out_ptr, WAIT_ON_VIEW: tl.constexpr):
    bars = tlx.alloc_barriers(1, arrive_count=2)
    cta = tlx.cluster_cta_rank()
    peer = tlx.remote_view(bars[0], cta ^ 1)
    tlx.barrier_arrive(bars[0])
    tlx.barrier_arrive(peer)
    if WAIT_ON_VIEW:
        tlx.barrier_wait(peer, 0)
    else:
        tlx.barrier_wait(bars[0], 0)
    tl.store(out_ptr + tl.program_id(0), cta)


def test_a_remote_view_of_a_barrier_arrives_there():
    text = _clustered_ttir(remote_view_kernel, np.zeros(2, np.int32),
                           WAIT_ON_VIEW=False)
    # One arrival here, one on the peer's barrier (cta ^ 1).
    assert text.count('"tlx.barrier_arrive"') == 2
    assert "arith.xori" in text
    with pytest.raises(CompilationError, match="tlx.barrier_wait.. takes a "
                       "barrier of this CTA; a remote_view is only for "
                       "barrier_arrive"):
        _clustered_ttir(remote_view_kernel, np.zeros(2, np.int32),
                        WAIT_ON_VIEW=True)
    with pytest.raises(CompilationError, match="tlx.remote_view.. needs a "
                       "kernel launched in thread-block clusters"):
        _clustered_ttir(remote_view_kernel, np.zeros(2, np.int32),
                        cluster=(1, 1, 1), WAIT_ON_VIEW=False)


# A persistent, warp-specialized GEMM in the style of TLX's Hopper tutorial,
# tuned over NUM_CTAS 1 and 2 (ctas_per_cga): a producer task feeding two
# consumer replicas through warp barriers; with NUM_CTAS = 2 the CTAs of a
# pair tell each other their buffer is free, and each copies the half of B
# an if picks to both. (The configs' grids must be whole clusters, and a
# pair's tiles share their B columns: see _tile_of.)
def _block_shapes(nargs):
    """The descriptors' blocks for a config (TLX's pre_hook way)."""
    bm, bn, bk = nargs["BM"], nargs["BN"], nargs["BK"]
    nargs["a_desc"].block_shape = [bm // nargs["GROUPS"], bk]
    nargs["b_desc"].block_shape = [bk, bn // nargs["NUM_CTAS"]]
    nargs["c_desc"].block_shape = [bm // nargs["GROUPS"], bn]


_CONFIGS = [tpx.Config({"BM": 32, "BN": 32, "BK": 16, "GROUPS": 2,
                        "STAGES": 2, "NUM_CTAS": c}, num_warps=4,
                       pre_hook=_block_shapes, ctas_per_cga=(c, 1, 1))
            for c in (2, 1)]


@tpx.jit
def _tile_of(tile, M, BM: tl.constexpr):
    """Tiles down the columns: programs 2i and 2i + 1 (a pair) take tiles
    of the same B columns when the rows make whole pairs (M / BM even)."""
    return tile % tl.cdiv(M, BM), tile // tl.cdiv(M, BM)


@tpx.autotune(configs=_CONFIGS, key=["M", "N", "K"])
@tpx.jit
def pair_gemm(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr,
              BN: tl.constexpr, BK: tl.constexpr, GROUPS: tl.constexpr,
              STAGES: tl.constexpr, NUM_CTAS: tl.constexpr,
              NUM_SMS: tl.constexpr):
    SPLIT: tl.constexpr = BM // GROUPS
    a = tlx.local_alloc((SPLIT, BK), tlx.dtype_of(a_desc), STAGES * GROUPS)
    b = tlx.local_alloc((BK, BN), tlx.dtype_of(b_desc), STAGES)
    empty_a = tlx.alloc_warp_barrier(STAGES * GROUPS, num_warps=4)
    empty_b = tlx.alloc_warp_barrier(STAGES, num_warps=4,
                                     num_arrivals=GROUPS)
    full_a = tlx.alloc_barriers(STAGES * GROUPS, 1)
    full_b = tlx.alloc_barriers(STAGES, 1)
    if NUM_CTAS == 2:
        pair = tlx.alloc_barriers(STAGES, arrive_count=2)
    num_tiles = tl.cdiv(M, BM) * tl.cdiv(N, BN)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            tile = tl.program_id(0)
            cnt = 0
            while tile < num_tiles:
                pm, pn = _tile_of(tile, M, BM)
                for k in range(0, tl.cdiv(K, BK)):
                    s = cnt % STAGES
                    p = (cnt // STAGES) & 1
                    for g in tl.static_range(GROUPS):
                        i = s + STAGES * g
                        tlx.barrier_wait(empty_a[i], p ^ 1)
                        tlx.barrier_expect_bytes(full_a[i], SPLIT * BK * 2)
                        tlx.async_descriptor_load(
                            a_desc, a[i], [pm * BM + g * SPLIT, k * BK],
                            full_a[i])
                    tlx.barrier_wait(empty_b[s], p ^ 1)
                    tlx.barrier_expect_bytes(full_b[s], BN * BK * 2)
                    if NUM_CTAS == 2:
                        cta = tlx.cluster_cta_rank()
                        tlx.barrier_arrive(pair[s], 1)
                        tlx.barrier_arrive(pair[s], 1,
                                           remote_cta_rank=cta ^ 1)
                        tlx.barrier_wait(pair[s], p)
                        if cta == 0:
                            half = tlx.local_slice(b[s], [0, 0],
                                                   [BK, BN // 2])
                        else:
                            half = tlx.local_slice(b[s], [0, BN // 2],
                                                   [BK, BN // 2])
                        tlx.async_descriptor_load(
                            b_desc, half, [k * BK, pn * BN + cta * BN // 2],
                            full_b[s], multicast_targets=[cta, cta ^ 1])
                    else:
                        tlx.async_descriptor_load(
                            b_desc, b[s], [k * BK, pn * BN], full_b[s])
                    cnt += 1
                tile += NUM_SMS
        with tlx.async_task(num_warps=4, replicate=2):
            g = tlx.async_task_replica_id()
            tile = tl.program_id(0)
            cnt = 0
            while tile < num_tiles:
                pm, pn = _tile_of(tile, M, BM)
                acc = tl.zeros([SPLIT, BN], dtype=tl.float32)
                for k in range(0, tl.cdiv(K, BK)):
                    s = cnt % STAGES
                    p = (cnt // STAGES) & 1
                    tlx.barrier_wait(full_a[s + STAGES * g], p)
                    tlx.barrier_wait(full_b[s], p)
                    acc = tlx.async_dot(a[s + STAGES * g], b[s], acc)
                    acc = tlx.async_dot_wait(0, acc)
                    tlx.barrier_arrive(empty_a[s + STAGES * g])
                    tlx.barrier_arrive(empty_b[s])
                    cnt += 1
                c_desc.store([pm * BM + g * SPLIT, pn * BN],
                             acc.to(tlx.dtype_of(c_desc)))
                tile += NUM_SMS


@cpu_only
@pytest.mark.parametrize("num_ctas", [1, 2])
def test_a_gemm_of_cta_pairs_runs_on_the_cpu(num_ctas):
    # With NUM_CTAS = 2 the pair's programs run at once: each waits for its
    # peer's arrival before refilling a stage, and each stage's B comes half
    # from each program's multicast.
    from tpx.tools.tensor_descriptor import TensorDescriptor
    m, n, k = 128, 64, 80
    rng = np.random.default_rng(7)
    a = rng.random((m, k)).astype(np.float16)
    b = rng.random((k, n)).astype(np.float16)
    c = np.zeros((m, n), np.float16)
    descs = [TensorDescriptor(x, shape=list(x.shape), strides=[x.shape[1], 1],
                              block_shape=[1, 1]) for x in (a, b, c)]
    config = dict(BM=32, BN=32, BK=16, GROUPS=2, STAGES=2, NUM_CTAS=num_ctas)
    _block_shapes(dict(config, a_desc=descs[0], b_desc=descs[1],
                       c_desc=descs[2]))
    pair_gemm.fn[(4,)](*descs, m, n, k, NUM_SMS=4, num_warps=4,
                       ctas_per_cga=(num_ctas, 1, 1), **config)
    np.testing.assert_allclose(c.astype(np.float32),
                               a.astype(np.float32) @ b.astype(np.float32),
                               atol=2e-2)


@cpu_only
@pytest.mark.parametrize("shape", [(64, 64, 64), (96, 80, 200), (40, 24, 72),
                                   (128, 96, 64)])
@pytest.mark.parametrize("programs", [4, 6])
def test_the_clustered_gemm_tutorial_runs_on_the_cpu(shape, programs):
    # gemm_ws at CLUSTER_M = 2: pairs of programs share B by multicast and
    # release each stage on both programs' barriers; M not a whole number
    # of cluster tiles (40, 96), N and K not whole blocks.
    m, n, k = shape
    rng = np.random.default_rng(3)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    config = dict(gemm_ws.CPU_CONFIG, CLUSTER_M=2, NUM_PROGRAMS=programs)
    c = gemm_ws.matmul(a, b, config)
    np.testing.assert_allclose(c.astype(np.float32),
                               a.astype(np.float32) @ b.astype(np.float32),
                               atol=3e-2, rtol=1e-2)


@cpu_only
def test_autotuning_over_clusters():
    out = np.zeros(8, np.int32)
    tuned = tpx.autotune(
        configs=[tpx.Config({}, ctas_per_cga=(2, 1, 1)),
                 tpx.Config({}, ctas_per_cga=(1, 1, 1))], key=[])(ranks_kernel)
    tuned[(4,)](out)
    assert tuned.best_config.all_kwargs()["ctas_per_cga"] in ((1, 1, 1),
                                                              (2, 1, 1))


@pytest.mark.skipif(not h.have_ptxas(), reason="no CUDA toolkit (ptxas)")
def test_a_gemm_of_cta_pairs_compiles_for_sm_90a():
    from tpx.compiler.compiler import compile_ttir
    from tpx.pipeline import resolve
    from tpx.tools.tensor_descriptor import TensorDescriptor
    fn = pair_gemm.fn
    a = np.zeros((512, 256), np.float16)
    b = np.zeros((256, 512), np.float16)
    c = np.zeros((512, 512), np.float16)
    descs = [TensorDescriptor(a, [512, 256], [256, 1], [64, 64]),
             TensorDescriptor(b, [256, 512], [512, 1], [64, 128]),
             TensorDescriptor(c, [512, 512], [512, 1], [64, 256])]
    text = _clustered_ttir(fn, *descs, 512, 512, 256, BM=128, BN=256, BK=64,
                           GROUPS=2, STAGES=3, NUM_CTAS=2, NUM_SMS=132)
    kernel = compile_ttir(text, "sm_90a", num_warps=4,
                          pipeline_text=resolve(fn, "sm_90a")[0],
                          no_cache=True)
    ptx = kernel.asm["ptx"]
    assert ".multicast::cluster" in ptx and "mapa.shared::cluster" in ptx
    assert kernel.metadata["num_spills"] == 0
    assert kernel.metadata.shared_memory <= 227 * 1024
