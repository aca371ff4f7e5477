"""Copies a corpus case and edits its case.json, for tests of bad cases.

usage: edit_case.py SRC DST [STATEMENT]...
       edit_case.py SRC DST --raw TEXT
       edit_case.py SRC DST --raw-eval EXPRESSION

Each STATEMENT is Python run with `c` bound to the parsed case.json (e.g.
"c['grid'] = [-1, 1, 1]" or "del c['grid']"); the result is written back as
JSON. With --raw, case.json is replaced by TEXT verbatim; with --raw-eval,
by the string that the Python EXPRESSION yields (for texts too long for a
command line).
"""
import json
import os
import shutil
import sys

src, dst, *edits = sys.argv[1:]
shutil.rmtree(dst, ignore_errors=True)
shutil.copytree(src, dst)
path = os.path.join(dst, "case.json")
if edits[:1] in (["--raw"], ["--raw-eval"]):
    with open(path, "w") as f:
        f.write(edits[1] if edits[0] == "--raw" else eval(edits[1]))
    sys.exit(0)
with open(path) as f:
    c = json.load(f)
for statement in edits:
    exec(statement)
with open(path, "w") as f:
    json.dump(c, f)
