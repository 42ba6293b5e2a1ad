"""Independent NumPy evaluations of the papers' equations (float64)."""

import numpy as np


def sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


def nac_weight(w_hat, m_hat):
    """Madsen eq. 1."""
    return np.tanh(w_hat) * sigmoid(m_hat)


def nau(x, w):
    """Madsen eq. 5 and 7: z_o = sum_i clip(W)_io x_i."""
    w = np.clip(w, -1, 1)
    return np.einsum("bi,io->bo", x, w)


def nmu(x, w):
    """Madsen eq. 10 and 12: z_o = prod_i (W_io x_i + 1 - W_io)."""
    w = np.clip(w, 0, 1)
    out = np.ones((x.shape[0], w.shape[1]))
    for i in range(x.shape[1]):
        for o in range(w.shape[1]):
            out[:, o] *= w[i, o] * x[:, i] + 1 - w[i, o]
    return out


def nac_mul(x, w, epsilon):
    """Madsen eq. 3 written as eq. 8: prod_i (|x_i| + eps) ** W_io."""
    out = np.ones((x.shape[0], w.shape[1]))
    for i in range(x.shape[1]):
        for o in range(w.shape[1]):
            out[:, o] *= (np.abs(x[:, i]) + epsilon) ** w[i, o]
    return out


def complex_mul(x, w, epsilon):
    """Trask app. F: Re exp(W . log(x + eps)) with the complex logarithm."""
    log = np.log((x + epsilon).astype(np.complex128))
    return np.exp(log @ w.astype(np.complex128)).real


def gate(x, g, bias=None):
    """Mistry eq. 4."""
    logits = x @ g
    if bias is not None:
        logits = logits + bias
    return sigmoid(logits)


def gated(x, g, bias, add, mul):
    """Mistry eq. 5."""
    gv = gate(x, g, bias)
    return gv * add + (1 - gv) * mul
