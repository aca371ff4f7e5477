"""The code generator's core: arithmetic, memory, control flow, helpers."""

import numpy as np
import pytest

import tpx
import tpx.language as tl
from tpx.errors import CompilationError

import frontend_harness as h


@tpx.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask, other=0.0)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def test_vector_add():
    n = 1000
    x = np.random.rand(n).astype(np.float32)
    y = np.random.rand(n).astype(np.float32)
    out = np.zeros(n, np.float32)
    h.run(add_kernel, (4,), x, y, out, n, BLOCK=256)
    np.testing.assert_allclose(out, x + y)


@tpx.jit
def control_flow(out_ptr, n, K: tl.constexpr):
    acc = tl.zeros([16], dtype=tl.float32)
    for i in range(0, n):
        acc += 1.0
    j = 0
    while j < n * 3:
        j += 2
    if n > 5:
        acc = acc * 2
    else:
        acc = acc + 100
    if K == 3:
        acc = acc + 0.5
    for k in tl.static_range(4):
        acc = acc + k
    v = acc if j > 0 else acc - 1000.0
    tl.store(out_ptr + tl.arange(0, 16), v + j)


@pytest.mark.parametrize("n", [3, 7])
def test_control_flow(n):
    out = np.zeros(16, np.float32)
    h.run(control_flow, (1,), out, n, K=3)
    acc = float(n)
    acc = acc * 2 if n > 5 else acc + 100
    acc += 0.5 + 0 + 1 + 2 + 3
    j = 0
    while j < n * 3:
        j += 2
    np.testing.assert_allclose(out, np.full(16, acc + j, np.float32))


@tpx.jit
def scale(x, f):
    return x * f


@tpx.jit(noinline=True)
def offset_of(i, BLOCK: tl.constexpr):
    return i * BLOCK + tl.arange(0, BLOCK)


@tpx.jit
def helper_kernel(x_ptr, out_ptr, s, BLOCK: tl.constexpr):
    offs = offset_of(tl.program_id(0), BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, scale(x, s) + scale(x, 1.0))


def test_helper_functions():
    x = np.arange(64, dtype=np.float32)
    out = np.zeros(64, np.float32)
    text = h.run(helper_kernel, (2,), x, out, 3.0, BLOCK=32)
    np.testing.assert_allclose(out, x * 4)
    assert "noinline = true" in text


@tpx.jit
def add_annotated(x, N: tl.constexpr, offs: tl.constexpr):
    # Annotated constexpr, given run-time values and tensors: as in Triton,
    # a helper is specialized by what it is given (06-fused-attention).
    return x + N + offs


@tpx.jit
def first_of(shape):
    return shape[0]


@tpx.jit
def helper_arguments_kernel(out_ptr, n, A: tl.constexpr, B: tl.constexpr):
    offs = tl.arange(0, 4)
    tl.store(out_ptr + offs, add_annotated(1, n, offs))
    # Lists of constexprs: one specialization per list value; a list with a
    # run-time scalar passes the scalar in.
    tl.store(out_ptr + 4, first_of([A, 16]))
    tl.store(out_ptr + 5, first_of([B, 16]))
    tl.store(out_ptr + 6, first_of([n, 16]))


def test_helper_arguments_are_specialized_by_value():
    out = np.zeros(7, np.int32)
    h.run(helper_arguments_kernel, (1,), out, 40, A=32, B=8)
    assert list(out) == [41, 42, 43, 44, 32, 8, 40]


@tpx.jit
def int_div_mod(a_ptr, b_ptr, q_ptr, r_ptr):
    offs = tl.arange(0, 8)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    tl.store(q_ptr + offs, a // b)
    tl.store(r_ptr + offs, a % b)


def test_integer_division_is_c_like():
    a = np.array([7, -7, 7, -7, 9, -9, 1, 0], np.int32)
    b = np.array([2, 2, -2, -2, 4, 4, 3, 5], np.int32)
    q = np.zeros(8, np.int32)
    r = np.zeros(8, np.int32)
    h.run(int_div_mod, (1,), a, b, q, r)
    np.testing.assert_array_equal(q, np.trunc(a / b).astype(np.int32))
    np.testing.assert_array_equal(r, np.fmod(a, b))


@tpx.jit
def bad_loop(out_ptr):
    x = 0
    for i in range(4):
        x = x + 1.5
    tl.store(out_ptr, x)


def test_loop_carried_type_change_is_an_error():
    with pytest.raises(CompilationError) as e:
        h.ttir(bad_loop, np.zeros(1, np.float32))
    message = str(e.value)
    assert "Loop-carried variable x has initial type int32" in message
    assert "test_frontend_basic.py" in message
    assert "for i in range(4):" in message


@tpx.jit
def early_exit(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    if pid * BLOCK >= n:
        return
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) + 1.0)


@tpx.jit
def pick(x, flag):
    if flag > 0:
        return x * 2.0
    else:
        y = x + 1.0
    return y


@tpx.jit
def returning_helper(x_ptr, out_ptr, flag):
    offs = tl.arange(0, 16)
    tl.store(out_ptr + offs, pick(tl.load(x_ptr + offs), flag))


def test_early_return_in_kernel():
    x = np.arange(64, dtype=np.float32)
    out = np.full(64, -1, np.float32)
    # Programs 2 and 3 start past n = 32 and return at once.
    h.run(early_exit, (4,), x, out, 32, BLOCK=16)
    np.testing.assert_allclose(out[:32], x[:32] + 1)
    np.testing.assert_allclose(out[32:], -1)


@pytest.mark.parametrize("flag", [1, -1])
def test_return_from_both_branches(flag):
    x = np.arange(16, dtype=np.float32)
    out = np.zeros(16, np.float32)
    h.run(returning_helper, (1,), x, out, flag)
    np.testing.assert_allclose(out, x * 2 if flag > 0 else x + 1)


@tpx.jit
def _expand(out_ptr, AXES: tl.constexpr):
    x = tl.expand_dims(tl.arange(0, 4), AXES)
    tl.store(out_ptr + tl.arange(0, 4), tl.reshape(x, [4]))


@tpx.jit
def _full(out_ptr, N: tl.constexpr):
    tl.store(out_ptr + tl.arange(0, 4), tl.sum(tl.full([N], 1, tl.int32)))


@pytest.mark.parametrize("axes, message", [
    (2, "invalid axis 2. Expected -2 <= axis < 2"),
    ((0, -3), "expand_dims received duplicate axes, normalized axes = "
     "[0, 0]"),
])
def test_expand_dims_axis_errors(axes, message):
    with pytest.raises(CompilationError) as e:
        h.ttir(_expand, np.zeros(4, np.int32), AXES=axes)
    assert message in str(e.value)


def test_full_shape_must_be_a_power_of_two():
    with pytest.raises(CompilationError) as e:
        h.ttir(_full, np.zeros(4, np.int32), N=3)
    assert "Shape element 0 must be a power of 2" in str(e.value)


@tpx.jit
def nested_returns(x, a, b):
    if a > 0:
        if b > 0:
            return x + 1.0
        y = x * 3.0
        return y
    return x - 1.0


@tpx.jit
def nested_returning_helper(x_ptr, out_ptr, a, b):
    offs = tl.arange(0, 16)
    tl.store(out_ptr + offs, nested_returns(tl.load(x_ptr + offs), a, b))


@pytest.mark.parametrize("a, b", [(1, 1), (1, -1), (-1, 1)])
def test_nested_returns(a, b):
    x = np.arange(16, dtype=np.float32)
    out = np.zeros(16, np.float32)
    text = h.run(nested_returning_helper, (1,), x, out, a, b)
    want = (x + 1 if b > 0 else x * 3) if a > 0 else x - 1
    np.testing.assert_allclose(out, want)
    # Returns become structured control flow, which every target lowers.
    assert "cf.cond_br" not in text and "scf.if" in text


@tpx.jit
def return_in_loop(out_ptr, n):
    for i in range(n):
        if i > 3:
            return
    tl.store(out_ptr, n)


def test_return_inside_a_loop_is_an_error():
    with pytest.raises(CompilationError) as e:
        h.ttir(return_in_loop, np.zeros(1, np.int32), 4)
    assert "`return` inside an `if` on a tensor is only supported outside " \
        "loops and other `if`s on tensors" in str(e.value)


@tpx.jit
def swizzle_kernel(i_ptr, j_ptr, SI: tl.constexpr, SJ: tl.constexpr,
                   G: tl.constexpr):
    i = tl.arange(0, SI)[:, None] + tl.zeros([SI, SJ], tl.int32)
    j = tl.arange(0, SJ)[None, :] + tl.zeros([SI, SJ], tl.int32)
    ni, nj = tl.swizzle2d(i, j, SI, SJ, G)
    offs = tl.arange(0, SI)[:, None] * SJ + tl.arange(0, SJ)[None, :]
    tl.store(i_ptr + offs, ni)
    tl.store(j_ptr + offs, nj)


def _swizzle_reference(i, j, size_i, size_j, size_g):
    # Row-major index -> column-major order within groups of size_g rows.
    ij = i * size_j + j
    group = ij // (size_g * size_j)
    first = group * size_g
    rows = min(size_i - first, size_g)
    ij = ij % (size_g * size_j)
    return first + ij % rows, ij // rows


def test_swizzle2d():
    si, sj, g = 8, 4, 3
    ni = np.zeros((si, sj), np.int32)
    nj = np.zeros((si, sj), np.int32)
    h.run(swizzle_kernel, (1,), ni, nj, SI=si, SJ=sj, G=g)
    want = [[_swizzle_reference(i, j, si, sj, g) for j in range(sj)]
            for i in range(si)]
    np.testing.assert_array_equal(ni, [[w[0] for w in row] for row in want])
    np.testing.assert_array_equal(nj, [[w[1] for w in row] for row in want])
    # A permutation of the grid: every (i, j) appears once.
    assert len(set(zip(ni.ravel(), nj.ravel()))) == si * sj


@tpx.jit
def add_sub_mul_kernel(x_ptr, out_ptr):
    offs = tl.arange(0, 8)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.mul(tl.sub(tl.add(x, 3), 1), 2))


def test_add_sub_mul_functions():
    x = np.arange(8, dtype=np.int32)
    out = np.zeros(8, np.int32)
    h.run(add_sub_mul_kernel, (1,), x, out)
    np.testing.assert_array_equal(out, (x + 3 - 1) * 2)


def test_kernel_defined_in_a_function_sees_its_closure():
    import tpx.language as lang
    scale = 3

    @tpx.jit
    def local_kernel(x_ptr, out_ptr):
        offs = lang.arange(0, 8)
        lang.store(out_ptr + offs, lang.load(x_ptr + offs) * scale)

    x = np.arange(8, dtype=np.int32)
    out = np.zeros(8, np.int32)
    h.run(local_kernel, (1,), x, out)
    np.testing.assert_array_equal(out, x * 3)


@tpx.jit
def optional_bias(x_ptr, b_ptr, out_ptr):
    offs = tl.arange(0, 8)
    x = tl.load(x_ptr + offs)
    if b_ptr is not None:
        x += tl.load(b_ptr + offs)
    tl.store(out_ptr + offs, x)


@pytest.mark.parametrize("with_bias", [True, False])
def test_is_not_none_on_a_pointer_folds(with_bias):
    x = np.arange(8, dtype=np.float32)
    b = np.full(8, 10, np.float32)
    out = np.zeros(8, np.float32)
    h.run(optional_bias, (1,), x, b if with_bias else None, out)
    np.testing.assert_allclose(out, x + 10 if with_bias else x)
