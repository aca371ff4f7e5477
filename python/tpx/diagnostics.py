"""Compiler diagnostics mapped back to the kernel's Python source.

A compile that fails in the C API (a plugin pass, a backend, IR that does
not verify) returns MLIR diagnostics as text, one per line:

    stage 'ttir' failed:
    kernels.py:12:5: error: pass 'my-pass' of plugin 'p' failed on tt.func: ...
    kernels.py:9:1: note: called from

(older libraries write the location as `loc("kernels.py":12:5): error:`).
Every op the front end emits carries the Python `file:line:col` it came
from, so `from_compiler_message` turns such a message into a
CompilationError that shows, under each located diagnostic, the source line
and a caret under the column:

    stage 'ttir' failed:
    kernels.py:12:5: error: pass 'my-pass' ... failed ...
        tl.store(out_ptr + offs, x)
        ^

Locations in the TTIR text itself (`-:4:18`, `loc("-":1:1)`: a syntax
error, or a pass failing on the module, which has no Python location) are
mapped through the TTIR when it is given: to the Python location written on
that TTIR line, else to the kernel's `def` line.
"""

import linecache
import re

from tpx.errors import CompilationError

__all__ = ["Diagnostic", "parse", "from_compiler_message", "render"]

_SEVERITIES = "error|warning|note|remark"
_QUOTED = r'loc\("(?P<qfile>(?:[^"\\]|\\.)*)":(?P<qline>\d+):(?P<qcol>\d+)\)'
_PLAIN = r"(?P<file>[^\s\"][^\"]*?):(?P<line>\d+):(?P<col>\d+)"
_LINE = re.compile(r"^(?:%s|%s): (?P<sev>%s): ?(?P<msg>.*)$" %
                   (_QUOTED, _PLAIN, _SEVERITIES))
_LOC_IN_TEXT = re.compile(r'"((?:[^"\\]|\\.)*)":(\d+):(\d+)')
_SOURCE_BUFFER = "-"


class Diagnostic:
    """One located line of a compiler message."""

    __slots__ = ("file", "line", "col", "severity", "message",
                 "source_line", "ttir_line")

    def __init__(self, file, line, col, severity, message):
        self.file = file
        self.line = line
        self.col = col              # 1-based, as MLIR prints it
        self.severity = severity
        self.message = message
        self.source_line = None
        self.ttir_line = None       # the TTIR line it was mapped from

    def location(self):
        return "%s:%d:%d" % (self.file, self.line, self.col)

    def __repr__(self):
        return "Diagnostic(%s: %s: %s)" % (self.location(), self.severity,
                                           self.message)


def _unescape(text):
    return re.sub(r"\\(.)", r"\1", text)


def parse(message):
    """[(raw line, Diagnostic or None)] for each line of `message`."""
    out = []
    for raw in message.split("\n"):
        m = _LINE.match(raw)
        if m is None:
            out.append((raw, None))
            continue
        if m.group("qfile") is not None:
            file = _unescape(m.group("qfile"))
            line, col = int(m.group("qline")), int(m.group("qcol"))
        else:
            file = m.group("file")
            line, col = int(m.group("line")), int(m.group("col"))
        out.append((raw, Diagnostic(file, line, col, m.group("sev"),
                                    m.group("msg"))))
    return out


def _kernel_location(jit_fn):
    file = getattr(jit_fn, "file", None)
    line = getattr(jit_fn, "starting_line", None)
    if file and line:
        return file, line, 1
    return None


def _map_ttir(diag, ttir_lines, jit_fn):
    """A diagnostic in the TTIR buffer -> the Python location of that line
    (the last one written on it: an op's own), else the kernel's def."""
    found = None
    if ttir_lines is not None and 0 < diag.line <= len(ttir_lines):
        locs = _LOC_IN_TEXT.findall(ttir_lines[diag.line - 1])
        if locs:
            file, line, col = locs[-1]
            found = _unescape(file), int(line), int(col)
    if found is None and jit_fn is not None:
        found = _kernel_location(jit_fn)
    if found is not None:
        diag.ttir_line = diag.line
        diag.file, diag.line, diag.col = found
    return diag


def _source_line(diag):
    if diag.file == _SOURCE_BUFFER or diag.line <= 0:
        return None
    text = linecache.getline(diag.file, diag.line)
    return text.rstrip("\n") if text else None


def render(entries):
    """The message text of parsed `entries`, with source lines (once for
    consecutive diagnostics at the same location)."""
    out = []
    previous = None
    for raw, diag in entries:
        if diag is None:
            out.append(raw)
            previous = None
            continue
        out.append("%s: %s: %s" % (diag.location(), diag.severity,
                                   diag.message))
        # One source line for a run of diagnostics at the same place.
        shown, previous = previous, diag.location()
        if diag.source_line is not None and shown != previous:
            caret = " " * max(0, diag.col - 1) + "^"
            out.append("    " + diag.source_line.rstrip())
            out.append("    " + caret)
    return "\n".join(out)


def from_compiler_message(message, ttir=None, jit_fn=None):
    """A CompilationError for a C API compile failure `message`.

    `ttir` (the module text that was compiled) and `jit_fn` (the kernel)
    let diagnostics located in the TTIR text point at Python source. The
    error's `file`, `line`, `col` and `source_line` are those of the first
    located error (col 0-based, as CompilationError's); `diagnostics` lists
    every located line; str() is the whole annotated message.
    """
    ttir_lines = ttir.split("\n") if ttir is not None else None
    entries = parse(message)
    for _, diag in entries:
        if diag is None:
            continue
        if diag.file == _SOURCE_BUFFER:
            _map_ttir(diag, ttir_lines, jit_fn)
        diag.source_line = _source_line(diag)
    error = CompilationError(render(entries))
    diagnostics = [d for _, d in entries if d is not None]
    error.diagnostics = diagnostics
    error.compiler_message = message
    first = next((d for d in diagnostics if d.severity == "error"),
                 diagnostics[0] if diagnostics else None)
    if first is not None and first.file != _SOURCE_BUFFER:
        error.file, error.line = first.file, first.line
        error.col, error.source_line = first.col - 1, first.source_line
    return error
