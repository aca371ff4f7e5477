"""`tpx.set_allocator`: where kernels needing global scratch memory get it.

Triton 3.6 kernels that use on-device tensor descriptors (or other global
scratch) ask the runtime for memory at launch through the allocator set
here: `fn(size, alignment, stream) -> buffer` (an object with
`data_ptr()`, typically a torch tensor). tpx stores it for the launchers;
until one is set, asking for scratch raises the error Triton raises.

tpx's targets need no scratch today: the CPU target splits a descriptor
into its base, shape and strides, and the NVIDIA target lowers descriptor
accesses to masked loads and stores (`tpxgpu-lower-tensor-descriptors`).
Programs that set an allocator run unchanged; it is not called.
"""

import threading

__all__ = ["set_allocator", "get_allocator", "NullAllocator"]


class NullAllocator:
    """The allocator before `set_allocator`: every request is an error."""

    def __call__(self, size, alignment, stream):
        raise RuntimeError(
            "Kernel requires a runtime memory allocation, but no allocator "
            "was set. Use tpx.set_allocator (triton.set_allocator) to "
            "specify an allocator.")

    def __repr__(self):
        return "NullAllocator()"


_lock = threading.Lock()
_allocator = NullAllocator()


def set_allocator(allocator):
    """Sets the allocator, `allocator(size, alignment, stream) -> buffer`,
    for every thread (None restores the erroring default)."""
    global _allocator
    if allocator is None:
        allocator = NullAllocator()
    if not callable(allocator):
        raise TypeError("set_allocator: expected a callable "
                        "fn(size, alignment, stream), got %r" % (allocator,))
    with _lock:
        _allocator = allocator


def get_allocator():
    """The current allocator (a NullAllocator when none was set)."""
    return _allocator


def allocate(size, alignment, stream):
    """Scratch memory from the current allocator; checks what comes back."""
    if size <= 0:
        return None
    buffer = _allocator(size, alignment, stream)
    if not callable(getattr(buffer, "data_ptr", None)):
        raise TypeError("the allocator returned %r, which has no data_ptr()"
                        % (buffer,))
    return buffer
