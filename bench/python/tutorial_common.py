"""What the tutorial programs share: sizes, results, timing, seeding.

A program's `run(triton, device, size="full", bench=True)` returns a list of
`case(...)` dicts; the worker (worker.py) checks them against their torch
references and writes them out, compare.py puts backends side by side.
This module imports neither triton nor tpx, so it works under both.
"""

import os

# compare.py --size small sets this before a program is imported, so that
# import-time choices (autotuning configs) can shrink for the CPU.
SIZE_ENV = "TUTORIAL_SIZE"


def small():
    """True in the CPU smoke mode (small problems, few configs)."""
    return os.environ.get(SIZE_ENV, "full") == "small"


def case(name, outputs, reference, rtol, atol, ms=None, torch_ms=None,
         tolerances=None):
    """One checked result of a program.

    outputs / reference: {name: tensor}, the same keys; rtol/atol: the
    default tolerance `|out - ref| <= atol + rtol * |ref|`; tolerances:
    {name: (rtol, atol)} for outputs that need their own; ms / torch_ms:
    the program's and torch's time per call in milliseconds (None when not
    measured).
    """
    assert set(outputs) == set(reference), (sorted(outputs),
                                            sorted(reference))
    return {"name": name, "outputs": outputs, "reference": reference,
            "rtol": rtol, "atol": atol, "tolerances": dict(tolerances or {}),
            "ms": ms, "torch_ms": torch_ms}


def synchronize(device):
    import torch
    if str(device).startswith("cuda"):
        torch.cuda.synchronize()


def bench_ms(triton, fn, device, enabled=True):
    """Milliseconds per call of `fn` with the backend's do_bench (median),
    None when timing is off."""
    if not enabled:
        return None
    synchronize(device)
    if str(device).startswith("cuda"):
        return float(triton.testing.do_bench(fn, warmup=10, rep=40,
                                             return_mode="median"))
    # The CPU: fewer, longer repetitions are enough to rank programs.
    return float(triton.testing.do_bench(fn, warmup=1, rep=20,
                                         return_mode="median"))


def seeded(seed):
    """Seeds torch so that every backend's process builds equal inputs."""
    import torch
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)


def randn(shape, device, dtype, scale=1.0):
    """Normal inputs, drawn in fp32 on `device` and cast (fp16 `randn` is not
    available on every torch's CPU)."""
    import torch
    return (torch.randn(shape, device=device, dtype=torch.float32) *
            scale).to(dtype)


def sm_count(triton):
    """The device's multiprocessor count, from the backend's driver."""
    driver = triton.runtime.driver.active
    props = driver.utils.get_device_properties(driver.get_current_device())
    return int(props["multiprocessor_count"])
