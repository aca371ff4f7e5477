"""bench/amd_static_report.py's pure parts on synthetic amdgcn text: the
control-flow graph and its loops, the MFMA count of the inner loop, the
llvm-mca input and summary, and the gfx950 occupancy formula."""

import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "bench"))
import amd_static_report as report  # noqa: E402

# A kernel shaped like the AMDGPU backend's output for a dot: a prologue, a
# rotated K loop (entered by a branch to its header, which the latch jumps
# back to) whose body holds a conditional load and 2 MFMAs, an epilogue
# with an MFMA of its own, and a branch back to a label that is no loop
# (.LBB0_5 only jumps forward again).
KERNEL = """\
\t.text
\t.globl\tk
k:
\ts_load_dwordx4 s[0:3], s[0:1], 0x0
\ts_mov_b32 s4, 0
\ts_branch .LBB0_2
.LBB0_1:                                ; the loop's second half
\tv_mfma_f32_32x32x16_f16 v[0:15], v[16:19], v[20:23], v[0:15]
\tv_mfma_f32_32x32x16_f16 v[0:15], v[24:27], v[28:31], v[0:15]
\ts_add_i32 s4, s4, 1
\ts_cmp_lg_u32 s4, 8
\ts_cbranch_scc0 .LBB0_4
.LBB0_2:                                ; header
\ts_and_saveexec_b64 s[6:7], vcc
\ts_cbranch_execz .LBB0_3
\tglobal_load_dwordx4 v[16:19], v[32:33], off
.LBB0_3:
\ts_or_b64 exec, exec, s[6:7]
\ts_branch .LBB0_1
.LBB0_4:
\ts_cbranch_vccnz .LBB0_6
.LBB0_5:
\tv_mfma_f32_32x32x16_f16 v[0:15], v[16:19], v[20:23], v[0:15]
\ts_branch .LBB0_7
.LBB0_6:
\tv_mov_b32_e32 v0, 0
\ts_cbranch_scc1 .LBB0_5
.LBB0_7:
\tglobal_store_dwordx4 v[32:33], v[0:3], off
\ts_endpgm
.Lfunc_end0:
\t.size\tk, .Lfunc_end0-k
"""

# Two nested loops: the inner one (.LBB1_2) is the inner loop.
NESTED = """\
n:
\ts_mov_b32 s0, 0
.LBB1_1:
\ts_mov_b32 s1, 0
.LBB1_2:
\tv_add_f32_e32 v0, v0, v1
\ts_add_i32 s1, s1, 1
\ts_cmp_lg_u32 s1, 4
\ts_cbranch_scc1 .LBB1_2
\ts_add_i32 s0, s0, 1
\ts_cmp_lg_u32 s0, 4
\ts_cbranch_scc1 .LBB1_1
\ts_endpgm
"""


def body(text, name):
    return report.kernel_lines(text, name)


def test_kernel_lines_stop_at_function_end():
    lines = body(KERNEL, "k")
    assert lines[0] == "k:"
    assert lines[-1].strip() == "s_endpgm"


def test_only_real_loops_are_found():
    lines = body(KERNEL, "k")
    loops = report.find_loops(lines)
    # .LBB0_6 -> .LBB0_5 goes backward in the text but is no cycle.
    assert [loop.label for loop in loops] == [".LBB0_2"]
    loop = loops[0]
    text = [lines[i].strip() for i in loop.lines]
    assert text[0].startswith(".LBB0_1:") and \
        text[-1] == "s_branch .LBB0_1"
    assert "global_load_dwordx4 v[16:19], v[32:33], off" in text


def test_inner_loop_mfma_count():
    lines = body(KERNEL, "k")
    loop = report.inner_loop(lines)
    assert loop.label == ".LBB0_2"
    assert report.count_mfma(report.loop_lines(lines, loop)) == 2
    assert report.count_mfma(lines) == 3
    assert report.mfma_kinds(lines) == {"v_mfma_f32_32x32x16_f16": 3}


def test_nested_loops_pick_the_inner_one():
    lines = body(NESTED, "n")
    assert [loop.label for loop in report.find_loops(lines)] == \
        [".LBB1_1", ".LBB1_2"]
    loop = report.inner_loop(lines)
    assert loop.label == ".LBB1_2"
    assert report.count_instructions(report.loop_lines(lines, loop)) == 4


def test_no_loop():
    lines = ["s:", "\tv_mov_b32_e32 v0, 0", "\ts_endpgm"]
    assert report.find_loops(lines) == []
    assert report.inner_loop(lines) is None


def test_mca_input_keeps_only_instructions():
    lines = body(KERNEL, "k")
    text = report.mca_input(report.loop_lines(lines, report.inner_loop(
        lines)))
    assert text[0] == "\tv_mfma_f32_32x32x16_f16 v[0:15], v[16:19], " \
        "v[20:23], v[0:15]"
    # 2 MFMAs, s_add, s_cmp, s_and_saveexec, the load, s_or: no labels,
    # comments or branches.
    assert len(text) == 7
    assert not any(x.rstrip().endswith(":") or "branch" in x or ";" in x
                   for x in text)


def test_parse_mca_summary():
    out = report.parse_mca(
        "Iterations:        100\nInstructions:      15200\n"
        "Total Cycles:      25484\nTotal uOps:        15200\n\n"
        "Dispatch Width:    1\nBlock RThroughput: 152.0\n")
    assert out == {"iterations": 100, "instructions": 15200,
                   "total_cycles": 25484, "block_rthroughput": 152.0,
                   "cycles_per_iteration": 254.84}


def test_run_mca_never_raises():
    assert "error" in report.run_mca(["\ts_nop 0"], None)
    assert "error" in report.run_mca([], "/nonexistent/llvm-mca")
    assert "error" in report.run_mca(["\ts_nop 0"], "/nonexistent/llvm-mca")


@pytest.mark.skipif(not os.access(os.path.join(report.LLVM_BIN, "llvm-mca"),
                                  os.X_OK), reason="no llvm-mca")
def test_run_mca_drops_what_it_cannot_parse():
    mca = os.path.join(report.LLVM_BIN, "llvm-mca")
    out = report.run_mca(["\tv_add_f32_e32 v0, v0, v1",
                          "\tv_no_such_instruction v0",
                          "\tv_mul_f32_e32 v2, v0, v1"], mca)
    assert out["dropped"] == ["v_no_such_instruction v0"]
    assert out["iterations"] == 100 and out["instructions"] == 200
    assert out["block_rthroughput"] > 0


def test_occupancy_by_vgprs():
    # 512 VGPRs per lane per SIMD, granule 8, at most 8 waves.
    assert report.waves_by_vgprs(0) == 8
    assert report.waves_by_vgprs(64) == 8
    assert report.waves_by_vgprs(65) == 7        # 72 -> 7
    assert report.waves_by_vgprs(128) == 4
    assert report.waves_by_vgprs(152) == 3
    assert report.waves_by_vgprs(256) == 2
    assert report.waves_by_vgprs(512) == 1
    assert report.waves_by_vgprs(513) == 0
    assert report.waves_by_vgprs(-1) is None


def test_occupancy_by_lds_and_sgprs():
    # 160 KiB per CU, granule 1280 bytes, the group's waves on 4 SIMDs.
    assert report.waves_by_lds(0, 256) == 8
    assert report.waves_by_lds(67584, 256) == 2   # 2 groups x 4 waves / 4
    assert report.waves_by_lds(16, 512) == 8      # 128 groups: capped
    assert report.waves_by_lds(71680, 512) == 4   # 2 groups x 8 waves / 4
    assert report.waves_by_lds(182272, 512) == 0  # over 160 KiB
    assert report.waves_by_lds(40960, 64) == 1    # 4 one-wave groups
    assert report.waves_by_sgprs(106) == 7        # 112 of 800
    assert report.waves_by_sgprs(31) == 8
    occ = report.occupancy(152, 31, 67584, 256)
    assert occ == {"vgpr": 3, "sgpr": 8, "lds": 2, "waves": 2}
    assert report.launch_problems(256, 182272) == [
        "LDS 182272 B > 163840 B (160 KiB per CU)"]
    assert report.launch_problems(152, 67584) == []


def test_launch_lds_bytes():
    assert report.launch_lds_bytes(67584, 0) == 67584
    assert report.launch_lds_bytes(1024, 4096) == 4096   # static covers it
    assert report.launch_lds_bytes(8192, 4096) == 12288
    assert report.launch_lds_bytes(None, None) == 0


def test_arg_specs_specialize_like_triton():
    class Param:
        def __init__(self, name, is_constexpr=False):
            self.name, self.is_constexpr = name, is_constexpr

    class Fn:
        params = [Param("p"), Param("n"), Param("one"), Param("odd"),
                  Param("eps"), Param("BLOCK", True)]
    specs = report.arg_specs(Fn, dict(p="*fp16", n=4096, one=1, odd=7,
                                      eps=1e-5), dict(BLOCK=64))
    got = [(s.name, s.type, s.value, s.divisibility) for s in specs]
    assert got == [("p", "*fp16", None, 16), ("n", "i32", None, 16),
                   ("one", "constexpr", 1, None), ("odd", "i32", None, None),
                   ("eps", "fp32", None, None),
                   ("BLOCK", "constexpr", 64, None)]
