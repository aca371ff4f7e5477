"""The tutorial-style programs of bench/python, in their CPU smoke mode.

Each program runs through `bench/python/compare.py --device cpu --backends
tpx --size small --no-bench`: in a subprocess of its own, with tpx bound to
the names `triton` / `triton.language`, on small problems, every output
checked against torch. Also: the import shim, the output checker and the
NumPy Philox that the dropout program's reference relies on.
"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
BENCH = os.path.join(ROOT, "bench", "python")
sys.path.insert(0, BENCH)

import compare  # noqa: E402
import worker  # noqa: E402


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.join(ROOT, "python"), BENCH] +
        ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    return env


@pytest.mark.parametrize("program", compare.PROGRAMS)
def test_tutorial_program_cpu(program, tmp_path):
    report = tmp_path / "report.json"
    proc = subprocess.run(
        [sys.executable, os.path.join(BENCH, "compare.py"), "--device",
         "cpu", "--backends", "tpx", "--size", "small", "--no-bench",
         "--programs", program, "--json", str(report), "--timeout", "600"],
        env=_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-6000:]
    data = json.loads(report.read_text())["programs"][program]["tpx"]
    assert "error" not in data, data["error"]
    assert data["cases"], "the program produced no cases"
    for case in data["cases"]:
        assert case["ok"], (case["name"], case["checks"])


def test_shim_binds_triton_names_to_tpx():
    code = (
        "import tpx_as_triton; tpx_as_triton.install()\n"
        "import triton, triton.language as tl, tpx, tpx.language\n"
        "from triton.runtime.jit import JITFunction\n"
        "import tpx.runtime.jit\n"
        "assert triton is tpx and tl is tpx.language\n"
        "assert JITFunction is tpx.runtime.jit.JITFunction\n"
        "assert triton.__spec__.name == 'tpx'\n"
        "try:\n"
        "    import triton.no_such_module\n"
        "except ModuleNotFoundError as e:\n"
        "    print('missing:', e.name)\n")
    proc = subprocess.run([sys.executable, "-c", code], env=_env(),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout
    assert "missing: triton.no_such_module" in proc.stdout


def test_shim_refuses_after_real_triton():
    code = (
        "import sys, types\n"
        "sys.modules['triton'] = types.ModuleType('triton')\n"
        "import tpx_as_triton\n"
        "try:\n"
        "    tpx_as_triton.install()\n"
        "except RuntimeError as e:\n"
        "    print(e)\n")
    proc = subprocess.run([sys.executable, "-c", code], env=_env(),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=120)
    assert "a real triton" in proc.stdout and "imported already" in \
        proc.stdout, proc.stdout


def test_output_check_catches_one_wrong_element():
    want = np.linspace(-1, 1, 100)
    got = want.copy()
    assert worker.mismatch(got, want, 1e-6, 0)[0]
    got[37] += 1e-3
    ok, err, what = worker.mismatch(got, want, 1e-6, 1e-6)
    assert not ok and abs(err - 1e-3) < 1e-9
    assert "1 of 100 outside" in what and "(37,)" in what
    nan = np.array([np.nan, 1.0])
    assert worker.mismatch(nan.copy(), nan, 0, 0)[0]
    assert not worker.mismatch(np.array([0.0, 1.0]), nan, 0, 1.0)[0]
    assert not worker.mismatch(np.array([3], np.int32),
                               np.array([4], np.int32), 1, 1)[0]
    assert not worker.mismatch(np.zeros(3), np.zeros(4), 0, 0)[0]


def test_numpy_philox_matches_known_answers():
    # Philox4x32-10 of counter (0, 0, 0, 0), key (0, 0): first word
    # 0x6627e8d5 (Random123's known-answer test); tl.rand maps a
    # non-negative int32 x to x * 4.6566127342e-10 in fp32.
    code = (
        "import tpx_as_triton; tpx_as_triton.install()\n"
        "import numpy as np, dropout\n"
        "u = dropout.philox_uniform(0, np.array([0]))\n"
        "want = np.float32(0x6627e8d5) * np.float32(4.6566127342e-10)\n"
        "assert u.dtype == np.float32 and u[0] == want, (u, want)\n"
        "v = dropout.philox_uniform(7, np.arange(100000))\n"
        "assert 0 <= v.min() and v.max() < 1\n"
        "assert abs(v.mean() - 0.5) < 0.01, v.mean()\n"
        "print('ok')\n")
    proc = subprocess.run([sys.executable, "-c", code], env=_env(),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=120)
    assert proc.returncode == 0 and "ok" in proc.stdout, proc.stdout


def test_compare_rejects_unknown_program():
    proc = subprocess.run(
        [sys.executable, os.path.join(BENCH, "compare.py"), "--device",
         "cpu", "--programs", "no_such_program"], env=_env(),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        timeout=120)
    assert proc.returncode == 2
    assert "unknown programs: no_such_program" in proc.stdout
