"""`TensorWrapper` and `reinterpret`, as `triton.runtime.jit` has them.

`reinterpret(tensor, dtype)` makes a kernel see `tensor`'s memory as
elements of `dtype` (a tpx.language dtype): the way Triton programs pass
unsigned integers and fp8 values that torch or numpy store as signed
integers. The wrapper is a pointer argument of element type `dtype` (its
specialization key is `*<dtype>`), at the wrapped tensor's address: a
torch tensor or numpy array on the CPU, a GPU torch tensor on a GPU.
"""

from tpx.errors import LaunchError
from tpx.runtime import arguments

__all__ = ["TensorWrapper", "reinterpret"]


class TensorWrapper:
    """`base` (a tensor or array) seen as elements of `dtype`."""

    def __init__(self, base, dtype):
        self.dtype = dtype
        self.base = base
        self.data = getattr(base, "data", None)
        self.device = getattr(base, "device", "cpu")
        self.shape = tuple(base.shape)

    def data_ptr(self):
        base = self.base
        if hasattr(base, "data_ptr"):
            return base.data_ptr()
        interface = getattr(base, "__cuda_array_interface__", None) or \
            base.__array_interface__
        return interface["data"][0]

    @property
    def tpx_host_buffer(self):
        """(pointer, bytes) of the wrapped host memory, for the CPU
        launcher."""
        base = self.base
        if arguments.is_torch_tensor(base):
            if base.get_device() >= 0:
                raise LaunchError(
                    "a TensorWrapper of a torch tensor on %s cannot be "
                    "passed to a kernel on the CPU (move it with .cpu())" %
                    (base.device,))
            return arguments.torch_buffer(base)
        return arguments.numpy_buffer(base)

    @property
    def tpx_device_pointer(self):
        """The wrapped tensor's device address, for the GPU launchers."""
        base = self.base
        if arguments.is_torch_tensor(base) and base.get_device() < 0 or \
                hasattr(base, "__array_interface__"):
            raise LaunchError(
                "a TensorWrapper of host memory (%s) cannot be passed to a "
                "kernel on a GPU (wrap a GPU tensor)" %
                (arguments.describe(base),))
        return self.data_ptr()

    def stride(self, *args):
        if hasattr(self.base, "stride") and callable(self.base.stride):
            return self.base.stride(*args)
        size = self.base.dtype.itemsize
        strides = tuple(s // size for s in self.base.strides)
        return strides[args[0]] if args else strides

    def element_size(self):
        return self.dtype.primitive_bitwidth // 8

    def numel(self):
        count = 1
        for s in self.shape:
            count *= s
        return count

    def dim(self):
        return len(self.shape)

    def __len__(self):
        return self.shape[0] if self.shape else 0

    def cpu(self):
        base = self.base.cpu() if hasattr(self.base, "cpu") else self.base
        return TensorWrapper(base, self.dtype)

    def copy_(self, other):
        self.base.copy_(other.base if isinstance(other, TensorWrapper)
                        else other)

    def clone(self):
        return TensorWrapper(self.base.clone() if hasattr(self.base, "clone")
                             else self.base.copy(), self.dtype)

    def to(self, device):
        return TensorWrapper(self.base.to(device), self.dtype)

    def new_empty(self, sizes):
        return TensorWrapper(self.base.new_empty(sizes), self.dtype)

    def __str__(self):
        return "TensorWrapper[%s](%s)" % (self.dtype, self.base)

    __repr__ = __str__


def reinterpret(tensor, dtype):
    """`tensor` seen as elements of `dtype`; the tensor itself when it
    already has that type (a wrapper of it: unwrapped)."""
    if isinstance(tensor, TensorWrapper):
        if dtype == getattr(tensor.base, "dtype", None):
            return tensor.base
        return TensorWrapper(tensor.base, dtype)
    if hasattr(tensor, "data_ptr") or hasattr(tensor, "__array_interface__"):
        return TensorWrapper(tensor, dtype)
    raise TypeError("Cannot reinterpret a %s" % type(tensor).__name__)
