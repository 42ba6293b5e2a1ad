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
    w,
    x,
    h,
    m,
    heads,
    head_inputs,
    reduction,
    relu,
    layer_norm,
    order,
    overflow="zero",
    layer_norm_epsilon=1e-5,
):
    """Chandar eq. 9-17, one step: (h_t, m_t). `w` maps the cell's weight
    names to arrays; `layer_norm` normalises eq. 9's pre-activation (by
    default with the authors' epsilon, `nn.LayerNorm`'s 1e-5)."""
    pre = np.concatenate([x, h, m], axis=1) @ w["hidden_kernel"] + w["hidden_bias"]
    if layer_norm:
        mean, var = pre.mean(axis=1, keepdims=True), pre.var(axis=1, keepdims=True)
        pre = (pre - mean) / np.sqrt(var + layer_norm_epsilon) * w["gamma"] + w["beta"]
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


def sru_step(w, x, mu, alphas):
    """The SRU (Oliva et al. 2017, eq. 1-4), one step: (o_t, mu_t), each
    scale's average updated in a loop."""
    r = np.maximum(mu @ w["feedback_kernel"] + w["feedback_bias"], 0.0)
    phi = np.concatenate([x, r], axis=1) @ w["statistics_kernel"]
    phi = np.maximum(phi + w["statistics_bias"], 0.0)
    size = phi.shape[1]
    averages = [
        alpha * mu[:, i * size : (i + 1) * size] + (1.0 - alpha) * phi
        for i, alpha in enumerate(alphas)
    ]
    mu = np.concatenate(averages, axis=1)
    return np.maximum(mu @ w["output_kernel"] + w["output_bias"], 0.0), mu


def fft_orthogonal_matrix(angles, units):
    """The FFT-like transition of `units` as a dense matrix M (h -> M h):
    the product of its layers' Givens rotations, largest distance first,
    angles in order of layer and then of the pair's first unit."""
    layers = math.ceil(math.log2(units)) if units > 1 else 0
    matrix, next_angle = np.eye(units), 0
    for layer in range(layers):
        distance = 2 ** (layers - 1 - layer)
        rotation = np.eye(units)
        for start in range(0, units, 2 * distance):
            for a in range(start, min(start + distance, units - distance)):
                b = a + distance
                c, s = np.cos(angles[next_angle]), np.sin(angles[next_angle])
                rotation[[a, a, b, b], [a, b, a, b]] = c, -s, s, c
                next_angle += 1
        matrix = rotation @ matrix
    assert next_angle == len(angles)
    return matrix


def modrelu(z, bias, epsilon):
    return np.sign(z) * np.maximum(np.abs(z) + epsilon + bias, 0.0)


def eurnn_step(w, x, h):
    """The real EURNN (Jing et al. 2017b), one step: h_t."""
    transition = fft_orthogonal_matrix(w["theta"], h.shape[1])
    return modrelu(x @ w["kernel"] + h @ transition.T, w["bias"], 1e-5)


def goru_step(w, x, h):
    """The GORU (Jing et al. 2017a), one step: h_t."""
    n = h.shape[1]
    transition = fft_orthogonal_matrix(w["theta"], n)
    ux, wh, b = x @ w["kernel"], h @ w["recurrent_kernel"], w["bias"]
    r = sigmoid(ux[:, n : 2 * n] + wh[:, :n] + b[n : 2 * n])
    g = sigmoid(ux[:, 2 * n :] + wh[:, n:] + b[2 * n :])
    c = modrelu(ux[:, :n] + r * (h @ transition.T), b[:n], 1e-3)
    return g * h + (1.0 - g) * c


def dnc_step(w, x, states, memory_slots, word_size, read_heads):
    """The DNC (Graves et al. 2016, Methods), one step: (output, states),
    written per sample with explicit loops over slots and heads."""
    N, W, R = memory_slots, word_size, read_heads
    eps = 1e-6
    outputs, new_states = [], [[] for _ in states]
    for b in range(x.shape[0]):
        out, c, m, u, p, link, rw, ww = (s[b].astype(np.float64) for s in states)
        h, r = out[: c.shape[0]], out[c.shape[0] :]
        m, link, rw = m.reshape(N, W), link.reshape(N, N), rw.reshape(R, N)
        z = np.concatenate([x[b], r]) @ w["kernel"] + h @ w["recurrent_kernel"]
        i, f, g, o = np.split(z + w["bias"], 4)
        c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
        h = sigmoid(o) * np.tanh(c)
        xi = h @ w["interface_kernel"] + w["interface_bias"]
        sizes = [R * W, R, W, 1, W, W, R, 1, 1, 3 * R]
        parts = np.split(xi, np.cumsum(sizes)[:-1])
        read_keys = parts[0].reshape(R, W)
        read_strengths = 1 + np.log1p(np.exp(parts[1]))
        write_key, write_strength = parts[2], 1 + np.log1p(np.exp(parts[3][0]))
        erase, write_vector = sigmoid(parts[4]), parts[5]
        free, alloc_gate, write_gate = (
            sigmoid(parts[6]),
            sigmoid(parts[7][0]),
            sigmoid(parts[8][0]),
        )
        modes = np.exp(parts[9].reshape(R, 3))
        modes /= modes.sum(axis=1, keepdims=True)

        def norm(v):
            return np.sqrt(np.sum(v * v) + eps)

        def content(memory, key, strength):
            cos = np.array(
                [
                    memory[n] @ key / (norm(memory[n]) * norm(key) + eps)
                    for n in range(N)
                ]
            )
            e = np.exp(strength * cos - np.max(strength * cos))
            return e / e.sum()

        psi = np.prod([1 - free[k] * rw[k] for k in range(R)], axis=0)
        u = (u + ww - u * ww) * psi
        shifted = eps + (1 - eps) * u
        alloc, before = np.zeros(N), 1.0
        # sorted in float32, as the cell computes: symmetric slots (equal
        # memory rows) have usages equal in float32 that float64's summation
        # order can split; equal usages go to the lower slot first
        for slot in np.argsort(shifted.astype(np.float32), kind="stable"):
            alloc[slot] = (1 - shifted[slot]) * before
            before *= shifted[slot]
        ww_new = write_gate * (
            alloc_gate * alloc
            + (1 - alloc_gate) * content(m, write_key, write_strength)
        )
        m = m * (1 - np.outer(ww_new, erase)) + np.outer(ww_new, write_vector)
        link_new = np.zeros((N, N))
        for a in range(N):
            for bb in range(N):
                if a != bb:
                    link_new[a, bb] = (1 - ww_new[a] - ww_new[bb]) * link[
                        a, bb
                    ] + ww_new[a] * p[bb]
        p = (1 - ww_new.sum()) * p + ww_new
        rw_new = np.stack(
            [
                modes[k, 0] * link_new.T @ rw[k]
                + modes[k, 1] * content(m, read_keys[k], read_strengths[k])
                + modes[k, 2] * link_new @ rw[k]
                for k in range(R)
            ]
        )
        r = (rw_new @ m).reshape(-1)
        out = np.concatenate([h, r])
        outputs.append(out)
        for k, s in enumerate(
            [
                out,
                c,
                m.reshape(-1),
                u,
                p,
                link_new.reshape(-1),
                rw_new.reshape(-1),
                ww_new,
            ]
        ):
            new_states[k].append(s)
    return np.array(outputs), [np.array(s) for s in new_states]


def stochastic_nmu_in_training(x, w, noise):
    """Mistry et al. 2022 (the sNMU): NMU_W(x * n) / NMU_W(n)."""
    return nmu(x * noise, w) / nmu(noise, w)


def mcfc(x, junction, gate_kernel, gate_bias):
    """Hoedt et al. 2021, the MC-FC by loops: each input's mass split by
    J = softmax over the outputs of R, kept in the share sigmoid(w + b)."""
    batch, (inputs, units) = x.shape[0], junction.shape
    out = np.zeros((batch, units))
    for i in range(inputs):
        row = np.exp(junction[i] - junction[i].max())
        row /= row.sum()
        for o in range(units):
            out[:, o] += x[:, i] * row[o]
    return sigmoid(gate_kernel.ravel() + gate_bias) * out


def mul_mcfc(x, junction, gate_kernel, gate_bias, bias, sign, sign_gate, epsilon):
    """MulMCFC: exp(MCFC(log(v + eps)) + alpha) * s, v = x or |x| and s as
    the sign variant computes it (the NALM benchmark's `mcfc.py`)."""
    magnitude = (x if sign == "none" else np.abs(x)) + epsilon
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.exp(mcfc(np.log(magnitude), junction, gate_kernel, gate_bias) + bias)
    j = np.exp(junction - junction.max(axis=1, keepdims=True))
    j /= j.sum(axis=1, keepdims=True)
    if sign == "inalu":
        s = np.ones_like(out)
        for i in range(x.shape[1]):
            s *= np.sign(x[:, i : i + 1]) * j[i] + 1 - j[i]
        return out * s
    if sign == "real_npu":
        angle = math.pi * np.clip(sign_gate, 0, 1) * (x < 0)
        return out * np.cos(angle @ j)
    return out


def reciprocal_unit(x, w, training, separate_sign=False, epsilon=0.0):
    """Mistry et al. 2021's reciprocal unit by loops: the product over the
    inputs of s |x_i|^W t + 1 - t, t = tanh(1000 W)^2 (training) or |W|."""
    w = np.clip(w, -1, 1)
    t = np.tanh(1000 * w) ** 2 if training else np.abs(w)
    out = np.ones((x.shape[0], w.shape[1]))
    sign = np.ones_like(out)
    for i in range(x.shape[1]):
        for o in range(w.shape[1]):
            power = (np.abs(x[:, i]) + epsilon) ** w[i, o]
            if separate_sign:
                out[:, o] *= power * t[i, o] + 1 - t[i, o]
                sign[:, o] *= np.where(x[:, i] < 0, -1.0, 1.0) ** np.round(w[i, o])
            else:
                out[:, o] *= np.sign(x[:, i]) * power * t[i, o] + 1 - t[i, o]
    return out * sign


def nmru(x, w, epsilon, sign_retrieval=True, gate=None):
    """The NMRU: over x' = [x, 1 / (x + eps)] (times the clipped gate), the
    NMU's magnitude times cos(pi * sum of the selected negative inputs), or
    the plain NMU."""
    extended = np.concatenate([x, 1.0 / (x + epsilon)], axis=1)
    if gate is not None:
        extended = extended * np.clip(gate, 0, 1)
    if not sign_retrieval:
        return nmu(extended, w)
    w = np.clip(w, 0, 1)
    angle = np.pi * (extended < 0).astype(np.float64) @ w
    return nmu(np.abs(extended), w) * np.cos(angle)


def dmu(x, w, units, pattern=None, limits=(1e-20, 1e20), hardened=True):
    """Curry 2025, the DMU, sample by sample and output by output: operands
    O and gate G from heads on LayerNorm(x) (hardened: O rounded into
    {-1, 0, 1}, G one-hot), then the linear and logarithmic results mixed
    by G (the authors' `dag.py`, one step per output); tau 1e-4, delta
    1e-8, the layer norm's epsilon 1e-5."""
    batch, inputs = x.shape
    low, high = limits
    out = np.zeros((batch, units))
    for n in range(batch):
        v = x[n]
        h = (v - v.mean()) / np.sqrt(v.var() + 1e-5) * w["norm_scale"] + w[
            "norm_offset"
        ]
        for o in range(units):
            g = (
                h @ w["gate_kernel"][:, 2 * o : 2 * o + 2]
                + w["gate_bias"][2 * o : 2 * o + 2]
            )
            g = np.exp(g - g.max()) / np.exp(g - g.max()).sum()
            if pattern is None:
                columns = slice(o * inputs, (o + 1) * inputs)
                s_logits = h @ w["sign_kernel"][:, columns] + w["sign_bias"][columns]
                m_logits = h @ w["magnitude_kernel"][:, columns]
                m_logits = m_logits + w["magnitude_bias"][columns]
                operands = np.tanh(s_logits) * np.logaddexp(0.0, m_logits)
            else:
                operands = np.zeros(inputs)
                operands[: len(pattern)] = pattern
            if hardened:
                operands = np.clip(np.round(operands), -1, 1)
                g = np.eye(2)[np.argmax(g)]
            magnitude, sign = np.abs(v), np.where(v >= 0, 1.0, -1.0)
            linear = np.sum(operands * sign * magnitude)
            logarithmic = np.sum(operands * np.log(np.maximum(magnitude, low)))
            negatives = np.sum(np.abs(operands) * (1 - sign) / 2)
            y_sign = g[0] * np.tanh(linear / 1e-4) + g[1] * np.cos(math.pi * negatives)
            lo, hi = math.log(low), math.log(high)
            clamped = lo + np.logaddexp(
                0.0, hi - np.logaddexp(0.0, hi - logarithmic) - lo
            )
            linear_magnitude = np.clip(np.sqrt(linear**2 + 1e-8), low, high)
            out[n, o] = y_sign * (g[0] * linear_magnitude + g[1] * np.exp(clamped))
    return out
