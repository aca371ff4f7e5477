#!/usr/bin/env python3
"""Prints the first ```mlir fenced block of a Markdown file (fails if none)."""
import re
import sys

text = open(sys.argv[1]).read()
match = re.search(r"^```mlir\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
if not match:
    sys.exit(f"{sys.argv[1]}: no ```mlir block")
sys.stdout.write(match.group(1))
