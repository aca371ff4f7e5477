"""Kernels written with TLX (tpx.language.extra.tlx), in the style of TLX's
Hopper tutorials. Each module has the kernel and a host function that runs
it on numpy arrays (the CPU) or torch tensors (CUDA).

- gemm_pipelined: a software-pipelined GEMM, NUM_STAGES buffers filled by
  async copies, async dots.
"""
