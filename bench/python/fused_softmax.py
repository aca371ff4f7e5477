"""Row softmax fused into one pass over memory.

torch's `softmax` reads the input and writes the output; a kernel that holds
a whole row in registers does the same traffic and nothing more. The
kernel is persistent: a fixed number of programs (a few per
multiprocessor, from the driver's device properties) walk the rows with a
stride, in a software-pipelined `tl.range` loop.
"""

import torch
import triton
import triton.language as tl

from tutorial_common import bench_ms, case, randn, seeded, sm_count, small


@triton.jit
def softmax_kernel(y_ptr, x_ptr, x_row_stride, y_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, NUM_STAGES: tl.constexpr):
    first_row = tl.program_id(0)
    row_step = tl.num_programs(0)
    cols = tl.arange(0, BLOCK_SIZE)
    valid = cols < n_cols
    for row in tl.range(first_row, n_rows, row_step, num_stages=NUM_STAGES):
        x = tl.load(x_ptr + row * x_row_stride + cols, mask=valid,
                    other=-float("inf"))
        # Subtracting the row maximum keeps exp() finite for any input.
        shifted = x - tl.max(x, axis=0)
        numerator = tl.exp(shifted)
        denominator = tl.sum(numerator, axis=0)
        tl.store(y_ptr + row * y_row_stride + cols, numerator / denominator,
                 mask=valid)


def softmax(x, programs_per_sm=4):
    """softmax over the last dimension of a 2-d tensor."""
    n_rows, n_cols = x.shape
    block = triton.next_power_of_2(n_cols)
    num_warps = 4 if block <= 2048 else (8 if block <= 8192 else 16)
    y = torch.empty_like(x)
    programs = max(1, min(n_rows, programs_per_sm * sm_count(triton)))
    softmax_kernel[(programs,)](y, x, x.stride(0), y.stride(0), n_rows,
                                n_cols, BLOCK_SIZE=block, NUM_STAGES=2,
                                num_warps=num_warps)
    return y


def run(triton_module, device, size="full", bench=True):
    shapes = [(37, 100), (9, 1000)] if size == "small" or small() else \
        [(4096, 1024), (4096, 4000), (1823, 781)]
    results = []
    for i, (m, n) in enumerate(shapes):
        seeded(200 + i)
        x = randn((m, n), device, torch.float32, scale=3.0)
        y = softmax(x)
        results.append(case(
            "fp32 %dx%d" % (m, n), {"y": y},
            {"y": torch.softmax(x, dim=1)}, rtol=1e-4, atol=1e-6,
            ms=bench_ms(triton_module, lambda: softmax(x), device, bench),
            torch_ms=bench_ms(triton_module,
                              lambda: torch.softmax(x, dim=1), device,
                              bench)))
    return results
