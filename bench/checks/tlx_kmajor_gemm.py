import tpx as triton
import tpx.language as tl
import tpx.language.extra.tlx as tlx


@triton.jit
def kmajor_gemm(a_ptr, bt_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr,
                BK: tl.constexpr):
    """C = A @ B with B given transposed (N x K, K contiguous), read
    K-major through local_trans: the form tf32, fp8 and int8 wgmma need."""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_bufs = tlx.local_alloc((BM, BK), tlx.dtype_of(a_ptr), 2)
    b_bufs = tlx.local_alloc((BN, BK), tlx.dtype_of(bt_ptr), 2)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        s = (k // BK) % 2
        tlx.async_load(a_ptr + rm[:, None] * K + (k + rk)[None, :], a_bufs[s])
        tlx.async_load(bt_ptr + rn[:, None] * K + (k + rk)[None, :], b_bufs[s])
        tlx.async_load_commit_group()
        tlx.async_load_wait_group(0)
        acc = tlx.async_dot(a_bufs[s], tlx.local_trans(b_bufs[s]), acc)
        acc = tlx.async_dot_wait(0, acc)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


def main():
    """On a GPU: tf32 and fp8 K-major TLX dots against torch."""
    import torch
    M = N = 128
    K = 512
    for name, dtype, tol in (("tf32", torch.float32, 5e-2),
                             ("e4m3", torch.float8_e4m3fn, 5e-1)):
        a = torch.randn(M, K, device="cuda").to(dtype)
        bt = torch.randn(N, K, device="cuda").to(dtype)
        c = torch.empty(M, N, device="cuda", dtype=torch.float32)
        kmajor_gemm[(1,)](a, bt, c, K, BM=128, BN=128, BK=64, num_warps=4)
        ref = a.float() @ bt.float().t()
        err = (c - ref).abs().max().item()
        print(name, "max abs err", err, "ok" if err < tol * K ** 0.5 else
              "WRONG", flush=True)


if __name__ == "__main__":
    main()
