"""The tpx runtime: @jit kernels, launching, autotuning, drivers."""
