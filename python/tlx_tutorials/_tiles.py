"""The tile a GEMM program computes, shared by the GEMM tutorials."""

import tpx as triton
import tpx.language as tl


@triton.jit
def grouped_tile(pid, M, N, BLOCK_SIZE_M: tl.constexpr,
                 BLOCK_SIZE_N: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    """(pid_m, pid_n) of program `pid` in grouped order: GROUP_SIZE_M rows
    of tiles are swept column by column, so that they share their B
    columns in the L2 cache."""
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    return pid_m, pid_n
