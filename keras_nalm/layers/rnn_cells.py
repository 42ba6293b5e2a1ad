"""The recurrent baselines that Keras lacks: the NRU paper's JANET and
layer-normalised ReLU RNN (RNN-orth, RNN-id), and the UGRNN of Trask et al.'s
program evaluation."""

import keras
from keras import ops

from keras_nalm import ops as nalm_ops
from keras_nalm.layers.base import serialized
from keras_nalm.layers.recurrent_cell import RecurrentCell
from keras_nalm.saving import LAB_PACKAGE
from keras_nalm.saving import register_serializable

_SERIALIZED = (
    "kernel_initializer",
    "recurrent_initializer",
    "bias_initializer",
    "kernel_regularizer",
    "recurrent_regularizer",
    "bias_regularizer",
)


class _SingleStateCell(RecurrentCell):
    """A cell with one state of `units` (its output), zero at first, whose
    pre-activations are `x W + h U + b` for `gates` blocks of `units`."""

    gates = 1

    def __init__(
        self,
        units,
        kernel_initializer="glorot_uniform",
        recurrent_initializer="orthogonal",
        bias_initializer="zeros",
        kernel_regularizer=None,
        recurrent_regularizer=None,
        bias_regularizer=None,
        **kwargs,
    ):
        super().__init__(units, **kwargs)
        self.kernel_initializer = keras.initializers.get(kernel_initializer)
        self.recurrent_initializer = keras.initializers.get(recurrent_initializer)
        self.bias_initializer = keras.initializers.get(bias_initializer)
        self.kernel_regularizer = keras.regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = keras.regularizers.get(recurrent_regularizer)
        self.bias_regularizer = keras.regularizers.get(bias_regularizer)

    def build_cell(self, input_dim):
        size = self.gates * self.units
        self.kernel = self.add_weight(
            name="kernel",
            shape=(input_dim, size),
            initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer,
        )
        self.recurrent_kernel = self.add_weight(
            name="recurrent_kernel",
            shape=(self.units, size),
            initializer=self.recurrent_initializer,
            regularizer=self.recurrent_regularizer,
        )
        self.bias = self.add_weight(
            name="bias",
            shape=(size,),
            initializer=self.bias_initializer,
            regularizer=self.bias_regularizer,
        )

    def pre_activations(self, x, previous):
        """x W + h U + b."""
        return (
            ops.matmul(x, self.kernel)
            + ops.matmul(previous, self.recurrent_kernel)
            + self.bias
        )

    def get_config(self):
        config = super().get_config()
        config.update(serialized(self, *_SERIALIZED))
        return config


@register_serializable(former_packages=(LAB_PACKAGE,))
class JANETCell(_SingleStateCell):
    """JANET, the forget-gate-only LSTM (van der Westhuizen & Lasenby 2018,
    "The unreasonable effectiveness of the forget gate", arXiv:1804.04849;
    a baseline of Chandar et al. 2019, "Experiments"):

        s_t = W_f x_t + U_f h_{t-1} + b_f
        c~_t = tanh(W_c x_t + U_c h_{t-1} + b_c)
        h_t = sigmoid(s_t) * h_{t-1} + (1 - sigmoid(s_t - beta)) * c~_t

    The cell state is the output (h_t = c_t). `1 - sigmoid(s - beta)` is
    computed as `sigmoid(beta - s)`, and both sigmoid and tanh differentiate
    from their inputs (`keras_nalm.ops`), so gradients stay exact where the
    gates saturate. JANET's authors initialise b_f with chrono
    initialisation: pass `bias_initializer=ChronoBias(T_max, gates="fc")`
    (`keras_nalm.initializers`); the bias and both kernels hold the blocks
    [f, c] in that order.

    Args:
        units: int > 0, the state's size.
        beta: float, the shift of the input gate (default 1, the paper's).
        **kwargs: `kernel_initializer`, `recurrent_initializer` and
            `bias_initializer` (defaults Glorot uniform, orthogonal and
            zeros, as Keras's LSTM), `kernel_regularizer`,
            `recurrent_regularizer` and `bias_regularizer` (Keras
            regularizers, default None), and the base layer arguments.

    Call arguments:
        inputs: the step's input, floating point (batch, features).
        states: [h_{t-1}], (batch, units).
        training: bool (unused).

    Input shape:
        (batch, features) per step; (batch, time, features) in
        `keras.layers.RNN`.

    Output shape:
        (batch, units): h_t, also the new state.

    Example:
    >>> cell = keras_nalm.layers.JANETCell(
    ...     100, bias_initializer=keras_nalm.initializers.ChronoBias(120, "fc"))
    >>> outputs = keras.layers.RNN(cell)(keras.Input((None, 10)))

    Reference:
    - [van der Westhuizen & Lasenby, 2018](https://arxiv.org/abs/1804.04849).
    - [Chandar et al., 2019](https://arxiv.org/abs/1902.06704), "Experiments".
    """

    gates = 2

    def __init__(self, units, beta=1.0, **kwargs):
        super().__init__(units, **kwargs)
        self.beta = float(beta)

    def step(self, x, states, training):
        previous = states[0]
        forget, candidate = ops.split(self.pre_activations(x, previous), 2, axis=-1)
        state = nalm_ops.sigmoid(forget) * previous + nalm_ops.sigmoid(
            self.beta - forget
        ) * nalm_ops.tanh(candidate)
        return state, [state]

    def get_config(self):
        return {**super().get_config(), "beta": self.beta}


@register_serializable(former_packages=(LAB_PACKAGE,))
class UGRNNCell(_SingleStateCell):
    """The update-gate RNN (Collins, Sohl-Dickstein & Sussillo 2017,
    "Capacity and trainability in recurrent neural networks", ICLR, §2;
    a baseline of Trask et al. 2018's program evaluation, app. E):

        c_t = tanh(W_c x_t + U_c h_{t-1} + b_c)
        g_t = sigmoid(W_g x_t + U_g h_{t-1} + b_g)
        h_t = g_t * h_{t-1} + (1 - g_t) * c_t

    One gate decides per unit between keeping the state and computing it
    afresh. `1 - g_t` is computed as `sigmoid(-s)`, and sigmoid and tanh
    differentiate from their inputs (`keras_nalm.ops`). The bias and both
    kernels hold the blocks [c, g] in that order (TensorFlow 1's
    `UGRNNCell` added a bias of 1 to the gate: pass a bias initializer that
    does, if wanted).

    Args:
        units: int > 0, the state's size.
        **kwargs: `kernel_initializer`, `recurrent_initializer` and
            `bias_initializer` (defaults Glorot uniform, orthogonal and
            zeros, as Keras's LSTM), `kernel_regularizer`,
            `recurrent_regularizer` and `bias_regularizer` (Keras
            regularizers, default None), and the base layer arguments.

    Call arguments:
        inputs: the step's input, floating point (batch, features).
        states: [h_{t-1}], (batch, units).
        training: bool (unused).

    Input shape:
        (batch, features) per step; (batch, time, features) in
        `keras.layers.RNN`.

    Output shape:
        (batch, units): h_t, also the new state.

    Example:
    >>> cell = keras_nalm.layers.UGRNNCell(64)
    >>> outputs = keras.layers.RNN(cell)(keras.Input((None, 10)))

    Reference:
    - [Collins et al., 2017](https://arxiv.org/abs/1611.09913), §2.
    - [Trask et al., 2018](https://arxiv.org/abs/1808.00508), app. E.
    """

    gates = 2

    def step(self, x, states, training):
        previous = states[0]
        candidate, gate = ops.split(self.pre_activations(x, previous), 2, axis=-1)
        state = nalm_ops.sigmoid(gate) * previous + nalm_ops.sigmoid(
            -gate
        ) * nalm_ops.tanh(candidate)
        return state, [state]


@register_serializable(former_packages=(LAB_PACKAGE,))
class NormalizedRNNCell(_SingleStateCell):
    """A simple RNN with layer normalisation (Ba et al. 2016):

        h_t = f(LN(W x_t + U h_{t-1} + b))

    The NRU paper's RNN-orth (U orthogonal at first; Henaff et al. 2016)
    and RNN-id (U = I; Le et al. 2015) are this cell with `"orthogonal"`
    and `"identity"` recurrent initialisers: Chandar et al. 2019 ("Experiments") found
    both unstable without layer normalisation and used it throughout. The
    activation is ReLU by default (the non-saturating RNNs that those
    initialisations were proposed for; the paper does not name it).

    Args:
        units: int > 0, the state's size.
        activation: the activation f (default `"relu"`).
        layer_norm: bool (default True).
        **kwargs: `kernel_initializer`, `recurrent_initializer` and
            `bias_initializer` (defaults Glorot uniform, orthogonal and
            zeros, as Keras's LSTM), `kernel_regularizer`,
            `recurrent_regularizer` and `bias_regularizer` (Keras
            regularizers, default None), and the base layer arguments.

    Call arguments:
        inputs: the step's input, floating point (batch, features).
        states: [h_{t-1}], (batch, units).
        training: bool (unused).

    Input shape:
        (batch, features) per step; (batch, time, features) in
        `keras.layers.RNN`.

    Output shape:
        (batch, units): h_t, also the new state.

    Example:
    >>> cell = keras_nalm.layers.NormalizedRNNCell(
    ...     128, recurrent_initializer="identity")
    >>> outputs = keras.layers.RNN(cell)(keras.Input((None, 10)))

    Reference:
    - [Ba et al., 2016](https://arxiv.org/abs/1607.06450) (layer normalisation).
    - [Le et al., 2015](https://arxiv.org/abs/1504.00941) (RNN-id).
    - [Henaff et al., 2016](https://arxiv.org/abs/1602.06662) (RNN-orth).
    - [Chandar et al., 2019](https://arxiv.org/abs/1902.06704), "Experiments".
    """

    def __init__(self, units, activation="relu", layer_norm=True, **kwargs):
        super().__init__(units, **kwargs)
        self.activation = keras.activations.get(activation)
        self.layer_norm = bool(layer_norm)
        self.normalization = (
            keras.layers.LayerNormalization(dtype=self.dtype_policy, name="layer_norm")
            if self.layer_norm
            else None
        )

    def build_cell(self, input_dim):
        super().build_cell(input_dim)
        if self.normalization is not None:
            self.normalization.build((None, self.units))

    def step(self, x, states, training):
        pre = self.pre_activations(x, states[0])
        if self.normalization is not None:
            pre = self.normalization(pre)
        state = self.activation(pre)
        return state, [state]

    def get_config(self):
        return {
            **super().get_config(),
            "activation": keras.activations.serialize(self.activation),
            "layer_norm": self.layer_norm,
        }
