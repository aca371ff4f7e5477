"""Plugins from Python: loading, the environment, DSL ops in kernels, the
`tpx.language.extra.<plugin>` namespaces and a plugin's own Python module.

Plugins stay loaded for the life of the process and their names must be
unique, so tests that need a fresh process (the environment at import, a
copy of an example plugin with a Python module beside it) run a script in a
subprocess.
"""

import importlib
import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tpx
import tpx.language as tl
from tpx import _capi
from tpx.errors import CompilationError, TpxError

import frontend_harness as h

BUILD = os.environ.get("TPX_BUILD_DIR") or os.path.join(
    os.path.dirname(__file__), "..", "..", "build")
PLUGINS = os.path.join(BUILD, "plugins")
SCALED_ADD = os.path.join(PLUGINS, "TpxExampleScaledAdd.so")
TEST_OP = os.path.join(BUILD, "test", "Plugin", "Inputs", "dsl-op-a.so")
PYTHON_DIR = os.path.join(os.path.dirname(__file__), "..", "..", "python")



# Loaded when the module is imported: the kernels below name the plugin's
# namespace at module level, as user code does.
tpx.load_plugin(PLUGINS)


def run_script(source, env=None, cwd=None):
    """Runs `source` in a fresh interpreter; returns (rc, stdout, stderr)."""
    path = os.path.join(cwd, "script.py")
    with open(path, "w") as f:
        f.write(textwrap.dedent(source))
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = os.pathsep.join(
        [os.path.abspath(PYTHON_DIR), os.path.dirname(__file__)])
    full_env["TPX_BUILD_DIR"] = os.path.abspath(BUILD)
    full_env.pop("TRITON_PLUGIN_PATHS", None)
    full_env.update(env or {})
    p = subprocess.run([sys.executable, path], env=full_env, cwd=cwd,
                       capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


# -- loading ------------------------------------------------------------------

def test_load_a_directory_and_describe_the_plugins():
    names = [p.name for p in tpx.loaded_plugins()]
    for name in ["example-eviction-policy", "example-nan-guard",
                 "example-scaled-add", "example-tpxex-dialect"]:
        assert name in names
    by_name = {p.name: p for p in tpx.loaded_plugins()}
    nan = by_name["example-nan-guard"]
    assert nan.version == "1.0"
    assert nan.passes == ["tt-example-nan-guard"]
    assert [e.name for e in nan.extensions] == ["example-nan-guard"]
    assert by_name["example-tpxex-dialect"].dialects == ["tpxex"]
    op, = by_name["example-scaled-add"].dsl_ops
    assert (op.name, op.num_operands, op.summary) == (
        "scaled_add", 2, "x + alpha * y")
    alpha, = op.keywords
    assert (alpha.name, alpha.kind_name, alpha.required, alpha.default) == (
        "alpha", "float", False, 0.5)
    assert tpx.plugins.find_dsl_op("scaled_add") is not None
    assert tpx.plugins.find_dsl_op("nope") is None


def test_loading_again_is_a_no_op():
    count = len(tpx.loaded_plugins())
    again = tpx.load_plugin(PLUGINS)
    assert len(tpx.loaded_plugins()) == count
    # The plugins the path names, also when loaded before.
    assert sorted(p.name for p in again) == [
        "example-eviction-policy", "example-nan-guard",
        "example-scaled-add", "example-tpxex-dialect"]


def test_plugin_paths_and_a_single_file():
    plugin, = tpx.load_plugin(SCALED_ADD)
    assert plugin.name == "example-scaled-add"
    assert plugin.path == os.path.realpath(SCALED_ADD)


def test_load_errors_carry_the_c_api_message(tmp_path):
    with pytest.raises(TpxError) as e:
        tpx.load_plugin(str(tmp_path / "missing.so"))
    assert str(e.value) == "%s: no such file or directory" % (
        tmp_path / "missing.so")
    text = tmp_path / "text.so"
    text.write_text("hello\n")
    with pytest.raises(TpxError) as e:
        tpx.load_plugin(text)           # path-like objects are accepted
    assert str(e.value) == "%s: not a shared library (no ELF header)" % text
    empty = tmp_path / "empty.so"
    empty.write_bytes(b"")
    with pytest.raises(TpxError) as e:
        tpx.load_plugin(str(empty))
    assert str(e.value) == "%s: empty file, not a shared library" % empty


def test_environment_at_import_warns_and_goes_on(tmp_path):
    good = os.path.join(PLUGINS, "TpxExampleNanGuard.so")
    missing = str(tmp_path / "gone.so")
    junk = tmp_path / "junk.so"
    junk.write_text("not ELF")
    rc, out, err = run_script("""
        import warnings
        warnings.simplefilter("always")
        with warnings.catch_warnings(record=True) as caught:
            import tpx
        print([p.name for p in tpx.loaded_plugins()])
        for w in caught:
            print(w.category.__name__, w.message)
        try:
            tpx.plugins.load_plugins_from_env()
        except tpx.TpxError as e:
            print("raised:", e)
    """, env={"TRITON_PLUGIN_PATHS": "%s::%s:%s" % (missing, good, junk)},
        cwd=str(tmp_path))
    assert rc == 0, err
    assert out.splitlines() == [
        "['example-nan-guard']",
        "PluginLoadWarning TRITON_PLUGIN_PATHS: %s: no such file or "
        "directory (import tpx goes on without it)" % missing,
        "PluginLoadWarning TRITON_PLUGIN_PATHS: %s: not a shared library "
        "(no ELF header) (import tpx goes on without it)" % junk,
        "raised: TRITON_PLUGIN_PATHS: %s: no such file or directory" %
        missing,
    ]


def test_environment_unset_does_not_load_the_library(tmp_path):
    rc, out, err = run_script("""
        import tpx
        from tpx import _capi
        print(_capi._lib is None)
    """, cwd=str(tmp_path))
    assert rc == 0, err
    assert out.strip() == "True"


# -- DSL ops in kernels -------------------------------------------------------

from tpx.language.extra import example_scaled_add  # noqa: E402
import tpx.language.extra.example_scaled_add as scaled_add_module  # noqa
import tpx.language.extra.example_scaled_add_ops as scaled_add_ops  # noqa


def test_namespaces():
    assert example_scaled_add is scaled_add_module is scaled_add_ops
    assert tl.extra.example_scaled_add is example_scaled_add
    assert example_scaled_add.__all__ == ["scaled_add"]
    assert example_scaled_add.__tpx_plugin__.name == "example-scaled-add"
    import inspect
    assert str(inspect.signature(example_scaled_add.scaled_add)) == \
        "(x0, x1, /, *, alpha=0.5)"
    assert example_scaled_add.scaled_add.__doc__.startswith("x + alpha * y")
    with pytest.raises(AttributeError) as e:
        tl.extra.not_a_plugin
    assert "no attribute 'not_a_plugin': no loaded plugin provides it" in \
        str(e.value)
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("tpx.language.extra.not_a_plugin")


def test_calling_outside_a_kernel():
    with pytest.raises(ValueError, match="Did you forget to add @tpx.jit"):
        example_scaled_add.scaled_add(1.0, 2.0)


@tpx.jit
def axpy_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr,
                ALPHA: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    a = example_scaled_add.scaled_add(x, y, alpha=ALPHA)
    b = example_scaled_add.scaled_add(a, y)          # alpha's default, 0.5
    c = example_scaled_add.scaled_add(x, y, alpha=ALPHA)   # same as `a`
    s = example_scaled_add.scaled_add(2.0, 4.0, alpha=3)   # scalars, int
    tl.store(out_ptr + offs, (b + c).to(tl.float16).to(tl.float32) + s,
             mask=mask)


def test_scaled_add_in_a_kernel():
    n = 1000
    x = np.random.rand(n).astype(np.float32)
    y = np.random.rand(n).astype(np.float32)
    out = np.zeros(n, np.float32)
    text = h.run(axpy_kernel, (4,), x, y, out, n, BLOCK=256, ALPHA=0.25)
    a = x + np.float32(0.25) * y
    b = a + np.float32(0.5) * y
    expected = (b + a).astype(np.float16).astype(np.float32) + 14.0
    np.testing.assert_allclose(out, expected, rtol=1e-6)
    # One function per distinct (op, operand types, keywords).
    assert text.count("tt.func private @__tpx_dsl_scaled_add_") == 3
    assert text.count('"tt.call"') == 4


def test_results_are_typed():
    @tpx.jit
    def typed(x_ptr, out_ptr):
        offs = tl.arange(0, 8)
        z = example_scaled_add.scaled_add(tl.load(x_ptr + offs),
                                          tl.load(x_ptr + offs))
        tl.store(out_ptr + offs, z.to(tl.int32))
    x = np.arange(8, dtype=np.float32) + 0.5
    out = np.zeros(8, np.int32)
    text = h.run(typed, (1,), x, out)
    assert ": (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>)" in \
        text.split('"tt.call"')[1]
    np.testing.assert_array_equal(out, (x * 1.5).astype(np.int32))


@tpx.jit
def dsl_errors(x_ptr, out_ptr, MODE: tl.constexpr):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs)
    z = x
    if MODE == 0:
        z = example_scaled_add.scaled_add(x, offs)
    if MODE == 1:
        z = example_scaled_add.scaled_add(offs, offs)
    if MODE == 2:
        z = example_scaled_add.scaled_add(x, x, x)
    if MODE == 3:
        z = example_scaled_add.scaled_add(x, x, beta=1)
    if MODE == 4:
        z = example_scaled_add.scaled_add(x, x, alpha="a")
    if MODE == 5:
        z = example_scaled_add.scaled_add(x, x, alpha=x)
    if MODE == 6:
        z = example_scaled_add.scaled_add(x, "y")
    tl.store(out_ptr + offs, z)


DSL_LINE = dsl_errors.starting_line


@pytest.mark.parametrize("mode, line, message", [
    (0, 5, "DSL op 'scaled_add' of plugin 'example-scaled-add' failed: x and "
           "y must have the same type"),
    (1, 7, "DSL op 'scaled_add' of plugin 'example-scaled-add' failed: x and "
           "y must be floats or tensors of floats"),
    (2, 9, "TypeError: scaled_add() takes 2 operands but 3 were given"),
    (3, 11, "TypeError: scaled_add() got an unexpected keyword argument "
            "'beta' (keywords: alpha)"),
    (4, 13, "TypeError: scaled_add(): keyword 'alpha' must be a float, got "
            "str 'a'"),
    (5, 15, "TypeError: scaled_add(): keyword 'alpha' must be a compile-time "
            "constant (a constexpr), got a tensor"),
    (6, 17, "TypeError: scaled_add(): operand 1 must be a tensor or a "
            "number, got 'y'"),
])
def test_dsl_op_errors(mode, line, message):
    x = np.zeros(16, np.float32)
    with pytest.raises(CompilationError) as e:
        h.ttir(dsl_errors, x, x, MODE=mode)
    assert e.value.message == message
    assert (e.value.file, e.value.line) == (__file__, DSL_LINE + line)
    assert "example_scaled_add.scaled_add(" in e.value.source_line


@pytest.mark.parametrize("text, expected", [
    ("f32", tl.float32), ("i1", tl.int1), ("bf16", tl.bfloat16),
    ("f8E5M2", tl.float8e5),
    ("tensor<16x32xf16>", tl.block_type(tl.float16, [16, 32])),
    ("tensor<16x!tt.ptr<f32>>",
     tl.block_type(tl.pointer_type(tl.float32), [16])),
    ("!tt.ptr<i8>", tl.pointer_type(tl.int8)),
])
def test_result_types(text, expected):
    from tpx.language.extra import type_from_mlir
    ty = type_from_mlir(text)
    assert ty == expected and ty.to_ir() == text


@pytest.mark.parametrize("text", [
    "tensor<f32>", "tensor<16xf32, #blocked>", "!tpxex.thing<3, f32>",
    "index", "!tt.ptr<tensor<4xf32>>", "!tt.ptr<f32, 3>"])
def test_result_types_without_a_language_name(text):
    from tpx.language.extra import mlir_type, type_from_mlir
    ty = type_from_mlir(text)
    assert ty.to_ir() == text
    if text != "!tt.ptr<f32, 3>":
        assert ty == mlir_type(text) and not ty.is_floating()
        value = tl.tensor(None, ty)         # usable as a value's type
        assert value.dtype is ty and value.shape == ()


def test_function_signature():
    from tpx.language.extra import function_signature
    text = (
        'tt.func private @f(%a0: tensor<4x!tt.ptr<f32>> loc("a0"("k.py":1:2)'
        '), %a1: !t.x<"(,)"> loc(unknown)) -> (f32, tensor<2x2xi32>, '
        '!tt.ptr<f16, 1>) {\n  tt.return\n} loc(unknown)')
    assert function_signature(text, "f") == (
        ["tensor<4x!tt.ptr<f32>>", '!t.x<"(,)">'],
        ["f32", "tensor<2x2xi32>", "!tt.ptr<f16, 1>"])
    assert function_signature(
        "tt.func private @g(%a0: f32) -> f32 attributes {x} {", "g") == (
        ["f32"], ["f32"])
    assert function_signature("tt.func private @h() {", "h") == ([], [])
    with pytest.raises(ValueError, match="has no @nope"):
        function_signature("tt.func private @h() {", "nope")


@pytest.mark.skipif(not os.path.exists(TEST_OP),
                    reason="test plugins not built")
def test_variadic_op_without_results():
    tpx.load_plugin(TEST_OP)

    @tpx.jit
    def k(x_ptr, out_ptr):
        offs = tl.arange(0, 4)
        x = tl.load(x_ptr + offs)
        r = tl.extra.test_op_a.test_op(x, x, 1)
        tl.store(out_ptr + offs, x if r is None else x + 1)
        tl.extra.test_op_a.test_op()

    x = np.arange(4, dtype=np.float32)
    out = np.zeros(4, np.float32)
    text = h.run(k, (1,), x, out)
    np.testing.assert_array_equal(out, x)
    assert text.count('"tt.call"') == 2


def test_plugin_loaded_behind_the_package_is_importable(tmp_path):
    rc, out, err = run_script("""
        import ctypes
        import tpx
        from tpx import _capi
        _capi.check(_capi.library().tpxLoadPlugin, %r.encode())
        import tpx.language.extra.example_scaled_add as m
        from tpx.language.extra import example_scaled_add_ops
        print(m.scaled_add.dsl_op.name, m is example_scaled_add_ops)
    """ % SCALED_ADD, cwd=str(tmp_path))
    assert rc == 0, err
    assert out.strip() == "scaled_add True"


# -- a plugin's own Python module ---------------------------------------------

SHIPPED = '''
"""The Python side of example-scaled-add: wrappers and TLX-style objects."""
import tpx
import tpx.language as tl
from tpx.language.core import builtin, constexpr
from tpx.language.extra import example_scaled_add_ops as _ops

LOADED_FROM = __file__


@tpx.jit
def axpy(x, y, alpha: tl.constexpr):
    return _ops.scaled_add(x, y, alpha=alpha)


class buffers:
    """`bufs[i]` (__tpx_getitem__): the i-th tensor of a local_alloc."""

    def __init__(self, values):
        self.values = values

    def __tpx_getitem__(self, index, _semantic=None):
        return self.values[index.value if isinstance(index, constexpr)
                           else index]


@builtin
def local_alloc(*values, _semantic=None):
    return buffers(values)


class _accumulator:
    def __init__(self):
        self.total = None

    @builtin
    def add(self, value, _semantic=None):
        self.total = value if self.total is None else \\
            _semantic.add(self.total, value)


class accumulate:
    """`with accumulate(ptr) as acc:` sums what `acc.add` gets; the sum
    is stored at `ptr` when the block ends (__tpx_enter__/__tpx_exit__)."""

    def __init__(self, ptr):
        self.ptr = ptr

    def __tpx_enter__(self, _semantic=None, _generator=None):
        self.acc = _accumulator()
        return self.acc

    def __tpx_exit__(self, _semantic=None, _generator=None):
        tl.store(self.ptr, self.acc.total, _semantic=_semantic)


@builtin
def async_task(ptr, _semantic=None):
    return accumulate(ptr)
'''

KERNEL_SCRIPT = '''
import numpy as np
import tpx
import tpx.language as tl
import frontend_harness as h
{load}
import tpx.language.extra.example_scaled_add as ext
from tpx.language.extra import example_scaled_add, example_scaled_add_ops


@tpx.jit
def kernel(x_ptr, y_ptr, out_ptr, sum_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    bufs = ext.local_alloc(tl.load(x_ptr + offs), tl.load(y_ptr + offs))
    with ext.async_task(sum_ptr + offs) as acc:
        acc.add(bufs[0])
        acc.add(bufs[1])
        acc.add(example_scaled_add_ops.scaled_add(bufs[0], bufs[1]))
    tl.store(out_ptr + offs, ext.axpy(bufs[0], bufs[1], 2.0))


x = np.arange(8, dtype=np.float32)
y = np.full(8, 3.0, np.float32)
out = np.zeros(8, np.float32)
total = np.zeros(8, np.float32)
h.run(kernel, (1,), x, y, out, total, BLOCK=8)
np.testing.assert_array_equal(out, x + 2 * y)
np.testing.assert_array_equal(total, x + y + (x + 0.5 * y))
print(ext is example_scaled_add, ext.LOADED_FROM)
print(ext.__name__, example_scaled_add_ops.__name__)
'''


def _plugin_copy(tmp_path, shipped, package=False):
    folder = tmp_path / "plugin"
    folder.mkdir()
    shutil.copy(SCALED_ADD, folder / "TpxExampleScaledAdd.so")
    if package:
        (folder / "example_scaled_add").mkdir()
        path = folder / "example_scaled_add" / "__init__.py"
    else:
        path = folder / "example_scaled_add.py"
    path.write_text(shipped)
    return folder, path


@pytest.mark.parametrize("package", [False, True])
def test_shipped_module_with_extension_points(tmp_path, package):
    folder, path = _plugin_copy(tmp_path, SHIPPED, package)
    rc, out, err = run_script(KERNEL_SCRIPT.format(
        load="tpx.load_plugin(%r)" % str(folder)), cwd=str(tmp_path))
    assert rc == 0, err
    assert out.splitlines() == [
        "True %s" % path,
        "tpx.language.extra.example_scaled_add "
        "tpx.language.extra.example_scaled_add_ops"]


def test_shipped_module_from_the_environment(tmp_path):
    folder, path = _plugin_copy(tmp_path, SHIPPED)
    rc, out, err = run_script(
        KERNEL_SCRIPT.format(load=""), cwd=str(tmp_path),
        env={"TRITON_PLUGIN_PATHS": str(folder / "TpxExampleScaledAdd.so")})
    assert rc == 0, err
    assert out.splitlines()[0] == "True %s" % path


def test_shipped_module_that_fails_to_import(tmp_path):
    folder, path = _plugin_copy(tmp_path, "raise RuntimeError('broken')\n")
    rc, out, err = run_script("""
        import tpx
        try:
            tpx.load_plugin(%r)
        except ImportError as e:
            print(e)
        # The plugin is loaded and its raw ops are usable.
        from tpx.language.extra import example_scaled_add
        print([p.name for p in tpx.loaded_plugins()],
              example_scaled_add.__name__)
    """ % str(folder), cwd=str(tmp_path))
    assert rc == 0, err
    assert out.splitlines() == [
        "plugin 'example-scaled-add': its Python module %s failed to import:"
        " RuntimeError: broken" % path,
        "['example-scaled-add'] tpx.language.extra.example_scaled_add_ops"]
