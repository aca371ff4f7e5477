"""What the attention tutorials share: one step of the online softmax."""

import tpx as triton
import tpx.language as tl


@triton.jit
def online_softmax_step(qk, m_i, l_i, acc):
    """Folds the scaled scores `qk` (base-2 logits) of one key block into the
    running maximum `m_i` and sum `l_i`, rescaling the accumulator `acc`.
    Returns (p, m_i, l_i, acc): p's rows are the block's unnormalised
    probabilities, to be multiplied by V into the rescaled acc."""
    m_new = tl.maximum(m_i, tl.max(qk, 1))
    p = tl.math.exp2(qk - m_new[:, None])
    alpha = tl.math.exp2(m_i - m_new)
    l_i = l_i * alpha + tl.sum(p, 1)
    acc = acc * alpha[:, None]
    return p, m_new, l_i, acc
