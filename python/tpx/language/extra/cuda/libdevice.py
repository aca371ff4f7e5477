"""`tpx.language.extra.cuda.libdevice`: an alias of
`tpx.language.extra.libdevice` (import paths of older Triton programs)."""

import sys

from tpx.language.extra import libdevice as _libdevice

sys.modules[__name__] = _libdevice
