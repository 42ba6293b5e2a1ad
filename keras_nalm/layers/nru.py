"""The Non-saturating Recurrent Unit (Chandar et al. 2019) as a Keras RNN
cell."""

import inspect
import math

import keras
from keras import ops

from keras_nalm._validation import check_choice
from keras_nalm._validation import check_positive_float
from keras_nalm._validation import check_positive_int
from keras_nalm.initializers import LinearBias
from keras_nalm.layers.base import serialized
from keras_nalm.layers.recurrent_cell import RecurrentCell
from keras_nalm.saving import register_serializable

#: What the heads (alpha, beta and the directions) read: the authors' code
#: `[h_t, m_{t-1}]`, or the paper's eq. 11-16 `[x_t, h_t, m_{t-1}]`.
HEAD_INPUTS = ("hidden_memory", "input_hidden_memory")
#: How the k heads' updates combine: the code's mean, or eq. 10's sum.
HEAD_REDUCTIONS = ("mean", "sum")
#: PyTorch's `nn.Linear` weight initialisation, U[-1/sqrt(fan_in), ...],
#: which the authors' code keeps.
LINEAR_UNIFORM = {
    "class_name": "VarianceScaling",
    "config": {"scale": 1.0 / 3.0, "mode": "fan_in", "distribution": "uniform"},
}
#: The floor of a direction's norm (the code's `F.normalize` eps).
NORM_FLOOR = 1e-12
#: What becomes of a direction whose L-n norm float32 cannot hold as a sum
#: of n-th powers: `"zero"`, as in the authors' code, or `"normalize"`.
DIRECTION_OVERFLOWS = ("zero", "normalize")
FLOAT32_MAX = 3.4028234663852886e38


def overflow_limit(order):
    """The largest L-`order` norm whose sum of `order`-th powers float32
    holds: (float32 max)^(1 / order), 5.2e7 for the L5 norm."""
    return FLOAT32_MAX ** (1.0 / order)


def _divisor(norms, order, overflow):
    """What a direction is divided by: its norm floored at 1e-12, or
    infinity (the direction becomes 0, with zero gradients) where
    `overflow == "zero"` and the norm is above `overflow_limit(order)`."""
    norms = ops.maximum(norms, NORM_FLOOR)
    if overflow == "normalize":
        return norms
    return ops.where(norms > overflow_limit(order), float("inf"), norms)


def abs_power(v, order):
    """|v|^order, by repeated squaring when `order` is an integer up to 16:
    XLA evaluates a float power as exp(order * log|v|) per entry, which cost
    more than the rest of the cell on CPU (`benchmarks.speed.recurrent_speed`)."""
    magnitude = ops.abs(v)
    if order != int(order) or not 1 <= order <= 16:
        return magnitude**order
    result, exponent = None, int(order)
    while exponent:
        if exponent & 1:
            result = magnitude if result is None else result * magnitude
        exponent >>= 1
        if exponent:
            magnitude = magnitude * magnitude
    return result


def lp_norm(x, order, axis=-1):
    """The L-`order` norm of `x` along `axis` (kept), computed as
    s (sum |x / s|^order)^(1 / order) with s = max |x|, so that it overflows
    only where the norm itself leaves float32's range (|x|^5 alone does from
    |x| > 5e7, which an NRU's growing state reaches on long sequences); 0,
    with a zero gradient, where x is 0."""
    scale = ops.max(ops.abs(x), axis=axis, keepdims=True)
    positive = scale > 0
    scale = ops.where(positive, scale, 1.0)
    power = ops.sum(abs_power(x / scale, order), axis=axis, keepdims=True)
    power = ops.where(positive, power, 1.0)  # >= 1 where positive
    return ops.where(positive, scale * power ** (1.0 / order), 0.0)


def directions(u, num_heads, memory_size, relu, order, overflow):
    """Eq. 15-17: the rank-one directions of the k heads from `u`, the
    concatenation of p and q (each of size sqrt(k m)): vec(p q^T) cut into
    k directions of size m, an optional ReLU, each scaled to unit L-`order`
    norm (or zero, `_divisor`)."""
    p, q = ops.split(u, 2, axis=-1)
    outer = ops.expand_dims(p, -1) * ops.expand_dims(q, -2)
    v = ops.reshape(outer, (-1, num_heads, memory_size))
    if relu:
        v = ops.relu(v)
    return v / _divisor(lp_norm(v, order), order, overflow)


def weighted_directions(u, weights, num_heads, memory_size, relu, order, overflow):
    """sum_i weights_i v_i over the k directions of `u` (eq. 10, 17), of
    shape (batch, memory_size).

    When k divides d = sqrt(k m) (the defaults, and every configuration of
    the paper), head i's direction is whole rows of p q^T: the outer
    product of p's i-th chunk p_(i) (d / k entries) with q. Its L-n norm is
    then ||p_(i)||_n ||q||_n (floored at 1e-12, the code's `F.normalize`
    eps), and the weighted sum is the outer product of
    sum_i (weights_i / norm_i) p_(i) with q: the k directions of m entries
    are never formed, which makes the cell about twice as fast on CPU
    (`benchmarks.speed.recurrent_speed`). With the ReLU, relu(p q^T) = p+ q+^T +
    p- q-^T (p+ = relu(p), p- = relu(-p)) splits the same way, its norm
    the L-n norm of the two terms' norms. Otherwise
    the directions are formed (`directions`)."""
    size = u.shape[-1] // 2
    if size % num_heads:
        v = directions(u, num_heads, memory_size, relu, order, overflow)
        return ops.sum(ops.expand_dims(weights, -1) * v, axis=1)
    p, q = ops.split(u, 2, axis=-1)

    def chunks(x):  # (batch, d) -> (batch, k, d / k): head i's rows
        return ops.reshape(x, (-1, num_heads, size // num_heads))

    pairs = (
        [(ops.relu(p), ops.relu(q)), (ops.relu(-p), ops.relu(-q))] if relu else [(p, q)]
    )
    # each term's norm per head, (batch, k, 1), then the heads' norms
    terms = [
        lp_norm(chunks(a), order) * ops.expand_dims(lp_norm(b, order), -1)
        for a, b in pairs
    ]
    norms = terms[0] if len(terms) == 1 else lp_norm(ops.concatenate(terms, -1), order)
    scale = ops.expand_dims(weights, -1) / _divisor(norms, order, overflow)
    return sum(
        ops.reshape(
            ops.expand_dims(ops.sum(scale * chunks(a), axis=1), -1)
            * ops.expand_dims(b, -2),
            (-1, memory_size),
        )
        for a, b in pairs
    )


@register_serializable
class NRUCell(RecurrentCell):
    """Non-saturating Recurrent Unit cell (Chandar et al. 2019, eq. 9-17).

    A ReLU hidden state beside a flat memory that is written and erased
    additively, with no saturating gate:

        h_t = ReLU(W_h h_{t-1} + W_i x_t + W_c m_{t-1} + b)           (eq. 9)
        c_t = [h_t, m_{t-1}]   (or [x_t, h_t, m_{t-1}], eq. 11-16)
        alpha = W_a c_t + b_a,  beta = W_b c_t + b_b   (k values each; eq. 11-12)
        [p, q] = W_w c_t + b_w,  p, q in R^sqrt(k m)                 (eq. 15-16)
        v^w = g(vec(p q^T)) cut into k directions of size m          (eq. 17)
        v^e likewise from W_e, b_e                                    (eq. 14)
        m_t = m_{t-1} + reduce_k(alpha_i v_i^w - beta_i v_i^e)        (eq. 10)

    where g is an optional ReLU followed by a normalisation of each
    direction to unit L5 norm. The output is h_t; the states are
    `[h, m]`, zero at first.

    The paper and the authors' code (github.com/apsarath/NRU) differ; the
    defaults are the code's, which produced the published numbers:

    - `head_inputs="hidden_memory"`: the heads read [h_t, m_{t-1}] (code);
      `"input_hidden_memory"` adds x_t (eq. 11-16).
    - `head_reduction="mean"`: the heads' updates are averaged (code);
      `"sum"` adds them (eq. 10).
    - `layer_norm=False`: the code's optional layer normalisation of eq.
      9's pre-activation, with the code's epsilon (`nn.LayerNorm`'s 1e-5,
      not Keras's 1e-3) by default.
    - `head_relu=False`: linear heads, which the paper (§4) found better on
      every task but language modelling; True applies ReLU to alpha, beta
      and the directions (the code's `use_relu`).
    - the normalisation order is 5 (the code's; the paper says "an explicit
      normalization").
    - `direction_overflow="zero"`: a direction whose L5 norm is above
      (float32 max)^(1/5) = 5.2e7 is zero, as in the code, whose float32
      `F.normalize` sums |v|^5 into infinity there and divides by it;
      `"normalize"` scales every direction to unit norm exactly. It
      matters when the memory grows large: untrained on psMNIST's 784
      steps the memory grows 4-5 % per step through the heads (eq.
      11-16 read it), to |m| ~ 1e12-1e14 with `"normalize"` (training
      then reaches NaN within its first updates), while the code's
      overflow stops each write whose direction's norm reaches 5.2e7, which
      holds |m| near 1e5 (`python -m benchmarks.nru.memory_probe` in the
      repository measures it; `benchmarks/nru/RESULTS.md`, psMNIST).

    The code's single outer product over all heads (the paper's
    "2 sqrt(k m)-dimensional vector" trick) needs k m to be a perfect
    square. The weights are `hidden_kernel` and `hidden_bias` (eq. 9, rows
    in the order [x, h, m]) and `heads_kernel` and `heads_bias`: the four
    maps of the heads side by side, columns alpha (k), beta (k), then the
    write and the erase vectors [p, q] (2 sqrt(k m) each), computed as one
    product. They start as PyTorch's `nn.Linear` (U[+-1/sqrt(fan_in)]),
    biases at zero (PyTorch draws them from the same range). The cell
    computes in float32 under a mixed precision policy (|v|^5 leaves
    float16's range for |v| > 9).

    Args:
        units: int > 0, the size h of the hidden state and of the output.
        memory_size: int > 0, the size m of the memory (default 64).
        num_heads: int > 0, the number k of writing and of erasing heads
            (default 4); `num_heads * memory_size` must be a perfect square.
        head_inputs: `"hidden_memory"` (default) or `"input_hidden_memory"`.
        head_reduction: `"mean"` (default) or `"sum"`.
        head_relu: bool (default False).
        layer_norm: bool (default False).
        layer_norm_epsilon: float > 0, the epsilon added to the variance in
            the layer normalisation (default 1e-5, PyTorch's `nn.LayerNorm`,
            which the authors' code uses).
        normalization_order: float > 0, the norm of each direction (default
            5).
        direction_overflow: `"zero"` (default) or `"normalize"`.
        kernel_initializer: the initializer of every weight matrix (default
            PyTorch's `nn.Linear`'s).
        bias_initializer: the initializer of every bias (default zeros;
            `keras_nalm.initializers.LinearBias()`: PyTorch's `nn.Linear`'s,
            U[+-1/sqrt(fan_in)] of each bias's kernel, the authors' code's).
        kernel_regularizer: a Keras regularizer of every kernel (default
            None).
        bias_regularizer: a Keras regularizer of every bias (default None).
        **kwargs: base layer arguments.

    Call arguments:
        inputs: the step's input, floating point `(batch_size, input_dim)`.
        states: `[h_{t-1}, m_{t-1}]`, `(batch_size, units)` and
            `(batch_size, memory_size)`.
        training: bool; accepted as Keras passes it: the cell computes the
            same in training and in inference.

    Input shape: `(batch_size, input_dim)` per step;
        `(batch_size, time, input_dim)` in `keras.layers.RNN`.
    Output shape: `(batch_size, units)`: h_t; the new states are
        `[h_t, m_t]`.

    Example:
    >>> cell = keras_nalm.layers.NRUCell(32, memory_size=64, num_heads=4)
    >>> outputs = keras.layers.RNN(cell)(keras.Input((None, 10)))

    Reference:
    - [Chandar et al., 2019](https://arxiv.org/abs/1902.06704),
      "Non-saturating Recurrent Unit (NRU) Network", eq. 9-17.
    """

    in_variable_dtype = True

    def __init__(
        self,
        units,
        memory_size=64,
        num_heads=4,
        head_inputs="hidden_memory",
        head_reduction="mean",
        head_relu=False,
        layer_norm=False,
        layer_norm_epsilon=1e-5,
        normalization_order=5.0,
        direction_overflow="zero",
        kernel_initializer=LINEAR_UNIFORM,
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
        **kwargs,
    ):
        super().__init__(units, **kwargs)
        self.memory_size = check_positive_int("memory_size", memory_size)
        self.num_heads = check_positive_int("num_heads", num_heads)
        self.direction_size = math.isqrt(self.num_heads * self.memory_size)
        if self.direction_size**2 != self.num_heads * self.memory_size:
            raise ValueError(
                "NRUCell needs num_heads * memory_size to be a perfect square "
                "(its directions are one outer product of two vectors of size "
                f"sqrt(k m)); received num_heads={num_heads}, "
                f"memory_size={memory_size}."
            )
        self.head_inputs = check_choice("head_inputs", head_inputs, HEAD_INPUTS)
        self.head_reduction = check_choice(
            "head_reduction", head_reduction, HEAD_REDUCTIONS
        )
        self.head_relu = bool(head_relu)
        self.layer_norm = bool(layer_norm)
        self.layer_norm_epsilon = check_positive_float(
            "layer_norm_epsilon", layer_norm_epsilon
        )
        self.normalization_order = check_positive_float(
            "normalization_order", normalization_order
        )
        self.direction_overflow = check_choice(
            "direction_overflow", direction_overflow, DIRECTION_OVERFLOWS
        )
        self.kernel_initializer = keras.initializers.get(kernel_initializer)
        self.bias_initializer = keras.initializers.get(bias_initializer)
        self.kernel_regularizer = keras.regularizers.get(kernel_regularizer)
        self.bias_regularizer = keras.regularizers.get(bias_regularizer)
        self.normalization = (
            keras.layers.LayerNormalization(
                epsilon=self.layer_norm_epsilon,
                dtype=self.dtype_policy,
                name="layer_norm",
            )
            if self.layer_norm
            else None
        )

    @property
    def state_size(self):
        return [self.units, self.memory_size]

    def _dense(self, name, inputs, outputs):
        kernel = self.add_weight(
            name=f"{name}_kernel",
            shape=(inputs, outputs),
            initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer,
        )
        bias_initializer = self.bias_initializer
        if isinstance(bias_initializer, LinearBias):
            bias_initializer = bias_initializer.bound(inputs)
            # where `keras_nalm.utils.reinitialize_layer` looks first
            setattr(self, f"{name}_bias_initializer", bias_initializer)
        bias = self.add_weight(
            name=f"{name}_bias",
            shape=(outputs,),
            initializer=bias_initializer,
            regularizer=self.bias_regularizer,
        )
        return kernel, bias

    def build_cell(self, input_dim):
        memory = self.memory_size
        self.hidden = self._dense("hidden", input_dim + self.units + memory, self.units)
        head_dim = self.units + memory
        if self.head_inputs == "input_hidden_memory":
            head_dim += input_dim
        # alpha, beta (k each), then write and erase's [p, q] (2 d each)
        self.heads = self._dense(
            "heads", head_dim, 2 * self.num_heads + 4 * self.direction_size
        )
        if self.normalization is not None:
            self.normalization.build((None, self.units))

    def _linear(self, weights, x):
        kernel, bias = weights
        return ops.matmul(x, kernel) + bias

    def step(self, x, states, training):
        previous_hidden, memory = states[0], states[1]
        pre = self._linear(
            self.hidden, ops.concatenate([x, previous_hidden, memory], axis=-1)
        )
        if self.normalization is not None:
            pre = self.normalization(pre)
        hidden = ops.relu(pre)  # eq. 9
        parts = [hidden, memory]
        if self.head_inputs == "input_hidden_memory":
            parts = [x, *parts]
        c = ops.concatenate(parts, axis=-1)
        k, d = self.num_heads, self.direction_size
        heads = self._linear(self.heads, c)  # one product for the four maps
        alpha, beta = heads[:, :k], heads[:, k : 2 * k]
        write, erase = heads[:, 2 * k : 2 * k + 2 * d], heads[:, 2 * k + 2 * d :]
        if self.head_relu:
            alpha, beta = ops.relu(alpha), ops.relu(beta)
        if self.head_reduction == "mean":
            alpha, beta = alpha / k, beta / k
        options = (
            k,
            self.memory_size,
            self.head_relu,
            self.normalization_order,
            self.direction_overflow,
        )
        change = weighted_directions(write, alpha, *options) - weighted_directions(
            erase, beta, *options
        )
        memory = memory + change  # eq. 10
        return hidden, [hidden, memory]

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "memory_size": self.memory_size,
                "num_heads": self.num_heads,
                "head_inputs": self.head_inputs,
                "head_reduction": self.head_reduction,
                "head_relu": self.head_relu,
                "layer_norm": self.layer_norm,
                "layer_norm_epsilon": self.layer_norm_epsilon,
                "normalization_order": self.normalization_order,
                "direction_overflow": self.direction_overflow,
            }
        )
        config.update(
            serialized(
                self,
                "kernel_initializer",
                "bias_initializer",
                "kernel_regularizer",
                "bias_regularizer",
            )
        )
        return config


#: The arguments of `NRUCell` that an `NRU` layer passes to its cell.
_CELL_ARGUMENTS = tuple(
    name
    for name in inspect.signature(NRUCell.__init__).parameters
    if name not in ("self", "units", "kwargs")
)
#: What a cell's configuration holds that is the layer's, not the cell's.
_LAYER_KEYS = ("name", "trainable", "dtype")


@register_serializable
class NRU(keras.layers.RNN):
    """The Non-saturating Recurrent Unit layer (Chandar et al. 2019): an
    `NRUCell` run over a sequence, as `keras.layers.GRU` runs a `GRUCell`.

    `NRU(units, ...)` is `keras.layers.RNN(NRUCell(units, ...), ...)`
    with the cell's arguments given to the layer, so that a model reads
    `NRU(200, memory_size=256, return_sequences=True)` and its
    configuration holds them flat. The equations, the defaults and where
    the authors' code departs from the paper are `NRUCell`'s.

    Args:
        units: int > 0, the size of the hidden state and of the output.
        return_sequences: bool, return every step's output (default False:
            the last).
        return_state: bool, also return the last states `[h_T, m_T]`
            (default False).
        go_backwards: bool, read the sequence backwards (default False).
        stateful: bool, keep the last states of each batch as the next
            batch's initial states (default False).
        unroll: bool, unroll the loop (default False).
        **kwargs: the cell's arguments (`NRUCell`: `memory_size`,
            `num_heads`, `head_inputs`, `head_reduction`, `head_relu`,
            `layer_norm`, `layer_norm_epsilon`, `normalization_order`,
            `direction_overflow`, `kernel_initializer`, `bias_initializer`,
            `kernel_regularizer`, `bias_regularizer`), the base layer
            arguments (`name`, `dtype`, ...) and `keras.layers.RNN`'s
            (`zero_output_for_mask`).

    Call arguments:
        sequences: floating point `(batch_size, time, features)`.
        initial_state: optional `[h_0, m_0]`, `(batch_size, units)` and
            `(batch_size, memory_size)` (default zeros).
        mask: optional boolean `(batch_size, time)`: a masked step keeps
            the states.
        training: bool; the cell computes the same in training and in
            inference.

    Input shape: `(batch_size, time, features)`.
    Output shape: `(batch_size, units)`, or `(batch_size, time, units)`
        with `return_sequences`; with `return_state`, followed by the
        states `(batch_size, units)` and `(batch_size, memory_size)`.

    Example:
    >>> outputs = keras_nalm.layers.NRU(32, memory_size=64)(
    ...     keras.Input((None, 10)))

    Reference:
    - [Chandar et al., 2019](https://arxiv.org/abs/1902.06704),
      "Non-saturating Recurrent Unit (NRU) Network", eq. 9-17.
    """

    def __init__(
        self,
        units,
        return_sequences=False,
        return_state=False,
        go_backwards=False,
        stateful=False,
        unroll=False,
        **kwargs,
    ):
        cell_arguments = {
            name: kwargs.pop(name) for name in _CELL_ARGUMENTS if name in kwargs
        }
        cell = NRUCell(
            units,
            dtype=kwargs.get("dtype"),
            trainable=kwargs.get("trainable", True),
            name="nru_cell",
            **cell_arguments,
        )
        super().__init__(
            cell,
            return_sequences=return_sequences,
            return_state=return_state,
            go_backwards=go_backwards,
            stateful=stateful,
            unroll=unroll,
            **kwargs,
        )

    @property
    def units(self):
        return self.cell.units

    @property
    def memory_size(self):
        return self.cell.memory_size

    @property
    def num_heads(self):
        return self.cell.num_heads

    def get_config(self):
        config = super().get_config()
        cell_config = self.cell.get_config()
        for key in _LAYER_KEYS:
            cell_config.pop(key, None)
        del config["cell"]
        return {**config, **cell_config}

    @classmethod
    def from_config(cls, config):
        return cls(**config)
