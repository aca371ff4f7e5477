"""Per-kernel pipelines from Python: the text format, @jit(pipeline=...),
`with tpx.pipeline(...)`, the pipeline hook and tpx.pipeline.resolve.

The example plugins of the build (build/plugins) provide the extensions:
`example-nan-guard` makes a store of NaN fail the launch (a change that
numbers can show), `example-evict-last` sets `evictionPolicy = evict_last`
on loads (a change the ttir stage's output shows).
"""

import ctypes
import os
import threading

import numpy as np
import pytest

import tpx
import tpx.language as tl
from tpx import _capi
from tpx.errors import CompilationError, TpxError
from tpx.pipeline import PassEntry, Pipeline, resolve

import frontend_harness as h


def _plugin_dir():
    build = os.environ.get("TPX_BUILD_DIR") or os.path.join(
        os.path.dirname(__file__), "..", "..", "build")
    return os.path.join(build, "plugins")


@pytest.fixture(scope="module", autouse=True)
def example_plugins():
    tpx.load_plugin(_plugin_dir())
    yield
    tpx.unset_pipeline_hook()


@pytest.fixture(autouse=True)
def no_hook():
    tpx.unset_pipeline_hook()
    yield
    tpx.unset_pipeline_hook()


CPU_DEFAULT_TTIR = ["inline", "tt-replace-poison", "canonicalize", "cse",
                    "symbol-dce"]


# -- the text format ----------------------------------------------------------

@pytest.mark.parametrize("target", ["cpu", "sm_90a", "gfx950"])
def test_round_trip_of_the_effective_text(target):
    text = _capi.get_string(_capi.library().tpxGetPipelineText,
                            target.encode())
    p = Pipeline.parse(text)
    assert p.text() == text
    assert p.target == target
    assert p.stages[0] == "ttir"
    # The GPU targets' ttir also folds additions into dots (as Triton's
    # combine does), lowers block pointers and descriptors and decomposes
    # scaled dots, so that the coverage check after it sees what the simt
    # pipeline will compile.
    extra = ([] if target == "cpu" else
             ["tt-combine-dot-add", "tpxgpu-lower-tensor-descriptors",
              "tpxgpu-lower-block-pointers", "tpxgpu-decompose-scaled-dots"])
    assert p.passes("ttir") == CPU_DEFAULT_TTIR + extra


def test_effective_pipeline_applies_extensions_like_the_compiler():
    p = Pipeline.effective("cpu", ["example-evict-last"])
    assert p.passes("ttir") == CPU_DEFAULT_TTIR + [
        "tt-example-eviction-policy{policy=evict_last}"]
    # The same edit made in Python gives the same pipeline.
    q = Pipeline.effective("cpu").append(
        "ttir", "tt-example-eviction-policy{policy=evict_last}")
    assert p == q
    assert Pipeline.effective("cpu", "example-evict-last") == p


def test_edits():
    p = Pipeline.effective("cpu")
    p.insert_after("ttir", "cse", "my-pass{factor=2}")
    p.insert_before("ttir", "inline", "first")
    p.replace("ttir", "canonicalize", "canonicalize{max-iterations=3}")
    p.remove("ttir", "symbol-dce")
    p.append("obj", "tt.func(cse)")
    assert p.passes("ttir") == ["first", "inline", "tt-replace-poison",
                                "canonicalize{max-iterations=3}", "cse",
                                "my-pass{factor=2}"]
    assert p.passes("obj") == ["tt.func(cse)"]
    assert p.text().splitlines()[1] == (
        "ttir: builtin.module(first,inline,tt-replace-poison,"
        "canonicalize{max-iterations=3},cse,my-pass{factor=2})")
    p.replace_stage("ttir", "a,b{x=1, y=\"p,q\"}")
    assert p.passes("ttir") == ["a", 'b{x=1, y="p,q"}']
    p.replace_stage("ttir", [])
    assert p.passes("ttir") == []
    assert Pipeline.parse(p.text()) == p


def test_edit_errors_name_what_exists_and_change_nothing():
    p = Pipeline.effective("cpu")
    before = p.text()
    with pytest.raises(ValueError) as e:
        p.insert_after("ttgir", "cse", "x")
    assert str(e.value) == ("pipeline of target 'cpu' has no stage 'ttgir' "
                            "(stages: ttir, llir, obj)")
    with pytest.raises(ValueError) as e:
        p.remove("ttir", "dce")
    assert str(e.value) == (
        "stage 'ttir' has no pass 'dce' (passes: builtin.module(inline,"
        "tt-replace-poison,canonicalize,cse,symbol-dce))")
    with pytest.raises(ValueError) as e:
        p.append("ttir", "cse{")
    assert str(e.value) == "unbalanced '{' in pass entry 'cse{'"
    with pytest.raises(TypeError):
        p.append("ttir", 3)
    assert p.text() == before


def test_pass_entries():
    e = PassEntry.parse(' my-pass{message="a, b" n=2} ')
    assert (e.name, e.options, e.nested) == ("my-pass", 'message="a, b" n=2',
                                              None)
    n = PassEntry.parse("tt.func(canonicalize,cse)")
    assert (n.name, n.nested) == ("tt.func", "canonicalize,cse")
    assert str(n) == "tt.func(canonicalize,cse)"
    assert PassEntry.parse_list("a, tt.func(b,c),d{x=[1,2]}") == [
        "a", "tt.func(b,c)", "d{x=[1,2]}"]
    with pytest.raises(ValueError, match="^expected a pass name in '{x}'$"):
        PassEntry.parse("{x}")
    with pytest.raises(ValueError, match="^unexpected 'y' after pass entry "
                                         "'x'$"):
        PassEntry.parse("x y")
    with pytest.raises(ValueError, match="^empty pass entry in 'a,'$"):
        PassEntry.parse_list("a,")


@pytest.mark.parametrize("text, message", [
    ("# tpx pipeline target=cpu\noops\n",
     "pipeline text line 2: expected 'stage: anchor(passes)', got 'oops'"),
    ("ttir: cse\n",
     "pipeline text line 1: stage 'ttir' needs 'anchor(passes)', got 'cse'"),
    ("ttir: builtin.module(a)\nttir: builtin.module(b)\n",
     "pipeline text line 2: pipeline already has a stage 'ttir'"),
    ("# tpx pipeline target=\n",
     "pipeline text line 1: '# tpx pipeline target=' names no target "
     "(write e.g. target=sm_90a, or drop the line)"),
    ("# just a comment\n\n", "pipeline text has no stages"),
    ("ttir: builtin.module(a,,b)\n",
     "pipeline text line 1: stage 'ttir': expected a pass name in ''"),
])
def test_parse_errors(text, message):
    with pytest.raises(ValueError) as e:
        Pipeline.parse(text)
    assert str(e.value) == message


# -- per-kernel selection -----------------------------------------------------

def _store_twice(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x * 2)


guarded = tpx.jit(pipeline=["example-nan-guard"])(_store_twice)
guarded_by_text = tpx.jit(pipeline="example-nan-guard,example-evict-last")(
    _store_twice)
plain = tpx.jit(_store_twice)
misspelled = tpx.jit(pipeline=["example-nan-gaurd"])(_store_twice)

STORE_LINE = _store_twice.__code__.co_firstlineno + 3


def _nan_input():
    x = np.arange(16, dtype=np.float32)
    x[3] = np.nan
    return x, np.zeros(16, np.float32)


def _expect_nan_guard(kernel):
    x, out = _nan_input()
    with pytest.raises(TpxError) as e:
        h.run(kernel, (1,), x, out, BLOCK=16, pipeline=True)
    assert str(e.value) == (
        "kernel '%s' failed: device-side assertion failed in program "
        "(0, 0, 0) at element 3: stored a NaN at %s:%d:5" %
        (kernel.__name__, __file__, STORE_LINE))


def _expect_no_guard(kernel):
    x, out = _nan_input()
    h.run(kernel, (1,), x, out, BLOCK=16, pipeline=True)
    np.testing.assert_array_equal(out, x * 2)


@h.cpu_only(h.DEVICE_ASSERT)
def test_jit_pipeline_selects_extensions_for_that_kernel_only():
    _expect_nan_guard(guarded)
    _expect_no_guard(plain)          # compiled after it: not affected
    _expect_nan_guard(guarded_by_text)


def test_jit_pipeline_text_and_key():
    text, key = resolve(guarded_by_text, "cpu")
    p = Pipeline.parse(text)
    assert p.passes("ttir") == CPU_DEFAULT_TTIR + [
        "tt-example-nan-guard",
        "tt-example-eviction-policy{policy=evict_last}"]
    assert key.startswith("tpx 0.1.0\nplugin ")
    assert key.endswith(text)
    assert "plugin example-nan-guard 1.0 sha256=" in key
    assert resolve(plain, "cpu")[0] is None


def test_unknown_extension_of_a_kernel():
    with pytest.raises(CompilationError) as e:
        resolve(misspelled, "cpu")
    assert e.value.file == __file__
    assert e.value.line == misspelled.starting_line
    assert e.value.message.startswith(
        "unknown pipeline extension 'example-nan-gaurd' (known: ")
    assert e.value.message.endswith(
        "), selected by @tpx.jit(pipeline=['example-nan-gaurd']) of kernel "
        "'_store_twice'")
    assert "example-nan-guard" in e.value.message


def test_bad_jit_pipeline_value():
    bad = tpx.jit(pipeline=[3])(_store_twice)
    with pytest.raises(CompilationError, match="pipeline extension names "
                                               "must be strings, got 3"):
        resolve(bad, "cpu")


# -- scopes -------------------------------------------------------------------

@h.cpu_only(h.DEVICE_ASSERT)
def test_scope_applies_to_kernels_compiled_inside():
    with tpx.pipeline("example-nan-guard"):
        _expect_nan_guard(plain)
        assert tpx.pipeline.active_extensions() == ["example-nan-guard"]
    _expect_no_guard(plain)
    assert tpx.pipeline.active_extensions() == []


def test_scopes_nest_and_combine_with_the_kernel():
    with tpx.pipeline_extensions("example-evict-last"):
        with tpx.pipeline("example-nan-guard", "example-evict-last"):
            assert tpx.pipeline.active_extensions() == [
                "example-evict-last", "example-nan-guard"]
            text, _ = resolve(guarded, "cpu")
        assert tpx.pipeline.active_extensions() == ["example-evict-last"]
        text2, _ = resolve(guarded, "cpu")
    # Scoped first (outermost first), then the kernel's; each once.
    assert Pipeline.parse(text).passes("ttir")[5:] == [
        "tt-example-eviction-policy{policy=evict_last}",
        "tt-example-nan-guard"]
    assert text2 == text


def test_unknown_extension_in_a_scope():
    with pytest.raises(ValueError) as e:
        with tpx.pipeline("no-such-ext"):
            pass
    assert str(e.value).startswith(
        "unknown pipeline extension 'no-such-ext' (known: ")
    assert tpx.pipeline.active_extensions() == []


def test_scope_is_per_thread():
    seen = {}

    def other():
        seen["text"] = resolve(plain, "cpu")[0]
        seen["active"] = tpx.pipeline.active_extensions()

    with tpx.pipeline("example-nan-guard"):
        t = threading.Thread(target=other)
        t.start()
        t.join()
        assert resolve(plain, "cpu")[0] is not None
    assert seen == {"text": None, "active": []}


def test_what_changes_the_configuration_bumps_the_generation():
    generation = _capi.state_generation
    resolve(guarded, "cpu")
    Pipeline.effective("cpu", ["example-nan-guard"])
    tpx.pipeline.check_extensions(["example-nan-guard"])
    with pytest.raises(CompilationError):
        resolve(misspelled, "cpu")
    # Reading a selected pipeline pushes and pops: no change. Scopes are
    # Python's (the runtime keys its fast path by them).
    with tpx.pipeline("example-nan-guard"):
        resolve(plain, "cpu")
    assert _capi.state_generation == generation
    tpx.set_pipeline_hook(print)
    assert _capi.state_generation > generation
    generation = _capi.state_generation
    tpx.set_pipeline_hook(print)        # the same hook again: no change
    assert _capi.state_generation == generation
    tpx.unset_pipeline_hook()
    assert _capi.state_generation > generation


# -- the hook -----------------------------------------------------------------

@h.cpu_only(h.DEVICE_ASSERT)
def test_hook_edits_every_kernel_until_unset():
    calls = []

    def hook(pipeline, kernel_name, target):
        calls.append((kernel_name, target, pipeline.passes("ttir")))
        pipeline.insert_after("ttir", "cse", "tt-example-nan-guard")

    tpx.set_pipeline_hook(hook)
    assert tpx.pipeline.get_pipeline_hook() is hook
    _expect_nan_guard(plain)
    assert calls == [("_store_twice", "cpu", CPU_DEFAULT_TTIR)]
    tpx.unset_pipeline_hook()
    _expect_no_guard(plain)
    assert len(calls) == 1


@tpx.jit(pipeline=["example-nan-guard"])
def only_me(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) * 2)


@h.cpu_only(h.DEVICE_ASSERT)
def test_hook_sees_the_selected_extensions_and_may_pick_kernels():
    def hook(pipeline, kernel_name, target):
        if kernel_name == "only_me":
            pipeline.remove("ttir", "tt-example-nan-guard")

    tpx.set_pipeline_hook(hook)
    _expect_nan_guard(guarded)
    x, out = _nan_input()
    h.run(only_me, (1,), x, out, BLOCK=16, pipeline=True)
    np.testing.assert_array_equal(out, x * 2)


@h.cpu_only(h.DEVICE_ASSERT)
def test_hook_may_return_a_pipeline_or_text():
    def as_text(pipeline, kernel_name, target):
        return pipeline.copy().append("ttir", "tt-example-nan-guard").text()

    tpx.set_pipeline_hook(as_text)
    _expect_nan_guard(plain)
    tpx.set_pipeline_hook(lambda p, k, t: Pipeline.effective(
        t, ["example-nan-guard"]))
    _expect_nan_guard(plain)


def test_hook_errors():
    tpx.set_pipeline_hook(lambda p, k, t: 42)
    with pytest.raises(TypeError, match="returned 42; return None"):
        resolve(plain, "cpu")
    tpx.set_pipeline_hook(lambda p, k, t: p.insert_after("ttgir", "cse", "x"))
    with pytest.raises(ValueError, match="^pipeline of target 'cpu' has no "
                                         "stage 'ttgir'"):
        resolve(plain, "cpu")
    with pytest.raises(TypeError, match="is not callable"):
        tpx.set_pipeline_hook("not a function")


# -- the cache key ------------------------------------------------------------

def test_everything_enters_the_cache_key():
    default_text, default_key = resolve(plain, "cpu")
    assert default_text is None
    material = _capi.get_string(_capi.library().tpxGetCacheKeyMaterial,
                                b"cpu")
    assert default_key == material
    keys = {default_key}
    _, own = resolve(guarded, "cpu")
    keys.add(own)
    with tpx.pipeline("example-evict-last"):
        keys.add(resolve(plain, "cpu")[1])
    tpx.set_pipeline_hook(lambda p, k, t: p.remove("ttir", "cse"))
    keys.add(resolve(plain, "cpu")[1])
    tpx.unset_pipeline_hook()
    assert len(keys) == 4
    # The same configuration gives the same key.
    assert resolve(guarded, "cpu")[1] == own
    assert resolve(plain, "cpu")[1] == default_key
    assert resolve(plain, "sm_90a")[1] != default_key


def _ttir_stage_output(source, pipeline_text):
    """The `ttir` stage's output for `source` (tpxCompileString)."""
    class Options(ctypes.Structure):
        _fields_ = [("structSize", ctypes.c_uint32),
                    ("target", ctypes.c_char_p),
                    ("stopAfter", ctypes.c_char_p),
                    ("dumpDir", ctypes.c_char_p),
                    ("overrideDir", ctypes.c_char_p),
                    ("pipelineText", ctypes.c_char_p)]
    fn = _capi.library().tpxCompileString
    options = Options(ctypes.sizeof(Options), b"cpu", b"ttir", None, None,
                      _capi.encode(pipeline_text))
    out = ctypes.c_void_p()
    size = ctypes.c_size_t()
    _capi.check(fn, source.encode(), ctypes.byref(options), ctypes.byref(out),
                ctypes.byref(size))
    try:
        return ctypes.string_at(out.value, size.value).decode()
    finally:
        _capi.library().tpxStringFree(out.value)


def test_resolved_text_is_what_compiles():
    x, out = _nan_input()
    source = h.ttir(guarded_by_text, x, out, BLOCK=16)
    text, _ = resolve(guarded_by_text, "cpu")
    ir = _ttir_stage_output(source, text)
    assert "evictionPolicy = evict_last" in ir and "tt.assert" in ir
    ir = _ttir_stage_output(source, resolve(plain, "cpu")[0])
    assert "evict_last" not in ir and "tt.assert" not in ir


# -- through the runtime ------------------------------------------------------

@h.cpu_only(h.DEVICE_ASSERT)
def test_runtime_compiles_a_selected_kernel_once(monkeypatch):
    torch = pytest.importorskip("torch")
    calls = []
    real = tpx.pipeline.resolve

    def counting(jit_fn, target):
        calls.append(jit_fn.__name__)
        return real(jit_fn, target)

    monkeypatch.setattr(tpx.pipeline, "resolve", counting)

    @tpx.jit(pipeline=["example-evict-last"])
    def evict(x_ptr, out_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, tl.load(x_ptr + offs) + 1)

    x = torch.arange(16, dtype=torch.float32)
    out = torch.zeros(16)
    for _ in range(3):
        evict[(1,)](x, out, BLOCK=16)
    torch.testing.assert_close(out, x + 1)
    # Reading the selected pipeline does not invalidate cached launches.
    assert calls == ["evict"]
    with tpx.pipeline("example-nan-guard"):
        x[3] = float("nan")
        with pytest.raises(TpxError, match="stored a NaN"):
            evict[(1,)](x, out, BLOCK=16)
    evict[(1,)](x, out, BLOCK=16)
    assert calls == ["evict", "evict"]
