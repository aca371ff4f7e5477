"""Makes `import triton` / `import triton.language as tl` import tpx.

    import tpx_as_triton
    tpx_as_triton.install()      # before anything imports triton
    import my_triton_program     # its `import triton` now gets tpx

Every module name `triton` or `triton.X.Y` resolves to `tpx` or `tpx.X.Y`
(the very module objects: `triton.language is tpx.language`); a name with
no tpx counterpart fails to import as it would with a missing Triton
module. Nothing of tpx is patched or filled in: a Triton program that uses
a name tpx lacks fails the way it would on a Triton without that name,
which is what the comparison programs want to find out.

The alias is for one process: install() refuses when a real Triton was
imported already (the two cannot share the names), and compare.py runs each
backend in a subprocess of its own.
"""

import importlib
import importlib.abc
import importlib.util
import os
import sys

_PREFIX = "triton"


def _tpx_name(name):
    return "tpx" + name[len(_PREFIX):]


class _TritonToTpx(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """A finder for `triton[.X]` whose loader hands out `tpx[.X]`."""

    def find_spec(self, name, path=None, target=None):
        if name != _PREFIX and not name.startswith(_PREFIX + "."):
            return None
        real = _tpx_name(name)
        try:
            found = importlib.util.find_spec(real)
        except (ImportError, ValueError):
            found = None
        if found is None:
            return None
        return importlib.util.spec_from_loader(
            name, self, is_package=found.submodule_search_locations
            is not None)

    def create_module(self, spec):
        module = importlib.import_module(_tpx_name(spec.name))
        # The import system sets __spec__ on what we return; keep tpx's.
        self._saved = getattr(module, "__spec__", None)
        return module

    def exec_module(self, module):
        module.__spec__ = self._saved


_FINDER = _TritonToTpx()


def _ensure_tpx_importable():
    if importlib.util.find_spec("tpx") is None:
        # Not installed: use this checkout's python/ tree.
        here = os.path.dirname(os.path.abspath(__file__))
        sys.path.insert(0, os.path.normpath(os.path.join(here, "..", "..",
                                                         "python")))


def install():
    """Routes `triton` imports to tpx in this process; returns tpx."""
    loaded = sys.modules.get(_PREFIX)
    if loaded is not None:
        if getattr(loaded, "__name__", "") == "tpx":
            return loaded
        raise RuntimeError("tpx_as_triton.install(): a real triton (%s) is "
                           "imported already" %
                           getattr(loaded, "__file__", "?"))
    _ensure_tpx_importable()
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
    import triton  # noqa: F401  (resolved by the finder)
    return sys.modules[_PREFIX]


def installed():
    """True when `triton` names tpx in this process."""
    module = sys.modules.get(_PREFIX)
    return module is not None and getattr(module, "__name__", "") == "tpx"
