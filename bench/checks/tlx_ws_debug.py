import faulthandler, sys, time, os, torch
faulthandler.dump_traceback_later(int(os.environ.get("T", "50")), exit=True)
sys.path.insert(0, "python")
from tlx_tutorials import gemm_ws, attention_ws
which = sys.argv[1]
t0 = time.time()
if which == "gemm":
    for dt in (torch.float16,):
        a = torch.randn(4096, 4096, device="cuda", dtype=dt); b = torch.randn(4096, 4096, device="cuda", dtype=dt)
        c = gemm_ws.matmul(a, b); torch.cuda.synchronize()
        ref = a @ b
        err = (c.float() - ref.float()).abs()
        print("gemm", dt, "maxerr", err.max().item(), "bad", (err > 1).sum().item(), time.time() - t0, flush=True)
        bad = (err > 1).nonzero()
        print(bad[:10].tolist(), flush=True)
else:
    d = int(sys.argv[2]); seq = int(sys.argv[3]); causal = sys.argv[4] == "1"
    heads = 2
    q, k, v = (torch.randn(heads, seq, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    print("launching", flush=True)
    o = attention_ws.attention(q, k, v, causal); torch.cuda.synchronize()
    ref = torch.nn.functional.scaled_dot_product_attention(q[None], k[None], v[None], is_causal=causal)[0]
    print("attn", d, seq, causal, "maxerr", (o.float() - ref.float()).abs().max().item(), time.time() - t0, flush=True)
