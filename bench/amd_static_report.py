#!/usr/bin/env python3
"""A static report of the benchmark kernels compiled for AMD gfx950.

Nothing runs on a GPU: every benchmark kernel of bench/kernels.py (at the
block sizes and num_warps / num_stages bench/bench.py uses on the H200),
every TLX tutorial (python/tlx_tutorials, at its GFX950_CONFIG, with the
tlx plugin) and every TTIR corpus case is compiled with `tpx-compile --target gfx950`, and
the report gives, per kernel, what the hsaco's metadata says (VGPRs, AGPRs,
SGPRs, spills, scratch, LDS), the occupancy those resources allow, the
MFMA instructions of the inner loop, and llvm-mca's throughput estimate of
that loop.

The TTIR comes from tpx's own Python front end, as bench/dry_run_cpu.py
gets it without a GPU (`import triton` is tpx, bench/python/tpx_as_triton),
specialized the way Triton's runtime would for the bench's arguments
(pointers and integers divisible by 16 get `tt.divisibility = 16`, an
integer equal to 1 becomes a constant). No torch is needed.

usage: PYTHONPATH=python TPX_BUILD_DIR=$PWD/build \\
           /usr/bin/python3 bench/amd_static_report.py \\
           [--out bench/results/DATE-gfx950-static-report] [--only NAME]

Occupancy (waves per SIMD; an upper bound from the resources alone):

  gfx950 (CDNA4, MI350/MI355X) facts used:
  - a CU has 4 SIMDs; a wave has 64 lanes;
  - the VGPR file is 512 KiB per CU (ROCm "GPU specifications" table), i.e.
    512 KiB / 4 SIMDs / 64 lanes / 4 bytes = 512 registers per lane per
    SIMD, one file shared by the arch VGPRs and the AGPRs (the unified
    register file of gfx90a+, CDNA3/CDNA4 ISA guides); the code object's
    .vgpr_count (the metadata's num_regs) already counts both;
  - VGPRs are allocated in blocks of 8 and at most 8 waves are resident
    per SIMD (LLVM AMDGPU, gfx90a+: VGPR allocation granule 8, max waves
    per EU 8);
  - SGPRs: 800 per SIMD, allocated in blocks of 16 (LLVM AMDGPU, gfx8+);
  - LDS is 160 KiB per CU (ROCm "GPU specifications": gfx950 LDS 160 KiB),
    allocated in blocks of 320 dwords = 1280 bytes (LLVM AMDGPUUsage,
    GFX950: roundup(lds-size / (320 * 4))).

  waves_vgpr = min(8, floor(512 / roundup(num_regs, 8)))
  waves_sgpr = min(8, floor(800 / roundup(num_sgprs, 16)))
  wg_lds     = floor(163840 / roundup(lds_bytes, 1280))    (lds_bytes > 0)
  waves_lds  = min(8, floor(wg_lds * ceil(block_threads / 64) / 4))
               (8 when the kernel uses no LDS): the workgroups that fit in
               one CU's LDS, their waves spread over its 4 SIMDs
  occupancy  = min(waves_vgpr, waves_sgpr, waves_lds)

  lds_bytes is what a launch allocates: the code object's static LDS
  (.group_segment_fixed_size) plus the dynamic LDS tpx passes
  (`shared_memory`), which the HIP launcher passes only when the static
  size does not already cover it (lib/Runtime/HIPLauncher.cpp). Not
  modelled: workgroup slots per CU, barrier resources, scratch limits.

The inner loop: the kernel's amdgcn text is split into basic blocks
(at labels and after branches; successors from the branch targets and
fall-through), and its natural loops are found from the back edges (a
branch to a block that dominates it; a branch back in the text that is no
cycle is no loop). Of the loops with MFMAs, those containing no other loop
with MFMAs, or without MFMAs the loops containing no other loop; of those
the one with the most MFMAs, then the most instructions, is the inner
loop; its `v_mfma*` count is the MFMAs per iteration (per K-step of a dot
loop). Its instructions, without labels, directives, comments and branches,
go to `llvm-mca -mtriple=amdgcn-amd-amdhsa -mcpu=gfx950` (lines it cannot
parse are dropped and counted); a kernel without a loop reports llvm-mca
of its whole body, one iteration. llvm-mca models issue and latencies, not
memory: its cycles are no prediction of run time.
"""

import argparse
import dataclasses
import datetime
import glob
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# -- gfx950 resources (see the module docstring for the sources) ----------
WAVE_SIZE = 64
SIMDS_PER_CU = 4
MAX_WAVES_PER_SIMD = 8
VGPRS_PER_SIMD_LANE = 512
VGPR_GRANULE = 8
SGPRS_PER_SIMD = 800
SGPR_GRANULE = 16
LDS_PER_CU = 160 * 1024
LDS_GRANULE = 320 * 4

OCCUPANCY_FORMULA = (
    "waves_vgpr = min(8, floor(512 / roundup(num_regs, 8))); "
    "waves_sgpr = min(8, floor(800 / roundup(num_sgprs, 16))); "
    "waves_lds = min(8, floor(floor(163840 / roundup(lds_bytes, 1280)) "
    "* ceil(block_threads / 64) / 4)) (8 without LDS); "
    "occupancy = min(waves_vgpr, waves_sgpr, waves_lds)")

LLVM_BIN = "/usr/lib/llvm-22/bin"


def _roundup(value, granule):
    return -(-value // granule) * granule


def waves_by_vgprs(num_regs):
    """Waves per SIMD the VGPRs (arch + AGPRs, one file) allow."""
    if num_regs is None or num_regs < 0:
        return None
    regs = _roundup(max(num_regs, 1), VGPR_GRANULE)
    return min(MAX_WAVES_PER_SIMD, VGPRS_PER_SIMD_LANE // regs)


def waves_by_sgprs(num_sgprs):
    if num_sgprs is None or num_sgprs < 0:
        return None
    regs = _roundup(max(num_sgprs, 1), SGPR_GRANULE)
    return min(MAX_WAVES_PER_SIMD, SGPRS_PER_SIMD // regs)


def waves_by_lds(lds_bytes, block_threads):
    """Waves per SIMD the LDS allows: the workgroups that fit in a CU's
    160 KiB, their waves spread over the CU's 4 SIMDs."""
    if lds_bytes is None or lds_bytes < 0 or not block_threads:
        return None
    if lds_bytes == 0:
        return MAX_WAVES_PER_SIMD
    groups = LDS_PER_CU // _roundup(lds_bytes, LDS_GRANULE)
    waves_per_group = -(-block_threads // WAVE_SIZE)
    return min(MAX_WAVES_PER_SIMD,
               groups * waves_per_group // SIMDS_PER_CU)


def launch_lds_bytes(shared_memory, static_shared_memory):
    """The LDS one workgroup gets: static, plus the dynamic bytes the HIP
    launcher passes unless the static size covers them."""
    static = max(static_shared_memory or 0, 0)
    dynamic = max(shared_memory or 0, 0)
    return static if static >= dynamic else static + dynamic


def launch_problems(num_regs, lds_bytes):
    """Why a workgroup cannot be resident at all (empty when it can)."""
    problems = []
    if num_regs is not None and num_regs > VGPRS_PER_SIMD_LANE:
        problems.append("%d VGPRs > %d" % (num_regs, VGPRS_PER_SIMD_LANE))
    if lds_bytes is not None and lds_bytes > LDS_PER_CU:
        problems.append("LDS %d B > %d B (160 KiB per CU)" % (
            lds_bytes, LDS_PER_CU))
    return problems


def occupancy(num_regs, num_sgprs, lds_bytes, block_threads):
    """{'vgpr', 'sgpr', 'lds', 'waves'}: waves per SIMD by each limit and
    the least of them (None where a count is unknown)."""
    limits = {"vgpr": waves_by_vgprs(num_regs),
              "sgpr": waves_by_sgprs(num_sgprs),
              "lds": waves_by_lds(lds_bytes, block_threads)}
    known = [v for v in limits.values() if v is not None]
    limits["waves"] = min(known) if known else None
    return limits


# -- The amdgcn text -------------------------------------------------------
_LABEL = re.compile(r"^\s*([A-Za-z_.$][\w.$]*):")
_BRANCH = re.compile(r"^\s*(s_branch|s_cbranch_\w+)\s+([A-Za-z_.$][\w.$]*)")
_MFMA = re.compile(r"^\s*v_s?mfma\w*")
_NOT_FOR_MCA = re.compile(
    r"^\s*(s_branch|s_cbranch_\w+|s_setpc_b64|s_swappc_b64|s_endpgm)\b")


def strip_comment(line):
    for mark in (";", "//"):
        at = line.find(mark)
        if at >= 0:
            line = line[:at]
    return line.rstrip()


def is_instruction(line):
    text = strip_comment(line).strip()
    return bool(text) and not text.startswith(".") and not \
        _LABEL.match(text) and not text.startswith("#")


def kernel_lines(asm, kernel):
    """The lines of `kernel`'s body: from its label to its .Lfunc_end
    label (or the end of the text); all lines when there is no label."""
    lines = asm.splitlines()
    start = None
    for i, line in enumerate(lines):
        m = _LABEL.match(line)
        if m and m.group(1) == kernel:
            start = i
            break
    if start is None:
        return lines
    for j in range(start + 1, len(lines)):
        m = _LABEL.match(lines[j])
        if m and m.group(1).startswith(".Lfunc_end"):
            return lines[start:j]
    return lines[start:]


_TERMINATOR = re.compile(r"^\s*(s_branch|s_endpgm|s_setpc_b64)\b")


@dataclasses.dataclass
class Block:
    start: int                 # first line (a label's, or after a branch)
    end: int                   # one past the last line
    label: str = None
    succs: list = dataclasses.field(default_factory=list)


def basic_blocks(lines):
    """The control-flow graph of a kernel body: blocks split at labels and
    after branches; successors from branch targets and fall-through."""
    starts = {0}
    for i, line in enumerate(lines):
        if _LABEL.match(line):
            starts.add(i)
        elif _BRANCH.match(strip_comment(line)) or \
                _TERMINATOR.match(strip_comment(line)):
            starts.add(i + 1)
    starts = sorted(s for s in starts if s < len(lines))
    blocks = []
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        m = _LABEL.match(lines[start])
        blocks.append(Block(start, end, m.group(1) if m else None))
    by_label = {b.label: n for n, b in enumerate(blocks) if b.label}
    for n, block in enumerate(blocks):
        last = None
        for line in reversed(lines[block.start:block.end]):
            if is_instruction(line):
                last = strip_comment(line)
                break
        branch = _BRANCH.match(last) if last else None
        if branch and branch.group(2) in by_label:
            block.succs.append(by_label[branch.group(2)])
        ends = last is not None and (_TERMINATOR.match(last) or (
            branch and branch.group(1) == "s_branch"))
        if not ends and n + 1 < len(blocks):
            block.succs.append(n + 1)
    return blocks


def _dominators(blocks):
    count = len(blocks)
    preds = [[] for _ in blocks]
    for n, block in enumerate(blocks):
        for s in block.succs:
            preds[s].append(n)
    everything = set(range(count))
    dom = [everything] * count
    dom[0] = {0}
    changed = True
    while changed:
        changed = False
        for n in range(1, count):
            incoming = [dom[p] for p in preds[n]]
            new = (set.intersection(*incoming) if incoming else set()) | {n}
            if new != dom[n]:
                dom[n], changed = new, True
    return dom, preds


@dataclasses.dataclass
class Loop:
    label: str      # the header block's label
    header: int     # the header block
    blocks: list    # the blocks of the natural loop, in layout order
    lines: list     # their line indices, in layout order

    def contains(self, other):
        return self is not other and other.header in self.blocks and \
            other.header != self.header


def find_loops(lines):
    """Natural loops of the kernel body: for each back edge u -> h (h
    dominates u), h and every block that reaches u without passing h;
    back edges to one header make one loop."""
    blocks = basic_blocks(lines)
    if not blocks:
        return []
    dom, preds = _dominators(blocks)
    bodies = {}
    for u, block in enumerate(blocks):
        for h in block.succs:
            if h in dom[u]:
                body = bodies.setdefault(h, {h})
                work = [u]
                while work:
                    n = work.pop()
                    if n not in body:
                        body.add(n)
                        work.extend(preds[n])
    loops = []
    for h, body in sorted(bodies.items()):
        order = sorted(body)
        line_ids = [i for n in order
                    for i in range(blocks[n].start, blocks[n].end)]
        loops.append(Loop(blocks[h].label or "(line %d)" % blocks[h].start,
                          h, order, line_ids))
    return loops


def count_mfma(lines):
    return sum(1 for line in lines if _MFMA.match(strip_comment(line)))


def mfma_kinds(lines):
    """{mnemonic: count} of the MFMA instructions."""
    kinds = {}
    for line in lines:
        m = _MFMA.match(strip_comment(line))
        if m:
            name = m.group(0).strip()
            kinds[name] = kinds.get(name, 0) + 1
    return kinds


def count_instructions(lines):
    return sum(1 for line in lines if is_instruction(line))


def loop_lines(lines, loop):
    return [lines[i] for i in loop.lines]


def inner_loop(lines):
    """The innermost loop doing the MFMAs: of the loops with MFMAs, those
    containing no other loop with MFMAs; without MFMAs, the loops
    containing no other loop. Of those, the one with the most MFMAs, then
    the most instructions. None without loops."""
    loops = find_loops(lines)
    mfma = {id(a): count_mfma(loop_lines(lines, a)) for a in loops}
    pool = [a for a in loops if mfma[id(a)]] or loops
    innermost = [a for a in pool if not any(a.contains(b) for b in pool)]
    if not innermost:
        return None
    return max(innermost, key=lambda a: (
        mfma[id(a)], count_instructions(loop_lines(lines, a)), -a.header))


def mca_input(lines):
    """The instructions of `lines` as llvm-mca input: no labels,
    directives, comments or branches."""
    out = []
    for line in lines:
        if not is_instruction(line) or _NOT_FOR_MCA.match(line):
            continue
        out.append("\t" + strip_comment(line).strip())
    return out


_MCA_FIELDS = {"Iterations": ("iterations", int),
               "Instructions": ("instructions", int),
               "Total Cycles": ("total_cycles", int),
               "Block RThroughput": ("block_rthroughput", float)}


def parse_mca(text):
    """The summary of llvm-mca's report: iterations, instructions, total
    cycles, block reciprocal throughput, cycles per iteration."""
    result = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        field = _MCA_FIELDS.get(key.strip())
        if field and value.strip():
            try:
                result[field[0]] = field[1](value.strip().split()[0])
            except ValueError:
                pass
    if result.get("iterations") and "total_cycles" in result:
        result["cycles_per_iteration"] = round(
            result["total_cycles"] / result["iterations"], 2)
    return result


_MCA_ERROR_LINE = re.compile(r"^<stdin>:(\d+):\d+: error: (.*)$")


def run_mca(instructions, llvm_mca, iterations=None):
    """llvm-mca of `instructions` (lines of assembly). Lines llvm-mca cannot
    parse are dropped (and counted) and it is run again; never raises:
    failures are {'error': ...}."""
    if not llvm_mca:
        return {"error": "llvm-mca not found"}
    if not instructions:
        return {"error": "no instructions"}
    dropped = []
    lines = list(instructions)
    cmd = [llvm_mca, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx950"]
    if iterations:
        cmd.append("-iterations=%d" % iterations)
    for _ in range(8):
        try:
            done = subprocess.run(cmd, input="\n".join(lines) + "\n",
                                  capture_output=True, text=True,
                                  timeout=120)
        except (OSError, subprocess.SubprocessError) as e:
            return {"error": "llvm-mca: %s" % e}
        if done.returncode == 0:
            result = parse_mca(done.stdout)
            if not result:
                return {"error": "no summary in llvm-mca's output"}
            if dropped:
                result["dropped"] = dropped
            return result
        bad = set()
        for err in done.stderr.splitlines():
            m = _MCA_ERROR_LINE.match(err)
            if m and 0 < int(m.group(1)) <= len(lines):
                bad.add(int(m.group(1)) - 1)
        if not bad:
            first = (done.stderr.strip().splitlines() or ["(no output)"])[0]
            return {"error": "llvm-mca failed: %s" % first}
        dropped += [lines[i].strip() for i in sorted(bad)]
        lines = [x for i, x in enumerate(lines) if i not in bad]
        if not lines:
            break
    return {"error": "llvm-mca parsed none of the instructions",
            "dropped": dropped}


def analyze_asm(asm, kernel, llvm_mca):
    """Loop, MFMA and llvm-mca figures of `kernel` in the amdgcn text."""
    body = kernel_lines(asm, kernel)
    loop = inner_loop(body)
    info = {"mfma_total": count_mfma(body),
            "mfma_kinds": mfma_kinds(body),
            "instructions_total": count_instructions(body)}
    if loop is None:
        info.update(loop=None, mfma_per_iteration=None,
                    mca_scope="kernel (no loop)")
        info["mca"] = run_mca(mca_input(body), llvm_mca, iterations=1)
        return info
    loop_body = loop_lines(body, loop)
    info["loop"] = {"label": loop.label,
                    "instructions": count_instructions(loop_body),
                    "blocks": len(loop.blocks)}
    info["mfma_per_iteration"] = count_mfma(loop_body)
    info["mca_scope"] = "loop %s" % loop.label
    info["mca"] = run_mca(mca_input(loop_body), llvm_mca)
    return info


# -- The benchmark kernels (bench/bench.py's H200 configurations) ---------
@dataclasses.dataclass
class BenchKernel:
    name: str
    rows: str             # the bench.py rows this specialization serves
    kernel: str           # the function in bench/kernels.py
    args: dict            # runtime arguments: "*type" pointers, ints, floats
    constexprs: dict
    num_warps: int = 4
    num_stages: int = 3


_MATMUL_TILE = dict(BM=128, BN=128, BK=64, GROUP=8)


def bench_kernels():
    """One entry per distinct TTIR the bench compiles (the sizes of a row
    change the TTIR only through specialization: every bench size is a
    multiple of 16, so e.g. all bf16 matmul rows share one kernel)."""
    p32 = "*fp32"
    out = [BenchKernel("vector_add", "vector_add f32 n=2^28", "vector_add",
                       dict(x_ptr=p32, y_ptr=p32, out_ptr=p32, n=1 << 28),
                       dict(BLOCK=1024))]
    for cols in (4096, 16384):
        out.append(BenchKernel(
            "softmax_%d" % cols, "softmax f32 4096x%d" % cols, "softmax",
            dict(out_ptr=p32, in_ptr=p32, stride=cols, n_cols=cols),
            dict(BLOCK=cols), num_warps=8))
    for cols in (4096, 16384):
        out.append(BenchKernel(
            "layernorm_%d" % cols, "layernorm f32 4096x%d" % cols,
            "layernorm",
            dict(x_ptr=p32, y_ptr=p32, w_ptr=p32, b_ptr=p32, stride=cols,
                 n_cols=cols, eps=1e-5),
            dict(BLOCK=cols), num_warps=8))
    for dtype, rows in (("bf16", "matmul bf16 2048^3, 4096^3, 8192^3, "
                                 "8192x8192x512, 16384x16384x1024"),
                        ("fp16", "matmul fp16 4096^3")):
        ptr = "*" + dtype
        out.append(BenchKernel(
            "matmul_%s" % dtype, rows, "matmul",
            dict(a_ptr=ptr, b_ptr=ptr, c_ptr=ptr, M=4096, N=4096, K=4096,
                 stride_am=4096, stride_bk=4096, stride_cm=4096),
            dict(_MATMUL_TILE), num_warps=8))
    # B column-major: stride_bk = 1 (a constant), stride_bn = K.
    out.append(BenchKernel(
        "matmul_fp8", "matmul fp8e4m3 4096^3, 8192^3", "matmul_strided",
        dict(a_ptr="*fp8e4nv", b_ptr="*fp8e4nv", c_ptr="*bf16", M=4096,
             N=4096, K=4096, stride_am=4096, stride_bk=1, stride_bn=4096,
             stride_cm=4096),
        dict(_MATMUL_TILE), num_warps=8))
    for d, seqs in ((64, "1024, 8192"), (128, "4096, 8192")):
        for causal in (False, True):
            out.append(BenchKernel(
                "attention_d%d%s" % (d, "_causal" if causal else ""),
                "attention fwd bf16 D=%d seq=%s%s" % (
                    d, seqs, " causal" if causal else ""),
                "attention",
                dict(Q="*bf16", K="*bf16", V="*bf16", O="*bf16",
                     sm_scale=1.0 / math.sqrt(d), stride_s=d, N_CTX=8192),
                dict(BLOCK_M=128, BLOCK_N=64, D=d, CAUSAL=causal),
                num_warps=8))
    out += [
        BenchKernel("complex_mul", "op join/split complex mul f32 n=2^25",
                    "complex_mul", dict(x_ptr=p32, y_ptr=p32, out_ptr=p32),
                    dict(BLOCK=1024)),
        BenchKernel("row_gather", "op gather f32 16384x1024", "row_gather",
                    dict(x_ptr=p32, idx_ptr="*i32", out_ptr=p32),
                    dict(BLOCK=1024)),
        BenchKernel("histogram", "op histogram i32 n=2^26 256 bins",
                    "histogram", dict(x_ptr="*i32", bins_ptr="*i32"),
                    dict(BLOCK=4096, BINS=256)),
        BenchKernel("cast_to_fp8", "op fp8 cast f32->e4m3 n=2^28",
                    "cast_to_fp8",
                    dict(x_ptr=p32, out_ptr="*fp8e4nv", n=1 << 28),
                    dict(BLOCK=1024)),
        BenchKernel("cast_from_fp8", "op fp8 cast e4m3->f16 n=2^28",
                    "cast_from_fp8",
                    dict(x_ptr="*fp8e4nv", out_ptr="*fp16", n=1 << 28),
                    dict(BLOCK=1024)),
        BenchKernel("matmul_mxfp8", "op dot_scaled mxfp8 4096^3",
                    "matmul_mxfp8",
                    dict(a_ptr="*fp8e4nv", as_ptr="*u8", b_ptr="*fp8e4nv",
                         bs_ptr="*u8", c_ptr="*bf16", M=4096, N=4096,
                         K=4096),
                    dict(BM=128, BN=128, BK=128), num_warps=8),
        BenchKernel("batched_dot", "op 3-D dot f32 65536x16x16x16",
                    "batched_dot", dict(a_ptr=p32, b_ptr=p32, c_ptr=p32),
                    dict(BB=8, M=16, N=16, K=16)),
    ]
    return out


@dataclasses.dataclass
class TLXKernel:
    name: str
    module: str           # python/tlx_tutorials/<module>.py
    kernel: str
    args: dict            # as BenchKernel.args; descriptors as signatures
    constexprs: dict      # beyond the tutorial's GFX950_CONFIG


def _desc(dtype, block):
    return "tensordesc<%s[%d, %d],div16>" % (dtype, block[0], block[1])


def tlx_kernels(tutorials):
    """Every TLX tutorial at its GFX950_CONFIG, on 4096-sized fp16
    problems (attention: 8192 tokens, D = 64), specialized as the launcher
    would for row-major tensors (descriptors from the host)."""
    n = 4096
    out = []
    for module, kernel in (("gemm_pipelined", "matmul_kernel_pipelined"),
                           ("gemm_tma", "matmul_kernel_tma"),
                           ("gemm_ws", "matmul_kernel_tma_ws"),
                           ("gemm_pingpong", "matmul_kernel_pingpong")):
        config = getattr(tutorials, module).GFX950_CONFIG
        bm, bn, bk = (config["BLOCK_SIZE_M"], config["BLOCK_SIZE_N"],
                      config["BLOCK_SIZE_K"])
        if module == "gemm_pipelined":
            args = dict(a_ptr="*fp16", b_ptr="*fp16", c_ptr="*fp16", M=n, N=n,
                        K=n, stride_am=n, stride_ak=1, stride_bk=n,
                        stride_bn=1, stride_cm=n, stride_cn=1)
        elif module == "gemm_tma":
            args = dict(a_desc=_desc("fp16", (bm, bk)),
                        b_desc=_desc("fp16", (bk, bn)),
                        c_desc=_desc("fp16", (bm, bn)), M=n, N=n, K=n)
        else:
            args = dict(a_desc=_desc("fp16", (bm, bk)),
                        b_desc=_desc("fp16", (bk, bn)), c_ptr="*fp16", M=n,
                        N=n, K=n, stride_cm=n, stride_cn=1)
        out.append(TLXKernel("tlx_" + module, module, kernel, args, {}))
    for module, kernel in (("attention_pipelined", "attention_fwd_pipelined"),
                           ("attention_ws", "attention_fwd_ws")):
        config = getattr(tutorials, module).GFX950_CONFIG
        for causal in (False, True):
            if module == "attention_pipelined":
                args = dict(Q="*fp16", K="*fp16", V="*fp16", O="*fp16")
            else:
                args = dict(q_desc=_desc("fp16", (config["BLOCK_M"], 64)),
                            k_desc=_desc("fp16", (config["BLOCK_N"], 64)),
                            v_desc=_desc("fp16", (config["BLOCK_N"], 64)),
                            o_ptr="*fp16")
            args.update(sm_scale=0.125, N_CTX=8192)
            out.append(TLXKernel(
                "tlx_%s_d64%s" % (module, "_causal" if causal else ""),
                module, kernel, args, dict(D=64, CAUSAL=causal)))
    return out


def tlx_ttir(entry, tutorials):
    """(TTIR, num_warps, num_stages) of a TLX tutorial kernel."""
    from tpx.compiler.frontend import compile_to_ttir
    from tpx.compiler.spec import CompileSpec
    module = getattr(tutorials, entry.module)
    constexprs = dict(module.GFX950_CONFIG)
    num_warps = constexprs.pop("num_warps")
    constexprs.update(entry.constexprs)
    jit_fn = getattr(module, entry.kernel)
    spec = CompileSpec(target="gfx950", num_warps=num_warps,
                       num_stages=constexprs["NUM_STAGES"])
    text = compile_to_ttir(jit_fn, arg_specs(jit_fn, entry.args, constexprs),
                           spec)
    return text, num_warps, constexprs["NUM_STAGES"]


def import_tlx_tutorials():
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import tlx_tutorials
    import importlib
    for name in ("gemm_pipelined", "gemm_tma", "gemm_ws", "gemm_pingpong",
                 "attention_pipelined", "attention_ws"):
        importlib.import_module("tlx_tutorials." + name)
    return tlx_tutorials


def arg_specs(jit_fn, args, constexprs):
    """ArgSpecs as Triton's runtime specializes: pointers (16-byte aligned
    allocations) and integers divisible by 16 get divisibility 16; an
    integer equal to 1 is a constant."""
    from tpx.compiler.spec import ArgSpec
    specs = []
    for param in jit_fn.params:
        name = param.name
        if param.is_constexpr:
            specs.append(ArgSpec(name, "constexpr", constexprs[name]))
            continue
        value = args[name]
        if isinstance(value, str):
            # "*fp16" pointers and "tensordesc<...>" host descriptors: both
            # 16-byte aligned (a descriptor's base, as TensorDescriptor
            # checks).
            specs.append(ArgSpec(name, value, divisibility=16))
        elif isinstance(value, bool):
            specs.append(ArgSpec(name, "i1"))
        elif isinstance(value, int):
            if value == 1:
                specs.append(ArgSpec(name, "constexpr", 1))
            else:
                kind = "i32" if -2**31 <= value < 2**31 else "i64"
                specs.append(ArgSpec(name, kind, divisibility=16
                                     if value % 16 == 0 else None))
        elif isinstance(value, float):
            specs.append(ArgSpec(name, "fp32"))
        else:
            raise TypeError("%s: unsupported argument %r" % (name, value))
    return specs


def bench_ttir(entry, kernels_module):
    from tpx.compiler.frontend import compile_to_ttir
    from tpx.compiler.spec import CompileSpec
    jit_fn = getattr(kernels_module, entry.kernel)
    spec = CompileSpec(target="gfx950", num_warps=entry.num_warps,
                       num_stages=entry.num_stages)
    return compile_to_ttir(jit_fn, arg_specs(jit_fn, entry.args,
                                             entry.constexprs), spec)


def import_bench_kernels():
    """bench/kernels.py with `triton` resolving to tpx."""
    sys.path.insert(0, os.path.join(HERE, "python"))
    import tpx_as_triton
    tpx_as_triton.install()
    sys.path.insert(0, HERE)
    import kernels
    return kernels


# -- Compiling --------------------------------------------------------------
def first_line(text):
    for line in (text or "").splitlines():
        if line.strip():
            return line.strip()
    return "(no message)"


def compiler_error(stderr):
    """The compiler's first error, in one line: "error: stage 'llir'
    failed:" gets the diagnostic that follows it."""
    errors = [x.strip() for x in stderr.splitlines() if "error" in x]
    if not errors:
        return first_line(stderr)
    text = errors[0]
    if text.endswith(":") and len(errors) > 1:
        text += " " + errors[1]
    return text.replace(ROOT + os.sep, "")


def compile_gfx950(tpx_compile, ttir_path, work, num_warps, num_stages,
                   plugins=()):
    """tpx-compile for gfx950: (metadata, amdgcn text); raises
    RuntimeError with the compiler's first error line."""
    dump = os.path.join(work, "dump")
    os.makedirs(dump, exist_ok=True)
    out = os.path.join(work, "kernel.hsaco")
    cmd = [tpx_compile, ttir_path, "--target", "gfx950", "--num-warps",
           str(num_warps), "--num-stages", str(num_stages), "--no-cache",
           "--dump-dir", dump, "-o", out]
    for plugin in plugins:
        cmd += ["--load-plugin", plugin]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(compiler_error(done.stderr))
    with open(out + ".json") as f:
        metadata = json.load(f)
    found = glob.glob(os.path.join(dump, "*.amdgcn"))
    asm = open(found[0]).read() if found else ""
    return metadata, asm


def resources(metadata):
    keys = ("num_regs", "num_agprs", "num_sgprs", "num_spills",
            "num_vgpr_spills", "num_sgpr_spills", "scratch_bytes",
            "shared_memory", "static_shared_memory", "block_threads",
            "num_warps", "entry_point")
    res = {k: metadata.get(k) for k in keys}
    res["lds_bytes"] = launch_lds_bytes(metadata.get("shared_memory"),
                                        metadata.get("static_shared_memory"))
    return res


def report_one(name, source, ttir_path, num_warps, num_stages, work, tools,
               rows=None, plugins=()):
    row = {"name": name, "source": source, "rows": rows,
           "num_warps": num_warps, "num_stages": num_stages}
    try:
        metadata, asm = compile_gfx950(tools["tpx-compile"], ttir_path, work,
                                       num_warps, num_stages, plugins)
    except (RuntimeError, OSError, subprocess.SubprocessError,
            ValueError) as e:
        row["error"] = first_line(str(e))
        return row
    row["resources"] = resources(metadata)
    res = row["resources"]
    row["occupancy"] = occupancy(res["num_regs"], res["num_sgprs"],
                                 res["lds_bytes"], res["block_threads"])
    row["problems"] = launch_problems(res["num_regs"], res["lds_bytes"])
    row["asm"] = analyze_asm(asm, res["entry_point"] or "", tools["llvm-mca"])
    return row


# -- The report -------------------------------------------------------------
def _cell(value):
    return "n/a" if value is None else str(value)


def markdown_row(row):
    if "error" in row:
        return "| %s | %s | %d | - | - | - | - | - | - | - | - | - | - " \
               "| - | compile failed: `%s` |" % (
                   row["name"], row["source"], row["num_warps"],
                   row["error"].replace("|", "\\|"))
    res, occ, asm = row["resources"], row["occupancy"], row["asm"]
    mca = asm["mca"]
    if "error" in mca:
        mca_text = "%s: %s" % (asm["mca_scope"], mca["error"])
        rthroughput = cycles = "-"
    else:
        mca_text = asm["mca_scope"]
        if mca.get("dropped"):
            mca_text += " (%d unparsed dropped)" % len(mca["dropped"])
        rthroughput = _cell(mca.get("block_rthroughput"))
        cycles = _cell(mca.get("cycles_per_iteration"))
    loop = asm["loop"]
    loop_text = "%s (%d instr)" % (loop["label"], loop["instructions"]) \
        if loop else "none"
    mfma = asm["mfma_per_iteration"]
    mfma_text = "n/a" if not asm["mfma_total"] else \
        "%s (total %d)" % (_cell(mfma), asm["mfma_total"])
    return ("| %s | %s | %d/%s | %s | %s | %s | %s/%s | %s | %s | "
            "%s (V %s, S %s, L %s) | %s | %s | %s | %s | %s |" % (
                row["name"], row["source"], row["num_warps"],
                _cell(res["block_threads"]), _cell(res["num_regs"]),
                _cell(res["num_agprs"]), _cell(res["num_sgprs"]),
                _cell(res["num_vgpr_spills"]), _cell(res["num_sgpr_spills"]),
                _cell(res["scratch_bytes"]), _cell(res["lds_bytes"]),
                _cell(occ["waves"]), _cell(occ["vgpr"]), _cell(occ["sgpr"]),
                _cell(occ["lds"]), loop_text, mfma_text, rthroughput,
                cycles, mca_text))


HEADER = ("| kernel | source | warps/threads | VGPR | AGPR | SGPR "
          "| spills V/S | scratch B | LDS B | waves/SIMD (limits) "
          "| inner loop | MFMA/iter | mca RThroughput | mca cycles/iter "
          "| mca scope |\n" + "|---" * 15 + "|")


def markdown(report):
    lines = [
        "# gfx950 static report of the benchmark kernels",
        "",
        "- date: %s" % report["date"],
        "- machine: %s, compiled with tpx %s (`%s`, built %s)" % (
            report["machine"], report["tpx_rev"],
            os.path.relpath(report["tools"]["tpx-compile"], ROOT),
            report["tpx_compile_built"]),
        "- **Nothing was run on hardware**: every figure is from the "
        "compiler's output (the hsaco's metadata note and the amdgcn "
        "text) and from llvm-mca's static model.",
        "- tools: %s" % ", ".join("%s `%s`" % (k, v or "not found")
                                  for k, v in report["tools"].items()),
        "- kernels: bench/kernels.py at bench/bench.py's H200 configurations "
        "(block sizes, num_warps, num_stages; TTIR from tpx's front end, "
        "specialized as Triton would for the bench's arguments), the TLX "
        "tutorials (python/tlx_tutorials, source `tlx`) at their "
        "GFX950_CONFIG through the tlx plugin, and the "
        "TTIR corpus cases (num_warps/num_stages of their case.json). On "
        "gfx950 a warp of num_warps is a 64-lane wave: block_threads = "
        "64 * num_warps (warp-specialized TLX kernels: their tasks' "
        "waves).",
        "",
        "Columns: VGPR = the code object's `.vgpr_count` (arch VGPRs rounded "
        "to 4 plus AGPRs, one register file on gfx950); spills in registers "
        "(VGPR to scratch / SGPR to VGPR lanes); LDS = static + dynamic "
        "bytes a launch allocates; waves/SIMD = the occupancy the "
        "resources allow (upper bound), with the VGPR, SGPR and LDS "
        "limits; inner loop = the innermost natural loop of the amdgcn "
        "control-flow graph doing the most MFMAs (header label, its "
        "instructions); MFMA/iter = "
        "`v_mfma*` in it (per K-step of a dot loop), n/a without MFMA; "
        "mca = `llvm-mca -mtriple=amdgcn-amd-amdhsa -mcpu=gfx950` of that "
        "loop's instructions without labels, directives and branches "
        "(kernels without a loop: the whole body, 1 iteration). llvm-mca's "
        "AMDGPU model has dispatch width 1 and no memory model: its "
        "cycles rank instruction streams, they do not predict run time.",
        "",
        "Occupancy formula (gfx950 / CDNA4: 4 SIMDs per CU; 512 KiB VGPR "
        "file per CU = 512 VGPRs per lane per SIMD in wave64, shared by "
        "VGPRs and AGPRs; VGPR granule 8; at most 8 waves per SIMD; 800 "
        "SGPRs per SIMD, granule 16; LDS 160 KiB per CU, granule 1280 "
        "bytes — ROCm's GPU specifications table for MI350X/MI355X, the "
        "CDNA3/CDNA4 ISA guides' unified VGPR/AccVGPR file, LLVM "
        "AMDGPUUsage and AMDGPUBaseInfo for the granules and limits):",
        "",
        "    " + OCCUPANCY_FORMULA.replace("; ", "\n    "),
        "",
        HEADER,
    ]
    lines += [markdown_row(row) for row in report["kernels"]]
    failed = [row for row in report["kernels"] if "error" in row]
    lines += ["", "%d kernels, %d compiled for gfx950, %d failed%s" % (
        len(report["kernels"]), len(report["kernels"]) - len(failed),
        len(failed), ":" if failed else ".")]
    lines += ["- %s: `%s`" % (row["name"], row["error"]) for row in failed]
    stuck = [row for row in report["kernels"] if row.get("problems")]
    if stuck:
        lines += ["", "Compiled, but no workgroup fits a CU (occupancy 0):",
                  ""]
        lines += ["- %s: %s" % (row["name"], "; ".join(row["problems"]))
                  for row in stuck]
    spilled = [row for row in report["kernels"] if "resources" in row and (
        row["resources"]["num_vgpr_spills"] or
        row["resources"]["num_sgpr_spills"])]
    if spilled:
        lines += ["", "Spills:", ""]
        lines += ["- %s: %s VGPRs (%s bytes of scratch per lane), %s SGPRs "
                  "(to VGPR lanes), at %s VGPRs, %s threads per block" % (
                      row["name"], row["resources"]["num_vgpr_spills"],
                      row["resources"]["scratch_bytes"],
                      row["resources"]["num_sgpr_spills"],
                      row["resources"]["num_regs"],
                      row["resources"]["block_threads"])
                  for row in spilled]
    kinds = [row for row in report["kernels"]
             if row.get("asm", {}).get("mfma_kinds")]
    if kinds:
        lines += ["", "MFMA instructions (whole kernel):", ""]
        lines += ["- %s: %s" % (row["name"], ", ".join(
            "%d x `%s`" % (n, k) for k, n in sorted(
                row["asm"]["mfma_kinds"].items()))) for row in kinds]
    rows = [row for row in report["kernels"] if row.get("rows")]
    if rows:
        lines += ["", "Bench rows per benchmark kernel:", ""]
        lines += ["- %s: %s" % (row["name"], row["rows"]) for row in rows]
    return "\n".join(lines) + "\n"


def _git_rev():
    try:
        rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short",
                              "HEAD"], capture_output=True, text=True,
                             timeout=30).stdout.strip()
        dirty = subprocess.run(
            ["git", "--no-optional-locks", "-C", ROOT, "status",
             "--porcelain", "--untracked-files=no"],
            capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    if not rev:
        return "unknown"
    return rev + (" + uncommitted changes" if dirty else "")


def _tool(name, build_dir):
    if name == "tpx-compile":
        path = os.path.join(build_dir, "bin", "tpx-compile")
        return path if os.access(path, os.X_OK) else None
    path = os.path.join(LLVM_BIN, name)
    if os.access(path, os.X_OK):
        return path
    return shutil.which(name + "-22") or shutil.which(name)


def _corpus_cases(corpus):
    for case in sorted(glob.glob(os.path.join(corpus, "*", "kernel.ttir"))):
        folder = os.path.dirname(case)
        try:
            with open(os.path.join(folder, "case.json")) as f:
                meta = json.load(f)
        except (OSError, ValueError):
            meta = {}
        yield (os.path.basename(folder), case, meta.get("num_warps", 4),
               meta.get("num_stages", 3))


def _report_python_kernel(report, tmp, tools, name, source, rows, make_ttir,
                          launch, plugins=()):
    """Appends the row of a kernel whose TTIR comes from tpx's front end:
    `make_ttir()` gives (TTIR, num_warps, num_stages); its errors (any
    kind) are the row's, with `launch` = (num_warps, num_stages) as far as
    known."""
    work = os.path.join(tmp, name)
    os.makedirs(work)
    ttir_path = os.path.join(work, "kernel.ttir")
    try:
        text, warps, stages = make_ttir()
        with open(ttir_path, "w") as f:
            f.write(text)
    except Exception as e:  # the front end's errors, any kind
        report["kernels"].append({
            "name": name, "source": source, "rows": rows,
            "num_warps": launch[0], "num_stages": launch[1],
            "error": "front end: " + first_line(
                "%s: %s" % (type(e).__name__, e))})
        return
    report["kernels"].append(report_one(name, source, ttir_path, warps,
                                        stages, work, tools, rows=rows,
                                        plugins=plugins))
    print("%-6s %-22s %s" % (source, name, "error" if "error" in
                             report["kernels"][-1] else "ok"),
          file=sys.stderr)


def build_report(opts):
    build_dir = os.environ.get("TPX_BUILD_DIR", os.path.join(ROOT, "build"))
    tools = {name: _tool(name, build_dir)
             for name in ("tpx-compile", "llvm-mca")}
    if not tools["tpx-compile"]:
        sys.exit("amd_static_report: no tpx-compile in %s/bin (set "
                 "TPX_BUILD_DIR)" % build_dir)
    report = {"date": opts.date, "target": "gfx950",
              "machine": "CPU-only Debian 12 (no AMD GPU)",
              "tpx_rev": _git_rev(), "tools": tools,
              "tpx_compile_built": datetime.datetime.fromtimestamp(
                  os.path.getmtime(tools["tpx-compile"])).strftime(
                      "%Y-%m-%d %H:%M"),
              "hardware_run": False,
              "occupancy_formula": OCCUPANCY_FORMULA, "kernels": []}
    kernels = import_bench_kernels()
    with tempfile.TemporaryDirectory(prefix="amd-static-") as tmp:
        for entry in bench_kernels():
            if not opts.only or opts.only in entry.name:
                _report_python_kernel(
                    report, tmp, tools, entry.name, "bench", entry.rows,
                    lambda entry=entry: (bench_ttir(entry, kernels),
                                         entry.num_warps, entry.num_stages),
                    (entry.num_warps, entry.num_stages))
        tutorials = import_tlx_tutorials()
        tlx_plugin = os.path.join(build_dir, "plugins", "tlx", "TpxTLX.so")
        for entry in tlx_kernels(tutorials):
            if not opts.only or opts.only in entry.name:
                _report_python_kernel(
                    report, tmp, tools, entry.name, "tlx",
                    "python/tlx_tutorials/%s.py at GFX950_CONFIG" %
                    entry.module,
                    lambda entry=entry: tlx_ttir(entry, tutorials),
                    (None, None), plugins=[tlx_plugin])
        for name, path, warps, stages in _corpus_cases(opts.corpus):
            if opts.only and opts.only not in name:
                continue
            work = os.path.join(tmp, "corpus-" + name)
            os.makedirs(work)
            report["kernels"].append(report_one(
                name, "corpus", path, warps, stages, work, tools))
            print("corpus %-22s %s" % (name, "error" if "error" in
                                       report["kernels"][-1] else "ok"),
                  file=sys.stderr)
    return report


def _parse_args(argv):
    today = datetime.date.today().isoformat()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.path.join(
        HERE, "results", "%s-gfx950-static-report" % today),
        help="output path without suffix: writes OUT.md and OUT.json")
    parser.add_argument("--date", default=today)
    parser.add_argument("--corpus", default=os.environ.get(
        "TPX_CORPUS_DIR", os.path.join(ROOT, "..", "shared", "ttir-corpus")))
    parser.add_argument("--only", help="only kernels whose name has this")
    return parser.parse_args(argv)


def main(argv=None):
    opts = _parse_args(argv)
    report = build_report(opts)
    with open(opts.out + ".json", "w") as f:
        json.dump(report, f, indent=2, sort_keys=True)
        f.write("\n")
    text = markdown(report)
    with open(opts.out + ".md", "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
