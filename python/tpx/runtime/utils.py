"""Host-side helpers Triton exports at the top level (`triton.cdiv`, ...)."""

import operator

__all__ = ["cdiv", "next_power_of_2"]


def cdiv(x, y):
    """ceil(x / y) for ints: the number of blocks of size y covering x."""
    return (x + y - 1) // y


def next_power_of_2(n):
    """The smallest power of two >= n (1 for n <= 1)."""
    n = operator.index(n)
    if n <= 1:
        return 1
    return 1 << (n - 1).bit_length()
