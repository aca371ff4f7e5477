"""TMA on the H200: tensor-descriptor kernels, checked against torch and
timed beside stock Triton 3.6 running the same kernel source.

Each kernel is written once (KERNELS) and imported twice, once with
`import tpx as triton` and once with stock Triton, like a user's program
whose import lines change. The tpx kernels must have run on the SIMT path
with launcher-built tensor maps (the artifact's `tensor_maps`); every copy
is compared exactly (zero and NaN padding at the edges, out-of-bounds
stores dropped) and the matmul against torch.

    python3 bench/checks/tma_descriptors.py [--json OUT]
"""

import argparse
import importlib.util
import json
import os
import sys
import tempfile

KERNELS = '''
@triton.jit
def desc_copy(x_desc, y_desc, BM: tl.constexpr, BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    v = x_desc.load([pm * BM, pn * BN])
    y_desc.store([pm * BM, pn * BN], v)


@triton.jit
def desc_matmul(a_desc, b_desc, c_desc, K, BM: tl.constexpr,
                BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([pm * BM, k])
        b = b_desc.load([k, pn * BN])
        acc = tl.dot(a, b, acc)
    c_desc.store([pm * BM, pn * BN], acc.to(tl.float16))
'''

HEADERS = {
    "tpx": "import tpx as triton\nimport tpx.language as tl\n"
           "from tpx.tools.tensor_descriptor import TensorDescriptor\n",
    "triton": "import triton\nimport triton.language as tl\n"
              "from triton.tools.tensor_descriptor import TensorDescriptor\n",
}


def load(which, directory):
    path = os.path.join(directory, "tma_%s.py" % which)
    with open(path, "w") as f:
        f.write(HEADERS[which] + KERNELS)
    spec = importlib.util.spec_from_file_location("tma_%s" % which, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cdiv(a, b):
    return -(-a // b)


def check_copies(m, torch, results):
    """Copies of ragged tensors through descriptors: the output covers the
    whole grid of blocks, so the padding shows, and a second copy into a
    tensor of the input's shape shows that out-of-bounds stores are
    dropped."""
    cases = [  # dtype, (M, N), (BM, BN), padding
        (torch.float16, (100, 130), (64, 64), "zero"),     # 128 B rows
        (torch.float32, (70, 45), (32, 32), "nan"),        # 128 B rows
        (torch.float32, (33, 40), (16, 16), "zero"),       # 64 B rows
        (torch.bfloat16, (96, 300), (32, 128), "zero"),    # 2 boxes
        (torch.float16, (50, 24), (16, 8), "nan"),         # 16 B rows
        (torch.int8, (129, 200), (64, 64), "zero"),        # bytes
    ]
    for dtype, (M, N), (BM, BN), pad in cases:
        name = "copy %s %dx%d block %dx%d %s" % (
            str(dtype).replace("torch.", ""), M, N, BM, BN, pad)
        # Leading dimensions rounded up to 16 bytes, as TMA needs.
        width = cdiv(N * torch.tensor([], dtype=dtype).element_size(),
                     16) * 16 // torch.tensor([], dtype=dtype).element_size()
        if dtype.is_floating_point:
            xbuf = torch.randn(M, width, device="cuda").to(dtype)
        else:
            xbuf = torch.randint(-100, 100, (M, width), device="cuda",
                                 dtype=dtype)
        x = xbuf[:, :N]
        gm, gn = cdiv(M, BM), cdiv(N, BN)
        out = torch.full((gm * BM, gn * BN), 7, device="cuda", dtype=dtype)
        xd = m.TensorDescriptor(x, list(x.shape), list(x.stride()),
                                [BM, BN], padding=pad)
        od = m.TensorDescriptor.from_tensor(out, [BM, BN])
        k = m.desc_copy[(gm, gn)](xd, od, BM=BM, BN=BN)
        fill = float("nan") if pad == "nan" else 0
        want = torch.full_like(out, fill if dtype.is_floating_point else 0)
        want[:M, :N] = x
        ok = torch.equal(torch.nan_to_num(out.float(), nan=12345.0),
                         torch.nan_to_num(want.float(), nan=12345.0))
        # Back into a tensor of x's shape: only the inside is written.
        ybuf = torch.full_like(xbuf, 5)
        y = ybuf[:, :N]
        yd = m.TensorDescriptor(y, list(y.shape), list(y.stride()), [BM, BN])
        m.desc_copy[(gm, gn)](m.TensorDescriptor.from_tensor(out, [BM, BN]),
                              yd, BM=BM, BN=BN)
        ok = ok and torch.equal(y, x) and bool(
            (ybuf[:, N:] == 5).all())
        maps = len(k.metadata.get("tensor_maps") or []) if k else None
        pipeline = k.metadata.get("pipeline") if k else None
        results.append({"check": name, "ok": ok, "tensor_maps": maps,
                        "pipeline": pipeline})
        print("%-48s %s  tensor_maps=%s pipeline=%s" % (
            name, "PASS" if ok else "FAIL", maps, pipeline))


def time_ms(fn, torch, reps=50):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(reps):
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


def matmul(mods, torch, size, results):
    M = N = K = size
    BM, BN, BK = 128, 128, 64
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16)
    ref = a @ b
    row = {"check": "descriptor matmul f16 %d^3" % size}
    for which, m in mods.items():
        c = torch.empty(M, N, device="cuda", dtype=torch.float16)
        da = m.TensorDescriptor.from_tensor(a, [BM, BK])
        db = m.TensorDescriptor.from_tensor(b, [BK, BN])
        dc = m.TensorDescriptor.from_tensor(c, [BM, BN])
        grid = (M // BM, N // BN)

        def run():
            return m.desc_matmul[grid](da, db, dc, K, BM=BM, BN=BN, BK=BK,
                                       num_warps=4, num_stages=3)
        k = run()
        torch.cuda.synchronize()
        err = (c.float() - ref.float()).abs().max().item()
        ms = time_ms(run, torch)
        row[which] = {"ms": ms, "tflops": 2 * M * N * K / ms / 1e9,
                      "max_abs_err": err}
        if which == "tpx":
            row[which]["tensor_maps"] = len(k.metadata.get("tensor_maps")
                                            or [])
            row[which]["pipeline"] = k.metadata.get("pipeline")
            row[which]["regs"] = k.n_regs
    row["torch"] = {"ms": time_ms(lambda: a @ b, torch)}
    row["torch"]["tflops"] = 2 * M * N * K / row["torch"]["ms"] / 1e9
    row["ok"] = row["tpx"]["max_abs_err"] < 0.5
    if "triton" in row:
        row["tpx_vs_triton"] = row["triton"]["ms"] / row["tpx"]["ms"]
    results.append(row)
    print(json.dumps(row))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--json")
    args = parser.parse_args()
    import torch
    directory = tempfile.mkdtemp()
    mods = {"tpx": load("tpx", directory)}
    try:
        mods["triton"] = load("triton", directory)
    except ImportError as e:
        print("stock Triton not available: %s" % e)
    results = []
    check_copies(mods["tpx"], torch, results)
    for size in (1024, 4096):
        matmul(mods, torch, size, results)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    bad = [r["check"] for r in results if not r.get("ok")]
    if bad:
        print("FAILED: %s" % ", ".join(bad))
        sys.exit(1)
    print("all %d checks passed" % len(results))


if __name__ == "__main__":
    main()
