#!/usr/bin/env python3
"""tpx fuzzing harness (stdlib only).

    fuzz.py [--duration S] [--strategy S ...] [--seed N] [--jobs N]   fuzz
    fuzz.py --regressions                                              replay fuzz/regressions
    fuzz.py --replay STRATEGY:INDEX [--seed N]                         rerun one generated input

Every input is a *case*: a few files written into a fresh work folder plus
one or more command lines (tpx-opt / tpx-compile / tpx-run) run on them in a
subprocess with a timeout and an address-space limit. A *finding* is a
death by signal, an LLVM crash banner (LLVM ERROR, assertion, stack dump),
a timeout, memory exhaustion, a success where a rejection was required, or a
successful run whose artifact is obviously broken. docs/fuzzing.md has the
details; the case format is also the regression format (fuzz/regressions).
"""
import argparse
import copy
import hashlib
import json
import os
import random
import re
import resource
import shlex
import shutil
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from pathlib import Path

FUZZ_DIR = Path(__file__).resolve().parent
SRC_DIR = FUZZ_DIR.parent
INPUTS_DIR = FUZZ_DIR / "inputs"
REGRESSIONS_DIR = FUZZ_DIR / "regressions"
EXPECTED_FAILING = REGRESSIONS_DIR / "EXPECTED-FAILING.txt"
TOOLS = ("tpx-opt", "tpx-compile", "tpx-run")
OUTPUT_KEEP = 64 * 1024  # bytes of stdout/stderr kept (head and tail)


class MissingResource(Exception):
    """A case needs something this build does not have (e.g. a plugin)."""


# ---------------------------------------------------------------------------
# Environment: where the tools, plugins and corpus are
# ---------------------------------------------------------------------------
class Env:
    def __init__(self, args):
        self.build = Path(args.build or os.environ.get("TPX_BUILD_DIR") or SRC_DIR / "build").resolve()
        self.bin = Path(args.bin).resolve() if args.bin else self.build / "bin"
        corpus = args.corpus or os.environ.get("TPX_CORPUS_DIR")
        if not corpus:
            for c in (SRC_DIR.parent / "shared" / "ttir-corpus", Path("/work/shared/ttir-corpus")):
                if c.is_dir():
                    corpus = str(c)
                    break
        self.corpus = Path(corpus) if corpus else None
        self.timeout = args.timeout
        self.mem_mb = args.mem_mb
        self.verbose = args.verbose
        self.scratch = Path(tempfile.mkdtemp(prefix="tpx-fuzz-"))
        self.cache_dir = self.scratch / "tpx-cache"
        self.cache_dir.mkdir()
        self.memo_dir = self.build / "fuzz-cache"
        self.keep_work = args.keep_work
        self._counter = 0
        self._lock = threading.Lock()
        for tool in TOOLS:
            if not (self.bin / tool).exists():
                sys.exit(f"fuzz.py: {self.bin / tool} not found (build first, or pass --bin)")
        self.plugins = {}
        for root in (self.build / "plugins", self.build / "test" / "Plugin" / "Inputs"):
            if root.is_dir():
                for p in sorted(root.rglob("*.so")):
                    if p.is_file() and not p.is_symlink():
                        self.plugins.setdefault(p.stem, p)
        self.symbolizer = shutil.which("llvm-symbolizer") or (
            "/usr/lib/llvm-22/bin/llvm-symbolizer" if os.path.exists("/usr/lib/llvm-22/bin/llvm-symbolizer") else None)
        self._memo = {}

    def workdir(self):
        with self._lock:
            self._counter += 1
            n = self._counter
        d = self.scratch / f"w{n}"
        d.mkdir()
        return d

    def child_env(self, extra):
        e = {k: v for k, v in os.environ.items()
             if not k.startswith(("TRITON_", "TPX_", "LLVM_")) and k not in ("CUDA_VISIBLE_DEVICES",)}
        e["TPX_CACHE_DIR"] = str(self.cache_dir)
        if self.symbolizer:
            e["LLVM_SYMBOLIZER_PATH"] = self.symbolizer
        e.update(extra or {})
        return e

    def subst_table(self):
        return {"bin": str(self.bin), "build": str(self.build), "src": str(SRC_DIR),
                "fuzz": str(FUZZ_DIR), "inputs": str(INPUTS_DIR),
                "corpus": str(self.corpus) if self.corpus else "/nonexistent-corpus"}

    def memo(self, key, fn):
        """Memoised helper output (in memory; cheap to recompute)."""
        with self._lock:
            if key in self._memo:
                return self._memo[key]
        value = fn()
        with self._lock:
            self._memo[key] = value
        return value

    def run_quiet(self, argv, timeout=60):
        """Run a tool for the harness's own use; returns (rc, stdout bytes)."""
        argv = [str(self.bin / argv[0])] + list(argv[1:]) if argv[0] in TOOLS else argv
        try:
            p = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env=self.child_env({}), timeout=timeout,
                               cwd=self.scratch)
            return p.returncode, p.stdout
        except subprocess.TimeoutExpired:
            return -1, b""

    def cleanup(self):
        if not self.keep_work:
            shutil.rmtree(self.scratch, ignore_errors=True)


def set_limits(mem_mb):
    """Limits inherited by every child: address space, no core files, file size."""
    if mem_mb:
        lim = mem_mb * 1024 * 1024
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            lim = min(lim, hard)
        resource.setrlimit(resource.RLIMIT_AS, (lim, hard))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    fs = 2 * 1024 ** 3
    if hard == resource.RLIM_INFINITY or hard > fs:
        resource.setrlimit(resource.RLIMIT_FSIZE, (fs, hard))


# ---------------------------------------------------------------------------
# Cases: files + commands.  The same structure is saved as regression.json.
# ---------------------------------------------------------------------------
class Cmd:
    def __init__(self, argv, expect="no-crash", env=None, nocheck=False):
        self.argv = list(argv)
        self.expect = expect          # "no-crash" or "reject"
        self.env = dict(env or {})
        self.nocheck = nocheck        # skip the artifact check

    def to_json(self):
        d = {"argv": self.argv}
        if self.expect != "no-crash":
            d["expect"] = self.expect
        if self.env:
            d["env"] = self.env
        if self.nocheck:
            d["nocheck"] = True
        return d

    @staticmethod
    def from_json(d, default_expect="no-crash"):
        if isinstance(d, list):
            return Cmd(d, default_expect)
        return Cmd(d["argv"], d.get("expect", default_expect), d.get("env"), d.get("nocheck", False))


class Case:
    def __init__(self, strategy, klass, what, files=None, gen=None, cmds=None, main=None, timeout=None, tag="",
                 mem_mb=None):
        self.strategy = strategy
        self.klass = klass            # regression class folder name
        self.what = what              # human-readable description / mutation log
        self.files = dict(files or {})  # relpath -> bytes
        self.gen = dict(gen or {})    # relpath -> generator spec (see materialize)
        self.cmds = list(cmds or [])
        self.main = main              # the file %s names
        self.timeout = timeout
        self.tag = tag                # short label used when nothing better names a finding
        self.mem_mb = mem_mb          # a lower address-space limit for this case (MiB)
        self.origin = ""

    def to_json(self):
        d = {"what": self.what, "class": self.klass, "strategy": self.strategy}
        if self.origin:
            d["origin"] = self.origin
        if self.main:
            d["main"] = self.main
        if self.timeout:
            d["timeout"] = self.timeout
        if self.mem_mb:
            d["mem_mb"] = self.mem_mb
        if self.gen:
            d["generate"] = self.gen
        d["run"] = [c.to_json() for c in self.cmds]
        return d


def _subst(s, env, work, main):
    table = env.subst_table()

    def repl(m):
        key = m.group(1)
        if key.startswith("plugin:"):
            name = key[len("plugin:"):]
            if name not in env.plugins:
                raise MissingResource(f"plugin '{name}' is not built")
            return str(env.plugins[name])
        if key in table:
            return table[key]
        raise MissingResource(f"unknown substitution %{{{key}}}")
    s = re.sub(r"%\{([^}]+)\}", repl, s)
    s = s.replace("%S", str(work))
    if main:
        s = s.replace("%s", str(work / main))
    s = s.replace("%t", str(work / "t"))
    return s


def _part(x):
    if isinstance(x, str):
        return x
    if isinstance(x, dict):  # {"numbered": "%v{i} = ... %v{p} ...", "from": 1, "to": N}: {p} is i - 1
        return "".join(x["numbered"].replace("{i}", str(i)).replace("{p}", str(i - 1))
                       for i in range(int(x["from"]), int(x["to"])))
    return x[0] * int(x[1])


def materialize(case, env, work):
    for rel, data in case.files.items():
        p = work / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    for rel, spec in case.gen.items():
        p = work / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        kind = spec["kind"]
        if kind == "fifo":
            os.mkfifo(p)
        elif kind == "dir":
            p.mkdir(exist_ok=True)
        elif kind == "symlink":
            os.symlink(_subst(spec["target"], env, work, case.main), p)
        elif kind == "sparse":
            with open(p, "wb") as f:
                f.truncate(int(spec["size"]))
        elif kind == "repeat":  # parts: strings, [string, count] pairs, or numbered lines
            p.write_text("".join(_part(x) for x in spec["parts"]))
        elif kind == "copy":
            shutil.copyfile(_subst(spec["from"], env, work, case.main), p)
        elif kind == "derive":
            src = _subst(spec["from"], env, work, case.main)
            try:
                data = bytearray(Path(src).read_bytes())
            except OSError as e:
                raise MissingResource(f"{src}: {e}")
            if "truncate" in spec:
                data = data[: int(spec["truncate"])]
            for off, val in spec.get("patches", []):
                if off < len(data):
                    data[off] = val & 0xFF
            p.write_bytes(bytes(data))
        else:
            raise ValueError(f"unknown generator kind {kind}")
    (work / "t").mkdir(exist_ok=True)


# ---------------------------------------------------------------------------
# Running and classifying
# ---------------------------------------------------------------------------
class Result:
    def __init__(self, argv, rc, out, err, elapsed, timed_out):
        self.argv, self.rc, self.out, self.err = argv, rc, out, err
        self.elapsed, self.timed_out = elapsed, timed_out

    @property
    def text(self):
        return (self.out + b"\n" + self.err).decode("utf-8", "replace")


def _read_capped(path):
    size = path.stat().st_size
    with open(path, "rb") as f:
        if size <= 2 * OUTPUT_KEEP:
            return f.read()
        head = f.read(OUTPUT_KEEP)
        f.seek(size - OUTPUT_KEEP)
        return head + b"\n[... %d bytes cut ...]\n" % (size - 2 * OUTPUT_KEEP) + f.read()


def _limit_as(mb):
    def f():
        lim = mb * 1024 * 1024
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (min(lim, soft) if soft != resource.RLIM_INFINITY else lim, hard))
    return f


def execute(env, argv, work, extra_env, timeout, mem_mb=None):
    out_p, err_p = work / ".stdout", work / ".stderr"
    start = time.monotonic()
    timed_out = False
    with open(out_p, "wb") as out, open(err_p, "wb") as err:
        try:
            p = subprocess.Popen(argv, cwd=work, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                 env=env.child_env(extra_env), start_new_session=True,
                                 preexec_fn=_limit_as(mem_mb) if mem_mb else None)
        except OSError as e:
            return Result(argv, 127, b"", str(e).encode(), 0.0, False)
        try:
            rc = p.wait(timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            rc = p.wait()
        try:  # stray children (ptxas, ...)
            os.killpg(p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    return Result(argv, rc, _read_capped(out_p), _read_capped(err_p), time.monotonic() - start, timed_out)


class Finding:
    def __init__(self, kind, message, signature):
        self.kind, self.message, self.signature = kind, message, signature

    def __repr__(self):
        return f"{self.kind}: {self.message}"


OOM_RE = re.compile(r"out of memory|std::bad_alloc|Cannot allocate memory|Out of memory|failed to allocate|"
                    r"Resource temporarily unavailable|failed to mmap|mmap failed", re.I)
BANNERS = [
    ("llvm-error", re.compile(r"LLVM ERROR: ?(.*)")),
    ("assertion", re.compile(r"Assertion [`'](.*)' failed")),
    ("unreachable", re.compile(r"UNREACHABLE executed(.*)")),
    ("terminate", re.compile(r"terminate called (.*)")),
    ("sanitizer", re.compile(r"(?:AddressSanitizer|UndefinedBehaviorSanitizer|LeakSanitizer)[: ](.*)")),
    ("crash-banner", re.compile(r"(PLEASE submit a bug report.*|Stack dump:.*)")),
]
NOISE_FRAME = re.compile(
    r"PrintStackTrace|SignalHandler|RunSignalHandlers|RunInterruptHandlers|__restore_rt|\braise\b|\babort\b|"
    r"__pthread_kill|pthread_kill|gsignal|report_fatal_error|reportFatal|__assert_fail|__libc_start|_start\b|"
    r"CrashRecoveryContext|llvm::sys::|__cxa_throw|std::terminate|__gnu_cxx::__verbose_terminate|"
    r"llvm_unreachable_internal|__cxxabiv1|0x[0-9a-f]+ \(\)$|^\s*$")


RAN_RE = re.compile(rb"^FAIL .*differs at index", re.M)


def normalize(msg):
    msg = re.sub(r"/[^\s:'\"()]+", "<path>", msg)
    msg = re.sub(r"0x[0-9a-fA-F]+", "<hex>", msg)
    msg = re.sub(r"\d+", "N", msg)
    msg = re.sub(r"\s+", " ", msg).strip()
    return msg[:160]


def stack_frames(text):
    """The first two meaningful frames of an LLVM stack dump: symbolised ones when there
    are any, else the modules of unsymbolised ones (after the signal handler's)."""
    named, anon = [], []
    for line in text.splitlines():
        m = re.match(r"\s*#(\d+) 0x[0-9a-f]+ (.*)", line)
        if not m:
            continue
        f = m.group(2)
        mm = re.match(r"\((/[^)]*?)(\+0x[0-9a-f]+)?\)$", f)
        if mm:
            anon.append(os.path.basename(mm.group(1)))
            continue
        if NOISE_FRAME.search(f):
            continue
        name = re.sub(r"\s*\(/.*\)$", "", f)
        name = re.sub(r"\s+\S+:\d+(:\d+)?$", "", name)
        name = re.sub(r"\(.*", "", name).strip()
        if name:
            named.append(name[:100])
        if len(named) == 2:
            break
    if named:
        return named
    return anon[2:4] if len(anon) > 2 else anon


def tool_of(argv):
    for a in argv:
        b = os.path.basename(a)
        if b in TOOLS:
            return b
    return os.path.basename(argv[0]) if argv else "?"


def option(argv, name):
    for i, a in enumerate(argv):
        if a == name and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith(name + "="):
            return a[len(name) + 1:]
    return None


def check_artifact(argv, res):
    """Cheap checks of a successful run's output; returns a reason or None."""
    tool = tool_of(argv)
    if tool == "tpx-run":
        out = res.out.decode("utf-8", "replace")
        lines = out.split("\n")
        if out == "" and res.rc != 0 and res.err.strip():
            return None  # an option or plugin error (on stderr) before the case is read
        if len(lines) != 2 or lines[1] != "" or not re.match(r"(PASS|FAIL) ", lines[0]):
            return "stdout is not exactly one PASS/FAIL line: %r" % out[:200]
        if (res.rc == 0) != lines[0].startswith("PASS "):
            return f"exit status {res.rc} does not match verdict {lines[0][:60]!r}"
        return None
    if res.rc != 0 or tool != "tpx-compile":
        return None
    if any(a in ("--dump-pipeline", "--print-cache-key", "--help") for a in argv):
        return None
    target = option(argv, "--target") or ""
    stop = option(argv, "--stop-after")
    outp = option(argv, "-o")
    if not outp or outp == "-" or outp.startswith("/dev/"):
        return None
    try:
        data = Path(outp).read_bytes()
    except OSError as e:
        return f"exit 0 but output {outp} unreadable: {e.strerror}"
    if stop is None and option(argv, "--pipeline-file") is None:
        want = 190 if target.startswith("sm_") else 62 if target == "cpu" else None
        if want is None:
            return None
        if data[:4] != b"\x7fELF" or len(data) < 20:
            return f"exit 0 but {target} artifact is not an ELF file ({len(data)} bytes)"
        machine = struct.unpack_from("<H", data, 18)[0]
        if machine != want:
            return f"exit 0 but {target} artifact has e_machine {machine}, want {want}"
        try:
            meta = json.loads(Path(outp + ".json").read_text())
            if not isinstance(meta, dict):
                return "artifact metadata is not a JSON object"
        except (OSError, ValueError) as e:
            return f"artifact metadata {outp}.json unreadable: {e}"
    elif stop == "ptx":
        if b".version" not in data or b".target" not in data:
            return "exit 0 but the ptx stage output has no .version/.target"
    elif stop in ("ttir", "ttgir", "llir"):
        if b"module" not in data:
            return f"exit 0 but the {stop} stage output is not an MLIR module"
    return None


def classify(cmd, res, tag):
    tool = tool_of(res.argv)
    text = res.text
    if res.timed_out:
        return Finding("timeout", f"{tool} ran past {res.elapsed:.0f} s",
                       f"timeout|{tool}|{tag}")
    if res.rc < 0 or res.rc > 128 or any(p.search(text) for _, p in BANNERS):
        sig = -res.rc if res.rc < 0 else (res.rc - 128 if res.rc > 128 else 0)
        signame = signal.Signals(sig).name if sig in signal.valid_signals() and sig else ""
        frames = stack_frames(text)
        if OOM_RE.search(text) and (res.rc != 0):
            m = OOM_RE.search(text)
            return Finding("oom", f"{tool}: memory limit exceeded ({m.group(0)})",
                           f"oom|{tool}|{'/'.join(frames) or tag}")
        for kind, pat in BANNERS:
            m = pat.search(text)
            if m and kind != "crash-banner":
                msg = m.group(1).strip().splitlines()[0] if m.group(1).strip() else kind
                return Finding(kind, f"{tool}: {kind} {msg[:200]}" + (f" ({signame})" if signame else ""),
                               f"{kind}|{normalize(msg)}")
        if signame:
            where = "/".join(frames) if frames else f"no stack dump, {tag}"
            return Finding("signal-" + signame, f"{tool} died by {signame} in {where}",
                           f"signal-{signame}|{tool}|{where if frames else tag}")
        if res.rc != 0:
            return Finding("crash-banner", f"{tool}: crash banner, exit {res.rc}",
                           f"crash-banner|{tool}|{'/'.join(frames) or tag}")
    # tpx-run's verdict (PASS/FAIL) is its last output and one line long,
    # whatever the case's name holds.
    verdict = re.search(rb"^(?:PASS|FAIL) ", res.out, re.M)
    if (tool == "tpx-run" and verdict
            and res.out[verdict.start():].rstrip(b"\n").count(b"\n") > 0):
        return Finding("broken-verdict", f"{tool}: the verdict is not one line ({tag})",
                       f"broken-verdict|{tool}|{tag}")
    if cmd.expect == "reject" and (res.rc == 0 or (tool == "tpx-run" and RAN_RE.search(res.out))):
        how = "accepted" if res.rc == 0 else "launched (its FAIL is a result mismatch, not a rejection)"
        return Finding("accepted-invalid", f"{tool} {how} an input it must reject ({tag})",
                       f"accepted-invalid|{tool}|{tag}")
    if res.rc != 0 and OOM_RE.search(text) and "error:" not in text and "FAIL" not in text:
        return Finding("oom", f"{tool}: memory limit exceeded", f"oom|{tool}|{tag}")
    if not cmd.nocheck:
        reason = check_artifact(res.argv, res)
        if reason:
            return Finding("bad-output", f"{tool}: {reason}", f"bad-output|{tool}|{normalize(reason)[:60]}")
    return None


def resolve_argv(argv, env, work, main):
    out, extra = [], {}
    args = [_subst(a, env, work, main) for a in argv]
    i = 0
    if args and args[0] == "env":
        i = 1
        while i < len(args) and "=" in args[i] and not args[i].startswith("-"):
            k, v = args[i].split("=", 1)
            extra[k] = v
            i += 1
    args = args[i:]
    if args and args[0] in TOOLS:
        args[0] = str(env.bin / args[0])
    out.extend(args)
    return out, extra


def run_case(env, case, timeout=None, keep=False):
    """Runs every command of a case; returns (finding or None, result, cmd, elapsed)."""
    work = env.workdir()
    t0 = time.monotonic()
    try:
        materialize(case, env, work)
        last = None
        for cmd in case.cmds:
            argv, extra = resolve_argv(cmd.argv, env, work, case.main)
            extra.update({k: _subst(v, env, work, case.main) for k, v in cmd.env.items()})
            res = execute(env, argv, work, extra, timeout or case.timeout or env.timeout, case.mem_mb)
            last = (res, cmd)
            f = classify(cmd, res, case.tag or case.strategy)
            if f:
                return f, res, cmd, time.monotonic() - t0
        return None, last[0] if last else None, last[1] if last else None, time.monotonic() - t0
    finally:
        if not (keep or env.keep_work):
            _rmtree(work)


def _rmtree(path):
    def onerror(func, p, exc):
        try:
            os.chmod(p, 0o700)
            func(p)
        except OSError:
            pass
    shutil.rmtree(path, onerror=onerror)


# ---------------------------------------------------------------------------
# Saving findings (in the regression format) and minimising them
# ---------------------------------------------------------------------------
def save_case(case, dest, finding=None, res=None):
    dest.mkdir(parents=True, exist_ok=True)
    for rel, data in case.files.items():
        p = dest / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    d = case.to_json()
    if finding:
        d["what"] = f"{finding.kind}: {finding.message}. Input: {case.what}"
        d["finding"] = {"kind": finding.kind, "message": finding.message, "signature": finding.signature}
    (dest / "regression.json").write_text(json.dumps(d, indent=1) + "\n")
    if res is not None:
        (dest / "output.txt").write_bytes(
            b"$ " + " ".join(shlex.quote(a) for a in res.argv).encode() +
            b"\nexit %d%s\n--- stdout\n" % (res.rc, b" (timed out)" if res.timed_out else b"") +
            res.out[-20000:] + b"\n--- stderr\n" + res.err[-20000:])


def minimize(env, case, finding, budget_s, budget_runs):
    """Line-based delta debugging of the main text file, keeping the signature."""
    if not case.main or case.main not in case.files or finding.kind in ("timeout", "oom"):
        return case
    if not any("%s" in a for c in case.cmds for a in c.argv):
        return case  # the main file is not what the commands read
    try:
        lines = case.files[case.main].decode("utf-8").split("\n")
    except UnicodeDecodeError:
        return case
    deadline = time.monotonic() + budget_s
    runs = 0

    def still(ls):
        nonlocal runs
        runs += 1
        c = copy.copy(case)
        c.files = dict(case.files)
        c.files[case.main] = "\n".join(ls).encode()
        f, _, _, _ = run_case(env, c)
        return f is not None and f.signature == finding.signature

    n = 2
    while len(lines) >= 2 and time.monotonic() < deadline and runs < budget_runs:
        chunk = max(1, len(lines) // n)
        reduced = False
        for start in range(0, len(lines), chunk):
            if time.monotonic() >= deadline or runs >= budget_runs:
                break
            candidate = lines[:start] + lines[start + chunk:]
            if candidate and still(candidate):
                lines = candidate
                n = max(n - 1, 2)
                reduced = True
                break
        if not reduced:
            if chunk == 1:
                break
            n = min(len(lines), n * 2)
    out = copy.copy(case)
    out.files = dict(case.files)
    if "\n".join(lines).encode() != case.files[case.main]:
        out.files[case.main] = "\n".join(lines).encode()
        out.files["original-" + case.main] = case.files[case.main]
        out.what = case.what + f" (minimised to {len(lines)} lines)"
    return out


# ---------------------------------------------------------------------------
# Shared text helpers for strategies
# ---------------------------------------------------------------------------
EDGE_INTS = [0, 1, -1, 2, 3, 7, 8, 15, 16, 31, 32, 33, 63, 64, 127, 128, 255, 256, 1023, 1024, 4096,
             65535, 65536, 1 << 20, 1 << 22, 2147483647, 2147483648, -2147483648, 4294967295,
             4294967296, 9223372036854775807, -9223372036854775808, 18446744073709551616,
             10 ** 30]
POW2_DIMS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 65536, 1 << 20, 1 << 22]
TYPES = ["i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "f8E4M3FN", "f8E5M2", "index"]
KEYWORDS = [
    "eq ne slt sle sgt sge ult ule ugt uge".split(),
    "oeq one olt ole ogt oge ueq une ord uno".split(),
    "add fadd and or xor max min umax umin exch".split(),
    "relaxed acquire release acq_rel".split(),
    "gpu cta sys".split(),
    "x y z".split(),
    "tf32 ieee tf32x3".split(),
    "true false".split(),
    "rtne rtz".split(),
]
FLOAT_BIN_OPS = "addf subf mulf divf remf maxnumf minnumf maximumf minimumf".split()
INT_BIN_OPS = ("addi subi muli divsi divui remsi remui shli shrsi shrui andi ori xori maxsi minsi maxui minui "
               "ceildivsi floordivsi").split()
FLOAT_UN_OPS = ("exp exp2 log log2 log10 log1p expm1 sqrt rsqrt sin cos tan tanh atan erf floor ceil absf trunc "
                "round roundeven cbrt").split()
TYPE_RE = re.compile(r"\b(f8E4M3FN|f8E5M2|bf16|f16|f32|f64|i1|i8|i16|i32|i64|index)\b")
INT_RE = re.compile(r"(?<![\w#%.$\-])-?\d+(?![\w.])")
OP_RE = re.compile(r"\b(?:arith|math|tt|scf)\.[a-z_]+(?:\.[a-z_]+)?\b")
SSA_RE = re.compile(r"%[A-Za-z_][\w$.]*|%\d+")
KW_RE = re.compile(r"\b(" + "|".join(sorted({w for ws in KEYWORDS for w in ws}, key=len, reverse=True)) + r")\b")


def strip_test_comments(text):
    return "\n".join(l for l in text.split("\n")
                     if not re.match(r"\s*//\s*(RUN|CHECK|REQUIRES|XFAIL|UNSUPPORTED|expected-)", l))


def first_public_func(text):
    m = re.search(r"tt\.func\s+public\s+@(\"(?:[^\"\\]|\\.)*\"|[\w$.]+)", text)
    if not m:
        m = re.search(r"(?:tt|func|llvm)\.func\s+(?:public\s+)?@(\"(?:[^\"\\]|\\.)*\"|[\w$.]+)", text)
    return m.group(1).strip('"') if m else None


def compile_cmd(rng, inp="%s", weights=None, expect="no-crash"):
    """A random compile of one input file: tpx-opt, or tpx-compile to a stage of cpu/sm_90a."""
    choices = [
        (1, ["tpx-opt", inp, "-o", "%t/out.mlir"]),
        (1, ["tpx-compile", inp, "--target", "cpu", "--stop-after", "llir", "-o", "%t/out.mlir"]),
        (3, ["tpx-compile", inp, "--target", "cpu", "--no-cache", "-o", "%t/out.o"]),
        (1, ["tpx-compile", inp, "--target", "sm_90a", "--stop-after", "ttgir", "-o", "%t/out.mlir"]),
        (1, ["tpx-compile", inp, "--target", "sm_90a", "--stop-after", "llir", "-o", "%t/out.mlir"]),
        (2, ["tpx-compile", inp, "--target", "sm_90a", "--stop-after", "ptx", "-o", "%t/out.ptx"]),
        (2, ["tpx-compile", inp, "--target", "sm_90a", "--no-cache", "-o", "%t/out.cubin"]),
    ]
    if weights:
        choices = [(w, c) for (w, c) in choices if weights(c)]
    total = sum(w for w, _ in choices)
    x = rng.uniform(0, total)
    for w, c in choices:
        x -= w
        if x <= 0:
            return Cmd(c, expect)
    return Cmd(choices[-1][1], expect)


def pick_weighted(rng, items):
    total = sum(w for w, _ in items)
    x = rng.uniform(0, total)
    for w, v in items:
        x -= w
        if x <= 0:
            return v
    return items[-1][1]


def read_text(path):
    return Path(path).read_text(encoding="utf-8", errors="replace")


# ---------------------------------------------------------------------------
# Strategy: mutate -- text mutations of corpus kernels, lit inputs and stage dumps
# ---------------------------------------------------------------------------
class Mutator:
    """Byte/token/line mutations of MLIR text."""

    def __init__(self, pool_texts):
        ops, ssa = set(), set()
        for t in pool_texts:
            ops.update(OP_RE.findall(t))
        self.ops = sorted(ops) or ["arith.addi"]
        self.pool_lines = [l for t in pool_texts for l in t.split("\n") if "=" in l and "%" in l][:20000]

    def mutate(self, rng, text, n=None):
        log = []
        n = n or rng.choice([1, 1, 1, 1, 1, 1, 2, 2, 2, 3])
        for _ in range(n):
            for _attempt in range(5):
                op = pick_weighted(rng, self.OPS)
                new = op(self, rng, text, log)
                if new is not None and new != text:
                    text = new
                    break
        return text, "; ".join(log)

    # -- line level
    def line_delete(self, rng, t, log):
        ls = t.split("\n")
        i = rng.randrange(len(ls))
        log.append(f"delete line {i + 1}")
        return "\n".join(ls[:i] + ls[i + 1:])

    def line_dup(self, rng, t, log):
        ls = t.split("\n")
        i = rng.randrange(len(ls))
        log.append(f"duplicate line {i + 1}")
        return "\n".join(ls[:i + 1] + [ls[i]] + ls[i + 1:])

    def line_swap(self, rng, t, log):
        ls = t.split("\n")
        i, j = rng.randrange(len(ls)), rng.randrange(len(ls))
        ls[i], ls[j] = ls[j], ls[i]
        log.append(f"swap lines {i + 1},{j + 1}")
        return "\n".join(ls)

    def line_splice(self, rng, t, log):
        if not self.pool_lines:
            return None
        ls = t.split("\n")
        i = rng.randrange(len(ls))
        line = rng.choice(self.pool_lines)
        log.append(f"insert foreign line at {i + 1}")
        return "\n".join(ls[:i] + [line] + ls[i:])

    # -- token level
    def _replace_match(self, rng, t, regex, fn, log, label):
        ms = list(regex.finditer(t))
        if not ms:
            return None
        m = rng.choice(ms)
        new = fn(m.group(0))
        if new is None:
            return None
        log.append(f"{label} {m.group(0)!r}->{new!r} at {m.start()}")
        return t[:m.start()] + new + t[m.end():]

    def int_edge(self, rng, t, log):
        return self._replace_match(rng, t, INT_RE, lambda s: str(rng.choice(EDGE_INTS)), log, "int")

    def int_consistent(self, rng, t, log):
        vals = sorted(set(INT_RE.findall(t)))
        if not vals:
            return None
        v = rng.choice(vals)
        w = str(rng.choice(POW2_DIMS + EDGE_INTS[:12]))
        log.append(f"every int {v}->{w}")
        return INT_RE.sub(lambda m: w if m.group(0) == v else m.group(0), t)

    def type_swap(self, rng, t, log):
        found = sorted(set(TYPE_RE.findall(t)))
        if not found:
            return None
        a = rng.choice(found)
        b = rng.choice([x for x in TYPES if x != a])
        if rng.random() < 0.5:
            log.append(f"every type {a}->{b}")
            return re.sub(r"\b" + re.escape(a) + r"\b", b, t)
        return self._replace_match(rng, t, re.compile(r"\b" + re.escape(a) + r"\b"), lambda s: b, log, "type")

    def shape_change(self, rng, t, log):
        def f(s):
            dims = s[len("tensor<"):-1].split("x")
            i = rng.randrange(len(dims))
            dims[i] = str(rng.choice(POW2_DIMS + [0, 3, 1000]))
            if rng.random() < 0.2:
                dims.insert(i, "1")
            return "tensor<" + "x".join(dims) + "x"
        return self._replace_match(rng, t, re.compile(r"tensor<(?:\d+x)+"), f, log, "shape")

    OP_GROUPS = [["arith." + o for o in FLOAT_BIN_OPS], ["arith." + o for o in INT_BIN_OPS],
                 ["math." + o for o in FLOAT_UN_OPS], ["arith.extf", "arith.truncf"], ["arith.sitofp", "arith.uitofp"],
                 ["arith.fptosi", "arith.fptoui"], ["arith.extsi", "arith.extui", "arith.trunci"],
                 ["tt.load", "tt.store"], ["tt.splat", "tt.broadcast"], ["tt.reduce", "tt.scan"],
                 ["tt.reduce.return", "tt.scan.return"], ["scf.for", "scf.while", "scf.if"],
                 ["tt.precise_sqrt", "math.sqrt", "math.rsqrt"], ["tt.precise_divf", "arith.divf"]]

    def op_swap(self, rng, t, log):
        def f(s):
            group = next((g for g in self.OP_GROUPS if s in g), None)
            if group and rng.random() < 0.8:
                return rng.choice([o for o in group if o != s])
            same = [o for o in self.ops if o.split(".")[0] == s.split(".")[0] and o != s]
            return rng.choice(same or self.ops)
        return self._replace_match(rng, t, OP_RE, f, log, "op")

    def keyword_swap(self, rng, t, log):
        def f(s):
            for group in KEYWORDS:
                if s in group:
                    return rng.choice([w for w in group if w != s] or group)
            return None
        return self._replace_match(rng, t, KW_RE, f, log, "keyword")

    def ssa_swap(self, rng, t, log):
        names = sorted(set(SSA_RE.findall(t)))
        if len(names) < 2:
            return None
        uses = [m for m in SSA_RE.finditer(t) if not re.match(r"\s*(:\d+)?\s*=", t[m.end():m.end() + 6])]
        if not uses:
            return None
        m = rng.choice(uses)
        new = rng.choice(names)
        log.append(f"operand {m.group(0)}->{new}")
        return t[:m.start()] + new + t[m.end():]

    def string_edit(self, rng, t, log):
        ms = list(re.finditer(r'"((?:[^"\\\n]|\\.)*)"', t))
        if not ms:
            return None
        m = rng.choice(ms)
        payload = rng.choice(["$9", "$1$2$3", "$", "%s%n", "\\n", "\\\"", "\\\\", "\\00", "k-x", "a b",
                              "", "x" * 5000, "$0 $99999999999", "{", "}", "\\FF\\FE"])
        s = m.group(1)
        i = rng.randint(0, len(s))
        new = '"' + s[:i] + payload + s[i:] + '"'
        log.append(f"string {m.group(0)[:30]!r} += {payload[:20]!r}")
        return t[:m.start()] + new + t[m.end():]

    # -- byte level
    def byte_flip(self, rng, t, log):
        if not t:
            return None
        i = rng.randrange(len(t))
        c = rng.choice("{}()<>[]:,%@\"\\=!#^0x-. \n\x00\x7f\u00e9")
        log.append(f"char {i}->{c!r}")
        return t[:i] + c + t[i + 1:]

    def span_delete(self, rng, t, log):
        if len(t) < 2:
            return None
        i = rng.randrange(len(t))
        n = rng.randint(1, 64)
        log.append(f"delete {n} chars at {i}")
        return t[:i] + t[i + n:]

    def span_dup(self, rng, t, log):
        if len(t) < 2:
            return None
        i = rng.randrange(len(t))
        n = rng.randint(1, 200)
        log.append(f"duplicate {n} chars at {i}")
        return t[:i + n] + t[i:i + n] + t[i + n:]

    def truncate(self, rng, t, log):
        if len(t) < 2:
            return None
        i = rng.randrange(len(t))
        log.append(f"truncate at {i}")
        return t[:i]

    OPS = [(2, line_delete), (1, line_dup), (1, line_swap), (1, line_splice), (4, int_edge),
           (6, int_consistent), (5, type_swap), (3, shape_change), (6, op_swap), (5, keyword_swap),
           (3, ssa_swap), (1, string_edit), (1, byte_flip), (1, span_delete), (0.5, span_dup), (0.5, truncate)]


def collect_seeds(env):
    seeds = []  # (name, text)
    if env.corpus and env.corpus.is_dir():
        for k in sorted(env.corpus.glob("*/kernel.ttir")):
            seeds.append((f"corpus/{k.parent.name}", read_text(k)))
    for p in sorted((SRC_DIR / "test").rglob("*")):
        if p.suffix in (".mlir", ".ttir") and p.is_file():
            text = strip_test_comments(read_text(p))
            for i, chunk in enumerate(re.split(r"\n// -----\s*\n", text)):
                if "func" in chunk:
                    seeds.append((f"{p.relative_to(SRC_DIR)}#{i}", chunk))
    for p in sorted(INPUTS_DIR.glob("*.ttir")):
        seeds.append((f"fuzz/inputs/{p.name}", read_text(p)))
    return seeds


def stage_dump(env, seed_name, text, target, stage):
    """The output of a stage for a seed kernel (memoised), or None."""
    def make():
        d = env.scratch / "dumps"
        d.mkdir(exist_ok=True)
        h = hashlib.sha1((seed_name + target + stage).encode()).hexdigest()[:12]
        src = d / f"{h}.ttir"
        src.write_text(text)
        rc, out = env.run_quiet(["tpx-compile", str(src), "--target", target, "--stop-after", stage,
                                 "-o", "-"])
        return out.decode("utf-8", "replace") if rc == 0 and out else None
    return env.memo(("dump", seed_name, target, stage), make)


class MutateStrategy:
    name = "mutate"

    def __init__(self, env):
        self.env = env
        self.seeds = collect_seeds(env)
        self.mut = Mutator([t for _, t in self.seeds])
        self.kernels = [(n, t) for n, t in self.seeds if "tt.func" in t and "public" in t]

    def generate(self, rng, index):
        r = rng.random()
        if r < 0.25 and self.kernels:
            # Mutate a stage's output and feed it back through --override-dir, so the
            # later stages (codegen, emitters) see mutated but mostly well-formed IR.
            name, text = rng.choice([k for k in self.kernels if k[0].startswith("corpus/")] or self.kernels)
            target, stage, rest = rng.choice([
                ("cpu", "ttir", ["--no-cache", "-o", "%t/out.o"]),
                ("cpu", "llir", ["--no-cache", "-o", "%t/out.o"]),
                ("sm_90a", "ttir", ["--stop-after", "ptx", "-o", "%t/out.ptx"]),
                ("sm_90a", "ttgir", ["--stop-after", "ptx", "-o", "%t/out.ptx"]),
                ("sm_90a", "ttgir", ["--no-cache", "-o", "%t/out.cubin"]),
                ("sm_90a", "llir", ["--stop-after", "ptx", "-o", "%t/out.ptx"]),
            ])
            dump = stage_dump(self.env, name, text, target, stage)
            if dump:
                kernel = first_public_func(dump) or first_public_func(text) or "kernel"
                mutated, log = self.mut.mutate(rng, dump)
                files = {"kernel.ttir": text.encode(), f"ovr/{kernel}.{stage}.mlir": mutated.encode()}
                cmd = Cmd(["tpx-compile", "%s", "--target", target, "--override-dir", "%S/ovr"] + rest)
                return Case(self.name, "mutate", f"{name}: {target} {stage} dump mutated ({log})", files,
                            cmds=[cmd], main="kernel.ttir", tag=f"override-{target}-{stage}")
        corpus = [k for k in self.seeds if k[0].startswith(("corpus/", "fuzz/"))]
        name, text = rng.choice(corpus if corpus and rng.random() < 0.5 else self.seeds)
        mutated, log = self.mut.mutate(rng, text)
        cmd = compile_cmd(rng)
        return Case(self.name, "mutate", f"{name} mutated ({log})", {"input.mlir": mutated.encode()},
                    cmds=[cmd], main="input.mlir", tag="mutate")


# ---------------------------------------------------------------------------
# Strategy: edge -- generated edge kernels from templates
# ---------------------------------------------------------------------------
TRITON_MAX_NUMEL = 1 << 20


def kernel1d(name="vadd", n=1024, t="f32", body=None, out_t=None, pre="", nval="%n", decls="",
             args_extra=""):
    """A masked 1-D kernel: loads %xv, %yv (tensor<n x t>) and stores %res (tensor<n x out_t>)."""
    out_t = out_t or t
    if body is None:
        op = "arith.addf" if t[0] in "fb" else "arith.addi"
        body = f"%res = {op} %xv, %yv : tensor<{n}x{t}>"
    ind = "    "
    pre = "\n".join(ind + l.strip() for l in pre.split("\n") if l.strip())
    body = "\n".join(ind + l.strip() for l in body.split("\n") if l.strip())
    P = lambda ty: f"tensor<{n}x!tt.ptr<{ty}>>"
    return f"""module {{
{decls}  tt.func public @{name}(%x: !tt.ptr<{t}>, %y: !tt.ptr<{t}>, %z: !tt.ptr<{out_t}>, %n: i32{args_extra}) {{
    %c = arith.constant {n} : i32
    %pid = tt.get_program_id x : i32
{pre}
    %base = arith.muli %pid, %c : i32
    %r = tt.make_range {{end = {n} : i32, start = 0 : i32}} : tensor<{n}xi32>
    %b = tt.splat %base : i32 -> tensor<{n}xi32>
    %off = arith.addi %b, %r : tensor<{n}xi32>
    %ns = tt.splat {nval} : i32 -> tensor<{n}xi32>
    %mask = arith.cmpi slt, %off, %ns : tensor<{n}xi32>
    %xp = tt.splat %x : !tt.ptr<{t}> -> {P(t)}
    %xa = tt.addptr %xp, %off : {P(t)}, tensor<{n}xi32>
    %xv = tt.load %xa, %mask : {P(t)}
    %yp = tt.splat %y : !tt.ptr<{t}> -> {P(t)}
    %ya = tt.addptr %yp, %off : {P(t)}, tensor<{n}xi32>
    %yv = tt.load %ya, %mask : {P(t)}
    %zp0 = tt.splat %z : !tt.ptr<{out_t}> -> {P(out_t)}
    %zp = tt.addptr %zp0, %off : {P(out_t)}, tensor<{n}xi32>
{body}
    tt.store %zp, %res, %mask : {P(out_t)}
    tt.return
  }}
}}
"""


def dot_kernel(M, N, K, ta, tc, prec="tf32", name="dot"):
    zero = "0.000000e+00" if tc[0] in "fb" else "0"
    return f"""module {{
  tt.func public @{name}(%a: !tt.ptr<{ta}>, %b: !tt.ptr<{ta}>, %c: !tt.ptr<{tc}>) {{
    %rm = tt.make_range {{end = {M} : i32, start = 0 : i32}} : tensor<{M}xi32>
    %rn = tt.make_range {{end = {N} : i32, start = 0 : i32}} : tensor<{N}xi32>
    %rk = tt.make_range {{end = {K} : i32, start = 0 : i32}} : tensor<{K}xi32>
    %am = tt.expand_dims %rm {{axis = 1 : i32}} : tensor<{M}xi32> -> tensor<{M}x1xi32>
    %kk = arith.constant dense<{K}> : tensor<{M}x1xi32>
    %am2 = arith.muli %am, %kk : tensor<{M}x1xi32>
    %ak = tt.expand_dims %rk {{axis = 0 : i32}} : tensor<{K}xi32> -> tensor<1x{K}xi32>
    %amb = tt.broadcast %am2 : tensor<{M}x1xi32> -> tensor<{M}x{K}xi32>
    %akb = tt.broadcast %ak : tensor<1x{K}xi32> -> tensor<{M}x{K}xi32>
    %aoff = arith.addi %amb, %akb : tensor<{M}x{K}xi32>
    %ap0 = tt.splat %a : !tt.ptr<{ta}> -> tensor<{M}x{K}x!tt.ptr<{ta}>>
    %ap = tt.addptr %ap0, %aoff : tensor<{M}x{K}x!tt.ptr<{ta}>>, tensor<{M}x{K}xi32>
    %av = tt.load %ap : tensor<{M}x{K}x!tt.ptr<{ta}>>
    %bk = tt.expand_dims %rk {{axis = 1 : i32}} : tensor<{K}xi32> -> tensor<{K}x1xi32>
    %nn = arith.constant dense<{N}> : tensor<{K}x1xi32>
    %bk2 = arith.muli %bk, %nn : tensor<{K}x1xi32>
    %bn = tt.expand_dims %rn {{axis = 0 : i32}} : tensor<{N}xi32> -> tensor<1x{N}xi32>
    %bkb = tt.broadcast %bk2 : tensor<{K}x1xi32> -> tensor<{K}x{N}xi32>
    %bnb = tt.broadcast %bn : tensor<1x{N}xi32> -> tensor<{K}x{N}xi32>
    %boff = arith.addi %bkb, %bnb : tensor<{K}x{N}xi32>
    %bp0 = tt.splat %b : !tt.ptr<{ta}> -> tensor<{K}x{N}x!tt.ptr<{ta}>>
    %bp = tt.addptr %bp0, %boff : tensor<{K}x{N}x!tt.ptr<{ta}>>, tensor<{K}x{N}xi32>
    %bv = tt.load %bp : tensor<{K}x{N}x!tt.ptr<{ta}>>
    %cm = tt.expand_dims %rm {{axis = 1 : i32}} : tensor<{M}xi32> -> tensor<{M}x1xi32>
    %cn2 = arith.constant dense<{N}> : tensor<{M}x1xi32>
    %cm2 = arith.muli %cm, %cn2 : tensor<{M}x1xi32>
    %cmb = tt.broadcast %cm2 : tensor<{M}x1xi32> -> tensor<{M}x{N}xi32>
    %cn = tt.expand_dims %rn {{axis = 0 : i32}} : tensor<{N}xi32> -> tensor<1x{N}xi32>
    %cnb = tt.broadcast %cn : tensor<1x{N}xi32> -> tensor<{M}x{N}xi32>
    %coff = arith.addi %cmb, %cnb : tensor<{M}x{N}xi32>
    %cp0 = tt.splat %c : !tt.ptr<{tc}> -> tensor<{M}x{N}x!tt.ptr<{tc}>>
    %cp = tt.addptr %cp0, %coff : tensor<{M}x{N}x!tt.ptr<{tc}>>, tensor<{M}x{N}xi32>
    %acc = arith.constant dense<{zero}> : tensor<{M}x{N}x{tc}>
    %d = tt.dot %av, %bv, %acc, inputPrecision = {prec} : tensor<{M}x{K}x{ta}> * tensor<{K}x{N}x{ta}> -> tensor<{M}x{N}x{tc}>
    tt.store %cp, %d : tensor<{M}x{N}x!tt.ptr<{tc}>>
    tt.return
  }}
}}
"""


def nested_for(depth, n, kind="for"):
    """depth nested loops (scf.for / scf.while / scf.if) each carrying a tensor<n x f32>."""
    T = f"tensor<{n}xf32>"
    lines = ["%lb = arith.constant 0 : i32", "%ub = arith.constant 2 : i32", "%st = arith.constant 1 : i32",
             "%tr = arith.cmpi slt, %lb, %ub : i32"]
    cur = "%xv"
    for d in range(depth):
        if kind == "for":
            lines.append(f"%l{d} = scf.for %i{d} = %lb to %ub step %st iter_args(%a{d} = {cur}) -> ({T}) : i32 {{")
        else:
            lines.append(f"%l{d} = scf.if %tr -> ({T}) {{")
            lines.append(f"%a{d} = arith.addf {cur}, {cur} : {T}")
        cur = f"%a{d}"
    lines.append(f"%in = arith.addf {cur}, %yv : {T}")
    inner = "%in"
    for d in reversed(range(depth)):
        lines.append(f"scf.yield {inner} : {T}")
        if kind != "for":
            lines.append(f"}} else {{")
            lines.append(f"scf.yield {'%xv' if d == 0 else f'%a{d - 1}'} : {T}")
        lines.append("}")
        inner = f"%l{d}"
    lines.append(f"%res = arith.addf {inner}, %xv : {T}")
    return "\n".join(lines)


KERNEL_NAMES = ['"k-x"', '"a b"', '"k@x"', '"k\\\\x"', '"k\\5Cx"', '"0start"', '"$x"', '"."', '"k.x"',
                '"k\\22q"', '"k\\0Ax"', '"k\\00x"', '"\u00e9t\u00e9"', '"' + "a" * 5000 + '"', "ret", "param",
                "reg", "entry", "main", "_", "__nv_foo", "llvm.foo", '"%r1"', '"k;x"', '"k{x}"', '"k,x"',
                '"k/x"', '"k:x"', '"k(x)"', '"k<x>"', '"k+x"', '"k*x"', '"\\09"', '" "', '""', '"k\'x"',
                "$dollar", "a.b.c", '"-"', '"k#x"', '"k`x"', '"k~x"', '"k!x"', '"k\\7Fx"', "k" * 1024]
FLOAT_BIN, INT_BIN, FLOAT_UN = FLOAT_BIN_OPS, INT_BIN_OPS, FLOAT_UN_OPS
INT_UN = "absi ctlz cttz ctpop".split()
FLOAT_T = ["f16", "bf16", "f32", "f64", "f8E4M3FN", "f8E5M2"]
INT_T = ["i1", "i8", "i16", "i32", "i64"]
FLOAT_CONSTS = ["0.000000e+00", "-0.000000e+00", "1.000000e+00", "0x7F800000", "0xFF800000", "0x7FC00000",
                "3.400000e+38", "6.550400e+04", "1.401300e-45"]


def float_bits_const(t, v):
    """A constant literal valid for type t (hex literals only for f32)."""
    if v.startswith("0x") and t != "f32":
        return "1.000000e+00"
    return v


def foreign_ops():
    cast = "%lp = builtin.unrealized_conversion_cast {p} : !tt.ptr<f32> to !llvm.ptr"
    return [
        ("nvvm.read.ptx.sreg.tid.x", "%fv = nvvm.read.ptx.sreg.tid.x : i32", ""),
        ("nvvm.read.ptx.sreg.ctaid.y", "%fv = nvvm.read.ptx.sreg.ctaid.y : i32", ""),
        ("nvvm.read.ptx.sreg.laneid", "%fv = nvvm.read.ptx.sreg.laneid : i32", ""),
        ("rocdl.workitem.id.x", "%fv = rocdl.workitem.id.x : i32", ""),
        ("ub.poison", "%fv = ub.poison : i32", ""),
        ("llvm.mlir.poison", "%fv = llvm.mlir.poison : i32", ""),
        ("llvm.mlir.undef", "%fv = llvm.mlir.undef : i32", ""),
        ("llvm.mlir.constant", "%fv = llvm.mlir.constant(3 : i32) : i32", ""),
        ("gpu.thread_id", "%fi = gpu.thread_id x\n%fv = arith.index_cast %fi : index to i32", ""),
        ("gpu.block_id", "%fi = gpu.block_id y\n%fv = arith.index_cast %fi : index to i32", ""),
        ("gpu.lane_id", "%fi = gpu.lane_id\n%fv = arith.index_cast %fi : index to i32", ""),
        ("llvm.inline_asm ptx", '%fv = llvm.inline_asm "mov.u32 $0, %tid.x;", "=r" : () -> i32', ""),
        ("llvm.inline_asm x86", '%fv = llvm.inline_asm "movl $$7, $0", "=r" : () -> i32', ""),
        ("llvm.call_intrinsic x86", '%f64 = llvm.call_intrinsic "llvm.x86.rdtsc"() : () -> i64\n'
                                    "%fv = arith.trunci %f64 : i64 to i32", ""),
        ("llvm.call_intrinsic nvvm", '%fv = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32', ""),
        ("llvm.call_intrinsic amdgcn", '%fv = llvm.call_intrinsic "llvm.amdgcn.workitem.id.x"() : () -> i32', ""),
        ("llvm.call_intrinsic bogus", '%fv = llvm.call_intrinsic "llvm.bogus.intrinsic"() : () -> i32', ""),
        ("llvm.load", cast.format(p="%x") + "\n%fv = llvm.load %lp : !llvm.ptr -> i32", ""),
        ("memref.alloca", "%ma = memref.alloca() : memref<4xi32>\n%c0i = arith.constant 0 : index\n"
                          "%fv = memref.load %ma[%c0i] : memref<4xi32>", ""),
        ("tensor.extract", "%te = tensor.empty() : tensor<4xi32>\n%c0i = arith.constant 0 : index\n"
                           "%fv = tensor.extract %te[%c0i] : tensor<4xi32>", ""),
        ("vector", "%vv = vector.broadcast %n : i32 to vector<4xi32>\n%fv = vector.extract %vv[0] : i32 from vector<4xi32>", ""),
        ("func.call", "%fv = func.call @ext() : () -> i32", "  func.func private @ext() -> i32\n"),
        ("tt.call undefined", "%fv = tt.call @nowhere() : () -> i32", ""),
        ("index", "%ic = index.constant 3\n%fv = index.casts %ic : index to i32", ""),
        ("math.ctlz", "%fv = math.ctlz %n : i32", ""),
        ("complex", "%cc = complex.constant [1.0 : f32, 2.0 : f32] : complex<f32>\n%cr = complex.re %cc : complex<f32>\n"
                    "%fv = arith.fptosi %cr : f32 to i32", ""),
        ("gpu.barrier", "gpu.barrier\n%fv = arith.constant 0 : i32", ""),
        ("nvvm.barrier0", "nvvm.barrier0\n%fv = arith.constant 0 : i32", ""),
        ("rocdl.barrier", "rocdl.barrier\n%fv = arith.constant 0 : i32", ""),
        ("llvm.store", cast.format(p="%z") + "\n%lv = llvm.mlir.constant(1 : i32) : i32\nllvm.store %lv, %lp : i32, !llvm.ptr\n"
                       "%fv = arith.constant 0 : i32", ""),
        ("llvm.intr.trap", "llvm.intr.trap\n%fv = arith.constant 0 : i32", ""),
        ("llvm.intr.debugtrap", "llvm.intr.debugtrap\n%fv = arith.constant 0 : i32", ""),
        ("gpu.printf", 'gpu.printf "x %d\\n", %n : i32\n%fv = arith.constant 0 : i32', ""),
        ("cf.assert", '%tr = arith.constant true\ncf.assert %tr, "m"\n%fv = arith.constant 0 : i32', ""),
        ("llvm.call_intrinsic x86 pause", 'llvm.call_intrinsic "llvm.x86.sse2.pause"() : () -> ()\n%fv = arith.constant 0 : i32', ""),
        ("nvvm.bar.warp.sync", "nvvm.bar.warp.sync %n : i32\n%fv = arith.constant 0 : i32", ""),
        ("memref.store", "%ma = memref.alloca() : memref<4xi32>\n%c0i = arith.constant 0 : index\n"
                         "memref.store %n, %ma[%c0i] : memref<4xi32>\n%fv = arith.constant 0 : i32", ""),
        ("llvm.unreachable in scf.if", "%tr = arith.constant false\nscf.if %tr {\n  llvm.unreachable\n}\n"
                                       "%fv = arith.constant 0 : i32", ""),
    ]


INLINE_ASM = ["mov.b32 $0, $1;", "add.s32 $0, $1, $2;", "mov.b32 $0, $5;", "mov.b32 $0, $3;", "$", "$$", "${1}",
              "$-1", "mov.b32 $0, $99999999999999999999;", "mov.b32 $0, %tid.x;", "", ";;;;", "{ .reg .b32 t; }",
              "\\0A", "mov.b32 $0, $1; $1", "trap;", "exit;", "bar.sync 0;", "movl $1, $0", "nop",
              "mov.b32 $0, $1;\\0A}", "{", "}", "$0$0$0$0", "mov.b32 $1, $0;"]
INLINE_CONS = ["=r,r", "=r,r,r", "=r", "", "=r,=r,r", "r", "=f,f", "=l,l", "=h,h", "=c,c", "=r,0", "=&r,r",
               "=r,m", "=q,,", "=r,r,r,r,r,r", ",", "=", "=r,r,", "=*m,r"]


def asm_max_operand(asm):
    nums = [int(m) for m in re.findall(r"\$(\d+)", asm.replace("$$", "")) if len(m) < 30]
    big = any(len(m) >= 30 for m in re.findall(r"\$(\d+)", asm))
    return (10 ** 30 if big else max(nums)) if nums or big else -1


class EdgeStrategy:
    name = "edge"

    def __init__(self, env):
        self.env = env
        self.templates = [(4, self.t_names), (4, self.t_shapes), (3, self.t_nesting), (5, self.t_dtypes),
                          (4, self.t_foreign), (4, self.t_inline_asm), (3, self.t_misc), (2, self.t_parser),
                          (2, self.t_shape_ops)]

    def generate(self, rng, index):
        fn = pick_weighted(rng, self.templates)
        case = fn(rng)
        case.strategy = self.name
        return case

    @staticmethod
    def _case(klass, what, text, cmds, tag, timeout=None):
        return Case("edge", klass, what, {"kernel.ttir": text.encode()}, cmds=cmds, main="kernel.ttir",
                    tag=tag, timeout=timeout)

    def t_names(self, rng):
        name = rng.choice(KERNEL_NAMES)
        text = kernel1d(name=name, n=rng.choice([16, 128, 1024]))
        cmd = pick_weighted(rng, [
            (4, ["tpx-compile", "%s", "--target", "sm_90a", "--no-cache", "-o", "%t/out.cubin"]),
            (2, ["tpx-compile", "%s", "--target", "sm_90a", "--stop-after", "ptx", "-o", "%t/out.ptx"]),
            (2, ["tpx-compile", "%s", "--target", "cpu", "--no-cache", "-o", "%t/out.o"]),
            (1, ["tpx-compile", "%s", "--target", "sm_90a", "--stop-after", "llir", "--dump-dir", "%t/d", "-o", "%t/o.mlir"]),
        ])
        return self._case("kernel-names", f"kernel named @{name[:40]}", text, [Cmd(cmd)], "name")

    def t_shapes(self, rng):
        if rng.random() < 0.3:
            M, N, K = (rng.choice([1, 2, 8, 16, 32, 64, 128, 256, 512, 2048]) for _ in range(3))
            ta, tc = rng.choice([("f16", "f32"), ("bf16", "f32"), ("f32", "f32"), ("i8", "i32"),
                                 ("f8E4M3FN", "f32"), ("f8E5M2", "f32"), ("f16", "f16"), ("f64", "f64"),
                                 ("i32", "i32"), ("i1", "i32")])
            prec = rng.choice(["tf32", "ieee", "tf32x3"])
            text = dot_kernel(M, N, K, ta, tc, prec)
            big = max(M * N, M * K, K * N) > TRITON_MAX_NUMEL
            what = f"tt.dot {M}x{N}x{K} {ta}->{tc} {prec}"
            tag = "dot-shape"
        else:
            n = rng.choice([1, 2, 4, 3, 5, 1000, 0, 1 << 16, 1 << 17, 1 << 20, 1 << 21, 1 << 22, 1 << 24])
            t = rng.choice(["f32", "f16", "i32", "i8", "f64", "i1", "bf16"])
            text = kernel1d(n=n, t=t)
            big = n > TRITON_MAX_NUMEL
            what = f"1-D tensor<{n}x{t}>"
            tag = "tensor-size"
        target = rng.choice(["sm_90a", "sm_90a", "cpu"])
        stop = rng.choice([None, None, "ptx", "ttgir"] if target != "cpu" else [None, "llir"])
        argv = ["tpx-compile", "%s", "--target", target]
        argv += ["--stop-after", stop, "-o", "%t/out"] if stop else ["--no-cache", "-o", "%t/out"]
        # The limit may be checked in any stage up to code generation: only runs that get there must fail.
        expect = "reject" if big and target != "cpu" and stop in (None, "ptx") else "no-crash"
        return self._case("compile-limits", what + f" on {target}", text, [Cmd(argv, expect)],
                          f"{tag}{'-over-limit' if big else ''}-{target}")

    def t_nesting(self, rng):
        kind = rng.choice(["for", "for", "if"])
        depth = pick_weighted(rng, [(6, rng.randint(1, 8)), (3, rng.randint(9, 16)), (1, rng.randint(17, 30))])
        n = rng.choice([4, 128, 1024])
        text = kernel1d(n=n, body=nested_for(depth, n, kind))
        cmd = compile_cmd(rng, weights=lambda c: "tpx-opt" not in c[0])
        return self._case("compile-limits", f"{depth} nested scf.{kind} carrying tensor<{n}xf32>", text, [cmd],
                          f"nested-scf.{kind}")

    def t_dtypes(self, rng):
        kind = rng.choice(["bin", "un", "cast", "const", "reduce", "scan", "atomic", "atomic-scalar", "cas", "tt-ops"])
        n = rng.choice([4, 128, 1024])
        t = rng.choice(FLOAT_T + INT_T)
        fl = t in FLOAT_T
        T = f"tensor<{n}x{t}>"
        out_t = None
        what = ""
        if kind == "bin":
            op = rng.choice(FLOAT_BIN if fl else INT_BIN)
            body = f"%res = arith.{op} %xv, %yv : {T}"
            what = f"arith.{op} on {T}"
        elif kind == "un":
            op = rng.choice(FLOAT_UN if fl else INT_UN)
            body = f"%res = math.{op} %xv : {T}"
            if rng.random() < 0.2 and fl:
                body = f"%res = math.fma %xv, %yv, %xv : {T}"
                op = "fma"
            what = f"math.{op} on {T}"
        elif kind == "cast":
            t2 = rng.choice(FLOAT_T + INT_T)
            f2 = t2 in FLOAT_T
            bits = lambda ty: {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "f16": 16, "bf16": 16,
                               "f32": 32, "f64": 64, "f8E4M3FN": 8, "f8E5M2": 8}[ty]
            if fl and f2:
                op = "extf" if bits(t2) > bits(t) else "truncf"
            elif fl:
                op = rng.choice(["fptosi", "fptoui"])
            elif f2:
                op = rng.choice(["sitofp", "uitofp"])
            else:
                op = "extsi" if bits(t2) > bits(t) else "trunci"
            if rng.random() < 0.3:
                op = rng.choice(["bitcast", "extf", "truncf", "extui", "trunci", "sitofp", "fptosi"])
            out_t = t2
            body = f"%res = arith.{op} %xv : {T} to tensor<{n}x{t2}>"
            what = f"arith.{op} {t}->{t2}"
        elif kind == "const":
            op = rng.choice(FLOAT_BIN if fl else INT_BIN)
            v = float_bits_const(t, rng.choice(FLOAT_CONSTS)) if fl else (
                rng.choice(["true", "false"]) if t == "i1" else str(rng.choice(EDGE_INTS[:28])))
            body = f"%k = arith.constant dense<{v}> : {T}\n%res = arith.{op} %xv, %k : {T}"
            if rng.random() < 0.5:
                body = f"%k = arith.constant dense<{v}> : {T}\n%res = arith.{op} %k, %k : {T}"
            what = f"arith.{op} with constant {v} : {t}"
        elif kind in ("reduce", "scan"):
            op = rng.choice(FLOAT_BIN if fl else INT_BIN)
            comb = f"""^bb0(%a: {t}, %a2: {t}):
%s = arith.{op} %a, %a2 : {t}
tt.{kind}.return %s : {t}"""
            if kind == "reduce":
                body = f"""%r0 = "tt.reduce"(%xv) <{{axis = 0 : i32}}> ({{
{comb}
}}) : ({T}) -> {t}
%res = tt.splat %r0 : {t} -> {T}"""
            else:
                body = f"""%res = "tt.scan"(%xv) <{{axis = 0 : i32, reverse = {rng.choice(['false', 'true'])}}}> ({{
{comb}
}}) : ({T}) -> {T}"""
            what = f"tt.{kind} with arith.{op} on {T}"
        elif kind in ("atomic", "atomic-scalar"):
            rmw = rng.choice(["and", "or", "xor", "add", "fadd", "max", "min", "umax", "umin", "exch"])
            sem = rng.choice(["relaxed", "acquire", "release", "acq_rel"])
            scope = rng.choice(["gpu", "cta", "sys"])
            if kind == "atomic":
                body = (f"%res = tt.atomic_rmw {rmw}, {sem}, {scope}, %zp, %xv, %mask : "
                        f"(tensor<{n}x!tt.ptr<{t}>>, {T}, tensor<{n}xi1>) -> {T}")
            else:
                v = "true" if t == "i1" else ("1.000000e+00" if fl else "1")
                body = (f"%sv = arith.constant {v} : {t}\n"
                        f"%old = tt.atomic_rmw {rmw}, {sem}, {scope}, %z, %sv : (!tt.ptr<{t}>, {t}) -> {t}\n"
                        f"%res = tt.splat %old : {t} -> {T}")
            what = f"tt.atomic_rmw {rmw} {sem} {scope} on {t} ({kind})"
        elif kind == "cas":
            sem = rng.choice(["relaxed", "acquire", "release", "acq_rel"])
            body = (f"%res = tt.atomic_cas {sem}, gpu, %zp, %xv, %yv : "
                    f"(tensor<{n}x!tt.ptr<{t}>>, {T}, {T}) -> {T}")
            what = f"tt.atomic_cas {sem} on {t}"
        else:
            opts = [f"%res = tt.precise_sqrt %xv : {T}", f"%res = tt.precise_divf %xv, %yv : {T}",
                    f"%res = tt.mulhiui %xv, %yv : {T}",
                    f"%res = tt.clampf %xv, %yv, %xv, propagateNan = {rng.choice(['none', 'all'])} : {T}",
                    f"%res = tt.bitcast %xv : {T} -> {T}",
                    f"%res = tt.extern_elementwise %xv, %yv {{libname = \"\", libpath = \"\", pure = true, "
                    f"symbol = \"{rng.choice(['__nv_powf', '__nv_bogus', 'sinf', ''])}\"}} : ({T}, {T}) -> {T}"]
            t2 = rng.choice(FLOAT_T)
            opts.append(f"%res = tt.fp_to_fp %xv{rng.choice(['', ', rounding = rtne', ', rounding = rtz'])} : "
                        f"{T} -> tensor<{n}x{t2}>")
            body = rng.choice(opts)
            if "fp_to_fp" in body:
                out_t = t2
            what = body.split("=", 1)[1].split(" %")[0].strip() + f" on {t}"
        text = kernel1d(n=n, t=t, body=body, out_t=out_t)
        klass = "codegen-ops" if kind.startswith("atomic") else "dtypes"
        return self._case(klass, what, text, [compile_cmd(rng)], f"{kind}-{what.split(' on ')[0][:40]}")

    def t_foreign(self, rng):
        label, pre, decls = rng.choice(foreign_ops())
        text = kernel1d(pre=pre + "\n%nn = arith.addi %n, %fv : i32", nval="%nn", decls=decls)
        cmd = compile_cmd(rng, weights=lambda c: "tpx-opt" not in c[0])
        return self._case("codegen-ops", f"foreign op {label} in a kernel", text, [cmd], f"foreign-{label}")

    def t_inline_asm(self, rng):
        n = rng.choice([4, 128, 1024])
        asm = rng.choice(INLINE_ASM)
        cons = rng.choice(INLINE_CONS)
        nops = rng.choice([0, 1, 1, 2, 3])
        packed = rng.choice([1, 1, 1, 1, 1, 2, 4, 0, 3, -1, 1024])
        pure = rng.choice(["true", "false"])
        operands = ", ".join(["%xv", "%yv", "%xv"][:nops])
        types = ", ".join([f"tensor<{n}xi32>"] * nops)
        body = (f'%res = tt.elementwise_inline_asm "{asm}" {{constraints = "{cons}", packed_element = {packed} : i32, '
                f'pure = {pure}}} {operands} : {types} -> tensor<{n}xi32>')
        if nops == 0:  # no operands: a scalar result, splat to the tensor
            body = (f'%ia = tt.elementwise_inline_asm "{asm}" {{constraints = "{cons}", packed_element = {packed} : i32, '
                    f'pure = {pure}}} -> i32\n%res = tt.splat %ia : i32 -> tensor<{n}xi32>')
        text = kernel1d(n=n, t="i32", body=body)
        beyond = asm_max_operand(asm) >= 1 + nops
        cmd = compile_cmd(rng, weights=lambda c: "tpx-opt" not in c[0])
        if beyond and "tpx-compile" in cmd.argv[0] and ("--stop-after" not in cmd.argv or "ptx" in cmd.argv):
            cmd.expect = "reject"
        return self._case("inline-asm", f'inline asm "{asm}" constraints "{cons}" with {nops} operands, '
                          f"packed_element {packed}", text, [cmd],
                          "inline-asm-operand-beyond" if beyond else "inline-asm")

    def t_misc(self, rng):
        n = rng.choice([4, 128])
        choice = rng.randrange(12)
        tag = ""
        if choice == 0:
            fmt = rng.choice(["%s", "%n%n%n", "%%", "%d %d %d", "\\0A", "\\00", "x" * 10000, "{}", "%p", "\\22"])
            body = (f'tt.print "{fmt}" {{hex = {rng.choice(["false", "true"])}, isSigned = array<i32: 1>}} : %xv : tensor<{n}xf32>\n'
                    f"%res = arith.addf %xv, %yv : tensor<{n}xf32>")
            text, what, tag = kernel1d(n=n, body=body), f"tt.print with format {fmt[:20]!r}", "print"
        elif choice == 1:
            msg = rng.choice(["%s", "\\22", "\\0A", "", "x" * 10000, "\\00", "%n"])
            body = (f"%ok = arith.cmpf olt, %xv, %yv : tensor<{n}xf32>\n"
                    f'tt.assert %ok, "{msg}" : tensor<{n}xi1>\n%res = arith.addf %xv, %yv : tensor<{n}xf32>')
            text, what, tag = kernel1d(n=n, body=body), f"tt.assert with message {msg[:20]!r}", "assert"
        elif choice == 2:
            text = "module {\n  tt.func private @helper(%x: i32) -> i32 {\n    tt.return %x : i32\n  }\n}\n"
            what, tag = "no public kernel", "no-kernel"
        elif choice == 3:
            text = kernel1d(name="a") + kernel1d(name="b")
            text = text.replace("}\nmodule {\n", "")
            what, tag = "two public kernels in one module", "two-kernels"
        elif choice == 4:
            text = rng.choice(["", "module {\n}\n", "module {\n  tt.func public @k() {\n    tt.return\n  }\n}\n",
                               "tt.func public @k() {\n  tt.return\n}\n"])
            what, tag = f"trivial module {text[:30]!r}", "trivial"
        elif choice == 5:
            text = ("module {\n  tt.func public @rec(%x: !tt.ptr<f32>) {\n    tt.call @rec(%x) : (!tt.ptr<f32>) -> ()\n"
                    "    tt.return\n  }\n}\n")
            what, tag = "self-recursive kernel", "recursion"
        elif choice == 6:
            k = rng.choice([64, 300, 1000, 5000])
            args = "".join(f", %a{i}: i32" for i in range(k))
            text = kernel1d(n=n, args_extra=args)
            what, tag = f"kernel with {k + 4} arguments", "many-args"
        elif choice == 7:
            ty = rng.choice(["i1", "i64", "f64", "f16", "bf16", "!tt.ptr<!tt.ptr<f32>>", "!tt.ptr<i1>", "index",
                             "tensor<4xf32>", "!tt.ptr<f32, 3>", "!tt.ptr<f32, 7>", "vector<4xf32>", "none", "memref<4xf32>"])
            text = kernel1d(n=n, args_extra=f", %w: {ty}")
            what, tag = f"kernel argument of type {ty}", "arg-type"
        elif choice == 8:
            s, e = rng.choice([(4, 0), (-4, 4), (0, 3), (1, 5), (0, 0), (2147483600, 2147483632), (0, 1 << 20)])
            body = (f"%mr = tt.make_range {{end = {e} : i32, start = {s} : i32}} : tensor<{abs(e - s) or 1}xi32>\n"
                    f"%res = arith.addf %xv, %yv : tensor<{n}xf32>")
            text, what, tag = kernel1d(n=n, body=body), f"make_range [{s}, {e})", "make-range"
        elif choice == 9:
            axis = rng.choice(["x", "y", "z"])
            body = (f"%np = tt.get_num_programs {axis} : i32\n%nps = tt.splat %np : i32 -> tensor<{n}xi32>\n"
                    f"%npf = arith.sitofp %nps : tensor<{n}xi32> to tensor<{n}xf32>\n%res = arith.addf %xv, %npf : tensor<{n}xf32>")
            text, what, tag = kernel1d(n=n, body=body), f"tt.get_num_programs {axis}", "num-programs"
        elif choice == 10:
            attr = rng.choice(['"ttg.num-warps" = 1024 : i32', '"ttg.num-warps" = 0 : i32', 'tpx.pipeline = "garbage"',
                               'tpx.pipeline = ["x", "y"]', 'tpx.pipeline = 5 : i32', '"ttg.threads-per-warp" = 7 : i32',
                               '"ttg.num-ctas" = 0 : i32', '"ttg.target" = "cuda:1"'])
            text = kernel1d(n=n).replace("module {", f"module attributes {{{attr}}} {{", 1)
            what, tag = f"module attribute {attr}", "module-attr"
        else:
            body = (f"%cz = arith.constant 0 : i32\n%czs = tt.splat %cz : i32 -> tensor<{n}xi32>\n"
                    f"%bad = tt.addptr %xa, %czs : tensor<{n}x!tt.ptr<f32>>, tensor<{n}xi32>\n"
                    f"%lv = tt.load %bad, %mask, %yv {rng.choice(['', 'cacheModifier = ca', 'evictionPolicy = evict_last', 'isVolatile = true'])} : tensor<{n}x!tt.ptr<f32>>\n"
                    f"%res = arith.addf %lv, %yv : tensor<{n}xf32>")
            text, what, tag = kernel1d(n=n, body=body), "tt.load with other/cache/eviction attributes", "load-attrs"
        return self._case("edge-misc", what, text, [compile_cmd(rng)], tag)

    def t_parser(self, rng):
        depth = rng.choice([100, 1000, 10000, 50000, 100000])
        kind = rng.choice(["attr", "type", "region", "loc", "chain", "rank"])
        if kind == "attr":
            text = ("module {\n  tt.func public @k() attributes {a = " + "[" * depth + "]" * depth + "} {\n"
                    "    tt.return\n  }\n}\n")
        elif kind == "type":
            ty = "!tt.ptr<" * depth + "f32" + ">" * depth
            text = f"module {{\n  tt.func public @k(%p: {ty}) {{\n    tt.return\n  }}\n}}\n"
        elif kind == "region":
            depth = min(depth, 20000)
            text = ("module {\n  tt.func public @k(%p: !tt.ptr<f32>) {\n    %t = arith.constant true\n"
                    + "    scf.if %t {\n" * depth + "    }\n" * depth + "    tt.return\n  }\n}\n")
        elif kind == "loc":
            loc = '"f.py":1:1'
            for _ in range(depth):
                loc = f'callsite({loc} at "g.py":2:2)'
            text = f"module {{\n  tt.func public @k() {{\n    tt.return loc({loc})\n  }}\n}}\n"
        elif kind == "chain":
            lines = ["%v0 = tt.load %p : !tt.ptr<f32>"]
            for i in range(1, depth):
                lines.append(f"%v{i} = arith.addf %v{i - 1}, %v0 : f32")
            text = ("module {\n  tt.func public @k(%p: !tt.ptr<f32>) {\n    " + "\n    ".join(lines)
                    + f"\n    tt.store %p, %v{depth - 1} : !tt.ptr<f32>\n    tt.return\n  }}\n}}\n")
        else:
            rank = min(depth, 5000)
            ty = "tensor<" + "1x" * rank + "f32>"
            text = f"module {{\n  tt.func public @k() {{\n    %c = arith.constant dense<1.0> : {ty}\n    tt.return\n  }}\n}}\n"
        cmd = pick_weighted(rng, [(2, ["tpx-opt", "%s", "-o", "%t/out.mlir"]),
                                  (2, ["tpx-compile", "%s", "--target", "cpu", "--no-cache", "-o", "%t/out.o"]),
                                  (1, ["tpx-compile", "%s", "--target", "sm_90a", "--stop-after", "ptx", "-o", "%t/o.ptx"])])
        return self._case("parser-limits", f"{kind} nested/repeated {depth} deep", text, [Cmd(cmd)], f"deep-{kind}")

    def t_shape_ops(self, rng):
        n = rng.choice([4, 16, 128, 1024])
        t = rng.choice(["f32", "f16", "i32", "i8", "i1", "f64"])
        T = f"tensor<{n}x{t}>"
        add = "arith.addf" if t[0] == "f" else "arith.addi"
        a = rng.choice([1, 2, 4, n // 2 or 1, n, 3])
        b = max(1, n // a)
        kind = rng.choice(["join-split", "reshape-trans", "cat", "histogram", "broadcast", "expand-reduce"])
        if kind == "join-split":
            body = (f"%j = tt.join %xv, %yv : {T} -> tensor<{n}x2x{t}>\n"
                    f"%p, %q = tt.split %j : tensor<{n}x2x{t}> -> {T}\n%res = {add} %p, %q : {T}")
        elif kind == "reshape-trans":
            body = (f"%r1 = tt.reshape %xv : {T} -> tensor<{a}x{b}x{t}>\n"
                    f"%tr = tt.trans %r1 {{order = array<i32: 1, 0>}} : tensor<{a}x{b}x{t}> -> tensor<{b}x{a}x{t}>\n"
                    f"%res = tt.reshape %tr : tensor<{b}x{a}x{t}> -> {T}")
        elif kind == "cat":
            body = (f"%cc = tt.cat %xv, %yv : {T} -> tensor<{2 * n}x{t}>\n"
                    f"%c2 = tt.reshape %cc : tensor<{2 * n}x{t}> -> tensor<2x{n}x{t}>\n"
                    f"%res = \"tt.reduce\"(%c2) <{{axis = 0 : i32}}> ({{\n^bb0(%e: {t}, %f: {t}):\n"
                    f"%s = {add} %e, %f : {t}\ntt.reduce.return %s : {t}\n}}) : (tensor<2x{n}x{t}>) -> {T}")
        elif kind == "histogram":
            bins = rng.choice([1, 2, 16, 1024, 3, 0])
            body = (f"%xi = arith.fptosi %xv : tensor<{n}xf32> to tensor<{n}xi32>\n"
                    f"%h = tt.histogram %xi : tensor<{n}xi32> -> tensor<{bins}xi32>\n"
                    f"%res = arith.addf %xv, %yv : tensor<{n}xf32>\n"
                    f"%hp = tt.splat %z : !tt.ptr<f32> -> tensor<{bins}x!tt.ptr<f32>>\n"
                    f"%hf = arith.sitofp %h : tensor<{bins}xi32> to tensor<{bins}xf32>\n"
                    f"%hr = tt.make_range {{end = {bins} : i32, start = 0 : i32}} : tensor<{bins}xi32>\n"
                    f"%ha = tt.addptr %hp, %hr : tensor<{bins}x!tt.ptr<f32>>, tensor<{bins}xi32>\n"
                    f"tt.store %ha, %hf : tensor<{bins}x!tt.ptr<f32>>")
            t, T, add = "f32", f"tensor<{n}xf32>", "arith.addf"
        elif kind == "broadcast":
            body = (f"%e = tt.expand_dims %xv {{axis = {rng.choice([0, 1, 2, -1])} : i32}} : {T} -> tensor<{n}x1x{t}>\n"
                    f"%bb = tt.broadcast %e : tensor<{n}x1x{t}> -> tensor<{n}x{a}x{t}>\n"
                    f"%res = \"tt.reduce\"(%bb) <{{axis = 1 : i32}}> ({{\n^bb0(%e1: {t}, %f1: {t}):\n"
                    f"%s = {add} %e1, %f1 : {t}\ntt.reduce.return %s : {t}\n}}) : (tensor<{n}x{a}x{t}>) -> {T}")
        else:
            body = (f"%e = tt.expand_dims %xv {{axis = 0 : i32}} : {T} -> tensor<1x{n}x{t}>\n"
                    f"%res = \"tt.reduce\"(%e) <{{axis = {rng.choice([0, 1, 2])} : i32}}> ({{\n^bb0(%e1: {t}, %f1: {t}):\n"
                    f"%s = {add} %e1, %f1 : {t}\ntt.reduce.return %s : {t}\n}}) : (tensor<1x{n}x{t}>) -> {T}")
        text = kernel1d(n=n, t=t, body=body)
        return self._case("dtypes", f"shape op {kind} on {T} (a={a})", text, [compile_cmd(rng)], f"shape-{kind}")


# ---------------------------------------------------------------------------
# Strategy: case -- bad case.json folders for tpx-run
# ---------------------------------------------------------------------------
def load_case_dir(path):
    files = {}
    for p in sorted(Path(path).iterdir()):
        if p.is_file():
            files[p.name] = p.read_bytes()
    return files


class CaseStrategy:
    name = "case"
    SMALL = ["vadd_f32", "saxpy_i32", "histogram_atomic", "collatz_while", "cumsum_rows", "call_helper",
             "transpose_tile", "softmax_f32", "elementwise_zoo"]

    def __init__(self, env):
        self.env = env
        self.bases = [("fuzz/inputs/tiny-case", load_case_dir(INPUTS_DIR / "tiny-case"))]
        if env.corpus:
            for name in self.SMALL:
                d = env.corpus / name
                if (d / "case.json").is_file():
                    self.bases.append((f"corpus/{name}", load_case_dir(d)))
        self.mut = Mutator([f["kernel.ttir"].decode() for _, f in self.bases if "kernel.ttir" in f])

    # Each mutation edits (obj, files, gen) in place and returns (description, must_reject).
    def m_grid(self, rng, obj, files, gen):
        v = rng.choice([[-1, 1, 1], [4294967297, 1, 1], ["10", 1, 1], [10.5, 1, 1], None, [1, 1], [1, 1, 1, 1],
                        [2147483648, 1, 1], [1, -5, 1], [1, 1, 4294967296], "grid", {}, [True, 1, 1], [[1], 1, 1],
                        [0, 1, 1], [1, 0, 1], [9223372036854775807, 1, 1], [1e30, 1, 1], [None, 1, 1]])
        if v is None:
            obj.pop("grid", None)
            return "grid missing", True
        obj["grid"] = v
        valid = isinstance(v, list) and len(v) == 3 and all(type(x) is int and 0 <= x < 2 ** 31 for x in v)
        return f"grid {json.dumps(v)}", not valid

    def m_warps(self, rng, obj, files, gen):
        key = rng.choice(["num_warps", "num_stages"])
        v = rng.choice([0, 3, 64, -1, 4294967296, 4294967300, "4", 4.5, None, True, 1, 2, 8, 32, 1024, -2147483648])
        if v is None:
            obj.pop(key, None)
            return f"{key} missing", False
        obj[key] = v
        if type(v) is not int:
            return f"{key} {json.dumps(v)}", True
        if key == "num_warps":
            ok = 1 <= v <= 32 and (v & (v - 1)) == 0
            bad = v <= 0 or v > 1024
        else:
            ok = 0 <= v <= 16
            bad = v < 0 or v > 1024
        return f"{key} {v}", bad and not ok

    def _buffers(self, obj):
        args = obj.get("args") if isinstance(obj.get("args"), list) else []
        return [a for a in args if isinstance(a, dict) and a.get("kind") == "buffer"]

    def _scalars(self, obj):
        args = obj.get("args") if isinstance(obj.get("args"), list) else []
        return [a for a in args if isinstance(a, dict) and a.get("kind") == "scalar"]

    def m_args(self, rng, obj, files, gen):
        args = obj.get("args")
        if not isinstance(args, list) or not args:
            return "args untouched", False
        c = rng.randrange(7)
        if c == 0:
            i = rng.randrange(len(args))
            del args[i]
            return f"args[{i}] deleted", True
        if c == 1:
            i = rng.randrange(len(args))
            args.insert(i, copy.deepcopy(args[i]))
            return f"args[{i}] duplicated", True
        if c == 2:
            i, j = rng.randrange(len(args)), rng.randrange(len(args))
            args[i], args[j] = args[j], args[i]
            same = isinstance(args[i], dict) and isinstance(args[j], dict) and args[i].get("kind") == args[j].get("kind")
            return f"args[{i}] and args[{j}] swapped", not same and i != j
        if c == 3:
            obj["args"] = rng.choice([[], {}, "args", None, [1], [[]]])
            return f"args {json.dumps(obj['args'])}", True
        if c == 4:
            i = rng.randrange(len(args))
            args[i]["kind"] = rng.choice(["tensor", "", None, 5, "Buffer", "scalar " ])
            return f"args[{i}].kind {json.dumps(args[i]['kind'])}", True
        if c == 5:
            i = rng.randrange(len(args))
            args[i].pop("kind", None)
            return f"args[{i}].kind missing", True
        obj.pop("args")
        return "args missing", True

    def m_buffer(self, rng, obj, files, gen):
        bufs = self._buffers(obj)
        if not bufs:
            return "no buffer", False
        b = rng.choice(bufs)
        c = rng.randrange(10)
        if c == 0:
            b["dtype"] = rng.choice(["q7", "", "f128", "F32", "float", 5, None, "i4", "f8e4m3fn", "tf32"])
            return f"buffer dtype {json.dumps(b['dtype'])}", True
        if c == 1:
            b["shape"] = rng.choice([["10"], [-1], [10.5], [None], "10", 10, [4294967296, 4294967296],
                                     [1 << 62], [-1, -1], [9223372036854775807], [[]], [True]])
            return f"buffer shape {json.dumps(b['shape'])}", True
        if c == 2:
            b["shape"] = rng.choice([[], [0], [1]])
            return f"buffer shape {json.dumps(b['shape'])}", False
        if c == 3:
            key = rng.choice(["input", "expected"]) if "expected" in b else "input"
            v = rng.choice(["/etc/hostname", "../kernel.ttir", "../../etc/passwd", "", ".", "/dev/zero",
                            "/dev/urandom", "nonexistent.bin", "fifo.bin", "sub/../" + b.get("input", "x"),
                            "kernel.ttir", None, 7])
            if v == "fifo.bin":
                gen["c/fifo.bin"] = {"kind": "fifo"}
            b[key] = v
            return f"buffer {key} {json.dumps(v)}", True
        if c == 4:
            b["tolerance"] = rng.choice([{"rtol": "x", "atol": 0}, {"rtol": None}, {"rtol": -1, "atol": -1},
                                         "tight", [0.1, 0.1], {"rtol": 1e400 if False else 1e308, "atol": 1e308},
                                         {"atol": True}])
            reject = not (isinstance(b["tolerance"], dict) and all(
                type(v) in (int, float) and v >= 0 for v in b["tolerance"].values()))
            if "expected" not in b:
                b["expected"] = b.get("input")
            return f"tolerance {json.dumps(b['tolerance'])}", reject
        if c == 5:
            b.pop(rng.choice(["dtype", "shape", "input"]), None)
            return "buffer field missing", True
        if c == 6:
            if "expected" in b and isinstance(b["expected"], str) and ("c/" + b["expected"]) in files:
                data = files["c/" + b["expected"]]
                files["c/" + b["expected"]] = data[: rng.randrange(max(1, len(data)))]
                return "expected file truncated", True
        if c == 7:
            inp = b.get("input")
            if isinstance(inp, str) and ("c/" + inp) in files:
                data = files["c/" + inp]
                files["c/" + inp] = rng.choice([data[:-1], data + b"\x00", b""])
                return "input file size changed", True
        if c == 8:
            b["expected"] = rng.choice([7, None, [], b.get("input")])
            return f"expected {json.dumps(b['expected'])}", b["expected"] != b.get("input")
        dt = rng.choice(["f32", "i32", "f16", "u8", "i64", "bf16"])
        b["dtype"] = dt
        return f"buffer dtype -> {dt}", False

    def m_scalar(self, rng, obj, files, gen):
        sc = self._scalars(obj)
        if not sc:
            return "no scalar", False
        s = rng.choice(sc)
        c = rng.randrange(5)
        if c == 0:
            s["type"] = rng.choice(["q7", "", "float", "I32", "u1", "f128", None, 3])
            return f"scalar type {json.dumps(s['type'])}", True
        if c == 1:
            s["value"] = rng.choice(["10", None, [], {}, 1.5, 2 ** 70, -2 ** 70, 1e308, "nan"])
            isf = str(s.get("type", "")).startswith(("f", "bf"))
            ok = (type(s["value"]) in (int, float) and abs(s["value"]) < 2 ** 31) if isf else (
                type(s["value"]) is int and -2 ** 31 <= s["value"] < 2 ** 32)
            return f"scalar value {json.dumps(s['value'])}", not ok
        if c == 2:
            s["expected"] = "arg0.out.bin"
            s["tolerance"] = {"rtol": 0, "atol": 0}
            return "expected on a scalar", True
        if c == 3:
            s.pop(rng.choice(["type", "value"]))
            return "scalar field missing", True
        s["kind"] = "buffer"
        return "scalar turned into buffer", True

    def m_name(self, rng, obj, files, gen):
        v = rng.choice(["a\nb", "a\rb", "\u0000", "x" * 100000, 5, None, "", "PASS", "a b", "\u00e9", "\u2028"])
        obj["name"] = v
        # Names with control characters are accepted and printed escaped:
        # every tpx-run verdict must stay one line (checked for all runs).
        bad = not isinstance(v, str)
        return f"name {json.dumps(v)[:30]}", bad and v is not None

    def m_json_text(self, rng, obj, files, gen):
        text = json.dumps(obj, indent=1)
        c = rng.randrange(8)
        if c == 0:
            files["c/case.json"] = text[: rng.randrange(len(text))].encode()
            return "case.json truncated", True
        if c == 1:
            files["c/case.json"] = (text + rng.choice(["x", "}", ",", "\x00"])).encode()
            return "case.json trailing garbage", True
        if c == 2:
            depth = rng.choice([1000, 10000, 50000, 200000])
            del files["c/case.json"]
            gen["c/case.json"] = {"kind": "repeat", "parts": ['{"args": ', ["[", depth], ["]", depth], "}"]}
            return f"case.json nested {depth} deep", True
        if c == 3:
            files["c/case.json"] = rng.choice([b"[]", b"5", b'"x"', b"null", b"", b"\xef\xbb\xbf{}", b"\xff\xfe",
                                               b"{\"args\": []} // c"])
            return f"case.json is {files['c/case.json'][:12]!r}", True
        if c == 4:
            i = rng.randrange(len(text))
            files["c/case.json"] = (text[:i] + rng.choice(["\xff", "\\", '"', "\x00", "[", "{"]) + text[i:]).encode(
                "utf-8", "surrogateescape")
            return f"case.json byte inserted at {i}", False
        if c == 5:
            del files["c/case.json"]
            gen["c/case.json"] = rng.choice([{"kind": "symlink", "target": "/dev/zero"}, {"kind": "fifo"},
                                             {"kind": "dir"}, {"kind": "symlink", "target": "/dev/urandom"},
                                             {"kind": "symlink", "target": "case.json"}])
            return f"case.json is a special file ({json.dumps(gen['c/case.json'])})", True
        if c == 6:
            del files["c/case.json"]
            return "case.json missing", True
        text2 = text.replace('"grid"', '"grid": [1,1,1], "grid"', 1)
        files["c/case.json"] = text2.encode()
        return "duplicate key", False

    def m_kernel(self, rng, obj, files, gen):
        c = rng.randrange(4)
        if c == 0:
            files.pop("c/kernel.ttir", None)
            gen["c/kernel.ttir"] = rng.choice([{"kind": "dir"}, {"kind": "fifo"}, {"kind": "symlink", "target": "/dev/zero"},
                                               {"kind": "symlink", "target": "nowhere"}])
            return f"kernel.ttir is {json.dumps(gen['c/kernel.ttir'])}", True
        if c == 1:
            files.pop("c/kernel.ttir", None)
            return "kernel.ttir missing", True
        text = files.get("c/kernel.ttir", b"").decode("utf-8", "replace")
        mutated, log = self.mut.mutate(rng, text)
        files["c/kernel.ttir"] = mutated.encode()
        return f"kernel.ttir mutated ({log})", False

    MUTATIONS = [(3, m_grid), (3, m_warps), (3, m_args), (4, m_buffer), (3, m_scalar), (1, m_name),
                 (3, m_json_text), (3, m_kernel)]

    def generate(self, rng, index):
        base_name, base = rng.choice(self.bases)
        files = {"c/" + k: v for k, v in base.items()}
        gen = {}
        obj = json.loads(base["case.json"])
        log, reject, first_bad = [], False, None
        muts = [pick_weighted(rng, self.MUTATIONS) for _ in range(rng.choice([1, 1, 1, 2]))]
        # The same mutator twice could undo the first edit (a bad num_stages
        # overwritten by a good one) while the verdict still expects a reject.
        muts = list(dict.fromkeys(muts))
        muts.sort(key=lambda m: m.__name__ == "m_json_text")  # text-level edits go last
        for m in muts:
            if m.__name__ == "m_json_text":
                files["c/case.json"] = json.dumps(obj, indent=1).encode()
            desc, rej = m(self, rng, obj, files, gen)
            log.append(desc)
            reject = reject or rej
            if rej and first_bad is None:
                first_bad = desc
            if m.__name__ == "m_json_text":
                break
        else:
            files["c/case.json"] = json.dumps(obj, indent=1).encode()
        if "c/case.json" in gen:
            files.pop("c/case.json", None)
        argv = ["tpx-run", "%S/c", "--cpu-threads", "1"]
        tag = "case:" + normalize(first_bad or log[0])[:40]
        return Case(self.name, "case-files", f"{base_name} case: " + "; ".join(log), files, gen,
                    [Cmd(argv, "reject" if reject else "no-crash")], tag=tag)


# ---------------------------------------------------------------------------
# Strategy: plugin -- bad plugin files
# ---------------------------------------------------------------------------
def elf_regions(data):
    """(name, start, end) byte ranges of an ELF64 file that a loader reads first."""
    regions = [("ehdr", 0, min(64, len(data)))]
    if len(data) < 64 or data[:4] != b"\x7fELF" or data[4] != 2:
        return regions
    phoff, = struct.unpack_from("<Q", data, 32)
    shoff, = struct.unpack_from("<Q", data, 40)
    phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", data, 54)
    if phoff and phoff + phnum * phentsize <= len(data):
        regions.append(("phdrs", phoff, phoff + phnum * phentsize))
        for i in range(phnum):
            o = phoff + i * phentsize
            ptype, = struct.unpack_from("<I", data, o)
            poff, = struct.unpack_from("<Q", data, o + 8)
            pfilesz, = struct.unpack_from("<Q", data, o + 32)
            if ptype == 2 and poff + pfilesz <= len(data):  # PT_DYNAMIC
                regions.append(("dynamic", poff, poff + pfilesz))
    if shoff and shoff + shnum * shentsize <= len(data):
        regions.append(("shdrs", shoff, shoff + shnum * shentsize))
    return regions


class PluginStrategy:
    name = "plugin"

    def __init__(self, env):
        self.env = env
        self.sources = sorted(env.plugins)
        self.kernel = (INPUTS_DIR / "copy.mlir").read_bytes()
        self.case = load_case_dir(INPUTS_DIR / "tiny-case")

    def _load_cmd(self, rng, plugin_path, case_files):
        c = rng.randrange(7)
        if c == 0:
            return Cmd(["env", f"TRITON_PLUGIN_PATHS={plugin_path}", "tpx-opt", "%S/kernel.mlir"])
        if c == 1:
            return Cmd(["tpx-compile", "--load-plugin", plugin_path, "%S/kernel.mlir", "--target", "cpu",
                        "--no-cache", "-o", "%t/out.o"])
        if c == 2:
            case_files.update({"case/" + k: v for k, v in self.case.items()})
            return Cmd(["tpx-run", "--load-plugin", plugin_path, "%S/case", "--cpu-threads", "1"])
        if c == 3 and "good" in self.env.plugins:
            return Cmd(["env", f"TRITON_PLUGIN_PATHS=%{{plugin:good}}:{plugin_path}", "tpx-opt", "%S/kernel.mlir"])
        if c == 4:
            return Cmd(["tpx-compile", "--load-plugin", plugin_path, "%S/kernel.mlir", "--target", "sm_90a",
                        "--stop-after", "llir", "-o", "%t/out.mlir"])
        return Cmd(["tpx-opt", "--load-plugin", plugin_path, "%S/kernel.mlir"])

    def generate(self, rng, index):
        files = {"kernel.mlir": self.kernel}
        gen = {}
        c = rng.randrange(12)
        src = rng.choice(self.sources) if self.sources else None
        if src is None:
            c = 9
        fname = "p/plugin.so"
        if c >= 10:
            # Unmodified plugins of the build (including test/Plugin's failure-mode plugins), one or two,
            # through every tool: each must load or fail with a clean error everywhere.
            names = [src] + ([rng.choice(self.sources)] if c == 11 else [])
            path = ":".join(f"%{{plugin:{n}}}" for n in names)
            if len(names) == 1 and rng.random() < 0.5:
                cmd = self._load_cmd(rng, path, files)
            else:
                cmd = rng.choice([Cmd(["env", f"TRITON_PLUGIN_PATHS={path}", "tpx-opt", "%S/kernel.mlir"]),
                                  Cmd(["env", f"TRITON_PLUGIN_PATHS={path}", "tpx-compile", "%S/kernel.mlir",
                                       "--target", rng.choice(["cpu", "sm_90a"]), "--no-cache", "-o", "%t/out"])])
                if rng.random() < 0.4:
                    files.update({"case/" + k: v for k, v in self.case.items()})
                    cmd = Cmd(["env", f"TRITON_PLUGIN_PATHS={path}", "tpx-run", "%S/case", "--cpu-threads", "1"])
            return Case(self.name, "plugin-files", f"unmodified plugin(s) {' + '.join(names)}: {tool_of(cmd.argv)}",
                        files, gen, [cmd], tag="plugin:" + "+".join(names) + ":" + tool_of(cmd.argv))
        if c <= 5:
            data = Path(self.env.plugins[src]).read_bytes()
            spec = {"kind": "derive", "from": f"%{{plugin:{src}}}"}
            regions = elf_regions(data)
            if c == 0:  # truncation
                cut = pick_weighted(rng, [(3, rng.choice([0, 1, 4, 16, 52, 63, 64, 4096, 8192, len(data) - 1])),
                                          (3, rng.randrange(len(data))),
                                          (2, rng.choice([r[1] for r in regions] + [r[2] for r in regions]))])
                spec["truncate"] = cut
                what = f"{src}.so truncated to {cut} of {len(data)} bytes"
                tag = "truncated"
            elif c in (1, 2):  # byte flips in the loader-read regions or anywhere
                if c == 1:
                    name, lo, hi = rng.choice(regions)
                else:
                    name, lo, hi = "anywhere", 0, len(data)
                k = rng.choice([1, 1, 2, 4, 8, 16, 64])
                patches = sorted({(rng.randrange(lo, max(lo + 1, hi)),
                                   rng.choice([0, 0xFF, rng.randrange(256)])) for _ in range(k)})
                spec["patches"] = [list(p) for p in patches]
                what = f"{src}.so with {len(patches)} bytes changed in {name}"
                tag = f"flip-{name}"
            elif c == 3:  # another machine, class, byte order, type, OS ABI
                field, off, vals = rng.choice([("e_machine", 18, [183, 243, 3, 40, 0, 0xFFFF, 190, 8]),
                                               ("EI_CLASS", 4, [1, 0, 3]), ("EI_DATA", 5, [2, 0, 3]),
                                               ("e_type", 16, [1, 2, 4, 0]), ("EI_OSABI", 7, [3, 97, 255]),
                                               ("EI_VERSION", 6, [0, 2]), ("e_version", 20, [0, 2])])
                v = rng.choice(vals)
                spec["patches"] = [[off, v & 0xFF]] + ([[off + 1, v >> 8]] if field in ("e_machine", "e_type") else [])
                what = f"{src}.so with {field} = {v}"
                tag = f"elf-{field}"
            elif c == 4:  # zeroed span
                lo = rng.randrange(len(data))
                n = rng.choice([16, 256, 4096, 65536])
                spec["patches"] = [[i, 0] for i in range(lo, min(len(data), lo + n))][:4096]
                what = f"{src}.so with {len(spec['patches'])} bytes zeroed at {lo}"
                tag = "zeroed"
            else:  # program header fields
                name, lo, hi = next((r for r in regions if r[0] == "phdrs"), regions[0])
                off = rng.randrange(lo, max(lo + 1, hi - 8))
                val = rng.choice([0xFFFFFFFF, 0x7FFFFFFF, 0, 0x1000, 0x10000000])
                spec["patches"] = [[off + i, (val >> (8 * i)) & 0xFF] for i in range(4)]
                what = f"{src}.so program header word at {off} set to {val:#x}"
                tag = "phdr-word"
            gen[fname] = spec
        else:
            special = rng.choice([
                ("symlink /dev/zero", {"kind": "symlink", "target": "/dev/zero"}),
                ("symlink /dev/null", {"kind": "symlink", "target": "/dev/null"}),
                ("symlink /dev/urandom", {"kind": "symlink", "target": "/dev/urandom"}),
                ("a FIFO", {"kind": "fifo"}),
                ("a directory named plugin.so", {"kind": "dir"}),
                ("a dangling symlink", {"kind": "symlink", "target": "nowhere.so"}),
                ("a symlink loop", {"kind": "symlink", "target": "plugin.so"}),
                ("an empty file", {"kind": "sparse", "size": 0}),
                ("a sparse 1 GiB file", {"kind": "sparse", "size": (1 << 30) - 1}),
                ("a shell script", None),
                ("libm.so.6", {"kind": "symlink", "target": "/lib/x86_64-linux-gnu/libm.so.6"}),
                ("tpx-opt executable", {"kind": "symlink", "target": "%{bin}/tpx-opt"}),
                ("a directory with a FIFO in it", "fifo-dir"),
                ("a directory of truncated plugins", "trunc-dir"),
            ])
            what, spec = special
            tag = "special:" + what
            if spec is None:
                files[fname] = b"#!/bin/sh\necho hi\n"
            elif spec == "fifo-dir":
                gen["p/a.so"] = {"kind": "fifo"}
                fname = "p"
            elif spec == "trunc-dir":
                for i, s in enumerate(self.sources[:3]):
                    gen[f"p/t{i}.so"] = {"kind": "derive", "from": f"%{{plugin:{s}}}", "truncate": 4096}
                fname = "p"
            else:
                gen[fname] = spec
            what = f"plugin file is {what}"
        cmd = self._load_cmd(rng, "%S/" + fname, files)
        return Case(self.name, "plugin-files", what, files, gen, [cmd], tag=tag, timeout=None)


# ---------------------------------------------------------------------------
# Strategy: cli -- bad option combinations, overrides, pipeline files, pass order
# ---------------------------------------------------------------------------
STAGES = {"cpu": ["ttir", "llir", "obj"], "nvidia": ["ttir", "ttgir", "llir", "ptx", "cubin"],
          "amd": ["ttir", "ttgir", "llir", "amdgcn", "hsaco"]}


def family(target):
    if target == "cpu":
        return "cpu"
    if re.fullmatch(r"sm_\d+a?", target):
        return "nvidia"
    if re.fullmatch(r"gfx\d+", target):
        return "amd"
    return None


class CliStrategy:
    name = "cli"
    GOOD_TARGETS = ["cpu", "sm_90a", "sm_90", "sm_80", "gfx950"]
    BAD_TARGETS = ["sm_1", "sm_0", "sm_", "sm_-1", "sm_x", "", "x86", "nvptx", "CPU", "sm_999999999999",
                   "gfx", "gfx0", "sm_90a ", "cpu ", "sm_90z", "sm_90a,sm_80", "sm_18446744073709551617",
                   "gfx99999999999999999999"]

    def __init__(self, env):
        self.env = env
        self.kernel = (INPUTS_DIR / "vadd.ttir").read_text()
        self.kernels = [("fuzz/inputs/vadd.ttir", self.kernel)]
        if env.corpus:
            for k in sorted(env.corpus.glob("*/kernel.ttir")):
                self.kernels.append((f"corpus/{k.parent.name}", read_text(k)))
        self.case = load_case_dir(INPUTS_DIR / "tiny-case")
        self.subs = [(3, self.c_warps), (2, self.c_target), (2, self.c_stop), (4, self.c_override),
                     (4, self.c_pipeline_file), (1, self.c_output), (1, self.c_dump_dir), (1, self.c_ext),
                     (1, self.c_run), (4, self.c_pass_order), (1, self.c_opt)]

    def passes(self):
        def make():
            rc, out = self.env.run_quiet(["tpx-opt", "--help"])
            names = re.findall(r"^\s{4,8}--([a-z0-9][a-z0-9-]+)\s", out.decode("utf-8", "replace"), re.M)
            keep = [n for n in names if re.search(r"tpx|(^|-)tt(-|$)|triton|nvvm|nvidia|tpxgpu|cpu", n)]
            return sorted(set(keep))
        return self.env.memo("passes", make)

    def pipeline_text(self, target):
        def make():
            rc, out = self.env.run_quiet(["tpx-compile", "--target", target, "--dump-pipeline", "-o", "-"])
            return out.decode("utf-8", "replace") if rc == 0 else ""
        return self.env.memo(("pipeline", target), make)

    def generate(self, rng, index):
        fn = pick_weighted(rng, self.subs)
        case = fn(rng)
        case.strategy, case.klass = self.name, case.klass or "cli-options"
        return case

    def _case(self, what, cmds, tag, files=None, gen=None, main="kernel.ttir", text=None, klass="cli-options"):
        f = {"kernel.ttir": (text or self.kernel).encode()}
        f.update(files or {})
        return Case(self.name, klass, what, f, gen, cmds, main=main, tag=tag)

    def c_warps(self, rng):
        target = rng.choice(["sm_90a", "sm_90a", "cpu"])
        w = rng.choice([0, 1, 2, 3, 8, 16, 32, 33, 64, 1024, 2147483648, 4294967295])
        s = rng.choice([0, 1, 3, 4, 100, 4294967295]) if rng.random() < 0.4 else 3
        argv = ["tpx-compile", "%s", "--target", target, "--num-warps", str(w), "--num-stages", str(s)]
        argv += rng.choice([["--no-cache", "-o", "%t/out"], ["--stop-after", "ptx", "-o", "%t/out.ptx"]]
                           if target != "cpu" else [["--no-cache", "-o", "%t/out"]])
        bad = target != "cpu" and (w == 0 or w > 32 or (w & (w - 1)) != 0)
        return self._case(f"--num-warps {w} --num-stages {s} on {target}", [Cmd(argv, "reject" if bad else "no-crash")],
                          f"warps-{w if bad else 'ok'}-{target}")

    def c_target(self, rng):
        bad = rng.random() < 0.7
        target = rng.choice(self.BAD_TARGETS if bad else self.GOOD_TARGETS)
        extra = rng.choice([["--no-cache", "-o", "%t/out"], ["--dump-pipeline", "-o", "%t/p"],
                            ["--print-cache-key", "-o", "%t/k"], ["--stop-after", "ttir", "-o", "%t/o"]])
        return self._case(f"--target {target!r} {' '.join(extra[:1])}",
                          [Cmd(["tpx-compile", "%s", "--target", target] + extra, "reject" if bad else "no-crash")],
                          f"target-{target!r}")

    def c_stop(self, rng):
        target = rng.choice(["cpu", "sm_90a", "gfx950"])
        stage = rng.choice(["ttir", "ttgir", "llir", "ptx", "cubin", "obj", "amdgcn", "hsaco", "bogus", "TTIR",
                            "llir,ptx", " ttir", "ttir\n"])
        bad = stage not in STAGES[family(target)]
        argv = ["tpx-compile", "%s", "--target", target, "--stop-after", stage, "-o", "%t/out"]
        if rng.random() < 0.3:
            argv += ["--dump-dir", "%t/d"]
        return self._case(f"--stop-after {stage!r} on {target}", [Cmd(argv, "reject" if bad else "no-crash")],
                          f"stop-{stage if bad else 'ok'}")

    def c_override(self, rng):
        name, text = rng.choice(self.kernels[:4])
        kernel = first_public_func(text)
        target = rng.choice(["cpu", "sm_90a"])
        stages = STAGES[family(target)]
        stage = rng.choice(stages)
        files, gen = {"kernel.ttir": text.encode()}, {}
        emit = stage in ("obj", "cubin", "ptx")
        fname = f"ovr/{kernel}.{stage}" + ("" if emit else ".mlir")
        c = rng.randrange(10)
        reject = True
        nocheck = False
        if c == 0:
            what = "--override-dir that does not exist"
            odir = "%S/missing"
        elif c == 1:
            what = "--override-dir that is a file"
            odir = "%S/kernel.ttir"
        else:
            odir = "%S/ovr"
            if c == 2:
                files[fname] = b""
                what = f"empty override {fname}"
            elif c == 3:
                files[fname] = rng.choice([b"this is not mlir\n", b"module {", b"}}}}", b"\x00" * 100,
                                           bytes(rng.randrange(256) for _ in range(300))])
                what = f"garbage override {fname}"
            elif c == 4:
                gen[fname] = rng.choice([{"kind": "fifo"}, {"kind": "dir"}, {"kind": "symlink", "target": "/dev/zero"},
                                         {"kind": "symlink", "target": "/dev/null"}])
                what = f"override {fname} is {json.dumps(gen[fname])}"
                reject = gen[fname].get("target") != "/dev/null" or not emit
            elif c in (5, 6):
                other_t = rng.choice(["cpu", "sm_90a"])
                other_s = rng.choice([s for s in STAGES[family(other_t)] if s not in ("obj", "cubin", "ptx")])
                dump = stage_dump(self.env, name, text, other_t, other_s) or "module {}\n"
                files[fname] = dump.encode()
                what = f"{other_t} {other_s} dump as the override of {target} {stage}"
                reject = False
                if emit:
                    nocheck = True
            elif c == 7:
                if target == "sm_90a":
                    stage, fname = "llir", f"ovr/{kernel}.llir.mlir"
                    dump = stage_dump(self.env, name, text, "sm_90a", "llir") or ""
                    intr = rng.choice(['"llvm.x86.sse2.pause"() : () -> ()', '"llvm.x86.rdtsc"() : () -> i64',
                                       '"llvm.amdgcn.s.barrier"() : () -> ()', '"llvm.aarch64.isb"(%c15) : (i32) -> ()'])
                else:
                    stage, fname = "llir", f"ovr/{kernel}.llir.mlir"
                    dump = stage_dump(self.env, name, text, "cpu", "llir") or ""
                    intr = rng.choice(['"llvm.nvvm.barrier0"() : () -> ()', '"llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32',
                                       '"llvm.amdgcn.s.barrier"() : () -> ()'])
                lines = dump.split("\n")
                idx = [i for i, l in enumerate(lines) if "llvm.return" in l]
                if idx:
                    i = rng.choice(idx)
                    lines.insert(i, "    %c15 = llvm.mlir.constant(15 : i32) : i32")
                    lines.insert(i + 1, f"    llvm.call_intrinsic {intr}")
                files[fname] = "\n".join(lines).encode()
                what = f"{target} llir override calling intrinsic {intr.split('(')[0]}"
                reject = "x86" in intr or "amdgcn" in intr or "aarch64" in intr or ("nvvm" in intr and target == "cpu")
            elif c == 8:
                what = "empty override directory"
                gen["ovr"] = {"kind": "dir"}
                reject = False
            else:
                files[fname] = rng.choice([b".version 8.0\n.target sm_90a\n", b"\x7fELF" + b"\x00" * 60,
                                           b"// ptx\n.visible .entry k() { ret; }\n"])
                what = f"hand-written {stage} override"
                reject = not emit
                nocheck = emit
        argv = ["tpx-compile", "%s", "--target", target, "--override-dir", odir]
        argv += rng.choice([["--no-cache", "-o", "%t/out"], ["--stop-after", stage, "-o", "%t/out"]])
        full = "--stop-after" not in argv
        final = stage in ("obj", "cubin")
        if c == 2 or (c == 4 and gen[fname].get("target") == "/dev/null"):
            reject, nocheck = full and not final, final
        elif c == 3:
            reject, nocheck = not final, final
        elif c == 7:
            reject = reject and full
        elif c == 9:
            reject, nocheck = False, True
        label = {0: "dir-missing", 1: "dir-is-a-file", 2: f"empty-{stage}{'-full' if full else ''}",
                 3: f"garbage-{stage}", 4: "special-" + (json.dumps(gen.get(fname, {}).get("target") or gen.get(fname, {}).get("kind"))),
                 5: f"other-dump-{stage}", 6: f"other-dump-{stage}", 7: "foreign-intrinsic", 8: "empty-dir",
                 9: f"hand-written-{stage}"}[c]
        return self._case(what, [Cmd(argv, "reject" if reject else "no-crash", nocheck=nocheck)],
                          f"override-{label}", files=files, gen=gen)

    def c_pipeline_file(self, rng):
        target = rng.choice(["cpu", "sm_90a"])
        text = self.pipeline_text(target) or f"# tpx pipeline target={target}\n"
        lines = text.rstrip("\n").split("\n")
        stage_lines = [i for i, l in enumerate(lines) if re.match(r"\w+:", l)]
        c = rng.randrange(12)
        reject, stop = False, None
        if c == 0 and target == "cpu":
            text = text.replace("tpx-cpu-emit-entry-points", "canonicalize")
            what, reject = "cpu pipeline without tpx-cpu-emit-entry-points", True
        elif c == 0 or c == 1:
            last = stage_lines[-1] if stage_lines else 0
            text = "\n".join(lines[:last] + lines[last + 1:]) + "\n"
            what = "pipeline without its emit stage"
        elif c == 2 and len(stage_lines) >= 2:
            i, j = rng.sample(stage_lines, 2)
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines) + "\n"
            what = "two stages swapped"
        elif c == 3 and stage_lines:
            i = rng.choice(stage_lines)
            text = "\n".join(lines[:i + 1] + [lines[i]] + lines[i + 1:]) + "\n"
            what = "stage duplicated"
        elif c == 4:
            other = rng.choice(["cpu", "sm_90a", "gfx950", "sm_1", "", "bogus"])
            text = re.sub(r"target=\S*", "target=" + other, text)
            what, reject = f"header target={other}", other != target
        elif c == 5 and stage_lines:
            i = rng.choice(stage_lines)
            p = rng.choice(["bogus-pass", "canonicalize{max-iterations=-1}", "canonicalize{bogus=1}",
                            "cse{", "tt.func(bogus)", "convert-tpxgpu-to-nvvm", "convert-tt-to-cpu",
                            "tpx-cpu-emit-entry-points", "builtin.module(cse)", "func.func(cse)", "inline{"]
                           + self.passes()[:40])
            lines[i] = re.sub(r"\)\s*$", ("," if not lines[i].rstrip().endswith("()") else "") + p + ")", lines[i])
            text = "\n".join(lines) + "\n"
            what = f"pass {p} inserted into {lines[i].split(':')[0]}"
        elif c == 6:
            depth = rng.choice([100, 1000, 10000, 100000])
            text = f"# tpx pipeline target={target}\nttir: " + "builtin.module(" * depth + ")" * depth + "\n"
            what = f"pipeline nested {depth} deep"
        elif c == 7:
            text = rng.choice(["", "\n", "#\n", "ttir:\n", "ttir: builtin.module(\n", ": builtin.module()\n",
                               "ttir builtin.module()\n", "\x00\xff\n", "ttir: builtin.module()\n" * 1000,
                               "x" * 100000 + "\n"])
            what = f"pipeline text {text[:20]!r}"
        elif c == 8 and stage_lines:
            i = rng.choice(stage_lines)
            name = lines[i].split(":")[0]
            lines[i] = name + ": builtin.module()"
            text = "\n".join(lines) + "\n"
            what = f"stage {name} emptied"
        elif c == 9 and stage_lines:
            i = rng.choice(stage_lines)
            del lines[i]
            text = "\n".join(lines) + "\n"
            what = "a stage line deleted"
        elif c == 10:
            text = text + rng.choice(["bogus: builtin.module(cse)\n", "ttir: builtin.module(cse)\n",
                                      "ptx: builtin.module()\n", "obj: builtin.module()\n"])
            what = "extra stage appended"
        else:
            mutated, log = Mutator([text]).mutate(rng, text)
            text, what = mutated, f"pipeline text mutated ({log})"
        argv = ["tpx-compile", "%s", "--target", target, "--pipeline-file", "%S/p.pipeline"]
        argv += rng.choice([["--no-cache", "-o", "%t/out"], ["--stop-after", "llir", "-o", "%t/out"]])
        if reject and "--stop-after" in argv and c == 0:
            reject = False
        return self._case(what + f" ({target})", [Cmd(argv, "reject" if reject else "no-crash")], f"pipeline-{c}",
                          files={"p.pipeline": text.encode()})

    def c_output(self, rng):
        out = rng.choice(["/dev/full", "%S", "%S/no/such/dir/out", "%t/"])
        target = rng.choice(["cpu", "sm_90a"])
        argv = ["tpx-compile", "%s", "--target", target] + rng.choice([["--no-cache"], ["--stop-after", "ttir"],
                                                                       ["--dump-pipeline"]]) + ["-o", out]
        return self._case(f"-o {out}", [Cmd(argv, "reject")], f"output-{out.split('/')[-1] or out}")

    def c_dump_dir(self, rng):
        d = rng.choice(["%S/kernel.ttir", "/dev/null", "%S/a/b/c", "%S/fifo", "/proc/self"])
        gen = {"fifo": {"kind": "fifo"}} if d.endswith("fifo") else {}
        target = rng.choice(["cpu", "sm_90a"])
        argv = ["tpx-compile", "%s", "--target", target, "--dump-dir", d, "--no-cache", "-o", "%t/out"]
        return self._case(f"--dump-dir {d}", [Cmd(argv)], f"dump-dir-{d.split('/')[-1]}", gen=gen)

    def c_ext(self, rng):
        ext = rng.choice(["bogus", "", ",", "a,b", "nan-guard"] + ["x"] * 3)
        k = rng.choice([1, 1, 2, 200])
        argv = ["tpx-compile", "%s", "--target", "cpu", "--no-cache", "-o", "%t/out"] + ["--pipeline-ext", ext] * k
        return self._case(f"--pipeline-ext {ext!r} x{k}", [Cmd(argv, "reject")], "pipeline-ext")

    def c_run(self, rng):
        files = {"c/" + k: v for k, v in self.case.items()}
        c = rng.randrange(6)
        expect = "no-crash"
        if c == 0:
            argv = ["tpx-run", "%S/c", "--target", "cuda"]
            what = "tpx-run --target cuda without a GPU"
        elif c == 1:
            t = rng.choice(["0", "1", "100000", "4294967295", "-1"])
            argv = ["tpx-run", "%S/c", "--cpu-threads", t]
            what = f"tpx-run --cpu-threads {t}"
            expect = "reject" if t == "-1" else "no-crash"
        elif c == 2:
            argv = ["tpx-run", "%S/nowhere"]
            what, expect = "tpx-run on a missing folder", "reject"
        elif c == 3:
            argv = ["tpx-run", "%S/c/case.json"]
            what, expect = "tpx-run on a file", "reject"
        elif c == 4:
            argv = ["tpx-run", "%S/c", "--target", rng.choice(["sm_90a", "", "cpu,cuda", "gfx950"])]
            what, expect = f"tpx-run --target {argv[-1]!r}", "reject"
        else:
            argv = ["tpx-run", "%S/c", "--no-bounds-check", "--no-cache", "--verbose"]
            what = "tpx-run --no-bounds-check --no-cache --verbose"
        return self._case(what, [Cmd(argv, expect)], f"run-{c}", files=files)

    def c_pass_order(self, rng):
        passes = self.passes()
        if not passes:
            return self.c_warps(rng)
        p = rng.choice(passes)
        name, text = rng.choice(self.kernels)
        src = rng.choice(["ttir", "ttir", "sm_90a:ttgir", "sm_90a:llir", "cpu:llir", "sm_90a:ttir"])
        if src != "ttir":
            t, s = src.split(":")
            text = stage_dump(self.env, name, text, t, s) or text
        nested = rng.random() < 0.3
        pipe = f"builtin.module(tt.func({p}))" if nested else f"builtin.module({p})"
        argv = ["tpx-opt", "%s", f"--pass-pipeline={pipe}", "-o", "%t/out.mlir"]
        return self._case(f"tpx-opt pass {p} on {name} at {src}", [Cmd(argv)], f"pass-{p}", text=text,
                          klass="pass-order")

    def c_opt(self, rng):
        c = rng.randrange(4)
        if c == 0:
            depth = rng.choice([1000, 4000, 8000])  # one argument may hold at most 128 KiB
            argv = ["tpx-opt", "%s", "--pass-pipeline=" + "builtin.module(" * depth + ")" * depth]
            what = f"tpx-opt --pass-pipeline nested {depth} deep"
        elif c == 1:
            argv = ["tpx-opt", "%s", "--pass-pipeline=" + rng.choice(["(", ")", "builtin.module(", "a(b(c(d",
                                                                         "builtin.module(cse{x=})", ",,,", ""])]
            what = f"tpx-opt --pass-pipeline={argv[-1][16:]!r}"
        elif c == 2:
            files = {"kernel.ttir": ("\n// -----\n".join([self.kernel] * 3 + [""] * 200)).encode()}
            return self._case("tpx-opt --split-input-file with many empty chunks",
                              [Cmd(["tpx-opt", "%s", "--split-input-file", "-o", "%t/out"])], "opt-split", files=files)
        else:
            argv = ["tpx-opt", "%s", "--mlir-print-ir-after-all", "--canonicalize", "--cse", "-o", "/dev/null"]
            what = "tpx-opt --mlir-print-ir-after-all"
        return self._case(what, [Cmd(argv)], f"opt-{c}")


STRATEGIES = {"mutate": MutateStrategy, "edge": EdgeStrategy, "case": CaseStrategy, "plugin": PluginStrategy,
              "cli": CliStrategy}


# ---------------------------------------------------------------------------
# Regressions: fuzz/regressions/<class>/<name>{.ttir,.mlir,.pipeline,/}
# ---------------------------------------------------------------------------
HEADER_RE = re.compile(r"^\s*(?://|#|;)\s*(fuzz|RUN|EXPECT|TIMEOUT|MEM|ENV):\s?(.*)$")


def parse_text_regression(path, root=REGRESSIONS_DIR):
    """A single text file whose comment header says what it did and how to run it."""
    data = path.read_bytes()
    what, runs, expect, timeout, env, mem = "", [], "no-crash", None, {}, None
    for line in data.decode("utf-8", "replace").split("\n")[:40]:
        m = HEADER_RE.match(line)
        if not m:
            continue
        key, val = m.group(1), m.group(2).strip()
        if key == "fuzz":
            what = (what + " " + val).strip()
        elif key == "RUN":
            runs.append(shlex.split(val))
        elif key == "EXPECT":
            expect = val
        elif key == "TIMEOUT":
            timeout = float(val)
        elif key == "MEM":
            mem = int(val)
        elif key == "ENV":
            k, v = val.split("=", 1)
            env[k] = v
    if not runs:
        return None
    klass = path.parent.name
    return Case("regression", klass, what, {path.name: data}, cmds=[Cmd(r, expect, env) for r in runs],
                main=path.name, timeout=timeout, tag=str(path.relative_to(root)), mem_mb=mem)


def parse_dir_regression(path, root=REGRESSIONS_DIR):
    d = json.loads((path / "regression.json").read_text())
    files = {}
    for p in sorted(path.rglob("*")):
        if p.is_file() and p.name not in ("regression.json", "output.txt") and not p.is_symlink():
            files[str(p.relative_to(path))] = p.read_bytes()
    expect = d.get("expect", "no-crash")
    cmds = [Cmd.from_json(c, expect) for c in d["run"]]
    return Case("regression", path.parent.name, d.get("what", ""), files, d.get("generate", {}), cmds,
                main=d.get("main"), timeout=d.get("timeout"), tag=str(path.relative_to(root)),
                mem_mb=d.get("mem_mb"))


def collect_regressions(root):
    entries = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        dp = Path(dirpath)
        if "regression.json" in filenames and dp != root:
            entries.append((str(dp.relative_to(root)), dp, "dir"))
            dirnames[:] = []
            continue
        for f in sorted(filenames):
            p = dp / f
            if f in ("EXPECTED-FAILING.txt", "README.md") or p.suffix in (".bin", ".json", ".so"):
                continue
            entries.append((str(p.relative_to(root)), p, "file"))
    return entries


def read_expected_failing(path):
    listed = {}
    if path.exists():
        for line in path.read_text().split("\n"):
            line = line.split("#", 1)[0].strip()
            if line:
                listed[line.rstrip("/")] = True
    return listed


def run_regressions(env, args):
    root = Path(args.regressions_dir) if args.regressions_dir else REGRESSIONS_DIR
    listed = read_expected_failing(root / "EXPECTED-FAILING.txt")
    entries = collect_regressions(root)
    known = {e[0] for e in entries}
    if args.filter:
        entries = [e for e in entries if any(f in e[0] for f in args.filter)]
    counts = {"ok": 0, "new": 0, "expected": 0, "fixed": 0, "skipped": 0}
    new, fixed = [], []
    t0 = time.monotonic()

    def one(entry):
        rel, path, kind = entry
        try:
            case = parse_dir_regression(path, root) if kind == "dir" else parse_text_regression(path, root)
        except (ValueError, KeyError, OSError) as e:
            return rel, "broken", f"cannot read regression: {e}", 0.0
        if case is None:
            return rel, "broken", "no RUN: line", 0.0
        timeout = None
        if rel in listed and args.xfail_timeout:
            timeout = min(case.timeout or env.timeout, args.xfail_timeout)
        try:
            f, res, cmd, el = run_case(env, case, timeout=timeout)
        except MissingResource as e:
            return rel, "skipped", str(e), 0.0
        return rel, "finding" if f else "ok", f, el

    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        for rel, status, detail, el in pool.map(one, entries):
            is_listed = rel in listed
            if status == "skipped":
                counts["skipped"] += 1
                line = f"SKIP      {rel}: {detail}"
            elif status == "broken":
                counts["new"] += 1
                new.append(rel)
                line = f"BROKEN    {rel}: {detail}"
            elif status == "finding" and is_listed:
                counts["expected"] += 1
                line = f"XFAIL     {rel} ({el:.1f} s): {detail} (listed in EXPECTED-FAILING.txt)"
            elif status == "finding":
                counts["new"] += 1
                new.append(rel)
                line = f"FAIL      {rel} ({el:.1f} s): {detail}"
            elif is_listed:
                counts["fixed"] += 1
                fixed.append(rel)
                line = f"FIXED     {rel} ({el:.1f} s): no finding any more -- remove it from EXPECTED-FAILING.txt"
            else:
                counts["ok"] += 1
                line = f"ok        {rel} ({el:.1f} s)"
            print(line, flush=True)
    stale = [l for l in listed if l not in known]
    for s in stale:
        print(f"STALE     {s}: listed in EXPECTED-FAILING.txt but no such regression input")
    print(f"\nregressions: {len(entries)} inputs, {counts['ok']} ok, {counts['expected']} expected-failing "
          f"(still failing), {counts['fixed']} fixed (listed but passing), {counts['new']} failing and not listed, "
          f"{counts['skipped']} skipped, {time.monotonic() - t0:.1f} s")
    if fixed:
        print("fixed, remove from fuzz/regressions/EXPECTED-FAILING.txt: " + " ".join(fixed))
    if new:
        print("FAILED: " + " ".join(new))
        return 1
    return 0


# ---------------------------------------------------------------------------
# The fuzzing loop
# ---------------------------------------------------------------------------
class Stats:
    def __init__(self, names):
        self.tried = {n: 0 for n in names}
        self.findings = {n: 0 for n in names}
        self.time = {n: 0.0 for n in names}
        self.errors = {n: 0 for n in names}
        self.accepted = {n: 0 for n in names}  # inputs whose last command exited 0
        self.signatures = {}      # signature -> [count, strategy, kind, message, saved dir]


def tolerated_classes():
    """Classes with a listed expected-failing regression: smoke-run findings there are reported, not fatal."""
    return {rel.split("/")[0] for rel in read_expected_failing(EXPECTED_FAILING)}


def fuzz(env, args):
    names = args.strategy or list(STRATEGIES)
    for n in names:
        if n not in STRATEGIES:
            sys.exit(f"fuzz.py: unknown strategy '{n}' (have: {', '.join(STRATEGIES)})")
    findings_dir = Path(args.findings or env.build / "fuzz-findings")
    gens = {}
    for n in names:
        t = time.monotonic()
        gens[n] = STRATEGIES[n](env)
        if env.verbose:
            print(f"[setup] {n}: {time.monotonic() - t:.1f} s", flush=True)
    stats = Stats(names)
    start = time.monotonic()
    deadline = start + args.duration
    next_report = start + args.report_every
    per_strategy = args.inputs_per_strategy

    def pick():
        live = [n for n in names if not per_strategy or stats.tried[n] + inflight[n] < per_strategy]
        if not live:
            return None
        return min(live, key=lambda n: (stats.time[n] + inflight[n] * 1.0, names.index(n)))

    inflight = {n: 0 for n in names}
    pending = {}
    saved = 0
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        while True:
            now = time.monotonic()
            while len(pending) < max(1, args.jobs) and now < deadline:
                n = pick()
                if n is None:
                    break
                index = stats.tried[n] + inflight[n]
                rng = random.Random(f"{args.seed}:{n}:{index}")
                try:
                    case = gens[n].generate(rng, index)
                except Exception as e:  # a harness bug: count it, keep going
                    stats.errors[n] += 1
                    stats.tried[n] += 1
                    print(f"[harness error] {n}:{index}: {type(e).__name__}: {e}", flush=True)
                    if args.strict:
                        raise
                    continue
                case.origin = f"--seed {args.seed} --replay {n}:{index}"
                inflight[n] += 1
                pending[pool.submit(run_case, env, case)] = (n, index, case)
            if not pending:
                break
            done, _ = wait(list(pending), timeout=1.0, return_when=FIRST_COMPLETED)
            for fut in done:
                n, index, case = pending.pop(fut)
                inflight[n] -= 1
                stats.tried[n] += 1
                try:
                    f, res, cmd, el = fut.result()
                except MissingResource as e:
                    stats.time[n] += 0.01
                    continue
                except Exception as e:
                    stats.errors[n] += 1
                    print(f"[harness error] {n}:{index}: {type(e).__name__}: {e}", flush=True)
                    if args.strict:
                        raise
                    continue
                stats.time[n] += el
                if res is not None and res.rc == 0:
                    stats.accepted[n] += 1
                if env.verbose:
                    print(f"  {n}:{index} {el:.1f}s rc={res.rc if res else '-'} {'FINDING ' + repr(f) if f else 'ok'} "
                          f"-- {case.what[:100]}", flush=True)
                if not f:
                    continue
                stats.findings[n] += 1
                entry = stats.signatures.get(f.signature)
                if entry:
                    entry[0] += 1
                    continue
                dest = None
                if saved < args.max_saved:
                    if args.minimize and res is not None and res.elapsed < 3:
                        case = minimize(env, case, f, args.minimize, 60)
                    h = hashlib.sha1(f.signature.encode()).hexdigest()[:8]
                    dest = findings_dir / case.klass / f"{f.kind}-{h}"
                    if dest.exists():
                        shutil.rmtree(dest)
                    save_case(case, dest, f, res)
                    saved += 1
                stats.signatures[f.signature] = [1, n, f.kind, f.message, dest, case.klass, case.origin]
                print(f"[finding] {n}:{index} {f.kind}: {f.message[:160]}\n          input: {case.what[:200]}"
                      + (f"\n          saved: {dest}" if dest else ""), flush=True)
            now = time.monotonic()
            if now >= next_report and args.report_every:
                next_report = now + args.report_every
                print(f"[{now - start:6.0f} s] " + ", ".join(
                    f"{n} {stats.tried[n]}/{stats.findings[n]}" for n in names) +
                    f"  (tried/findings), {len(stats.signatures)} classes", flush=True)
    elapsed = time.monotonic() - start
    print(f"\nfuzz: seed {args.seed}, {elapsed:.0f} s, jobs {args.jobs}")
    print(f"{'strategy':10} {'tried':>7} {'exit 0':>7} {'findings':>9} {'classes':>8} {'time s':>8} {'errors':>7}")
    for n in names:
        cls = sum(1 for v in stats.signatures.values() if v[1] == n)
        print(f"{n:10} {stats.tried[n]:7} {stats.accepted[n]:7} {stats.findings[n]:9} {cls:8} {stats.time[n]:8.0f} "
              f"{stats.errors[n]:7}")
    if stats.signatures:
        print(f"\n{len(stats.signatures)} finding classes (saved under {findings_dir}):")
        for sig, (count, n, kind, msg, dest, klass, origin) in sorted(stats.signatures.items(), key=lambda kv: -kv[1][0]):
            print(f"  {count:4}x [{n}/{klass}] {msg[:150]}")
            if dest:
                print(f"        {dest}")
    summary = {"seed": args.seed, "elapsed_s": round(elapsed, 1), "tried": stats.tried, "exit0": stats.accepted,
               "findings": stats.findings,
               "classes": [{"signature": s, "count": v[0], "strategy": v[1], "kind": v[2], "message": v[3],
                            "saved": str(v[4]) if v[4] else None, "class": v[5], "replay": v[6]}
                           for s, v in stats.signatures.items()]}
    if saved or stats.signatures:
        findings_dir.mkdir(parents=True, exist_ok=True)
        (findings_dir / f"summary-seed{args.seed}.json").write_text(json.dumps(summary, indent=1) + "\n")
    rc = 0
    if any(stats.errors.values()):
        print("harness errors: " + ", ".join(f"{n} {c}" for n, c in stats.errors.items() if c))
        rc = 2
    if args.require_all and any(stats.tried[n] == 0 for n in names):
        print("not every strategy ran: " + ", ".join(n for n in names if stats.tried[n] == 0))
        rc = 2
    if args.fail_on_finding and stats.signatures:
        tolerated = tolerated_classes()
        fatal = [v for v in stats.signatures.values() if v[5] not in tolerated]
        for v in stats.signatures.values():
            print(("FINDING  " if v[5] not in tolerated else "tolerated (class has expected-failing regressions) ")
                  + f"[{v[5]}] {v[3][:150]}")
        if fatal:
            rc = rc or 1
    return rc


def replay(env, args):
    strategy, _, index = args.replay.partition(":")
    gen = STRATEGIES[strategy](env)
    case = gen.generate(random.Random(f"{args.seed}:{strategy}:{int(index)}"), int(index))
    case.origin = f"--seed {args.seed} --replay {args.replay}"
    print(f"input: {case.what}")
    for c in case.cmds:
        print("  $ " + " ".join(shlex.quote(a) for a in c.argv) + (f"   (expect {c.expect})" if c.expect != "no-crash" else ""))
    f, res, cmd, el = run_case(env, case, keep=bool(args.save))
    print(f"result: {f if f else 'no finding'} ({el:.1f} s)")
    if res is not None and (env.verbose or f):
        sys.stdout.write(res.text[-4000:] + "\n")
    if args.save:
        save_case(case, Path(args.save), f, res)
        print(f"saved to {args.save}")
    return 1 if f else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description="tpx fuzzing harness (docs/fuzzing.md)")
    ap.add_argument("--duration", type=float, default=60, help="seconds to fuzz (default 60)")
    ap.add_argument("--strategy", nargs="+", action="extend", help=f"strategies ({', '.join(STRATEGIES)}); default all")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", "-j", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=20, help="seconds per command (default 20)")
    ap.add_argument("--mem-mb", type=int, default=4096, help="address-space limit per command in MiB (default 4096)")
    ap.add_argument("--build", help="build folder (default ./build or $TPX_BUILD_DIR)")
    ap.add_argument("--bin", help="folder with tpx-opt, tpx-compile, tpx-run (default BUILD/bin)")
    ap.add_argument("--corpus", help="TTIR corpus (default ../shared/ttir-corpus or $TPX_CORPUS_DIR)")
    ap.add_argument("--findings", help="where findings go (default BUILD/fuzz-findings)")
    ap.add_argument("--inputs-per-strategy", type=int, default=0, help="stop each strategy after N inputs")
    ap.add_argument("--minimize", type=float, default=30, help="seconds to minimise each new finding (0: off)")
    ap.add_argument("--max-saved", type=int, default=500)
    ap.add_argument("--report-every", type=float, default=60, help="progress line every N seconds (0: off)")
    ap.add_argument("--fail-on-finding", action="store_true",
                    help="exit 1 on a finding whose class has no expected-failing regression")
    ap.add_argument("--require-all", action="store_true", help="exit 2 unless every strategy tried an input")
    ap.add_argument("--strict", action="store_true", help="stop on a harness error")
    ap.add_argument("--regressions", action="store_true", help="run fuzz/regressions; fail on unlisted findings")
    ap.add_argument("--regressions-dir", help=argparse.SUPPRESS)
    ap.add_argument("--xfail-timeout", type=float, default=1,
                    help="--regressions: cap the timeout of entries listed as expected-failing (default 1 s; 0: no cap)")
    ap.add_argument("--filter", nargs="+", action="extend", help="--regressions: only entries containing one of these")
    ap.add_argument("--replay", metavar="STRATEGY:INDEX", help="regenerate and run one input of a fuzz run")
    ap.add_argument("--save", metavar="DIR", help="--replay: save the input there (regression format)")
    ap.add_argument("--keep-work", action="store_true", help="keep the scratch folders")
    ap.add_argument("--verbose", "-v", action="store_true")
    args = ap.parse_args(argv)
    set_limits(args.mem_mb)
    env = Env(args)
    try:
        if args.regressions:
            return run_regressions(env, args)
        if args.replay:
            return replay(env, args)
        return fuzz(env, args)
    finally:
        env.cleanup()


if __name__ == "__main__":
    sys.exit(main())
