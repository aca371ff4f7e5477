"""Corpus cases (../shared/ttir-corpus) as numpy arrays, for runtime tests.

`load(name)` reads a case: its TTIR, grid, warps/stages and one launch
argument per kernel argument (numpy arrays for buffers, Python numbers for
scalars), plus the expected outputs; `check(case, args)` compares them with
the case's tolerances.
"""

import json
import os

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.environ.get("TPX_CORPUS_DIR") or os.path.normpath(
    os.path.join(HERE, "..", "..", "..", "shared", "ttir-corpus"))
if not os.path.isdir(CORPUS):
    CORPUS = "/work/shared/ttir-corpus"

# bf16 and float8 buffers travel as their bit patterns.
_DTYPES = {
    "f64": np.float64, "f32": np.float32, "f16": np.float16,
    "bf16": np.uint16, "i64": np.int64, "i32": np.int32, "i16": np.int16,
    "i8": np.int8, "i1": np.bool_, "bool": np.bool_, "u64": np.uint64,
    "u32": np.uint32, "u16": np.uint16, "u8": np.uint8,
    "f8e4m3fn": np.uint8, "fp8e4nv": np.uint8, "f8e5m2": np.uint8,
    "fp8e5": np.uint8,
}


def names():
    if not os.path.isdir(CORPUS):
        return []
    return sorted(d for d in os.listdir(CORPUS)
                  if os.path.isfile(os.path.join(CORPUS, d, "case.json")))


class Case:
    def __init__(self, name):
        self.name = name
        self.dir = os.path.join(CORPUS, name)
        with open(os.path.join(self.dir, "case.json")) as f:
            self.json = json.load(f)
        with open(os.path.join(self.dir, "kernel.ttir")) as f:
            self.ttir = f.read()
        self.grid = tuple(self.json["grid"])
        self.num_warps = self.json.get("num_warps", 4)
        self.num_stages = self.json.get("num_stages", 3)

    def args(self):
        """Fresh launch arguments (buffers filled from the input files)."""
        out = []
        for a in self.json["args"]:
            if a["kind"] == "scalar":
                out.append(float(a["value"]) if a["type"].startswith("f")
                           else int(a["value"]))
                continue
            dtype = _DTYPES[a["dtype"]]
            data = np.fromfile(os.path.join(self.dir, a["input"]), dtype)
            out.append(data.reshape(a["shape"]) if a["shape"] else data)
        return out

    def check(self, args):
        for index, (a, got) in enumerate(zip(self.json["args"], args)):
            if a["kind"] != "buffer" or "expected" not in a:
                continue
            want = np.fromfile(os.path.join(self.dir, a["expected"]),
                               _DTYPES[a["dtype"]]).reshape(got.shape)
            tol = a.get("tolerance", {})
            if a["dtype"] == "bf16":
                got = (got.astype(np.uint32) << 16).view(np.float32)
                want = (want.astype(np.uint32) << 16).view(np.float32)
            rtol, atol = tol.get("rtol", 0), tol.get("atol", 0)
            if np.issubdtype(got.dtype, np.floating):
                np.testing.assert_allclose(
                    got.astype(np.float64), want.astype(np.float64),
                    rtol=rtol, atol=atol, equal_nan=True,
                    err_msg="%s: buffer %d" % (self.name, index))
            else:
                np.testing.assert_array_equal(
                    got, want, err_msg="%s: buffer %d" % (self.name, index))


def load(name):
    if not os.path.isdir(os.path.join(CORPUS, name)):
        pytest.skip("corpus case %s not found (TPX_CORPUS_DIR)" % name,
                    allow_module_level=True)
    return Case(name)
