"""Compiler diagnostics mapped back to Python source (tpx.diagnostics).

Failures come from the example plugins (a pass that reports an error, run
on the module and on the kernel function) and from invalid IR (an unknown
op, a use of an undefined value, mismatched types), compiled through the
C API as the runtime does. Both spellings of a location the library has
used are accepted: `file:12:5: error:` and `loc("file":12:5): error:`.
"""

import ctypes
import os
import re

import numpy as np
import pytest

import tpx
import tpx.language as tl
from tpx import _capi, diagnostics
from tpx.errors import CompilationError, TpxError
from tpx.pipeline import Pipeline

import frontend_harness as h

BUILD = os.environ.get("TPX_BUILD_DIR") or os.path.join(
    os.path.dirname(__file__), "..", "..", "build")
tpx.load_plugin(os.path.join(BUILD, "plugins"))


@pytest.fixture(autouse=True)
def reproducers_in_tmp(tmp_path, monkeypatch):
    monkeypatch.setenv("TPX_REPRODUCER_DIR", str(tmp_path))


@tpx.jit
def kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x * 2)


DEF_LINE = kernel.starting_line
STORE_LINE = DEF_LINE + 3
DEF_SOURCE = "def kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):"
STORE_SOURCE = "    tl.store(out_ptr + offs, x * 2)"


def _ttir():
    x = np.zeros(16, np.float32)
    return h.ttir(kernel, x, x, BLOCK=16)


def _compile(source, pipeline_text=None):
    """tpxCompileKernel as the runtime calls it; a failure comes back as
    diagnostics.from_compiler_message(...)."""
    lib = _capi.library()
    options = _capi.TpxKernelOptions()
    options.structSize = ctypes.sizeof(options)
    options.target = b"cpu"
    options.noCache = 1
    options.pipelineText = _capi.encode(pipeline_text)
    artifact = ctypes.c_void_p()
    try:
        _capi.check(lib.tpxCompileKernel, source.encode(),
                    ctypes.byref(options), ctypes.byref(artifact))
    except TpxError as e:
        return diagnostics.from_compiler_message(str(e), source, kernel)
    lib.tpxArtifactDestroy(artifact)
    return None


def _lines(error):
    """The message's lines, reproducer paths replaced by <file>."""
    return [re.sub(r"`[^`]*reproducer[^`]*`", "<file>",
                   re.sub(r"--run-reproducer \S+", "--run-reproducer <file>",
                          line))
            for line in str(error).splitlines()]


# -- parsing ------------------------------------------------------------------

def test_parse_both_location_spellings():
    entries = diagnostics.parse(
        "stage 'ttir' failed:\n"
        "k.py:12:5: error: boom\n"
        'loc("dir/with: colon.py":3:14): warning: quoted\n'
        "C:/x.py:1:2: note: drive letters\n"
        "-:4:18: remark: in the source text\n"
        "replay: tpx-opt ...\n"
        "k.py:12: error: no column")
    got = [(raw, d and (d.file, d.line, d.col, d.severity, d.message))
           for raw, d in entries]
    assert [g[1] for g in got] == [
        None,
        ("k.py", 12, 5, "error", "boom"),
        ("dir/with: colon.py", 3, 14, "warning", "quoted"),
        ("C:/x.py", 1, 2, "note", "drive letters"),
        ("-", 4, 18, "remark", "in the source text"),
        None, None]


def test_source_lines_under_each_located_diagnostic():
    message = (
        "stage 'llir' failed:\n"
        "%s:%d:5: error: failed to legalize 'tt.store'\n"
        "%s:%d:5: note: see current operation\n"
        "%s:%d:1: note: called from\n"
        "elsewhere.py:3:1: note: a file that does not exist\n"
        "the end" % (__file__, STORE_LINE, __file__, STORE_LINE, __file__,
                     DEF_LINE))
    error = diagnostics.from_compiler_message(message)
    assert isinstance(error, CompilationError)
    assert str(error).splitlines() == [
        "stage 'llir' failed:",
        "%s:%d:5: error: failed to legalize 'tt.store'" % (__file__,
                                                           STORE_LINE),
        "    " + STORE_SOURCE,
        "        ^",
        # The same place again: no second copy of the line.
        "%s:%d:5: note: see current operation" % (__file__, STORE_LINE),
        "%s:%d:1: note: called from" % (__file__, DEF_LINE),
        "    " + DEF_SOURCE,
        "    ^",
        "elsewhere.py:3:1: note: a file that does not exist",
        "the end"]
    assert (error.file, error.line, error.col) == (__file__, STORE_LINE, 4)
    assert error.source_line == STORE_SOURCE
    assert [d.severity for d in error.diagnostics] == [
        "error", "note", "note", "note"]
    assert error.compiler_message == message


def test_without_ttir_the_text_locations_stay():
    error = diagnostics.from_compiler_message(
        "cannot parse the source:\n-:4:18: error: bad")
    assert str(error) == "cannot parse the source:\n-:4:18: error: bad"
    assert error.file is None and error.line is None


def test_text_locations_map_through_the_ttir():
    ttir = _ttir()
    store = next(i for i, l in enumerate(ttir.split("\n"), 1)
                 if '"tt.store"' in l)
    error = diagnostics.from_compiler_message(
        "x:\n-:%d:3: error: at the store\n-:1:1: error: on the module" %
        store, ttir, kernel)
    assert str(error).splitlines() == [
        "x:",
        "%s:%d:5: error: at the store" % (__file__, STORE_LINE),
        "    " + STORE_SOURCE,
        "        ^",
        "%s:%d:1: error: on the module" % (__file__, DEF_LINE),
        "    " + DEF_SOURCE,
        "    ^"]
    assert error.diagnostics[0].ttir_line == store


# -- real compiles ------------------------------------------------------------

POLICY_ERROR = ("unknown policy 'bogus' (expected evict_normal, evict_first "
                "or evict_last)")


def test_plugin_pass_failing_on_the_module():
    p = Pipeline.effective("cpu").append(
        "ttir", "tt-example-eviction-policy{policy=bogus}")
    error = _compile(_ttir(), p.text())
    lines = _lines(error)
    assert lines[:4] == [
        "stage 'ttir' failed:",
        "%s:%d:1: error: pass 'tt-example-eviction-policy' of plugin "
        "'example-eviction-policy' failed on builtin.module: %s" % (
            __file__, DEF_LINE, POLICY_ERROR),
        "    " + DEF_SOURCE,
        "    ^"]
    assert lines[-1].startswith("replay: tpx-opt --load-plugin=")
    assert (error.file, error.line) == (__file__, DEF_LINE)


def test_plugin_pass_failing_on_the_kernel_from_a_hook():
    def hook(pipeline, kernel_name, target):
        pipeline.insert_after(
            "ttir", "cse", "tt.func(tt-example-eviction-policy{policy=bogus})")

    tpx.set_pipeline_hook(hook)
    try:
        text, _ = tpx.pipeline.resolve(kernel, "cpu")
    finally:
        tpx.unset_pipeline_hook()
    error = _compile(_ttir(), text)
    assert _lines(error)[1:4] == [
        "%s:%d:1: error: pass 'tt-example-eviction-policy' of plugin "
        "'example-eviction-policy' failed on tt.func @kernel: %s" % (
            __file__, DEF_LINE, POLICY_ERROR),
        "    " + DEF_SOURCE,
        "    ^"]


def test_invalid_ir_an_unknown_op():
    error = _compile(_ttir().replace('"tt.store"', '"tt.storex"'))
    assert _lines(error)[:4] == [
        "cannot parse the source:",
        "%s:%d:5: error: unregistered operation 'tt.storex' found in dialect "
        "('tt') that does not allow unknown operations" % (__file__,
                                                           STORE_LINE),
        "    " + STORE_SOURCE,
        "        ^"]


def test_invalid_ir_an_undefined_value():
    lines = _ttir().split("\n")
    i = next(i for i, l in enumerate(lines) if '"tt.store"' in l)
    lines[i] = re.sub(r"\(%v\d+", "(%v999", lines[i])
    error = _compile("\n".join(lines))
    assert _lines(error)[:4] == [
        "cannot parse the source:",
        "%s:%d:5: error: use of undeclared SSA value name" % (__file__,
                                                             STORE_LINE),
        "    " + STORE_SOURCE,
        "        ^"]
    assert error.diagnostics[0].ttir_line == i + 1


def test_invalid_ir_mismatched_types():
    source = _ttir().replace(
        "(tensor<16x!tt.ptr<f32>>, tensor<16xf32>) -> ()",
        "(tensor<16x!tt.ptr<f32>>, tensor<16xf16>) -> ()")
    error = _compile(source)
    lines = _lines(error)
    assert lines[1] == (
        "%s:%d:5: error: use of value '%s' expects different type than "
        "prior uses: 'tensor<16xf16>' vs 'tensor<16xf32>'" % (
            __file__, STORE_LINE,
            re.search(r'"tt.store"\(%v\d+, (%v\d+)\)', source).group(1)))
    assert lines[2:4] == ["    " + STORE_SOURCE, "        ^"]


def test_a_valid_kernel_compiles():
    assert _compile(_ttir()) is None


def test_launch_shows_the_source_line_of_a_failing_pass():
    # The whole path a user takes: kernel[grid](...) with a hook whose pass
    # fails; the runtime routes the compiler's message through diagnostics.
    def hook(pipeline, kernel_name, target):
        pipeline.insert_after(
            "ttir", "cse", "tt.func(tt-example-eviction-policy{policy=bogus})")

    x = h.to_device(np.zeros(16, np.float32))
    tpx.set_pipeline_hook(hook)
    try:
        with pytest.raises(CompilationError) as e:
            kernel[(1,)](x, x.clone() if h.TARGET != "cpu" else x.copy(),
                         BLOCK=16)
    finally:
        tpx.unset_pipeline_hook()
    assert _lines(e.value)[1:3] == [
        "%s:%d:1: error: pass 'tt-example-eviction-policy' of plugin "
        "'example-eviction-policy' failed on tt.func @kernel: %s" % (
            __file__, DEF_LINE, POLICY_ERROR),
        "    " + DEF_SOURCE]
