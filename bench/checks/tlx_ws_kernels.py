"""Runs each warp-specialized TLX tutorial once on a small problem and
checks it against torch: the workload for compute-sanitizer (memcheck,
racecheck, synccheck) on the H200, where the benchmark sizes would take
too long under the tools.

    compute-sanitizer --tool racecheck python3 bench/checks/tlx_ws_kernels.py
"""

import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))

from tlx_tutorials import attention_ws, gemm_pingpong, gemm_ws  # noqa: E402


def check(name, out, ref, tol):
    err = (out.float() - ref.float()).abs().max().item()
    print("%s: max abs err %g %s" % (name, err, "PASS" if err < tol else
                                     "FAIL"), flush=True)
    return err < tol


def main():
    ok = True
    torch.manual_seed(0)
    for name, module, config in (
            ("gemm_ws", gemm_ws, gemm_ws.HOPPER_CONFIG),
            ("gemm_ws 2-CTA clusters", gemm_ws,
             gemm_ws.HOPPER_CLUSTER_CONFIG),
            ("gemm_pingpong", gemm_pingpong, gemm_pingpong.HOPPER_CONFIG)):
        a = torch.randn(512, 384, device="cuda", dtype=torch.float16)
        b = torch.randn(384, 768, device="cuda", dtype=torch.float16)
        config = dict(config, NUM_PROGRAMS=4)
        ok &= check(name, module.matmul(a, b, config), a @ b, 0.5)
    # Edges: M not a whole number of cluster tiles (the second CTA's rows
    # past M), N and K not whole blocks.
    a = torch.randn(300, 200, device="cuda", dtype=torch.float16)
    b = torch.randn(200, 392, device="cuda", dtype=torch.float16)
    config = dict(gemm_ws.HOPPER_CLUSTER_CONFIG, NUM_PROGRAMS=6)
    ok &= check("gemm_ws 2-CTA clusters, edges",
                gemm_ws.matmul(a, b, config), a @ b, 0.5)
    for causal in (False, True):
        q, k, v = (torch.randn(2, 512, 128, device="cuda",
                               dtype=torch.bfloat16) for _ in range(3))
        ref = torch.nn.functional.scaled_dot_product_attention(
            q[None], k[None], v[None], is_causal=causal)[0]
        ok &= check("attention_ws causal=%s" % causal,
                    attention_ws.attention(q, k, v, causal), ref, 2e-2)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
