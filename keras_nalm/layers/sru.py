"""The statistical recurrent unit, a baseline of the NRU paper."""

import keras
from keras import ops

from keras_nalm._validation import check_positive_int
from keras_nalm.layers.base import serialized
from keras_nalm.layers.recurrent_cell import RecurrentCell
from keras_nalm.saving import LAB_PACKAGE
from keras_nalm.saving import register_serializable

#: The NRU authors' scales (apsarath/myTorch, `memnets/SRUCell.py`).
DEFAULT_ALPHAS = (0.0, 0.5, 0.9, 0.99, 0.999)
_SERIALIZED = (
    "kernel_initializer",
    "bias_initializer",
    "kernel_regularizer",
    "bias_regularizer",
)


def _check_alphas(alphas):
    alphas = tuple(float(alpha) for alpha in alphas)
    if not alphas or not all(0.0 <= alpha <= 1.0 for alpha in alphas):
        raise ValueError(
            f"`alphas` must be one or more scales in [0, 1], received {alphas}."
        )
    return alphas


@register_serializable(former_packages=(LAB_PACKAGE,))
class SRUCell(RecurrentCell):
    """The statistical recurrent unit (Oliva, Póczos & Schneider 2017, "The
    Statistical Recurrent Unit", ICML; a baseline of Chandar et al. 2019,
    "Experiments"): moving averages of ReLU statistics at several scales
    alpha in A.

        r_t = relu(mu_{t-1} W_r + b_r)          (the feedback)
        phi_t = relu([x_t, r_t] W_phi + b_phi)
        mu_t^(alpha) = alpha mu_{t-1}^(alpha) + (1 - alpha) phi_t
        o_t = relu(mu_t W_o + b_o)

    The states are o_t (first: Keras's RNNs repeat it at a masked step)
    and mu_t, the averages of every scale, scale by scale (|A| * statistics
    values); the output is o_t. The defaults are the NRU
    authors' (apsarath/myTorch, `memnets/SRUCell.py`): A = (0, 0.5, 0.9,
    0.99, 0.999), weights Glorot uniform with ReLU's gain (variance scaling
    2, fan average), biases zero; their copy tasks use 60 units, 55
    statistics and 16 recurrent features (~23 k parameters with the
    read-out), psMNIST 150, 155 and 50.

    Args:
        units: int > 0, the size of the output o_t.
        statistics: int > 0, the size of phi_t (each scale's average).
        recurrent_units: int > 0, the size of r_t.
        alphas: the scales A, each in [0, 1] (default the authors').
        kernel_initializer: the three linear maps' kernels' (default
            Glorot uniform with ReLU's gain).
        bias_initializer: their biases' (default zeros).
        kernel_regularizer: a Keras regularizer of the kernels (default
            None).
        bias_regularizer: a Keras regularizer of the biases (default None).
        **kwargs: base layer arguments.

    Call arguments:
        inputs: the step's input, (batch, features).
        states: [o_{t-1}, mu_{t-1}], (batch, units) and
            (batch, len(alphas) * statistics).

    Input shape:
        (batch, features) per step; (batch, time, features) in
        `keras.layers.RNN`.

    Output shape:
        (batch, units): o_t; the new states are [o_t, mu_t].

    Example:
    >>> cell = keras_nalm.layers.SRUCell(60, statistics=55, recurrent_units=16)
    >>> outputs = keras.layers.RNN(cell)(keras.Input((None, 10)))

    Reference:
    - [Oliva et al., 2017](https://arxiv.org/abs/1703.00381).
    - [Chandar et al., 2019](https://arxiv.org/abs/1902.06704), "Experiments".
    """

    def __init__(
        self,
        units,
        statistics,
        recurrent_units,
        alphas=DEFAULT_ALPHAS,
        kernel_initializer=None,
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
        **kwargs,
    ):
        super().__init__(units, **kwargs)
        self.statistics = check_positive_int("statistics", statistics)
        self.recurrent_units = check_positive_int("recurrent_units", recurrent_units)
        self.alphas = _check_alphas(alphas)
        self.kernel_initializer = keras.initializers.get(
            kernel_initializer
            or keras.initializers.VarianceScaling(2.0, "fan_avg", "uniform")
        )
        self.bias_initializer = keras.initializers.get(bias_initializer)
        self.kernel_regularizer = keras.regularizers.get(kernel_regularizer)
        self.bias_regularizer = keras.regularizers.get(bias_regularizer)

    @property
    def statistics_size(self):
        """The size of mu: `len(alphas) * statistics`."""
        return len(self.alphas) * self.statistics

    @property
    def state_size(self):
        # the output first: Keras's RNNs repeat the first state at a masked step
        return [self.units, self.statistics_size]

    def _linear(self, name, rows, columns):
        kernel = self.add_weight(
            name=f"{name}_kernel",
            shape=(rows, columns),
            initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer,
        )
        bias = self.add_weight(
            name=f"{name}_bias",
            shape=(columns,),
            initializer=self.bias_initializer,
            regularizer=self.bias_regularizer,
        )
        return kernel, bias

    def build_cell(self, input_dim):
        self.feedback_kernel, self.feedback_bias = self._linear(
            "feedback", self.statistics_size, self.recurrent_units
        )
        self.statistics_kernel, self.statistics_bias = self._linear(
            "statistics", input_dim + self.recurrent_units, self.statistics
        )
        self.output_kernel, self.output_bias = self._linear(
            "output", self.statistics_size, self.units
        )

    def step(self, x, states, training):
        previous = states[1]
        recurrent = ops.relu(
            ops.matmul(previous, self.feedback_kernel) + self.feedback_bias
        )
        statistics = ops.relu(
            ops.matmul(ops.concatenate([x, recurrent], axis=-1), self.statistics_kernel)
            + self.statistics_bias
        )
        alphas = ops.repeat(
            ops.convert_to_tensor(self.alphas, self.compute_dtype), self.statistics
        )
        averages = alphas * previous + (1.0 - alphas) * ops.tile(
            statistics, (1, len(self.alphas))
        )
        output = ops.relu(ops.matmul(averages, self.output_kernel) + self.output_bias)
        return output, [output, averages]

    def get_config(self):
        config = super().get_config()
        config.update(
            units=self.units,
            statistics=self.statistics,
            recurrent_units=self.recurrent_units,
            alphas=list(self.alphas),
        )
        config.update(serialized(self, *_SERIALIZED))
        return config
