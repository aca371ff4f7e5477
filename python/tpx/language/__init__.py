"""tpx.language: the kernel language, Triton's `triton.language` surface."""
