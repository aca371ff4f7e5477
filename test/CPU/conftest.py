import os
import sys

# Tests import the tpxcase helper that lives next to them.
sys.path.insert(0, os.path.dirname(__file__))


import pytest  # noqa: E402

import tpxcase  # noqa: E402


@pytest.fixture(autouse=True)
def _note_cpu_only(request):
    """Tells tpxcase.check whether this test is a cpu_only one (whose
    kernels the SIMT check leaves alone)."""
    tpxcase.CURRENT_TEST_IS_CPU_ONLY = any(
        mark.name == "skipif" and
        str(mark.kwargs.get("reason", "")).startswith(tpxcase.CPU_ONLY_REASON)
        for mark in request.node.iter_markers())
    yield
    tpxcase.CURRENT_TEST_IS_CPU_ONLY = False
