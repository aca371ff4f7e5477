"""The TTIR corpus, from Python: corpus_kernels.py's kernels on its inputs.

For every case folder of the corpus (`TPX_CORPUS_DIR`, default
`../shared/ttir-corpus` beside the repository) the kernel of the same name
in corpus_kernels.py runs on the case's `argN.in.bin` buffers with the
case's grid, scalars and constexprs, and every checked buffer must match
`argN.out.bin` (what stock Triton computed on an H200) within the case's
tolerances: `|got - want| <= atol + rtol * |want|`, integers exactly.

Three tests per case:

* test_corpus_frontend: the front end alone (frontend_harness: ArgSpecs ->
  TTIR -> C API compile and launch on the CPU), so a case checks the code
  generator and the language even without the runtime;
* test_corpus_launch: the user's path, `kernel[grid](*args, num_warps=...,
  num_stages=..., **constexprs)`, with numpy arrays on the CPU or, with
  TPX_TEST_TARGET=cuda, torch tensors on the GPU;
* test_corpus_ttir_signature_and_ops: the TTIR we emit has Triton's
  signature for the case (`ttir_arg_types`) and the same set of `tt.*` and
  `math.*` operations as Triton's TTIR (calls aside: Triton inlines them).
"""

import json
import os
import re

import numpy as np
import pytest

import corpus_kernels
import frontend_harness as h

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.environ.get("TPX_CORPUS_DIR") or os.path.normpath(
    os.path.join(HERE, "..", "..", "..", "shared", "ttir-corpus"))
TARGET = os.environ.get("TPX_TEST_TARGET", "cpu")

_DTYPES = {"f32": np.float32, "f16": np.float16, "f64": np.float64,
           "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
           "u8": np.uint8, "u16": np.uint16, "u32": np.uint32,
           "u64": np.uint64, "i1": np.bool_}


def _case_names():
    if not os.path.isdir(CORPUS):
        return []
    return sorted(d for d in os.listdir(CORPUS)
                  if os.path.isfile(os.path.join(CORPUS, d, "case.json")))


CASES = _case_names()
pytestmark = pytest.mark.skipif(not CASES, reason="no TTIR corpus at %s" %
                                CORPUS)


class Case:
    """One corpus case: its kernel, inputs, expected outputs, launch."""

    def __init__(self, name):
        self.name = name
        self.dir = os.path.join(CORPUS, name)
        with open(os.path.join(self.dir, "case.json")) as f:
            self.spec = json.load(f)
        self.kernel = getattr(corpus_kernels, self.spec["kernel"])
        self.grid = tuple(self.spec["grid"])
        self.constexprs = dict(self.spec.get("constexprs", {}))

    def _read(self, arg, key):
        if arg["dtype"] == "bf16":
            pytest.skip("bf16 buffers need a bf16 numpy type")
        data = np.fromfile(os.path.join(self.dir, arg[key]),
                           dtype=_DTYPES[arg["dtype"]])
        return data.reshape(arg["shape"])

    def inputs(self):
        """The launch arguments (numpy arrays and Python scalars), in the
        order of the kernel's runtime parameters."""
        values = []
        for arg in self.spec["args"]:
            if arg["kind"] == "buffer":
                values.append(self._read(arg, "input").copy())
            elif arg["type"].startswith("f"):
                values.append(float(arg["value"]))
            else:
                values.append(int(arg["value"]))
        names = [a["python_name"] for a in self.spec["args"]]
        runtime = [p.name for p in self.kernel.params
                   if p.name not in self.constexprs]
        assert names == runtime, (
            "%s: corpus_kernels.%s takes %s, the case passes %s" %
            (self.name, self.kernel.__name__, runtime, names))
        return values

    def check(self, results):
        """Compares the buffers after the launch with the expected ones."""
        failures = []
        for i, (arg, got) in enumerate(zip(self.spec["args"], results)):
            if arg["kind"] != "buffer" or "expected" not in arg:
                continue
            want = self._read(arg, "expected")
            tol = arg.get("tolerance", {"rtol": 0, "atol": 0})
            message = _mismatch(got, want, tol["rtol"], tol["atol"])
            if message:
                failures.append("arg%d (%s): %s" % (i, arg["python_name"],
                                                    message))
        assert not failures, "%s: %s" % (self.name, "; ".join(failures))


def _mismatch(got, want, rtol, atol):
    """None when `got` matches `want`, else a description of the worst
    element."""
    if got.shape != want.shape:
        return "shape %s, expected %s" % (got.shape, want.shape)
    if not np.issubdtype(want.dtype, np.floating):
        bad = got != want
        if not bad.any():
            return None
        i = np.unravel_index(np.argmax(bad), want.shape)
        return "%d of %d elements differ, first at %s: %s, expected %s" % (
            bad.sum(), bad.size, i, got[i], want[i])
    g = got.astype(np.float64)
    w = want.astype(np.float64)
    both_nan = np.isnan(g) & np.isnan(w)
    same_inf = np.isinf(w) & (g == w)
    err = np.abs(g - w)
    bad = ~(both_nan | same_inf | (err <= atol + rtol * np.abs(w)))
    if not bad.any():
        return None
    i = np.unravel_index(np.argmax(np.where(bad, np.nan_to_num(err, nan=1e30),
                                            -1)), want.shape)
    return ("%d of %d elements outside rtol=%g atol=%g; worst at %s: %r, "
            "expected %r" % (bad.sum(), bad.size, rtol, atol, i,
                             float(got[i]), float(want[i])))


@pytest.mark.parametrize("name", CASES)
def test_corpus_frontend(name):
    case = Case(name)
    args = case.inputs()
    h.run(case.kernel, case.grid, *args, **case.constexprs)
    case.check(args)


def _to_device(value):
    if not isinstance(value, np.ndarray) or TARGET == "cpu":
        return value
    import torch
    return torch.from_numpy(value).to("cuda")


def _to_host(value):
    if isinstance(value, np.ndarray) or not hasattr(value, "cpu"):
        return value
    return value.cpu().numpy()


@pytest.mark.parametrize("name", CASES)
def test_corpus_launch(name):
    case = Case(name)
    args = [_to_device(a) for a in case.inputs()]
    case.kernel[case.grid](*args, num_warps=case.spec["num_warps"],
                           num_stages=case.spec["num_stages"],
                           **case.constexprs)
    if TARGET != "cpu":
        import torch
        torch.cuda.synchronize()
    case.check([_to_host(a) for a in args])


# Operation names in TTIR, pretty (`tt.load %x`) or generic (`"tt.load"(`)
# form; `!tt.ptr` types and `tt.divisibility = ...` attributes are not ops.
_OP = re.compile(r'(?<![!\w.])"?((?:tt|math)\.[a-z_0-9]+(?:\.[a-z_]+)?)"?'
                 r'(?!\s*=)')
_NOT_COMPARED = {"tt.func", "tt.return", "tt.call"}


def _ops(text):
    body = "\n".join(line for line in text.splitlines()
                     if not line.startswith("#loc"))
    return set(_OP.findall(body)) - _NOT_COMPARED


def _signature(text):
    match = re.search(r"tt\.func[^\n]*", text)
    types = re.findall(r"%[\w]+\s*:\s*(!tt\.ptr<[^>]*>|[a-z0-9]+)",
                       match.group(0).split("->")[0])
    return types


@pytest.mark.parametrize("name", CASES)
def test_corpus_ttir_signature_and_ops(name):
    case = Case(name)
    ours = h.ttir(case.kernel, *case.inputs(), **case.constexprs)
    with open(os.path.join(case.dir, "kernel.ttir")) as f:
        theirs = f.read()
    # The kernel is the first function of our module.
    kernel_text = ours[ours.index("tt.func"):]
    assert re.search(r'sym_name = "%s"|@%s\(' % (case.spec["kernel"],
                                                case.spec["kernel"]),
                     kernel_text), kernel_text[:400]
    assert _generic_signature(ours) == case.spec["ttir_arg_types"]
    assert _ops(ours) == _ops(theirs), (
        "only ours: %s; only Triton's: %s" % (
            sorted(_ops(ours) - _ops(theirs)),
            sorted(_ops(theirs) - _ops(ours))))


def _generic_signature(text):
    """The argument types of the module's first tt.func, in generic form
    (`function_type = (!tt.ptr<f32>, i32) -> ()`) or pretty form."""
    match = re.search(r"function_type\s*=\s*\(([^)]*)\)", text)
    if match is None:
        return _signature(text)
    inner = match.group(1).strip()
    return [t.strip() for t in _split_types(inner)] if inner else []


def _split_types(text):
    depth, start, out = 0, 0, []
    for i, ch in enumerate(text):
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return out
