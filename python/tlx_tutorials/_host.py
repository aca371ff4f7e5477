"""What the tutorials' host functions share: arrays of either kind."""


def is_torch(x):
    return type(x).__module__.startswith("torch")


def strides(x):
    """Strides in elements."""
    if is_torch(x):
        return tuple(x.stride())
    return tuple(s // x.itemsize for s in x.strides)


def empty(shape, like, dtype=None):
    if is_torch(like):
        import torch
        return torch.empty(shape, device=like.device,
                           dtype=dtype or like.dtype)
    import numpy as np
    return np.empty(shape, dtype=dtype or like.dtype)


def pick_config(x, hopper, cpu, gfx950):
    """The tutorial's config for where `x` lives: `gfx950` for torch
    tensors on an AMD GPU (ROCm's torch calls its devices cuda too and sets
    torch.version.hip), `hopper` for other GPU tensors, `cpu` otherwise."""
    if not (is_torch(x) and x.is_cuda):
        return cpu
    import torch
    return gfx950 if getattr(torch.version, "hip", None) else hopper


def matmul_problem(a, b, config, hopper, cpu, gfx950):
    """(M, N, K, c, config) of a (M, K) @ b (K, N): checks the shapes,
    allocates c like a, and picks a config by pick_config when none is
    given."""
    if a.shape[1] != b.shape[0]:
        raise ValueError("incompatible shapes %s and %s" %
                         (tuple(a.shape), tuple(b.shape)))
    M, K = a.shape
    N = b.shape[1]
    if config is None:
        config = pick_config(a, hopper, cpu, gfx950)
    return M, N, K, empty((M, N), a), config


def persistent_tma_matmul(kernel, a, b, config, hopper, cpu, gfx950):
    """c = a @ b by a persistent `kernel(a_desc, b_desc, c, M, N, K,
    stride_cm, stride_cn, **config)` over min(NUM_PROGRAMS, tiles)
    programs, A and B read through TMA descriptors of the config's blocks
    (the warp-specialized GEMMs). A config with CLUSTER_M > 1 launches
    clusters of that many CTAs along M (ctas_per_cga), each copying
    1 / CLUSTER_M of B's block columns: a whole number of clusters, of at
    most NUM_PROGRAMS CTAs."""
    import tpx
    from tpx.tools.tensor_descriptor import TensorDescriptor
    M, N, K, c, config = matmul_problem(a, b, config, hopper, cpu,
                                        gfx950)
    bm, bn, bk = (config["BLOCK_SIZE_M"], config["BLOCK_SIZE_N"],
                  config["BLOCK_SIZE_K"])
    cluster = config.get("CLUSTER_M", 1)
    options = {"ctas_per_cga": (cluster, 1, 1)} if cluster > 1 else {}
    a_desc = TensorDescriptor.from_tensor(a, [bm, bk])
    b_desc = TensorDescriptor.from_tensor(b, [bk, bn // cluster])
    tiles = tpx.cdiv(M, bm * cluster) * tpx.cdiv(N, bn)
    grid = (cluster * min(config["NUM_PROGRAMS"] // cluster, tiles),)
    kernel[grid](a_desc, b_desc, c, M, N, K, *strides(c), **config,
                 **options)
    return c
