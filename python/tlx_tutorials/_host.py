"""What the tutorials' host functions share: arrays of either kind."""


def is_torch(x):
    return type(x).__module__.startswith("torch")


def strides(x):
    """Strides in elements."""
    if is_torch(x):
        return tuple(x.stride())
    return tuple(s // x.itemsize for s in x.strides)


def empty(shape, like, dtype=None):
    if is_torch(like):
        import torch
        return torch.empty(shape, device=like.device,
                           dtype=dtype or like.dtype)
    import numpy as np
    return np.empty(shape, dtype=dtype or like.dtype)
