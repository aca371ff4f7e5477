"""Shape operations (tpx.language.shape, reshape/view) against numpy."""

import numpy as np
import pytest

import tpx
import tpx.language as tl
from tpx.errors import CompilationError

import frontend_harness as h


# -- helpers ------------------------------------------------------------------

@tpx.jit
def offsets_nd(shape: tl.constexpr):
    """Row-major offsets of a rank-1, 2 or 3 block of `shape`."""
    if len(shape) == 1:
        offs = tl.arange(0, shape[0])
    elif len(shape) == 2:
        offs = tl.arange(0, shape[0])[:, None] * shape[1] + \
            tl.arange(0, shape[1])[None, :]
    else:
        offs = (tl.arange(0, shape[0])[:, None, None] * shape[1] +
                tl.arange(0, shape[1])[None, :, None]) * shape[2] + \
            tl.arange(0, shape[2])[None, None, :]
    return offs


@tpx.jit
def load_nd(ptr, shape: tl.constexpr):
    return tl.load(ptr + offsets_nd(shape))


@tpx.jit
def store_nd(ptr, r):
    if len(r.shape) == 0:
        tl.store(ptr, r)
    else:
        tl.store(ptr + offsets_nd(r.shape), r)


def compile_error(kernel, *args, **constexprs):
    with pytest.raises(CompilationError) as e:
        h.ttir(kernel, *args, **constexprs)
    return str(e.value)


def data(shape, dtype=np.float32, seed=0):
    rs = np.random.RandomState(seed)
    if np.issubdtype(dtype, np.integer):
        return rs.randint(-1000, 1000, shape).astype(dtype)
    return rs.randn(*shape).astype(dtype)


# -- permute / trans ----------------------------------------------------------

@tpx.jit
def permute_kernel(x_ptr, out_ptr, SHAPE: tl.constexpr, DIMS: tl.constexpr,
                   HOW: tl.constexpr):
    x = load_nd(x_ptr, SHAPE)
    if HOW == 0:
        y = tl.permute(x, DIMS)
    elif HOW == 1:
        y = tl.permute(x, *DIMS)
    elif HOW == 2:
        y = x.permute(DIMS)
    elif HOW == 3:
        y = tl.trans(x, DIMS)
    else:
        y = x.trans(*DIMS)
    store_nd(out_ptr, y)


@pytest.mark.parametrize("dims", [(2, 0, 1), (1, 2, 0), (0, 2, 1),
                                  (0, 1, 2)])
@pytest.mark.parametrize("how", [0, 1, 2, 3, 4])
def test_permute_3d(dims, how):
    x = data((2, 4, 8))
    out = np.zeros(np.transpose(x, dims).shape, np.float32)
    text = h.run(permute_kernel, (1,), x, out, SHAPE=x.shape, DIMS=dims,
                 HOW=how)
    np.testing.assert_array_equal(out, np.transpose(x, dims))
    assert "order = array<i32: %s>" % ", ".join(map(str, dims)) in text


@tpx.jit
def trans_2d_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr,
                    HOW: tl.constexpr):
    x = load_nd(x_ptr, (M, N))
    if HOW == 0:
        y = tl.trans(x)
    elif HOW == 1:
        y = x.T
    elif HOW == 2:
        y = x.trans()
    else:
        y = tl.trans(x, 1, 0)
    store_nd(out_ptr, y)


@pytest.mark.parametrize("how", [0, 1, 2, 3])
@pytest.mark.parametrize("dtype", [np.float32, np.int16])
def test_trans_2d(how, dtype):
    x = data((4, 16), dtype)
    out = np.zeros((16, 4), dtype)
    h.run(trans_2d_kernel, (1,), x, out, M=4, N=16, HOW=how)
    np.testing.assert_array_equal(out, x.T)


@tpx.jit
def bad_permute_kernel(x_ptr, WHICH: tl.constexpr):
    x = load_nd(x_ptr, (4, 4))
    if WHICH == 0:
        y = tl.permute(x, (0, 1, 2))
    elif WHICH == 1:
        y = tl.permute(x, 0, 0)
    elif WHICH == 2:
        y = tl.trans(tl.arange(0, 16))
    else:
        y = tl.permute(x, (1, 2))
    store_nd(x_ptr, y)


@pytest.mark.parametrize("which,message", [
    (0, "ValueError: permute dims must have the same length as input shape"),
    (1, "permute dims must be a permutation of 0, 1, ..., n-1, but were "
        "(0, 0)"),
    (2, "permute dims must have the same length as input shape"),
    (3, "but were (1, 2)"),
])
def test_permute_errors(which, message):
    text = compile_error(bad_permute_kernel, np.zeros(16, np.float32),
                         WHICH=which)
    assert message in text
    assert "test_lang_shape.py" in text


# -- join / split / interleave ------------------------------------------------

@tpx.jit
def join_split_kernel(a_ptr, b_ptr, j_ptr, l_ptr, r_ptr, SHAPE: tl.constexpr):
    a = load_nd(a_ptr, SHAPE)
    b = load_nd(b_ptr, SHAPE)
    j = tl.join(a, b)
    store_nd(j_ptr, j)
    left, right = tl.split(j * 2)
    store_nd(l_ptr, left)
    store_nd(r_ptr, right)


@pytest.mark.parametrize("shape", [(8,), (4, 8)])
@pytest.mark.parametrize("dtype", [np.float32, np.int8])
def test_join_and_split(shape, dtype):
    a, b = data(shape, dtype, 1), data(shape, dtype, 2)
    j = np.zeros(shape + (2,), dtype)
    left = np.zeros(shape, dtype)
    right = np.zeros(shape, dtype)
    h.run(join_split_kernel, (1,), a, b, j, left, right, SHAPE=shape)
    np.testing.assert_array_equal(j, np.stack([a, b], -1))
    np.testing.assert_array_equal(left, a * 2)
    np.testing.assert_array_equal(right, b * 2)


@tpx.jit
def join_scalars_kernel(x_ptr, out_ptr, s_ptr):
    a = tl.load(x_ptr)
    b = tl.load(x_ptr + 1)
    pair = tl.join(a, b)
    assert pair.shape == (2,)
    tl.store(out_ptr + tl.arange(0, 2), pair)
    u, v = tl.split(pair + 1.0)
    assert len(u.shape) == 0
    tl.store(s_ptr, u)
    tl.store(s_ptr + 1, v)
    # A scalar joined with a block is broadcast first.
    tl.store(out_ptr + 2 + tl.arange(0, 8),
             tl.reshape(tl.join(tl.arange(0, 4).to(tl.float32), a), 8))


def test_join_scalars_split_to_scalars_and_broadcast():
    x = np.array([3.5, -2.0], np.float32)
    out = np.zeros(10, np.float32)
    s = np.zeros(2, np.float32)
    h.run(join_scalars_kernel, (1,), x, out, s)
    np.testing.assert_array_equal(out[:2], x)
    np.testing.assert_array_equal(s, x + 1)
    np.testing.assert_array_equal(
        out[2:], np.stack([np.arange(4), np.full(4, 3.5)], -1).reshape(-1))


@tpx.jit
def x_split_kernel(x_ptr, out_ptr):
    x = load_nd(x_ptr, (4, 2))
    a, b = x.split()
    store_nd(out_ptr, a - b)


def test_split_method():
    x = data((4, 2))
    out = np.zeros(4, np.float32)
    h.run(x_split_kernel, (1,), x, out)
    np.testing.assert_array_equal(out, x[:, 0] - x[:, 1])


@tpx.jit
def interleave_kernel(a_ptr, b_ptr, out_ptr, SHAPE: tl.constexpr):
    a = load_nd(a_ptr, SHAPE)
    b = load_nd(b_ptr, SHAPE)
    store_nd(out_ptr, tl.interleave(a, b))


@pytest.mark.parametrize("shape", [(8,), (2, 4)])
def test_interleave(shape):
    a, b = data(shape, np.int32, 3), data(shape, np.int32, 4)
    ref = np.stack([a, b], -1).reshape(shape[:-1] + (2 * shape[-1],))
    out = np.zeros(ref.shape, np.int32)
    h.run(interleave_kernel, (1,), a, b, out, SHAPE=shape)
    np.testing.assert_array_equal(out, ref)


@tpx.jit
def bad_join_split_kernel(x_ptr, WHICH: tl.constexpr):
    x = load_nd(x_ptr, (4, 4))
    if WHICH == 0:
        a, b = tl.split(x)
    elif WHICH == 1:
        a, b = tl.split(tl.sum(x))
    elif WHICH == 2:
        a = tl.join(x, x.to(tl.int32))
        b = a
    else:
        a = tl.join(x, tl.arange(0, 8).to(tl.float32))
        b = a
    store_nd(x_ptr, a + b)


@pytest.mark.parametrize("which,message", [
    (0, "split: the last dimension must have size 2, got shape [4, 4]"),
    (1, "split needs a tensor of rank at least 1"),
    (2, "join: both inputs must have the same dtype, got fp32 and int32"),
    (3, "Cannot make_shape_compatible: incompatible dimensions at index 1: "
        "4 and 8"),
])
def test_join_split_errors(which, message):
    assert message in compile_error(bad_join_split_kernel,
                                    np.zeros(16, np.float32), WHICH=which)


# -- cat ----------------------------------------------------------------------

@tpx.jit
def cat_kernel(a_ptr, b_ptr, out_ptr, N: tl.constexpr, REORDER: tl.constexpr):
    a = tl.load(a_ptr + tl.arange(0, N))
    b = tl.load(b_ptr + tl.arange(0, N))
    c = tl.cat(a, b, can_reorder=REORDER)
    tl.store(out_ptr + tl.arange(0, 2 * N), c)


def test_cat_holds_both_inputs():
    a, b = data((16,), np.int32, 5), data((16,), np.int32, 6)
    out = np.zeros(32, np.int32)
    text = h.run(cat_kernel, (1,), a, b, out, N=16, REORDER=True)
    assert '"tt.cat"' in text
    # The order of the elements is unspecified: compare as multisets.
    np.testing.assert_array_equal(np.sort(out),
                                  np.sort(np.concatenate([a, b])))


def test_cat_needs_can_reorder():
    message = compile_error(cat_kernel, np.zeros(8, np.int32),
                            np.zeros(8, np.int32), np.zeros(16, np.int32),
                            N=8, REORDER=False)
    assert "current implementation of `cat` always may reorder elements" \
        in message


@tpx.jit
def bad_cat_kernel(x_ptr, WHICH: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    if WHICH == 0:
        y = tl.cat(x, x.to(tl.int32), can_reorder=True)
    else:
        y = tl.cat(x[:, None], x[:, None], can_reorder=True)
    tl.store(x_ptr, tl.sum(y))


@pytest.mark.parametrize("which,message", [
    (0, "cat: both inputs must have the same type"),
    (1, "cat only supports 1-D tensors"),
])
def test_cat_errors(which, message):
    assert message in compile_error(bad_cat_kernel, np.zeros(8, np.float32),
                                    WHICH=which)


# -- flip ---------------------------------------------------------------------

@tpx.jit
def flip_kernel(x_ptr, out_ptr, SHAPE: tl.constexpr, DIM: tl.constexpr,
                METHOD: tl.constexpr):
    x = load_nd(x_ptr, SHAPE)
    if METHOD:
        y = x.flip(DIM)
    else:
        y = tl.flip(x, dim=DIM)
    store_nd(out_ptr, y)


@pytest.mark.parametrize("shape,dim", [((16,), None), ((16,), 0),
                                       ((4, 8), 0), ((4, 8), 1),
                                       ((4, 8), -1), ((4, 8), None),
                                       ((2, 4, 8), 1)])
@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.float16])
def test_flip(shape, dim, dtype):
    x = data(shape, dtype, 7)
    out = np.zeros(shape, dtype)
    h.run(flip_kernel, (1,), x, out, SHAPE=shape, DIM=dim,
          METHOD=dtype == np.int8)
    np.testing.assert_array_equal(
        out, np.flip(x, len(shape) - 1 if dim is None else dim))


def test_flip_bad_dim():
    message = compile_error(flip_kernel, np.zeros(8, np.float32),
                            np.zeros(8, np.float32), SHAPE=(8,), DIM=1,
                            METHOD=False)
    assert "invalid axis 1. Expected -1 <= axis < 1" in message


# -- sort / topk --------------------------------------------------------------

@tpx.jit
def sort_kernel(x_ptr, out_ptr, SHAPE: tl.constexpr, DESC: tl.constexpr,
                HOW: tl.constexpr):
    x = load_nd(x_ptr, SHAPE)
    if HOW == 0:
        y = tl.sort(x, descending=DESC)
    elif HOW == 1:
        y = tl.sort(x, len(SHAPE) - 1, DESC)
    else:
        y = x.sort(descending=DESC)
    assert y.dtype == x.dtype
    store_nd(out_ptr, y)


@pytest.mark.parametrize("shape", [(16,), (4, 16), (2, 2, 4), (1,)])
@pytest.mark.parametrize("desc", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int16,
                                   np.uint8])
def test_sort(shape, desc, dtype):
    x = data(shape, dtype, 8)
    if dtype == np.uint8:
        x = np.random.RandomState(8).randint(0, 256, shape).astype(np.uint8)
    out = np.zeros(shape, dtype)
    h.run(sort_kernel, (1,), x, out, SHAPE=shape, DESC=desc,
          HOW=len(shape) % 3)
    ref = np.sort(x, axis=-1)
    if desc:
        ref = np.flip(ref, -1)
    np.testing.assert_array_equal(out, ref)


def test_sort_with_duplicates():
    x = np.random.RandomState(9).randint(0, 4, (4, 16)).astype(np.float32)
    out = np.zeros_like(x)
    h.run(sort_kernel, (1,), x, out, SHAPE=x.shape, DESC=False, HOW=0)
    np.testing.assert_array_equal(out, np.sort(x, -1))


@tpx.jit
def bad_sort_kernel(x_ptr, WHICH: tl.constexpr):
    x = load_nd(x_ptr, (4, 8))
    if WHICH == 0:
        y = tl.sort(x, 0)
    elif WHICH == 1:
        y = tl.sort(x, dim=-1)
    elif WHICH == 2:
        y = tl.topk(x, 3)
    else:
        y = tl.topk(x, 16)
    store_nd(x_ptr, y)


@pytest.mark.parametrize("which,message", [
    (0, "only minor dimension is currently supported"),
    (1, "only minor dimension is currently supported"),
    (2, "k must be a power of two no larger than the sorted dimension (8), "
        "got 3"),
    (3, "got 16"),
])
def test_sort_errors(which, message):
    assert message in compile_error(bad_sort_kernel, np.zeros(32, np.float32),
                                    WHICH=which)


@tpx.jit
def topk_kernel(x_ptr, out_ptr, SHAPE: tl.constexpr, K: tl.constexpr,
                EXPECT: tl.constexpr):
    x = load_nd(x_ptr, SHAPE)
    y = tl.topk(x, K)
    assert y.dtype == EXPECT
    store_nd(out_ptr, y)


@pytest.mark.parametrize("shape,k", [((16,), 4), ((16,), 16), ((16,), 1),
                                     ((4, 16), 4), ((2, 2, 8), 2)])
def test_topk(shape, k):
    x = data(shape, np.float32, 10)
    out = np.zeros(shape[:-1] + (k,), np.float32)
    h.run(topk_kernel, (1,), x, out, SHAPE=shape, K=k, EXPECT=tl.float32)
    ref = np.flip(np.sort(x, -1), -1)[..., :k]
    np.testing.assert_array_equal(out, ref)


def test_topk_of_narrow_ints_is_int32_like_max():
    # Triton's top-k reduces with tl.max, which computes int8 in int32.
    x = data((32,), np.int8, 11)
    x = np.random.RandomState(11).randint(-128, 128, 32).astype(np.int8)
    out = np.zeros(4, np.int32)
    h.run(topk_kernel, (1,), x, out, SHAPE=(32,), K=4, EXPECT=tl.int32)
    np.testing.assert_array_equal(out, np.sort(x.astype(np.int32))[::-1][:4])


# -- ravel / reshape / view / item --------------------------------------------

@tpx.jit
def ravel_kernel(x_ptr, out_ptr, SHAPE: tl.constexpr, HOW: tl.constexpr):
    x = load_nd(x_ptr, SHAPE)
    if HOW == 0:
        y = tl.ravel(x)
    elif HOW == 1:
        y = x.ravel()
    elif HOW == 2:
        y = tl.reshape(x, x.numel)
    else:
        y = x.reshape([x.numel])
    assert len(y.shape) == 1
    tl.store(out_ptr + tl.arange(0, y.shape[0]), y)


@pytest.mark.parametrize("how", [0, 1, 2, 3])
def test_ravel_and_reshape_to_1d(how):
    x = data((2, 4, 8), np.int32, 12)
    out = np.zeros(64, np.int32)
    h.run(ravel_kernel, (1,), x, out, SHAPE=x.shape, HOW=how)
    np.testing.assert_array_equal(out, x.reshape(-1))


@tpx.jit
def reshape_kernel(x_ptr, out_ptr, SRC: tl.constexpr, DST: tl.constexpr,
                   HOW: tl.constexpr):
    x = load_nd(x_ptr, SRC)
    if HOW == 0:
        y = tl.reshape(x, DST)
    elif HOW == 1:
        y = tl.reshape(x, *DST)
    else:
        y = x.reshape(*DST)
    store_nd(out_ptr, y)


@pytest.mark.parametrize("src,dst", [((4, 8), (8, 4)), ((32,), (2, 4, 4)),
                                     ((2, 4, 4), (4, 8)), ((4, 8), (32,))])
@pytest.mark.parametrize("how", [0, 1, 2])
def test_reshape(src, dst, how):
    x = data(src, np.float32, 13)
    out = np.zeros(dst, np.float32)
    h.run(reshape_kernel, (1,), x, out, SRC=src, DST=dst, HOW=how)
    np.testing.assert_array_equal(out, x.reshape(dst))


@tpx.jit
def scalar_reshape_kernel(x_ptr, out_ptr):
    x = tl.load(x_ptr + tl.arange(0, 1))
    s = tl.reshape(x, [])
    assert len(s.shape) == 0
    t = tl.load(x_ptr + tl.arange(0, 1)[:, None] + tl.arange(0, 1)[None, :])
    u = t.item()
    assert len(u.shape) == 0
    tl.store(out_ptr, s + u)


def test_reshape_to_scalar_and_item():
    x = np.array([4.25], np.float32)
    out = np.zeros(1, np.float32)
    h.run(scalar_reshape_kernel, (1,), x, out)
    assert out[0] == 8.5


@tpx.jit
def view_kernel(x_ptr, out_ptr):
    x = load_nd(x_ptr, (4, 8))
    y = tl.view(x, (32,))
    z = x.view(8, 4)
    tl.store(out_ptr + tl.arange(0, 32), y)
    tl.store(out_ptr + 32 + tl.arange(0, 32), tl.reshape(z, 32))


def test_view_keeps_elements():
    x = data((4, 8), np.int32, 14)
    out = np.zeros(64, np.int32)
    text = h.run(view_kernel, (1,), x, out)
    assert "allow_reorder" in text
    # view may reorder; the elements are the same.
    np.testing.assert_array_equal(np.sort(out[:32]), np.sort(x.reshape(-1)))
    np.testing.assert_array_equal(np.sort(out[32:]), np.sort(x.reshape(-1)))


@tpx.jit
def bad_reshape_kernel(x_ptr, WHICH: tl.constexpr):
    x = load_nd(x_ptr, (4, 8))
    if WHICH == 0:
        y = tl.reshape(x, (4, 4))
    elif WHICH == 1:
        y = tl.reshape(x, [])
    elif WHICH == 2:
        y = tl.reshape(x, (2, 3, 4))
    elif WHICH == 3:
        y = x.view(4, 8.0)
    else:
        y = tl.view(x, (3, 8))
    tl.store(x_ptr, tl.sum(y))


@pytest.mark.parametrize("which,message", [
    (0, "reshape() cannot change total number of elements in tensor"),
    (1, "can only unsplat single-element tensors"),
    (2, "ValueError: Shape element 1 must be a power of 2"),
    (3, "TypeError: Shape element 1 must have type `constexpr[int]`, got "
        "`constexpr[float]`"),
    (4, "Shape element 0 must be a power of 2"),
])
def test_reshape_errors(which, message):
    assert message in compile_error(bad_reshape_kernel,
                                    np.zeros(32, np.float32), WHICH=which)
