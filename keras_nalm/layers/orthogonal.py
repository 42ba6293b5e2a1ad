"""The NRU paper's orthogonal-transition baselines: the EURNN (Jing et al.
2017b) and the GORU (Jing et al. 2017a), both with the FFT-like
parametrisation of their transition (Chandar et al. 2019, "Experiments":
"We used the FFT-like algorithm for the orthogonal transition operators in
EURNN and GORU").

The FFT-like transition of `n` units is a product of ceil(log2 n) layers of
disjoint 2 x 2 rotations (the FFT-style parametrisation of Jing et al.
2017b, "Tunable Efficient Unitary Neural Networks", ICML): layer i pairs
unit a with unit a + d_i, d_i = 2^(L-1-i) (the largest distance first),
for every a whose bit of d_i is 0 and whose partner exists (a unit
without one passes through), and rotates each pair by its own angle
theta:

    (h_a, h_b) <- (cos(theta) h_a - sin(theta) h_b,
                   sin(theta) h_a + cos(theta) h_b)

The angles are one weight (`theta`), layer by layer and, within a layer, by the
first unit of the pair. The product is orthogonal for every angle, so the
transition preserves the state's norm exactly: neither cell clips its
gradients in the paper. Both cells are real-valued (the paper's parameter
count for its psMNIST EURNN, ~17 k at 1 024 units, is the real
parametrisation's: the complex one has ~25 k).
"""

import math

import keras
import numpy as np
from keras import ops

from keras_nalm import ops as nalm_ops
from keras_nalm.initializers import GORUBias
from keras_nalm.layers.base import serialized
from keras_nalm.layers.recurrent_cell import RecurrentCell
from keras_nalm.saving import LAB_PACKAGE
from keras_nalm.saving import register_serializable


def rotation_layout(units):
    """The FFT-like layers of `units`, padded to 2^L units: an index table
    (L, 2^(L-1)) whose row i holds, for the pairs of layer i in blocks of
    2 d_i (block by block, then by first unit), the index of each pair's
    angle, or the number of angles for a pair whose second unit is padding
    (angle 0: the identity); and that number."""
    layers = (units - 1).bit_length()  # L = ceil(log2(units))
    size = 2**layers
    angle_indices = np.zeros((layers, size // 2), dtype="int32")
    count = 0
    for layer in range(layers):
        distance = 2 ** (layers - 1 - layer)
        for pair in range(size // 2):
            block, offset = divmod(pair, distance)
            second = block * 2 * distance + offset + distance
            angle_indices[layer, pair] = count if second < units else -1
            count += second < units
    angle_indices[angle_indices < 0] = count
    return angle_indices, count


def modrelu(z, bias, epsilon):
    """modReLU (Arjovsky et al. 2016) of a real z: sign(z) relu(|z| + eps + b)."""
    return ops.sign(z) * ops.relu(ops.abs(z) + epsilon + bias)


class _OrthogonalTransitionCell(RecurrentCell):
    """A cell of one state of `units` (its output), zero at first, with the
    FFT-like orthogonal transition of that state."""

    #: The epsilon of the cell's modReLU (its authors' code's).
    modrelu_epsilon = 0.0

    def __init__(
        self,
        units,
        kernel_initializer=None,
        theta_initializer=None,
        bias_initializer=None,
        kernel_regularizer=None,
        bias_regularizer=None,
        **kwargs,
    ):
        super().__init__(units, **kwargs)
        self.kernel_initializer = keras.initializers.get(
            kernel_initializer or keras.initializers.RandomUniform(-0.01, 0.01)
        )
        self.theta_initializer = keras.initializers.get(
            theta_initializer or keras.initializers.RandomUniform(-math.pi, math.pi)
        )
        self.bias_initializer = keras.initializers.get(bias_initializer)
        self.kernel_regularizer = keras.regularizers.get(kernel_regularizer)
        self.bias_regularizer = keras.regularizers.get(bias_regularizer)
        self._angle_indices, self._angle_count = rotation_layout(self.units)
        #: `transition_factors()` while an `OrthogonalRNN` runs the cell.
        self.sequence_factors = None

    def build_theta(self):
        self.theta = self.add_weight(
            name="theta",
            shape=(self._angle_count,),
            initializer=self.theta_initializer,
        )

    def _rotation_tables(self):
        """Each layer's cosines and sines, (L, 2^(L-1)) each, in the order of
        `rotation_layout` (a padded pair's angle is 0)."""
        padded_theta = ops.concatenate(
            [self.theta, ops.zeros((1,), self.theta.dtype)], axis=0
        )
        cosines = ops.take(ops.cos(padded_theta), self._angle_indices, axis=0)
        sines = ops.take(ops.sin(padded_theta), self._angle_indices, axis=0)
        return cosines, sines

    def _rotate(self, padded, layers, tables):
        """`padded` (rows, 2^L) through the rotation layers `layers`: in
        layer i, the two halves of each block of 2 d_i units rotated by their
        pairs' angles (slices of a reshape, no gathers: 5x faster on XLA's
        CPU than gathering each unit's partner)."""
        cosines, sines = tables
        size = 2 ** len(self._angle_indices)
        for layer in layers:
            distance = size // 2 ** (layer + 1)
            blocks = (size // (2 * distance), distance)
            halves = ops.reshape(padded, (-1, blocks[0], 2, distance))
            first, second = halves[:, :, 0], halves[:, :, 1]
            cos = ops.reshape(cosines[layer], blocks)
            sin = ops.reshape(sines[layer], blocks)
            rotated = [cos * first - sin * second, sin * first + cos * second]
            padded = ops.reshape(ops.stack(rotated, axis=2), (-1, size))
        return padded

    def transition_factors(self):
        """The transition as two stages of small orthogonal blocks (A, B),
        to compute once per sequence (`OrthogonalRNN`). With unit a = 2^l hi
        + lo (l = L - floor(L/2)), the first floor(L/2) layers (d_i >= 2^l)
        mix the his of each lo and the last l layers the los of each hi:

            g[hi, lo] = sum_j A[j, hi, lo] h[j, lo]
            T(h)[hi, lo] = sum_k B[k, hi, lo] g[hi, k]

        A (2^(L-l), 2^(L-l), 2^l) and B (2^l, 2^(L-l), 2^l) are the images of
        each stage's unit vectors through its layers."""
        layers = len(self._angle_indices)
        high = layers // 2
        high_size, low_size = 2**high, 2 ** (layers - high)
        tables = self._rotation_tables()
        dtype = self.theta.dtype
        high_basis = np.repeat(np.eye(high_size), low_size, axis=1)
        low_basis = np.tile(np.eye(low_size), (1, high_size))
        first = self._rotate(
            ops.convert_to_tensor(high_basis, dtype), range(high), tables
        )
        second = self._rotate(
            ops.convert_to_tensor(low_basis, dtype), range(high, layers), tables
        )
        return (
            ops.reshape(first, (high_size, high_size, low_size)),
            ops.reshape(second, (low_size, high_size, low_size)),
        )

    def transition(self, state, factors=None):
        """The orthogonal transition of `state` (batch, units): the state
        padded with zeros to 2^L units, through the L rotation layers or,
        given `transition_factors()`, through its two stages of blocks (the
        same product in two small batched matmuls); the padding dropped."""
        size = 2 ** len(self._angle_indices)
        if size > self.units:
            state = ops.pad(state, [[0, 0], [0, size - self.units]])
        if factors is None:
            layers = range(len(self._angle_indices))
            state = self._rotate(state, layers, self._rotation_tables())
        else:
            first, second = factors
            blocks = ops.reshape(state, (-1,) + tuple(first.shape[1:]))
            blocks = ops.einsum("bjl,jhl->bhl", blocks, first)
            blocks = ops.einsum("bhj,jhl->bhl", blocks, second)
            state = ops.reshape(blocks, (-1, size))
        return state[:, : self.units]

    def get_config(self):
        config = super().get_config()
        config.update(
            serialized(
                self,
                "kernel_initializer",
                "theta_initializer",
                "bias_initializer",
                "kernel_regularizer",
                "bias_regularizer",
            )
        )
        return config


@register_serializable(former_packages=(LAB_PACKAGE,))
class OrthogonalRNN(keras.layers.RNN):
    """`keras.layers.RNN` for an EURNN or GORU cell that computes the cell's
    `transition_factors()` once per call, before the time loop, instead of
    applying its L rotation layers at every step: the same transition (to
    float32 rounding) in two small batched matmuls per step, whose gradient
    reaches the angles once per sequence (faster on XLA's CPU, where the
    time loop's many small operations cost more than their arithmetic).

    Args:
        cell: an `EURNNCell` or a `GORUCell`.
        **kwargs: the arguments of `keras.layers.RNN`.

    Call arguments:
        sequences, initial_state, mask, training: as `keras.layers.RNN`'s.

    Input shape:
        (batch, time, features).

    Output shape:
        as `keras.layers.RNN`'s: (batch, units), or (batch, time, units)
        with `return_sequences=True`.

    Example:
    >>> cell = keras_nalm.layers.EURNNCell(128)
    >>> outputs = keras_nalm.layers.OrthogonalRNN(cell)(keras.Input((None, 10)))

    Reference:
    - [Jing et al., 2017b](https://arxiv.org/abs/1612.05231) (the FFT-like
      transition).
    - [Chandar et al., 2019](https://arxiv.org/abs/1902.06704), "Experiments".
    """

    def __init__(self, cell, **kwargs):
        if not isinstance(cell, _OrthogonalTransitionCell):
            raise ValueError(
                "OrthogonalRNN runs an EURNNCell or a GORUCell; got "
                f"{type(cell).__name__}."
            )
        super().__init__(cell, **kwargs)

    def call(self, sequences, initial_state=None, mask=None, training=False):
        self.cell.sequence_factors = self.cell.transition_factors()
        try:
            return super().call(
                sequences, initial_state=initial_state, mask=mask, training=training
            )
        finally:
            self.cell.sequence_factors = None


@register_serializable(former_packages=(LAB_PACKAGE,))
class EURNNCell(_OrthogonalTransitionCell):
    """The efficient unitary RNN (the EURNN of Jing et al. 2017b, "Tunable
    Efficient Unitary Neural Networks (EUNN) and their application to
    RNNs", ICML), real-valued, with the FFT-like transition T (this module's
    docstring; a baseline of Chandar et al. 2019, "Experiments"):

        h_t = modReLU(x_t U + T(h_{t-1}), b)
        modReLU(z, b) = sign(z) relu(|z| + 1e-5 + b)

    The defaults are the authors' code's (jingli9111/EUNN-tensorflow,
    `EURNN.py`): U ~ U[-0.01, 0.01], angles ~ U[-pi, pi], b = 0. Its
    weights are `kernel` (U, no bias), `theta` (the angles) and `bias` (b).

    Args:
        units: int > 0, the state's size (any: a layer's unit without a
            partner passes through).
        bias_initializer: b's (default zeros).
        **kwargs: `kernel_initializer` (U's, default U[-0.01, 0.01]),
            `theta_initializer` (the rotations', default U[-pi, pi]),
            `kernel_regularizer` and `bias_regularizer` (Keras
            regularizers, default None; the angles have none), and the
            base layer arguments.

    Call arguments:
        inputs: the step's input, (batch, features).
        states: [h_{t-1}], (batch, units).

    Input shape:
        (batch, features) per step; (batch, time, features) in
        `keras.layers.RNN`.

    Output shape:
        (batch, units): h_t, also the new state.

    Example:
    >>> cell = keras_nalm.layers.EURNNCell(128)
    >>> outputs = keras.layers.RNN(cell)(keras.Input((None, 10)))

    Reference:
    - [Jing et al., 2017b](https://arxiv.org/abs/1612.05231).
    - [Chandar et al., 2019](https://arxiv.org/abs/1902.06704), "Experiments".
    """

    modrelu_epsilon = 1e-5

    def __init__(self, units, bias_initializer="zeros", **kwargs):
        super().__init__(units, bias_initializer=bias_initializer, **kwargs)

    def build_cell(self, input_dim):
        self.kernel = self.add_weight(
            name="kernel",
            shape=(input_dim, self.units),
            initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer,
        )
        self.build_theta()
        self.bias = self.add_weight(
            name="bias",
            shape=(self.units,),
            initializer=self.bias_initializer,
            regularizer=self.bias_regularizer,
        )

    def step(self, x, states, training):
        previous = states[0]
        pre = ops.matmul(x, self.kernel) + self.transition(
            previous, self.sequence_factors
        )
        state = modrelu(pre, self.bias, self.modrelu_epsilon)
        return state, [state]


@register_serializable(former_packages=(LAB_PACKAGE,))
class GORUCell(_OrthogonalTransitionCell):
    """The gated orthogonal recurrent unit (Jing et al. 2017a, "Gated
    Orthogonal Recurrent Units: On Learning to Forget", Neural Computation
    31(4)), with the FFT-like transition T (this module's docstring; a
    baseline of Chandar et al. 2019, "Experiments"):

        r_t = sigmoid(x_t U_r + h_{t-1} W_r + b_r)
        g_t = sigmoid(x_t U_g + h_{t-1} W_g + b_g)
        c_t = modReLU(x_t U_c + r_t * T(h_{t-1}), b_c)
        h_t = g_t * h_{t-1} + (1 - g_t) * c_t
        modReLU(z, b) = sign(z) relu(|z| + 1e-3 + b)

    `1 - g_t` is computed as `sigmoid(-s)`, and the sigmoids differentiate
    from their inputs (`keras_nalm.ops`). The defaults are the authors'
    code's (jingli9111/GORU-tensorflow, `goru.py`): U and W ~ U[-0.01,
    0.01], angles ~ U[-pi, pi], b_c = 0.01, b_r = 2 and b_g ~ U[-sqrt(3/n),
    sqrt(3/n)] (TensorFlow 1's default initialiser of a vector of n). The
    weights are `kernel` (blocks [U_c, U_r, U_g]), `recurrent_kernel`
    ([W_r, W_g]), `theta` (the angles) and `bias` ([b_c, b_r, b_g]).

    Args:
        units: int > 0, the state's size (any).
        recurrent_initializer: W's (default U[-0.01, 0.01]).
        bias_initializer: the biases' (default `GORUBias()`: the authors'
            values).
        recurrent_regularizer: a Keras regularizer of W (default None).
        **kwargs: `kernel_initializer` (U's, default U[-0.01, 0.01]),
            `theta_initializer` (the rotations', default U[-pi, pi]),
            `kernel_regularizer` and `bias_regularizer` (Keras
            regularizers, default None; the angles have none), and the
            base layer arguments.

    Call arguments:
        inputs: the step's input, (batch, features).
        states: [h_{t-1}], (batch, units).

    Input shape:
        (batch, features) per step; (batch, time, features) in
        `keras.layers.RNN`.

    Output shape:
        (batch, units): h_t, also the new state.

    Example:
    >>> cell = keras_nalm.layers.GORUCell(100)
    >>> outputs = keras.layers.RNN(cell)(keras.Input((None, 10)))

    Reference:
    - [Jing et al., 2017a](https://arxiv.org/abs/1706.02761).
    - [Chandar et al., 2019](https://arxiv.org/abs/1902.06704), "Experiments".
    """

    modrelu_epsilon = 1e-3

    def __init__(
        self,
        units,
        recurrent_initializer=None,
        bias_initializer=None,
        recurrent_regularizer=None,
        **kwargs,
    ):
        super().__init__(
            units, bias_initializer=bias_initializer or GORUBias(), **kwargs
        )
        self.recurrent_initializer = keras.initializers.get(
            recurrent_initializer or keras.initializers.RandomUniform(-0.01, 0.01)
        )
        self.recurrent_regularizer = keras.regularizers.get(recurrent_regularizer)

    def build_cell(self, input_dim):
        self.kernel = self.add_weight(
            name="kernel",
            shape=(input_dim, 3 * self.units),
            initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer,
        )
        self.recurrent_kernel = self.add_weight(
            name="recurrent_kernel",
            shape=(self.units, 2 * self.units),
            initializer=self.recurrent_initializer,
            regularizer=self.recurrent_regularizer,
        )
        self.build_theta()
        self.bias = self.add_weight(
            name="bias",
            shape=(3 * self.units,),
            initializer=self.bias_initializer,
            regularizer=self.bias_regularizer,
        )

    def step(self, x, states, training):
        previous = states[0]
        candidate_input, reset_input, update_input = ops.split(
            ops.matmul(x, self.kernel), 3, axis=-1
        )
        reset_recurrent, update_recurrent = ops.split(
            ops.matmul(previous, self.recurrent_kernel), 2, axis=-1
        )
        modrelu_bias, reset_bias, update_bias = ops.split(self.bias, 3)
        reset = nalm_ops.sigmoid(reset_input + reset_recurrent + reset_bias)
        update = update_input + update_recurrent + update_bias
        candidate = modrelu(
            candidate_input + reset * self.transition(previous, self.sequence_factors),
            modrelu_bias,
            self.modrelu_epsilon,
        )
        state = (
            nalm_ops.sigmoid(update) * previous + nalm_ops.sigmoid(-update) * candidate
        )
        return state, [state]

    def get_config(self):
        return {
            **super().get_config(),
            **serialized(self, "recurrent_initializer", "recurrent_regularizer"),
        }
