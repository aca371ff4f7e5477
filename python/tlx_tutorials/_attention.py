"""What the attention tutorials share: one step of the online softmax."""

import tpx as triton
import tpx.language as tl


@triton.jit
def online_softmax_step(qk, qk_scale, m_i, l_i, acc):
    """Folds the scores `qk` of one key block, which `qk_scale` turns into
    base-2 logits, into the running maximum `m_i` and sum `l_i` (both in
    logit units), rescaling the accumulator `acc`. Returns (p, m_i, l_i,
    acc): p's rows are the block's unnormalised probabilities, to be
    multiplied by V into the rescaled acc.

    The scale is applied once per row to the maximum (it is positive, so it
    commutes with max) and then inside `qk * qk_scale - m`, one fused
    multiply-add per score, instead of a multiply for the maximum and a
    subtraction after it."""
    m_new = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
    p = tl.math.exp2(qk * qk_scale - m_new[:, None])
    alpha = tl.math.exp2(m_i - m_new)
    l_i = l_i * alpha + tl.sum(p, 1)
    acc = acc * alpha[:, None]
    return p, m_new, l_i, acc
