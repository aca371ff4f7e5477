"""`tl.extra.cuda`: where older Triton programs find libdevice
(`tl.extra.cuda.libdevice`, `from triton.language.extra.cuda import
libdevice`); the same module as `tl.extra.libdevice`."""

from tpx.language.extra import libdevice  # noqa: F401
