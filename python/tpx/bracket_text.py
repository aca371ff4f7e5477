"""Scanning MLIR-like text by its brackets: pipeline texts, type texts and
function signatures. Double-quoted strings (with backslash escapes) are
skipped, so a bracket inside a string never counts."""

_CLOSERS = {"(": ")", "{": "}", "[": "]"}


def _unquoted(text, start=0):
    """(index, character) of `text` from `start`, outside double-quoted
    strings."""
    i, in_string = start, False
    while i < len(text):
        c = text[i]
        if in_string:
            if c == "\\":
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        else:
            yield i, c
        i += 1


def find_closing(text, open_index):
    """Index of the bracket closing the one at `open_index` ((), {} and []
    nest), or -1 when it is unbalanced."""
    expected = []
    for i, c in _unquoted(text, open_index):
        if c in _CLOSERS:
            expected.append(_CLOSERS[c])
        elif c in ")}]":
            if not expected or expected[-1] != c:
                return -1
            expected.pop()
            if not expected:
                return i
    return -1


def split_top_level(text, sep=","):
    """Splits at `sep` outside <>, (), [], {} and double-quoted strings;
    the parts are stripped."""
    parts, depth, start = [], 0, 0
    for i, c in _unquoted(text):
        if c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    tail = text[start:].strip()
    if tail or parts:
        parts.append(tail)
    return parts
