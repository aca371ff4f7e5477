"""tpx.language.extra.tlx: TLX (Triton Low-level Language Extensions).

Kernel authors allocate buffers in the program's local memory (shared
memory on a GPU), fill them with async copies, run async tensor-core dots
on them and wait for both themselves. The names, arguments and semantics
are TLX's, so a TLX program runs on tpx once its imports read

    import tpx as triton
    import tpx.language as tl
    import tpx.language.extra.tlx as tlx

This module ships beside the TLX plugin's library and is imported when the
plugin is loaded (or on first `import tpx.language.extra.tlx`, which loads
the bundled plugin). Every function emits ops of the plugin's `tlx`
dialect and selects the plugin's `tlx` pipeline extension for the kernel,
which lowers them for the compile target (docs/tlx.md).
"""

from .types import (async_token, async_token_type, buffered_tensor,
                    buffered_tensor_type, mbarrier, mbarrier_type,
                    storage_kind, tensor_descriptor_ptr,
                    tensor_descriptor_ptr_type)
from .async_task import async_task, async_task_replica_id, async_tasks
from .barrier import (alloc_barriers, alloc_warp_barrier, barrier_arrive,
                      barrier_expect_bytes,
                      barrier_wait, cluster_barrier, fence,
                      fence_async_shared,
                      named_barrier_arrive,
                      named_barrier_wait, remote_view)
from .tma import (allocate_tensor_descriptor, async_descriptor_load,
                  async_descriptor_prefetch_tensor, async_descriptor_store, async_descriptor_store_wait,
                  make_tensor_descriptor, reinterpret_tensor_descriptor)
from .mem_ops import (async_load, async_load_commit_group,
                      async_load_wait_group, local_alloc, local_load,
                      local_reinterpret, local_slice, local_store,
                      local_trans, local_view)
from .mma_ops import async_dot, async_dot_wait
from .utility import (clock64, cluster_cta_rank, cluster_size_1d,
                      dtype_of, size_of, thread_id, vote_ballot_sync)

__all__ = [
    "alloc_barriers", "alloc_warp_barrier", "allocate_tensor_descriptor",
    "async_descriptor_load",
    "async_descriptor_prefetch_tensor", "fence", "async_descriptor_store",
    "async_descriptor_store_wait", "async_task", "async_task_replica_id",
    "async_tasks", "barrier_arrive", "barrier_expect_bytes", "barrier_wait",
    "clock64", "cluster_barrier", "cluster_cta_rank", "cluster_size_1d",
    "fence_async_shared",
    "make_tensor_descriptor", "mbarrier", "reinterpret_tensor_descriptor",
    "tensor_descriptor_ptr", "tensor_descriptor_ptr_type",
    "named_barrier_arrive", "named_barrier_wait", "remote_view",
    "vote_ballot_sync",
    "mbarrier_type",
    "async_dot", "async_dot_wait", "async_load", "async_load_commit_group",
    "async_load_wait_group", "async_token", "async_token_type",
    "buffered_tensor", "buffered_tensor_type", "dtype_of", "local_alloc",
    "local_load", "local_reinterpret", "local_slice", "local_store",
    "local_trans", "local_view", "size_of", "storage_kind", "thread_id",
]
