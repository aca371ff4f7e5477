"""Host-side helpers for kernel programs (tensor descriptors, ...)."""
