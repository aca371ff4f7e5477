"""Checks artifact metadata against the PTX of the same artifact: the
.entry named entry_point takes exactly the metadata's parameters, each of
param_bytes bytes, a 64-bit one for each pointer. Prints one line per
parameter, then "consistent"; exits 1 on the first mismatch.

usage: check-ptx-params.py KERNEL.ptx METADATA.json
"""
import json
import re
import sys

SIZES = {"b8": 1, "u8": 1, "s8": 1, "b16": 2, "u16": 2, "s16": 2, "f16": 2,
         "b32": 4, "u32": 4, "s32": 4, "f32": 4,
         "b64": 8, "u64": 8, "s64": 8, "f64": 8}

ptx = open(sys.argv[1]).read()
text = open(sys.argv[2]).read()
metadata = json.loads(text[text.index("{"):])
entry = metadata["entry_point"]
match = re.search(r"\.entry\s+" + re.escape(entry) + r"\s*\((.*?)\)", ptx,
                  re.S)
if not match:
    sys.exit(f"no .entry {entry} in the PTX")
params = [p.strip() for p in match.group(1).split(",") if p.strip()]
args = metadata["signature"]["args"]
if len(params) != len(args):
    sys.exit(f"PTX has {len(params)} parameters, metadata {len(args)}")
for param, arg in zip(params, args):
    array = re.search(r"\.b8\s+\S+\[(\d+)\]", param)
    if array:
        size = int(array.group(1))
    else:
        size = SIZES[re.search(r"\.param\s+\.(\w+)", param).group(1)]
    if ".ptr" in param and arg["param_kind"] != "pointer":
        sys.exit(f"{arg['name']}: a pointer in the PTX, {arg['param_kind']}")
    if size != arg["param_bytes"]:
        sys.exit(f"{arg['name']}: {size} bytes in the PTX, "
                 f"{arg['param_bytes']} in the metadata")
    print(arg["name"], arg["param_kind"], size)
print("consistent")
