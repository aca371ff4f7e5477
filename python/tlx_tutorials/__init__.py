"""Kernels written with TLX (tpx.language.extra.tlx), in the style of TLX's
Hopper tutorials. Each module has the kernel and a host function that runs
it on numpy arrays (the CPU) or torch tensors (CUDA).

- gemm_pipelined: a software-pipelined GEMM, NUM_STAGES buffers filled by
  async copies, async dots (CPU and sm_90a);
- gemm_ws: a warp-specialized, persistent GEMM: a TMA producer task feeding
  the consumer through full/empty barriers (CPU and sm_90a);
- gemm_pingpong: the same with two consumer warp groups taking the tiles
  in turn, one's epilogue beside the other's K loop (CPU and sm_90a);
- attention_pipelined: a pipelined flash-attention forward, K^T through
  local_trans (CPU and sm_90a);
- attention_ws: a warp-specialized, pipelined flash-attention forward with
  ping-pong consumer replicas, D=64/128, causal or not (CPU and sm_90a).
"""
