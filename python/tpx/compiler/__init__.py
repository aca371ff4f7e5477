"""Python kernel -> TTIR (frontend.py) and TTIR -> artifact (compiler.py)."""
