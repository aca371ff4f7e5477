"""How long the front end takes: Python AST -> TTIR text, per kernel.

Runs each tutorial-style kernel's front end (no compile) for a fixed
specialization and prints the first and the median time over repeats.
The issue's target is <= 30 ms for the matmul kernel. Run with tpx only:

    PYTHONPATH=python python3 bench/python/frontend_time.py
"""

import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import tpx_as_triton  # noqa: E402

tpx_as_triton.install()

from tpx.compiler.frontend import compile_to_ttir  # noqa: E402
from tpx.compiler.spec import ArgSpec  # noqa: E402
from tpx.runtime.autotuner import Autotuner  # noqa: E402

import matmul  # noqa: E402


def specs_for(kernel, pointers, constexprs):
    out = []
    for p in kernel.params:
        if p.is_constexpr:
            out.append(ArgSpec(p.name, "constexpr", constexprs.get(p.name)))
        elif p.name in pointers:
            out.append(ArgSpec(p.name, pointers[p.name], divisibility=16))
        else:
            out.append(ArgSpec(p.name, "i32", divisibility=16))
    return out


def unwrap(kernel):
    while isinstance(kernel, Autotuner) or hasattr(kernel, "fn") and \
            not hasattr(kernel, "params"):
        kernel = kernel.fn
    return kernel


def measure(name, kernel, specs, repeats=30):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        text = compile_to_ttir(kernel, specs)
        times.append(time.perf_counter() - start)
    ordered = sorted(times)
    print("%-22s first %6.2f ms  median %6.2f ms  (%d lines of TTIR)" % (
        name, times[0] * 1e3, ordered[len(ordered) // 2] * 1e3,
        text.count("\n")))


def main():
    mm = unwrap(matmul.matmul_kernel)
    measure("matmul 128x128x64", mm, specs_for(
        mm, {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16"},
        {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8,
         "ACTIVATION": ""}))


if __name__ == "__main__":
    main()
