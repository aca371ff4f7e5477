"""`tpx.set_allocator`: Triton's hook for kernels' global scratch memory.

On NVIDIA GPUs Triton writes the TMA descriptors of tensor descriptors made
in a kernel (`tl.make_tensor_descriptor`) into global scratch memory that
the launcher allocates through this allocator. tpx's targets need none:
the CPU target splits a descriptor into its base, shape and strides, and the
NVIDIA target lowers descriptor accesses to masked loads and stores
(`tpxgpu-lower-tensor-descriptors`, no TMA). The allocator is accepted, kept
and never called, so programs written for Triton run unchanged.
"""

_allocator = None


def set_allocator(allocator):
    """Records `allocator(size, alignment, stream) -> buffer`; tpx's kernels
    never need global scratch, so it is not called."""
    global _allocator
    _allocator = allocator


def get_allocator():
    """The allocator last given to set_allocator (None when unset)."""
    return _allocator
