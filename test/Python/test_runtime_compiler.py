"""tpx.compiler.compiler: compile_ttir and CompiledKernel on the CPU."""

import concurrent.futures
import os

import numpy as np
import pytest

import runtime_corpus
from frontend_harness import have_ptxas
from tpx import _capi
from tpx.compiler.compiler import (CompiledKernel, compile_ttir,
                                   normalize_grid)
from tpx.errors import CompilationError, LaunchError, OutOfResources

VADD = runtime_corpus.load("vadd_f32")


def test_compile_metadata_and_asm():
    k = compile_ttir(VADD.ttir, "cpu", num_warps=4, num_stages=3)
    assert isinstance(k, CompiledKernel)
    md = k.metadata
    assert md.name == md["name"] == "vadd" == k.name
    assert md.num_warps == 4 and md.num_stages == 3
    assert md.target == "cpu"
    assert md.shared == 0
    assert [a["name"] for a in md.signature["args"]] == [
        "x_ptr", "y_ptr", "z_ptr", "n"]
    assert k.asm["source"] == VADD.ttir
    assert "tt.func public @vadd" in k.asm["ttir"]
    assert k.asm["obj"][:4] == b"\x7fELF" and k.asm["obj"] == k.binary
    assert isinstance(k.n_regs, int) and isinstance(k.n_spills, int)
    with pytest.raises(AttributeError, match="no field 'nope'"):
        md.nope


def test_compile_records_warps_and_stages():
    k = compile_ttir(VADD.ttir, "cpu", num_warps=8, num_stages=2)
    assert k.metadata.num_warps == 8 and k.metadata.num_stages == 2


def test_launch_vadd():
    k = compile_ttir(VADD.ttir, "cpu")
    args = VADD.args()
    args[2][:] = 0
    k[VADD.grid](*args)
    VADD.check(args)
    args[2][:] = 0
    k.run(VADD.grid, *args)
    VADD.check(args)


@pytest.mark.parametrize("name", runtime_corpus.names())
def test_corpus_case_runs_through_compiled_kernel(name):
    case = runtime_corpus.load(name)
    k = compile_ttir(case.ttir, "cpu", num_warps=case.num_warps,
                     num_stages=case.num_stages, bounds_check=True)
    args = case.args()
    k[case.grid](*args)
    case.check(args)


def test_syntax_error_is_compilation_error_with_message():
    with pytest.raises(CompilationError, match="cannot parse"):
        compile_ttir("module { bogus }", "cpu")


def test_unknown_target():
    with pytest.raises(CompilationError, match="unknown target 'nosuch'"):
        compile_ttir(VADD.ttir, "nosuch")


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(num_warps=3), ValueError, "power of two"),
    (dict(num_warps=64), ValueError, "power of two"),
    (dict(num_warps="4"), TypeError, "num_warps must be an int"),
    (dict(num_warps=True), TypeError, "num_warps must be an int"),
    (dict(num_stages=-1), ValueError, "num_stages"),
    (dict(num_stages=1.5), TypeError, "num_stages"),
    (dict(target=""), TypeError, "target"),
    (dict(target=None), TypeError, "target"),
    (dict(pipeline_text=3), TypeError, "pipeline_text"),
])
def test_bad_options(kwargs, error, match):
    with pytest.raises(error, match=match):
        compile_ttir(VADD.ttir, **kwargs)


def test_bad_source():
    with pytest.raises(TypeError, match="must be text"):
        compile_ttir(42)
    with pytest.raises(ValueError, match="empty"):
        compile_ttir("   ")
    with pytest.raises(ValueError, match="NUL"):
        compile_ttir("module {}\0")
    # bytes are decoded
    assert compile_ttir(VADD.ttir.encode()).name == "vadd"


def test_pipeline_text_is_used():
    text = _capi.get_string(_capi.library().tpxGetPipelineText, b"cpu")
    k = compile_ttir(VADD.ttir, "cpu", pipeline_text=text)
    args = VADD.args()
    k[VADD.grid](*args)
    VADD.check(args)
    with pytest.raises(CompilationError):
        compile_ttir(VADD.ttir, "cpu", pipeline_text="no such pipeline")


def test_dump_dir(tmp_path):
    compile_ttir(VADD.ttir, "cpu", dump_dir=tmp_path)
    assert os.listdir(tmp_path)


def test_compiles_in_parallel_threads():
    cases = [runtime_corpus.load(n) for n in ("vadd_f32", "softmax_f32",
                                              "saxpy_i32", "cumsum_rows")]
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        kernels = list(pool.map(
            lambda c: compile_ttir(c.ttir, "cpu", no_cache=True), cases))
    for case, k in zip(cases, kernels):
        args = case.args()
        k[case.grid](*args)
        case.check(args)


def test_launch_argument_errors():
    k = compile_ttir(VADD.ttir, "cpu")
    x, y, z, n = VADD.args()
    with pytest.raises(LaunchError, match=r"takes 4 arguments \(x_ptr, "
                       r"y_ptr, z_ptr, n\) but 3 were given"):
        k[1](x, y, z)
    with pytest.raises(LaunchError, match="argument 2 'z_ptr' of kernel "
                       "'vadd' is a pointer, but an int is not a host"):
        k[1](x, y, 3, n)
    with pytest.raises(LaunchError, match="argument 3 'n' .* is i32 but a "
                       "floating-point value"):
        k[1](x, y, z, 2.5)
    with pytest.raises(LaunchError, match="does not fit"):
        k[1](x, y, z, 2 ** 40)
    with pytest.raises(LaunchError, match="None was given"):
        k[1](x, None, z, n)


def test_numpy_scalars_and_views_are_accepted():
    k = compile_ttir(VADD.ttir, "cpu")
    x, y, z, n = VADD.args()
    out = np.zeros(len(z) + 16, np.float32)
    view = out[16:]
    k[VADD.grid](x, y, view, np.int32(n))
    VADD.check([x, y, view, n])
    assert not out[:16].any()


def test_grid_normalization():
    assert normalize_grid(4) == (4, 1, 1)
    assert normalize_grid((4, 2)) == (4, 2, 1)
    assert normalize_grid([np.int64(3), 2, 5]) == (3, 2, 5)
    with pytest.raises(ValueError, match="1 to 3 dimensions"):
        normalize_grid(())
    with pytest.raises(ValueError, match="1 to 3 dimensions"):
        normalize_grid((1, 2, 3, 4))
    with pytest.raises(ValueError, match=">= 0"):
        normalize_grid((-1,))
    with pytest.raises(TypeError, match="ints"):
        normalize_grid((1.5,))
    with pytest.raises(TypeError, match="a grid is"):
        normalize_grid("x")


def test_empty_grid_is_a_no_op():
    k = compile_ttir(VADD.ttir, "cpu")
    x, y, z, n = VADD.args()
    z[:] = 7
    k[(0,)](x, y, z, n)
    assert (z == 7).all()


@pytest.mark.skipif(not have_ptxas(), reason="no CUDA toolkit (ptxas)")
def test_compile_for_sm90a_has_cubin():
    k = compile_ttir(VADD.ttir, "sm_90a", num_warps=4)
    assert k.metadata.target == "sm_90a"
    assert k.metadata.block_threads == 128
    assert k.asm["cubin"][:4] == b"\x7fELF"
    assert k.metadata.backend_name == "cuda"


ODD_SHAPE = """module {
  tt.func public @odd_shape(%out: !tt.ptr<i32>) {
    %r = tt.make_range {end = 48 : i32, start = 0 : i32} : tensor<48xi32>
    %base = tt.splat %out : !tt.ptr<i32> -> tensor<48x!tt.ptr<i32>>
    %ptrs = tt.addptr %base, %r : tensor<48x!tt.ptr<i32>>, tensor<48xi32>
    tt.store %ptrs, %r : tensor<48x!tt.ptr<i32>>
    tt.return
  }
}
"""


@pytest.mark.skipif(not have_ptxas(), reason="no CUDA toolkit (ptxas)")
def test_uncovered_kernel_is_an_error_unless_one_thread_is_named():
    # 48 elements: not a power of two, which the SIMT path does not cover.
    with pytest.raises(CompilationError,
                       match=r"the simt pipeline does not cover a tensor "
                             r"dimension that is not a power of two "
                             r"\('tt.make_range'\)"):
        compile_ttir(ODD_SHAPE, "sm_90a", no_cache=True)
    k = compile_ttir(ODD_SHAPE, "sm_90a", target_pipeline="one-thread",
                     no_cache=True)
    assert k.metadata.block_threads == 1
    assert k.metadata.pipeline == "one-thread"
    assert compile_ttir(VADD.ttir, "sm_90a",
                        target_pipeline="simt").metadata.pipeline == "simt"
    with pytest.raises(CompilationError, match="has no pipeline 'fast'"):
        compile_ttir(VADD.ttir, "sm_90a", target_pipeline="fast")
    with pytest.raises(TypeError, match="target_pipeline"):
        compile_ttir(VADD.ttir, "sm_90a", target_pipeline=3)


def test_target_pipeline_and_pipeline_text_do_not_mix():
    from tpx import pipeline
    text = pipeline.effective_text("cpu", [])
    with pytest.raises(CompilationError, match="targetPipeline cannot apply "
                                               "with pipelineText"):
        compile_ttir(VADD.ttir, "cpu", pipeline_text=text,
                     target_pipeline="default")


def test_out_of_resources_from_ptxas_message():
    from tpx.compiler.compiler import _compile_error
    e = _compile_error("ptxas error   : Entry function 'k' uses too much "
                       "shared data (0x40000 bytes, 0x38000 max)")
    assert isinstance(e, OutOfResources)
    assert e.required == 0x40000 and e.limit == 0x38000
    assert isinstance(_compile_error("other"), CompilationError)


def test_stages_when_the_library_has_them():
    k = compile_ttir(VADD.ttir, "cpu")
    assert set(k.asm) == {"source", "ttir", "llir", "obj"}
    assert "llvm.func" in k.asm["llir"]
    # the ttir stage's output, printed in the dialect's own syntax
    assert k.asm["ttir"] != VADD.ttir and "tt.load" in k.asm["ttir"]
    if have_ptxas():
        k = compile_ttir(VADD.ttir, "sm_90a")
        assert {"ttir", "ttgir", "llir", "ptx", "cubin"} <= set(k.asm)
        assert ".entry vadd" in k.asm["ptx"]
