"""The HIP runtime path without an AMD GPU: clear errors, never a crash.

The C++ runtime decides once per process whether HIP is usable, so each
case runs in a fresh interpreter with its own TPX_HIP_LIBRARY.
"""

import ctypes.util
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "python"))
HAVE_HIP = ctypes.util.find_library("amdhip64") is not None


def _python(code, **env):
    full = dict(os.environ, PYTHONPATH=os.pathsep.join([PYTHON_DIR, HERE]))
    full.pop("TPX_HIP_LIBRARY", None)  # each test says which library
    full.update(env)
    result = subprocess.run([sys.executable, "-c", code], env=full,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


ASK = ("from tpx.runtime import hip\n"
       "try:\n    print('ARCH', hip.device_arch())\n"
       "except Exception as e:\n    print(type(e).__name__, e)\n"
       "print('PROBE', hip.probe()[0])\n")


def test_a_named_library_that_is_missing_is_named():
    out = _python(ASK, TPX_HIP_LIBRARY="/nonexistent/libamdhip64.so")
    first, probe = out.splitlines()
    assert first.startswith(
        "HipError no AMD GPU runtime: /nonexistent/libamdhip64.so not found "
        "(named by TPX_HIP_LIBRARY: "), first
    assert probe == "PROBE False"


@pytest.mark.skipif(HAVE_HIP, reason="ROCm is installed here")
def test_without_rocm_the_default_lookup_fails_clearly():
    out = _python(ASK)
    first = out.splitlines()[0]
    assert first.startswith(
        "HipError no AMD GPU runtime: libamdhip64.so not found (set "
        "TPX_HIP_LIBRARY to its path; tried libamdhip64.so: "), first
    assert "libamdhip64.so.6: " in first and "libamdhip64.so.5: " in first


def test_hip_error_is_a_tpx_error():
    from tpx.errors import TpxError
    from tpx.runtime.hip import HipError
    assert issubclass(HipError, TpxError)


# Compiles vadd for gfx950 and launches it with numpy arrays.
LAUNCH = """
import runtime_corpus
from tpx.compiler.compiler import compile_ttir
case = runtime_corpus.load("vadd_f32")
k = compile_ttir(case.ttir, "gfx950", no_cache=True)
print("LAUNCHER", type(k.launcher).__name__)
try:
    k[case.grid](*case.args())
except Exception as e:
    print(type(e).__name__, e)
"""


def test_gfx_launch_without_hip_is_a_launch_error():
    import runtime_corpus
    runtime_corpus.load("vadd_f32")  # skips here when the corpus is absent
    out = _python(LAUNCH, TPX_HIP_LIBRARY="/nonexistent/libamdhip64.so")
    launcher, error = out.splitlines()
    assert launcher == "LAUNCHER HIPLauncher"
    assert error.startswith(
        "LaunchError no AMD GPU runtime: /nonexistent/libamdhip64.so not "
        "found"), error
