"""The Differentiable Neural Computer's cell, a memory baseline of Trask et
al.'s program evaluation."""

import keras
from keras import ops

from keras_nalm import ops as nalm_ops
from keras_nalm._validation import check_positive_int
from keras_nalm.layers.base import serialized
from keras_nalm.layers.recurrent_cell import RecurrentCell
from keras_nalm.saving import LAB_PACKAGE
from keras_nalm.saving import register_serializable

#: Keeps the cosine similarity, its norms and the allocation's usage finite
#: (and differentiable) where the memory or a key is zero.
EPSILON = 1e-6
_SERIALIZED = (
    "kernel_initializer",
    "recurrent_initializer",
    "bias_initializer",
    "interface_initializer",
)


def _oneplus(x):
    """1 + softplus(x): the strengths β ∈ [1, ∞) (Graves et al. 2016, Methods)."""
    return 1.0 + ops.softplus(x)


def _norm(vectors):
    """sqrt(Σ v² + ε) over the last axis: finite gradients at v = 0 (the
    memory starts at zero)."""
    return ops.sqrt(ops.sum(ops.square(vectors), axis=-1) + EPSILON)


def _content_weights(memory, keys, strengths):
    """C(M, k, β) = softmax_over_slots(β · cos(M[i], k)) for each key:
    `memory` (batch, N, W), `keys` (batch, K, W), `strengths` (batch, K)."""
    dots = ops.einsum("bkw,bnw->bkn", keys, memory)
    norms = _norm(keys)[..., None] * _norm(memory)[:, None]
    similarity = dots / (norms + EPSILON)
    return ops.softmax(similarity * strengths[..., None], axis=-1)


def _allocation_weights(usage):
    """a[φ_j] = (1 - u[φ_j]) Π_{i<j} u[φ_i], φ the slots by ascending usage
    (equal usages by slot): the least used slots get the write (the DNC's
    dynamic allocation). Each slot's rank counts the slots before it (u_i <
    u_j, or u_i = u_j and i < j), so the order is the same on every backend
    whatever its sort does with ties."""
    usage = EPSILON + (1.0 - EPSILON) * usage
    earlier, later = usage[:, None, :], usage[:, :, None]
    slots = ops.arange(usage.shape[-1], dtype="int32")
    before = ops.logical_or(
        earlier < later,
        ops.logical_and(earlier == later, slots[None, :] < slots[:, None]),
    )
    rank = ops.sum(ops.cast(before, "int32"), axis=-1)
    sorted_usage = ops.take_along_axis(usage, ops.argsort(rank, axis=-1), axis=-1)
    products_before = ops.concatenate(
        [ops.ones_like(sorted_usage[:, :1]), ops.cumprod(sorted_usage, axis=-1)],
        axis=-1,
    )[:, :-1]
    return (1.0 - usage) * ops.take_along_axis(products_before, rank, axis=-1)


@register_serializable(former_packages=(LAB_PACKAGE,))
class DNCCell(RecurrentCell):
    """The Differentiable Neural Computer (Graves et al. 2016, "Hybrid
    computing using a neural network with dynamic external memory", Nature
    538, Methods), one step, as a Keras RNN cell. An LSTM controller reads
    the input and the previous read vectors, [x_t; r_{t-1}], and emits the
    interface vector ξ_t that drives the memory M (N slots of W):

        read keys k^r_i, strengths β^r_i = oneplus(·)      (R read heads)
        write key k^w, strength β^w = oneplus(·)
        erase e = σ(·), write vector v, free gates f_i = σ(·)
        allocation gate g^a = σ(·), write gate g^w = σ(·)
        read modes π_i = softmax(·) over (backward, content, forward)

        ψ = Π_i (1 - f_i w^r_{t-1,i}),  u_t = (u + w^w - u ∘ w^w)_{t-1} ∘ ψ
        a = allocation(u_t)   (least used slots first)
        w^w = g^w (g^a a + (1 - g^a) C(M_{t-1}, k^w, β^w))
        M_t = M_{t-1} ∘ (1 - w^w eᵀ) + w^w vᵀ
        L_t[i,j] = (1 - w^w[i] - w^w[j]) L_{t-1}[i,j] + w^w[i] p_{t-1}[j],
        L_t[i,i] = 0,  p_t = (1 - Σ w^w) p_{t-1} + w^w
        w^r_i = π_i,1 L_tᵀ w^r_{t-1,i} + π_i,2 C(M_t, k^r_i, β^r_i)
                + π_i,3 L_t w^r_{t-1,i}
        r_i = M_tᵀ w^r_i

    The output is [h_t; r_1 ... r_R] (`units + read_heads * word_size`
    features; put a Dense layer after the RNN for the DNC's output map).
    The states (all zero at first) are that output (the first state, as
    every Keras backend's masking expects), the controller's c, then M, u,
    p, L and the read and write weightings, each flattened. Trask et al.
    (2018, app. E) compare the NALU with a DNC on program evaluation
    without giving its sizes; the defaults here are small (16 slots of 16,
    one read head). The norms, the content similarity and the usage carry
    ε = 1e-6 (finite values and gradients at a zero memory). Equal usages
    are allocated to the lower slot first, on every backend.

    Args:
        units: int > 0, the controller LSTM's size.
        memory_slots: int > 0, N (default 16).
        word_size: int > 0, W (default 16).
        read_heads: int > 0, R (default 1).
        kernel_initializer: the controller's input kernel's (default
            Glorot uniform, as Keras's LSTM).
        recurrent_initializer: the controller's recurrent kernel's
            (default orthogonal).
        bias_initializer: the controller's bias's (default zeros, with the
            forget gate's bias at 1, as Keras's LSTM).
        interface_initializer: the interface map's kernel (default Glorot
            uniform; its bias starts at zero).
        **kwargs: base layer arguments.

    Call arguments:
        inputs: the step's input, floating point (batch, features).
        states: the eight states above (`state_size`), each (batch, size).
        training: bool (unused).

    Input shape:
        (batch, features) per step; (batch, time, features) in
        `keras.layers.RNN`.

    Output shape:
        (batch, units + read_heads * word_size): [h_t; r_1 ... r_R].

    Example:
    >>> cell = keras_nalm.layers.DNCCell(32, memory_slots=16, word_size=8)
    >>> outputs = keras.layers.RNN(cell)(keras.Input((None, 10)))

    Reference:
    - [Graves et al., 2016](https://doi.org/10.1038/nature20101), Methods.
    - [Trask et al., 2018](https://arxiv.org/abs/1808.00508), app. E.
    """

    def __init__(
        self,
        units,
        memory_slots=16,
        word_size=16,
        read_heads=1,
        kernel_initializer="glorot_uniform",
        recurrent_initializer="orthogonal",
        bias_initializer="zeros",
        interface_initializer="glorot_uniform",
        **kwargs,
    ):
        super().__init__(units, **kwargs)
        self.memory_slots = check_positive_int("memory_slots", memory_slots)
        self.word_size = check_positive_int("word_size", word_size)
        self.read_heads = check_positive_int("read_heads", read_heads)
        self.kernel_initializer = keras.initializers.get(kernel_initializer)
        self.recurrent_initializer = keras.initializers.get(recurrent_initializer)
        self.bias_initializer = keras.initializers.get(bias_initializer)
        self.interface_initializer = keras.initializers.get(interface_initializer)

    @property
    def _interface_sizes(self):
        """The interface vector's parts, in order."""
        R, W = self.read_heads, self.word_size
        return {
            "read_keys": R * W,
            "read_strengths": R,
            "write_key": W,
            "write_strength": 1,
            "erase": W,
            "write_vector": W,
            "free_gates": R,
            "allocation_gate": 1,
            "write_gate": 1,
            "read_modes": 3 * R,
        }

    @property
    def state_size(self):
        N, W, R = self.memory_slots, self.word_size, self.read_heads
        return [self.output_size, self.units, N * W, N, N, N * N, R * N, N]

    @property
    def output_size(self):
        return self.units + self.read_heads * self.word_size

    def build_cell(self, input_dim):
        gates = 4 * self.units
        self.kernel = self.add_weight(
            name="kernel",
            shape=(input_dim + self.read_heads * self.word_size, gates),
            initializer=self.kernel_initializer,
        )
        self.recurrent_kernel = self.add_weight(
            name="recurrent_kernel",
            shape=(self.units, gates),
            initializer=self.recurrent_initializer,
        )
        self.bias = self.add_weight(
            name="bias", shape=(gates,), initializer=self._controller_bias
        )
        self.interface_kernel = self.add_weight(
            name="interface_kernel",
            shape=(self.units, sum(self._interface_sizes.values())),
            initializer=self.interface_initializer,
        )
        self.interface_bias = self.add_weight(
            name="interface_bias",
            shape=(sum(self._interface_sizes.values()),),
            initializer="zeros",
        )

    def _controller_bias(self, shape, dtype=None):
        """The bias initializer's blocks [i, f, c, o], f starting at 1."""
        block = self.bias_initializer((self.units,), dtype=dtype)
        return ops.concatenate(
            [block, ops.ones((self.units,), dtype), block, block], axis=0
        )

    def _controller(self, x, h, c):
        """Keras's LSTM step (gates i, f, c, o)."""
        z = ops.matmul(x, self.kernel) + ops.matmul(h, self.recurrent_kernel)
        i, f, g, o = ops.split(z + self.bias, 4, axis=-1)
        c = nalm_ops.sigmoid(f) * c + nalm_ops.sigmoid(i) * nalm_ops.tanh(g)
        return nalm_ops.sigmoid(o) * nalm_ops.tanh(c), c

    def _interface(self, h):
        """The interface vector's parts, shaped per head."""
        xi = ops.matmul(h, self.interface_kernel) + self.interface_bias
        parts, start = {}, 0
        for name, size in self._interface_sizes.items():
            parts[name], start = xi[:, start : start + size], start + size
        R, W = self.read_heads, self.word_size
        return {
            "read_keys": ops.reshape(parts["read_keys"], (-1, R, W)),
            "read_strengths": _oneplus(parts["read_strengths"]),
            "write_key": parts["write_key"][:, None, :],
            "write_strength": _oneplus(parts["write_strength"]),
            "erase": nalm_ops.sigmoid(parts["erase"]),
            "write_vector": parts["write_vector"],
            "free_gates": nalm_ops.sigmoid(parts["free_gates"]),
            "allocation_gate": nalm_ops.sigmoid(parts["allocation_gate"]),
            "write_gate": nalm_ops.sigmoid(parts["write_gate"]),
            "read_modes": ops.softmax(
                ops.reshape(parts["read_modes"], (-1, R, 3)), axis=-1
            ),
        }

    def _write(self, interface, memory, usage, read_weights, write_weights):
        """(usage u_t, write weighting w^w_t, memory M_t)."""
        retention = ops.prod(
            1.0 - interface["free_gates"][..., None] * read_weights, axis=1
        )
        usage = (usage + write_weights - usage * write_weights) * retention
        content = _content_weights(
            memory, interface["write_key"], interface["write_strength"]
        )[:, 0]
        gate = interface["allocation_gate"]
        write = interface["write_gate"] * (
            gate * _allocation_weights(usage) + (1.0 - gate) * content
        )
        erase = write[..., None] * interface["erase"][:, None, :]
        memory = (
            memory * (1.0 - erase)
            + write[..., None] * interface["write_vector"][:, None]
        )
        return usage, write, memory

    def _link(self, link, precedence, write):
        """(link matrix L_t, precedence p_t): the order of the writes."""
        keep = 1.0 - write[:, :, None] - write[:, None, :]
        link = keep * link + write[:, :, None] * precedence[:, None, :]
        link = link * (1.0 - ops.eye(self.memory_slots, dtype=link.dtype))
        precedence = (1.0 - ops.sum(write, axis=-1, keepdims=True)) * precedence
        return link, precedence + write

    def step(self, x, states, training):
        N, W, R = self.memory_slots, self.word_size, self.read_heads
        output, c, memory, usage, precedence, link, reads, writes = states
        h, vectors = output[:, : self.units], output[:, self.units :]
        memory = ops.reshape(memory, (-1, N, W))
        link = ops.reshape(link, (-1, N, N))
        reads = ops.reshape(reads, (-1, R, N))
        h, c = self._controller(ops.concatenate([x, vectors], axis=-1), h, c)
        interface = self._interface(h)
        usage, writes, memory = self._write(interface, memory, usage, reads, writes)
        link, precedence = self._link(link, precedence, writes)
        forward = ops.einsum("bij,bhj->bhi", link, reads)
        backward = ops.einsum("bji,bhj->bhi", link, reads)
        content = _content_weights(
            memory, interface["read_keys"], interface["read_strengths"]
        )
        modes = interface["read_modes"]
        reads = (
            modes[..., 0:1] * backward
            + modes[..., 1:2] * content
            + modes[..., 2:3] * forward
        )
        vectors = ops.reshape(ops.einsum("bhn,bnw->bhw", reads, memory), (-1, R * W))
        output = ops.concatenate([h, vectors], axis=-1)
        new_states = [
            output,
            c,
            ops.reshape(memory, (-1, N * W)),
            usage,
            precedence,
            ops.reshape(link, (-1, N * N)),
            ops.reshape(reads, (-1, R * N)),
            writes,
        ]
        return output, new_states

    def get_config(self):
        config = super().get_config()
        config.update(
            memory_slots=self.memory_slots,
            word_size=self.word_size,
            read_heads=self.read_heads,
        )
        config.update(serialized(self, *_SERIALIZED))
        return config
