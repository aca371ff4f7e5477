"""Prints each kernel parameter of artifact metadata (JSON on stdin) as
"name param_kind param_bytes type", then the launch fields."""
import json
import sys

metadata = json.load(sys.stdin)
for arg in metadata["signature"]["args"]:
    print(arg["name"], arg["param_kind"], arg["param_bytes"], arg["type"])
for field in ("entry_point", "block_threads", "shared_memory", "num_regs",
              "num_spills"):
    print(field, metadata[field])
