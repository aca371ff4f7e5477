"""A small builder of MLIR text: the TTIR the front end hands to the compiler.

The front end emits every op in MLIR's generic form
(`%3 = "tt.addptr"(%1, %2) : (T1, T2) -> T3 loc(...)`), which needs no
per-op syntax knowledge; the C++ side parses it, verifies it and prints it
back in the dialects' own syntax (that is what `asm["ttir"]` shows).

Values are (SSA name, type text) pairs: types are MLIR type strings such as
"i32", "!tt.ptr<f16>", "tensor<64x64xf32>". Blocks collect op lines; an op
with regions is created after its blocks were filled, so regions nest
naturally (`Builder.block()` / `Builder.at(block)`).
"""

import contextlib


class Value:
    __slots__ = ("name", "type")

    def __init__(self, name, type):
        self.name = name
        self.type = type

    def __repr__(self):
        return "Value(%s: %s)" % (self.name, self.type)


class Block:
    def __init__(self, arg_types=(), arg_locs=None, builder=None):
        builder._counter += 1
        self.label = "^bb%d" % builder._counter
        self.args = [builder._fresh_value(t) for t in arg_types]
        # Block arguments carry the location of the op that owns the block.
        self.arg_locs = list(arg_locs) if arg_locs else \
            [builder.loc] * len(self.args)
        self.lines = []
        self.terminated = False

    def text(self, indent, with_label=False):
        out = []
        if self.args or with_label:
            args = ", ".join(
                "%s: %s%s" % (a.name, a.type, " " + l if l else "")
                for a, l in zip(self.args, self.arg_locs))
            out.append("%s%s%s:" % (" " * (indent - 2), self.label,
                                    "(%s)" % args if args else ""))
        for line in self.lines:
            out.append(" " * indent + line)
        return "\n".join(out)


def attr_text(value):
    """Python value -> MLIR attribute text, for properties/attributes."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return "%d : i32" % value
    if isinstance(value, str):
        return '"%s"' % escape(value)
    raise TypeError("no attribute text for %r" % (value,))


class Raw:
    """Attribute text written verbatim (e.g. `array<i32: 1, 0>`)."""
    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text


def escape(text):
    out = []
    for ch in text:
        code = ord(ch)
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif 32 <= code < 127:
            out.append(ch)
        else:
            for byte in ch.encode("utf-8"):
                out.append("\\%02X" % byte)
    return "".join(out)


def dict_text(entries):
    return ", ".join("%s = %s" % (k, attr_text(v)) for k, v in entries.items())


class Builder:
    """Emits ops at an insertion block; one builder per module."""

    def __init__(self):
        self._counter = 0
        self.block = None
        self.loc = "loc(unknown)"
        self.functions = []  # text of finished functions, in order

    def _fresh_value(self, type):
        self._counter += 1
        return Value("%%v%d" % self._counter, type)

    def _fresh_name(self):
        self._counter += 1
        return "%%v%d" % self._counter

    # -- insertion ---------------------------------------------------------

    def new_block(self, arg_types=(), arg_locs=None):
        return Block(arg_types, arg_locs, self)

    @contextlib.contextmanager
    def at(self, block):
        saved = self.block
        self.block = block
        try:
            yield block
        finally:
            self.block = saved

    @contextlib.contextmanager
    def location(self, loc):
        saved = self.loc
        self.loc = loc
        try:
            yield
        finally:
            self.loc = saved

    # -- ops ---------------------------------------------------------------

    def op(self, name, operands=(), result_types=(), props=None, attrs=None,
           regions=(), terminator=False, successors=()):
        """Appends `name` to the insertion block; returns its results."""
        assert self.block is not None, "no insertion block"
        if self.block.terminated:
            # Code after a terminator (e.g. after `return`) is unreachable;
            # keep the block well-formed by dropping it.
            return [Value("%undef", t) for t in result_types]
        results = []
        lhs = ""
        if len(result_types) == 1:
            value = self._fresh_value(result_types[0])
            results = [value]
            lhs = value.name + " = "
        elif len(result_types) > 1:
            base = self._fresh_name()
            results = [Value("%s#%d" % (base, i), t)
                       for i, t in enumerate(result_types)]
            lhs = "%s:%d = " % (base, len(result_types))
        text = '%s"%s"(%s)' % (lhs, name, ", ".join(v.name for v in operands))
        if successors:
            text += "[%s]" % ", ".join(b.label for b in successors)
        if props:
            text += " <{%s}>" % dict_text(props)
        if regions:
            parts = []
            for region in regions:
                blocks = []
                for i, block in enumerate(region):
                    blocks.append(block.text(6, with_label=i > 0))
                parts.append("{\n%s\n    }" % "\n".join(blocks))
            text += " (" + ", ".join(parts) + ")"
        if attrs:
            text += " {%s}" % dict_text(attrs)
        text += " : (%s) -> (%s) %s" % (
            ", ".join(v.type for v in operands), ", ".join(result_types),
            self.loc)
        # Nested region text is indented relative to its op.
        self.block.lines.append(text.replace("\n", "\n  "))
        if terminator:
            self.block.terminated = True
        return results

    def op1(self, name, operands, result_type, props=None, attrs=None):
        return self.op(name, operands, [result_type], props, attrs)[0]

    # -- functions and the module -------------------------------------------

    def add_function(self, name, blocks, result_types, visibility="public",
                     arg_attrs=None, noinline=False, loc=None):
        """Records `tt.func` whose body is `blocks` (entry block first)."""
        if isinstance(blocks, Block):
            blocks = [blocks]
        block = blocks[0]
        args = []
        for i, (value, arg_loc) in enumerate(zip(block.args, block.arg_locs)):
            attr = arg_attrs[i] if arg_attrs else None
            text = "%s: %s" % (value.name, value.type)
            if attr:
                text += " {%s}" % dict_text(attr)
            if arg_loc:
                text += " " + arg_loc
            args.append(text)
        results = ""
        if result_types:
            results = " -> (%s)" % ", ".join(result_types)
        body = "\n".join("    " + l for l in block.lines)
        for extra in blocks[1:]:
            body += "\n" + extra.text(4, with_label=True)
        self.functions.append(
            "  tt.func %s @%s(%s)%s attributes {noinline = %s} {\n%s\n  } %s"
            % (visibility, name, ", ".join(args), results,
               "true" if noinline else "false", body, loc or "loc(unknown)"))

    def module_text(self, extra_functions=(), pipeline_extensions=(),
                    attributes=()):
        """The module; `pipeline_extensions` become its `tpx.pipeline`
        attribute (extensions the kernel's ops need), first; `attributes`
        (texts "name = value") follow it."""
        parts = []
        if pipeline_extensions:
            parts.append("tpx.pipeline = [%s]" % ", ".join(
                '"%s"' % escape(name) for name in pipeline_extensions))
        parts += list(attributes)
        attributes = " attributes {%s}" % ", ".join(parts) if parts else ""
        return "module%s {\n%s\n}\n" % (attributes, "\n".join(
            list(self.functions) + list(extra_functions)))
