"""`tpx.language.extra`: functions outside Triton's core language
(`libdevice`; plugins add their namespaces here)."""
