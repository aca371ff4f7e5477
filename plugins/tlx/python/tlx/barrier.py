"""TLX mbarriers and fences."""

from tpx.compiler.ir import Raw
from tpx.language import core

from .types import mbarrier_type, remote_mbarrier_type
from ._support import constexpr_int, emit, tlx_builtin, unwrap


def _one_barrier(bar, what):
    bar = unwrap(bar)
    ty = getattr(bar, "type", None)
    if not isinstance(ty, mbarrier_type):
        raise TypeError("%s takes a barrier (from tlx.alloc_barriers), got "
                        "%r" % (what, bar))
    if ty.count != 1:
        raise TypeError("%s takes one barrier: select it with bars[i] or "
                        "tlx.local_view(bars, i) (got %d barriers)" %
                        (what, ty.count))
    return bar


def _i32(value, what, semantic):
    value = semantic.to_tensor(unwrap(value))
    if value.type.is_block() or not value.dtype.is_int():
        raise TypeError("%s must be a scalar integer, got %s" %
                        (what, value.type))
    if value.dtype != core.int32:
        value = semantic.cast(value, core.int32)
    return value


def _pred(pred, what, semantic):
    pred = unwrap(pred)
    if pred is None or pred is True:
        return []
    pred = semantic.to_tensor(pred)
    if pred.type.is_block():
        raise TypeError("%s: pred must be a scalar" % what)
    if not pred.dtype.is_bool():
        pred = semantic.cast(pred, core.int1)
    return [pred]


@tlx_builtin
def alloc_barriers(num_barriers, arrive_count=1, _semantic=None,
                   _generator=None):
    """`num_barriers` mbarriers whose phases complete after `arrive_count`
    arrivals (and the transaction bytes expected in the phase)."""
    num = constexpr_int(num_barriers, "tlx.alloc_barriers() num_barriers")
    count = constexpr_int(arrive_count, "tlx.alloc_barriers() arrive_count")
    if num < 1 or count < 1:
        raise ValueError("tlx.alloc_barriers() needs at least one barrier and "
                         "an arrive_count of at least 1, got %d and %d" %
                         (num, count))
    return emit(_generator, "tlx.alloc_barriers", [], [mbarrier_type(num)],
                props={"arriveCount": count})[0]


@tlx_builtin
def alloc_warp_barrier(num_barriers, num_warps=1, num_arrivals=1,
                       _semantic=None, _generator=None):
    """TLX's warp barriers: `num_barriers` mbarriers on which every thread
    of an arriving task arrives on its own, a phase completing after
    num_warps * 32 * num_arrivals such arrivals, that is after
    `num_arrivals` arrivals of tasks of `num_warps` warps.

    tpx arrives for a whole task (or program) at once, by one thread, when
    all its threads are past what came before (docs/tlx.md): a warp barrier
    is therefore an mbarrier expecting `num_arrivals` arrivals, whose
    phases complete at the same points as TLX's wherever each arrival comes
    from a task of `num_warps` warps, as TLX requires."""
    what = "tlx.alloc_warp_barrier()"
    warps = constexpr_int(num_warps, what + " num_warps")
    arrivals = constexpr_int(num_arrivals, what + " num_arrivals")
    if warps < 1 or arrivals < 1:
        raise ValueError("%s needs num_warps and num_arrivals of at least 1, "
                         "got %d and %d" % (what, warps, arrivals))
    return alloc_barriers(num_barriers, arrivals, _semantic=_semantic,
                          _generator=_generator)


def barrier_view(bars, index, _semantic, _generator):
    ty = bars.type
    raw = unwrap(index)
    if isinstance(raw, int) and not isinstance(raw, bool) and \
            not 0 <= raw < ty.count:
        raise IndexError("barrier index %d is out of range for %d barriers" %
                         (raw, ty.count))
    index = _i32(index, "the barrier index", _semantic)
    return emit(_generator, "tlx.barrier_view", [bars, index],
                [mbarrier_type(1)])[0]


@tlx_builtin
def remote_view(buffer, remote_cta_rank, _semantic=None, _generator=None):
    """The barrier `buffer` as it is in CTA `remote_cta_rank` of the
    thread-block cluster: barrier_arrive on the view arrives there. As in
    TLX, only barriers have remote views, and only arrivals use them."""
    what = "tlx.remote_view()"
    bar = _one_barrier(buffer, what)
    if isinstance(bar.type, remote_mbarrier_type):
        raise TypeError("%s takes a barrier of this CTA, got a remote view"
                        % what)
    size = cluster_size(_semantic)
    raw = unwrap(remote_cta_rank)
    if size < 2:
        raise ValueError("%s needs a kernel launched in thread-block "
                         "clusters (ctas_per_cga); this one runs clusters of "
                         "one CTA" % what)
    if isinstance(raw, int) and not 0 <= raw < size:
        raise ValueError("%s: remote_cta_rank %d names no CTA of a cluster "
                         "of %d" % (what, raw, size))
    view = core.tensor(bar.handle, remote_mbarrier_type())
    view.tpx_remote_rank = _i32(remote_cta_rank, what + " remote_cta_rank",
                                _semantic)
    return view


def _local_barrier(bar, what):
    """One barrier of this CTA (not a remote_view, which only arrivals
    take, as in TLX)."""
    bar = _one_barrier(bar, what)
    if isinstance(bar.type, remote_mbarrier_type):
        raise TypeError("%s takes a barrier of this CTA; a remote_view is "
                        "only for barrier_arrive (as in TLX)" % what)
    return bar


@tlx_builtin
def barrier_wait(bar, phase, pred=None, _semantic=None, _generator=None):
    """Waits until the barrier's phase with parity `phase` has completed."""
    bar = _local_barrier(bar, "tlx.barrier_wait()")
    phase = _i32(phase, "tlx.barrier_wait() phase", _semantic)
    operands = [bar, phase] + _pred(pred, "tlx.barrier_wait()", _semantic)
    emit(_generator, "tlx.barrier_wait", operands, [])


@tlx_builtin
def barrier_arrive(bar, arrive_count=1, remote_cta_rank=None, _semantic=None,
                   _generator=None):
    """Arrives `arrive_count` times on the barrier; with `remote_cta_rank`,
    on the same barrier of that CTA of the thread-block cluster (a kernel
    launched with ctas_per_cga)."""
    what = "tlx.barrier_arrive()"
    bar = _one_barrier(bar, what)
    count = constexpr_int(arrive_count, "tlx.barrier_arrive() arrive_count")
    if count < 1:
        raise ValueError("tlx.barrier_arrive(): arrive_count must be >= 1")
    operands = [bar]
    if isinstance(bar.type, remote_mbarrier_type):
        rank = getattr(bar, "tpx_remote_rank", None)
        if rank is None:
            raise TypeError("%s: this remote view of a barrier has lost its "
                            "CTA rank (passed to a function?); call "
                            "tlx.remote_view where it is used, or pass "
                            "remote_cta_rank" % what)
        if unwrap(remote_cta_rank) is not None:
            raise ValueError("%s: a remote view already names its CTA; "
                             "remote_cta_rank is for a barrier of this CTA"
                             % what)
        operands.append(rank)
    elif unwrap(remote_cta_rank) is not None:
        size = cluster_size(_semantic)
        if size < 2:
            raise ValueError("%s: remote_cta_rank needs a kernel launched in "
                             "thread-block clusters (ctas_per_cga); this one "
                             "runs clusters of one CTA" % what)
        raw = unwrap(remote_cta_rank)
        if isinstance(raw, int) and not 0 <= raw < size:
            raise ValueError("%s: remote_cta_rank %d names no CTA of a "
                             "cluster of %d" % (what, raw, size))
        operands.append(_i32(remote_cta_rank, what + " remote_cta_rank",
                             _semantic))
    emit(_generator, "tlx.barrier_arrive", operands, [],
         props={"count": count})


def cluster_size(semantic):
    """The CTAs of the kernel's thread-block cluster (its ctas_per_cga)."""
    dims = getattr(getattr(semantic, "options", None), "cluster_dims",
                   (1, 1, 1))
    return dims[0] * dims[1] * dims[2]


@tlx_builtin
def cluster_barrier(_semantic=None, _generator=None):
    """Every thread of every CTA of the cluster waits for all the others;
    accesses before it (shared memory of any CTA of the cluster, global
    memory) are visible to all after it. Outside async tasks only."""
    emit(_generator, "tlx.cluster_barrier", [], [])


@tlx_builtin
def barrier_expect_bytes(bar, size, pred=None, _semantic=None,
                         _generator=None):
    """Arrives once on the barrier and expects `size` bytes from the async
    copies (TMA) signalling it in the current phase."""
    bar = _local_barrier(bar, "tlx.barrier_expect_bytes()")
    raw = unwrap(size)
    if isinstance(raw, int) and raw < 0:
        raise ValueError("tlx.barrier_expect_bytes(): size must be >= 0, got "
                         "%d" % raw)
    size = _i32(size, "tlx.barrier_expect_bytes() size", _semantic)
    operands = [bar, size] + _pred(pred, "tlx.barrier_expect_bytes()",
                                   _semantic)
    emit(_generator, "tlx.barrier_expect_bytes", operands, [])


@tlx_builtin
def fence_async_shared(_semantic=None, _generator=None):
    """Orders earlier shared-memory writes before later async-proxy reads
    (wgmma, TMA stores)."""
    emit(_generator, "tlx.fence_async_shared", [], [])


@tlx_builtin
def fence(scope, _semantic=None, _generator=None):
    """A memory fence: "async_shared" orders earlier shared-memory writes
    before later async-proxy reads (as fence_async_shared). Device- and
    system-scope fences ("gpu", "sys") are not provided yet: an error."""
    scope = unwrap(scope)
    if scope == "async_shared":
        emit(_generator, "tlx.fence_async_shared", [], [])
    elif scope in ("gpu", "sys"):
        raise ValueError("tlx.fence(%r): device- and system-scope fences are "
                         "not provided by tpx yet (only 'async_shared')" %
                         scope)
    else:
        raise ValueError("tlx.fence(): scope must be 'gpu', 'sys', or "
                         "'async_shared', got %r" % (scope,))


def _named_barrier(bar_id, num_threads, arrive_only, what, semantic,
                   generator):
    from .async_task import current_threads
    raw_id, raw_count = unwrap(bar_id), unwrap(num_threads)
    if isinstance(raw_id, int) and not 0 <= raw_id < 16:
        raise ValueError("%s: barrier id %d is outside the hardware's 0..15"
                         % (what, raw_id))
    if isinstance(raw_count, int) and (raw_count <= 0 or raw_count % 32):
        raise ValueError("%s: num_threads must be a positive multiple of 32 "
                         "(whole warps), got %d" % (what, raw_count))
    props = {"threads": current_threads(semantic, generator)}
    if arrive_only:
        props["arriveOnly"] = Raw("unit")
    emit(generator, "tlx.named_barrier",
         [_i32(bar_id, what + " bar_id", semantic),
          _i32(num_threads, what + " num_threads", semantic)], [],
         props=props)


@tlx_builtin
def named_barrier_wait(bar_id, num_threads, _semantic=None, _generator=None):
    """Arrives at hardware barrier `bar_id` and waits until `num_threads`
    threads (of any tasks) have arrived (bar.sync)."""
    _named_barrier(bar_id, num_threads, False, "tlx.named_barrier_wait()",
                   _semantic, _generator)


@tlx_builtin
def named_barrier_arrive(bar_id, num_threads, _semantic=None,
                         _generator=None):
    """Arrives at hardware barrier `bar_id` without waiting (bar.arrive)."""
    _named_barrier(bar_id, num_threads, True, "tlx.named_barrier_arrive()",
                   _semantic, _generator)
