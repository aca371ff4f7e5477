"""Exceptions of the tpx Python package.

Nothing in tpx aborts the interpreter: compiler, plugin and launch failures
all come back as one of these.
"""


class TpxError(Exception):
    """A failure reported by the tpx library (compile, plugin, launch)."""


class CompilationError(TpxError):
    """An error in kernel code, located in the Python source.

    The message reads `file:line:col: error: what` followed by the source
    line and a caret under the column, like a C compiler's.
    """

    def __init__(self, message, file=None, line=None, col=None,
                 source_line=None):
        self.message = message
        self.file = file
        self.line = line
        self.col = col
        self.source_line = source_line
        super().__init__(self._render())

    def _render(self):
        if self.file is None or self.line is None:
            return self.message
        text = "%s:%d:%d: error: %s" % (self.file, self.line,
                                         (self.col or 0) + 1, self.message)
        if self.source_line is not None:
            caret = " " * (self.col or 0) + "^"
            text += "\n    " + self.source_line.rstrip() + "\n    " + caret
        return text


class LaunchError(TpxError):
    """A kernel launch with bad arguments, or one that failed to run."""


class OutOfResources(TpxError):
    """A kernel needs more of a resource (shared memory, registers) than the
    device has; the autotuner skips configs that raise it."""

    def __init__(self, required, limit, name):
        self.required = required
        self.limit = limit
        self.name = name
        super().__init__("out of resource: %s, required: %s, hardware "
                         "limit: %s" % (name, required, limit))
