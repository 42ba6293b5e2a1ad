"""`RecurrentCell`: the skeleton that every recurrent cell of the library
shares, in Keras's RNN cell protocol."""

import keras
from keras import ops

from keras_nalm._validation import check_float_input
from keras_nalm._validation import check_positive_int
from keras_nalm._validation import check_step_shape


class RecurrentCell(keras.layers.Layer):
    """Base class of the recurrent cells, in Keras's RNN cell protocol.

    A cell maps one step's input `(batch, input_dim)` and its states to an
    output `(batch, output_size)` and new states; `keras.layers.RNN` runs
    it over a sequence (with `return_sequences`, `return_state`, masking,
    `stateful=True`, `go_backwards` and `unroll`). This class checks the
    step's shape and dtype, casts the input to the cell's compute dtype,
    hands the states over as a list and starts them at zero.

    Subclasses implement `build_cell(input_dim)` (the weights) and
    `step(x, states, training)`, returning `(output, new_states)`; they
    override `state_size` (one size per state) when they keep more than
    the one state of `units`, `output_size` when the output is not of
    `units`, and `get_initial_state` when a state does not start at zero.

    A subclass that sets `in_variable_dtype = True` keeps float32 variables
    and states, and computes in float32, under a mixed precision policy:
    its dtype is the policy's variable dtype.

    Args:
        units: int > 0, the output (and, by default, state) size.
        **kwargs: base layer arguments (`name`, `dtype`, ...).
    """

    #: Whether the cell computes in its policy's variable dtype.
    in_variable_dtype = False

    def __init__(self, units, **kwargs):
        if self.in_variable_dtype:
            policy = keras.dtype_policies.get(
                kwargs.pop("dtype", None) or keras.config.dtype_policy()
            )
            kwargs["dtype"] = policy.variable_dtype
        super().__init__(**kwargs)
        self.units = check_positive_int("units", units)
        self.input_dim = None

    @property
    def state_size(self):
        return self.units

    @property
    def output_size(self):
        return self.units

    def build(self, input_shape):
        self.input_dim = check_step_shape(self, input_shape)
        self.build_cell(self.input_dim)

    def call(self, inputs, states, training=None):
        check_float_input(self, inputs)
        x = ops.cast(inputs, self.compute_dtype)
        states = list(states) if isinstance(states, (list, tuple)) else [states]
        return self.step(x, states, training)

    def get_initial_state(self, batch_size=None):
        sizes = self.state_size
        sizes = sizes if isinstance(sizes, (list, tuple)) else [sizes]
        return [ops.zeros((batch_size, size), self.compute_dtype) for size in sizes]

    def build_cell(self, input_dim):
        """Creates the cell's weights for steps of `input_dim` features."""
        raise NotImplementedError

    def step(self, x, states, training):
        """One step: `x` `(batch, input_dim)` in the compute dtype, `states`
        a list; returns `(output, new_states)`."""
        raise NotImplementedError

    def get_config(self):
        config = super().get_config()
        config["units"] = self.units
        return config
