"""Functions of `triton.language` written in the language itself.

They are @jit functions: a kernel that calls one gets it as a private
`tt.func` inlined by the `ttir` stage, like any helper of its own.
"""

from tpx.language.basic import minimum
from tpx.runtime.jit import jit


@jit
def swizzle2d(i, j, size_i, size_j, size_g):
    """Maps a row-major (i, j) of a size_i x size_j grid to column-major
    order within groups of `size_g` rows, so that neighbouring programs
    share rows (the grouped ordering of matmul tiles). Returns (i', j')."""
    linear = i * size_j + j
    group_size = size_g * size_j          # elements in one group of rows
    group = linear // group_size
    first_row = group * size_g
    rows = minimum(size_i - first_row, size_g)   # the last group is short
    within = linear % group_size
    return first_row + within % rows, within // rows
