"""fp8 conversions on the SIMT path (tt.fp_to_fp through cvt), on the H200:
f32/f16/bf16 -> e4m3/e5m2 -> f32 against torch's conversions (round to
nearest even), and saturation: values past the largest finite one become
it (448 for e4m3, 57344 for e5m2) where torch gives NaN or inf.

    python3 bench/checks/fp8_conversions.py
"""

import sys

import torch

import tpx as triton
import tpx.language as tl


@triton.jit
def round_trip(x_ptr, out_ptr, N: tl.constexpr, FP8: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x.to(FP8).to(tl.float32))


def main():
    n = 4096
    failures = []
    for src in (torch.float32, torch.float16, torch.bfloat16):
        for fp8, tl_fp8, top in ((torch.float8_e4m3fn, tl.float8e4nv, 448.0),
                                 (torch.float8_e5m2, tl.float8e5, 57344.0)):
            x = (torch.randn(n, device="cuda") * 64).to(src)
            x[:4] = torch.tensor([0.0, -0.0, 1e30 if src != torch.float16
                                  else 60000.0, float("nan")]).to(src)
            out = torch.empty(n, device="cuda", dtype=torch.float32)
            k = round_trip[(1,)](x, out, N=n, FP8=tl_fp8)
            want = x.float().clamp(-top, top).to(fp8).float()
            want[3] = float("nan")
            same = torch.equal(torch.nan_to_num(out, nan=7.0),
                               torch.nan_to_num(want, nan=7.0))
            name = "%s -> %s -> f32" % (str(src)[6:], str(fp8)[6:])
            print("%-40s %s  pipeline=%s  saturated %s" % (
                name, "PASS" if same else "FAIL", k.metadata["pipeline"],
                out[2].item()))
            if not same or k.metadata["pipeline"] != "simt":
                failures.append(name)
    if failures:
        print("FAILED: " + ", ".join(failures))
        sys.exit(1)
    print("all fp8 conversions match")


if __name__ == "__main__":
    main()
