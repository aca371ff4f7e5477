import hashlib
import os
import sys

# Tests import the tpxcase helper that lives next to them.
sys.path.insert(0, os.path.dirname(__file__))


def _isolate_compile_cache():
    """Compile-cache keys hash the IR, options and pipeline but not the
    compiler's own code, so a rebuilt lowering would be served stale objects.
    Key the cache directory on the tpx-run binary the suite runs."""
    import tpxcase
    base = os.environ.get("TPX_CACHE_DIR")
    if not base or not os.path.exists(tpxcase.TPX_RUN):
        return
    st = os.stat(tpxcase.TPX_RUN)
    stamp = hashlib.sha256(f"{st.st_size}:{st.st_mtime_ns}".encode()).hexdigest()
    os.environ["TPX_CACHE_DIR"] = os.path.join(base, stamp[:16])


_isolate_compile_cache()
