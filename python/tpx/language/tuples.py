"""`tl.tuple` and `tl.tuple_type`.

They live in a module of their own because a class named `tuple` would
shadow Python's tuple in any module that defines it.
"""

import builtins


class tuple_type:
    """The type of a tuple of language values (its element types)."""

    def __init__(self, types, fields=None):
        self.types = list(types)
        self.fields = fields

    def __repr__(self):
        return "tuple_type(%s)" % ", ".join(map(str, self.types))


class tuple(builtins.tuple):
    """`tl.tuple(values)`: a tuple of language values. Kernels use plain
    Python tuples the same way (indexing by constexprs, unpacking, loop
    carrying, passing to and returning from @jit functions)."""

    @property
    def type(self):
        return tuple_type([getattr(v, "type", type(v)) for v in self])
