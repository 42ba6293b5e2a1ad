"""Independent NumPy evaluations of the papers' equations (float64)."""

import math

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


PHI = (1 + np.sqrt(5)) / 2


def golden_sigmoid(v):
    """Mistry eq. 23."""
    return 1.0 / (1.0 + PHI ** (-v))


def golden_tanh(v):
    """Mistry eq. 24."""
    return (PHI ** (2 * v) - 1) / (PHI ** (2 * v) + 1)


def golden_mul(x, w, epsilon):
    """Mistry eq. 25."""
    return PHI ** ((np.log(np.abs(x) + epsilon) @ w) / np.log(PHI))


def gated_product(values, w):
    """prod_i (w_io values_i + 1 - w_io), by explicit loops."""
    out = np.ones((values.shape[0], w.shape[1]))
    for i in range(values.shape[1]):
        for o in range(w.shape[1]):
            out[:, o] *= w[i, o] * values[:, i] + 1 - w[i, o]
    return out


def inalu(x, w_hat_add, m_hat_add, w_hat_mul, m_hat_mul, gate, omega, epsilon):
    """Mistry eq. 6-12."""
    w_add = nac_weight(w_hat_add, m_hat_add)
    w_mul = nac_weight(w_hat_mul, m_hat_mul)
    m = np.exp(np.minimum(np.log(np.maximum(np.abs(x), epsilon)) @ w_mul, omega))
    msv = gated_product(np.sign(x), np.abs(w_mul))
    g = sigmoid(gate)
    return g * (x @ w_add) + (1 - g) * m * msv


def npu(x, w_real, w_imag, gate, epsilon):
    """Mistry eq. 17-21 in complex arithmetic: y = Re exp(log z . W) with
    log z = log r + i k (eq. 18-19) and W = W_re + i W_im."""
    g = np.clip(gate, 0, 1)
    r = g * (np.abs(x) + epsilon) + (1 - g)
    k = np.pi * g * (x < 0)
    return np.exp((np.log(r) + 1j * k) @ (w_real + 1j * w_imag)).real


def nlrl(x, negation_gate, kernel, output_gate, epsilon):
    """Mistry eq. 26-29, by explicit loops."""
    batch, (inputs, units) = x.shape[0], kernel.shape
    n, a, o = sigmoid(negation_gate), sigmoid(kernel), sigmoid(output_gate)
    out = np.zeros((batch, units))
    for j in range(units):
        conj, disj = np.ones(batch), np.ones(batch)
        for i in range(inputs):
            x_hat = (1 - n[i, j]) * x[:, i] + n[i, j] * (1 - x[:, i])
            conj *= (np.abs(x_hat) + epsilon) ** a[i, j]
            disj *= 1 - a[i, j] * x_hat
        out[:, j] = (1 - o[j]) * conj + o[j] * (1 - disj)
    return out


def softmax(v, axis):
    e = np.exp(v - v.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def nsr(x, v_op1, v_op2, sign_scale, zero_scale, shift, scale):
    """Mistry eq. 30-37; returns [y, 1 - y]."""
    op1 = np.einsum("bi,iur->bur", x, softmax(v_op1, 0))
    op2 = np.einsum("bi,iur->bur", x, softmax(v_op2, 0))
    d = scale * (op1 - op2)
    z = (np.tanh(d) * sign_scale + (1 - 2 * np.tanh(d) ** 2) * zero_scale).sum(-1)
    y = sigmoid(z + shift)
    return np.concatenate([y, 1 - y], axis=-1)


def nru_directions(u, heads, memory, relu, order, overflow="zero"):
    """Chandar eq. 15-17: vec(p q^T) cut into `heads` directions of size
    `memory`, optional ReLU, each divided by max(its L-order norm, 1e-12);
    with `overflow="zero"` a direction whose sum of |v|^order exceeds
    float32's largest value is zero (the authors' float32 `F.normalize`)."""
    half = u.shape[1] // 2
    p, q = u[:, :half], u[:, half:]
    v = np.einsum("bi,bj->bij", p, q).reshape(u.shape[0], heads, memory)
    if relu:
        v = np.maximum(v, 0.0)
    norm = (np.abs(v) ** order).sum(axis=-1, keepdims=True) ** (1.0 / order)
    if overflow == "zero":
        norm = np.where(norm**order > np.finfo(np.float32).max, np.inf, norm)
    return v / np.maximum(norm, 1e-12)


def nru_step(
    w, x, h, m, heads, head_inputs, reduction, relu, layer_norm, order, overflow="zero"
):
    """Chandar eq. 9-17, one step: (h_t, m_t). `w` maps the cell's weight
    names to arrays; `layer_norm` normalises eq. 9's pre-activation
    (Keras's epsilon, 1e-3)."""
    pre = np.concatenate([x, h, m], axis=1) @ w["hidden_kernel"] + w["hidden_bias"]
    if layer_norm:
        mean, var = pre.mean(axis=1, keepdims=True), pre.var(axis=1, keepdims=True)
        pre = (pre - mean) / np.sqrt(var + 1e-3) * w["gamma"] + w["beta"]
    h = np.maximum(pre, 0.0)
    c = np.concatenate([x, h, m] if head_inputs == "input_hidden_memory" else [h, m], 1)
    heads_output = c @ w["heads_kernel"] + w["heads_bias"]
    d = math.isqrt(heads * m.shape[1])
    alpha, beta = heads_output[:, :heads], heads_output[:, heads : 2 * heads]
    write_u = heads_output[:, 2 * heads : 2 * heads + 2 * d]
    erase_u = heads_output[:, 2 * heads + 2 * d :]
    if relu:
        alpha, beta = np.maximum(alpha, 0.0), np.maximum(beta, 0.0)
    memory = m.shape[1]
    write, erase = (
        nru_directions(u, heads, memory, relu, order, overflow)
        for u in (write_u, erase_u)
    )
    change = alpha[:, :, None] * write - beta[:, :, None] * erase
    m = m + (change.mean(axis=1) if reduction == "mean" else change.sum(axis=1))
    return h, m


def janet_step(w, x, h, beta):
    """JANET (van der Westhuizen & Lasenby 2018), one step: h_t."""
    units = h.shape[1]
    pre = x @ w["kernel"] + h @ w["recurrent_kernel"] + w["bias"]
    s, candidate = pre[:, :units], pre[:, units:]
    return sigmoid(s) * h + (1.0 - sigmoid(s - beta)) * np.tanh(candidate)


def ugrnn_step(w, x, h):
    """The UGRNN (Collins et al. 2017), one step: h_t."""
    units = h.shape[1]
    pre = x @ w["kernel"] + h @ w["recurrent_kernel"] + w["bias"]
    candidate, gate = pre[:, :units], pre[:, units:]
    return sigmoid(gate) * h + (1.0 - sigmoid(gate)) * np.tanh(candidate)


def normalized_rnn_step(w, x, h, activation, layer_norm):
    """f(LN(W x + U h + b)), Keras's layer-norm epsilon 1e-3."""
    pre = x @ w["kernel"] + h @ w["recurrent_kernel"] + w["bias"]
    if layer_norm:
        mean, var = pre.mean(axis=1, keepdims=True), pre.var(axis=1, keepdims=True)
        pre = (pre - mean) / np.sqrt(var + 1e-3) * w["gamma"] + w["beta"]
    return activation(pre)
