"""Recurrent cells: the `NALMCell` base, arithmetic units as cells, and the
RNN that adds their input regularizer over whole sequences."""

import keras
from keras import ops

from keras_nalm import symbolic
from keras_nalm.layers.base import NALMLayer
from keras_nalm.layers.base import UnitBase
from keras_nalm.layers.base import defined_sparsity_error
from keras_nalm.layers.recurrent_cell import RecurrentCell
from keras_nalm.saving import register_serializable


class NALMCell(UnitBase, RecurrentCell):
    """Base class of the recurrent cells built from units: a
    `RecurrentCell` (Keras's cell protocol) with the units' machinery.

    It shares the units' machinery (`UnitBase`): control variables,
    re-initialisation, `effective_weights()` and `sparsity_error()`. It
    computes in float32 under a mixed precision policy (its states are
    float32), for the same reason as the units. Subclasses implement
    `build_cell(input_dim)` and `step(x, states, training)`, returning
    `(output, new_states)`, and override `state_size` and
    `get_initial_state` when they keep more than one zero-initialised
    state of size `units` (`RecurrentCell`).

    Args:
        units: int > 0, the output (and, by default, state) size.
        **kwargs: base layer arguments (`name`, `dtype`, ...).
    """

    in_variable_dtype = True

    def __init__(self, units, **kwargs):
        super().__init__(units=units, **kwargs)


def _check_unit(unit):
    """A cell's unit: a keras_nalm unit whose output is its state, or a
    Keras layer with an int `units`."""
    if isinstance(unit, NALMLayer):
        if unit.output_dim != unit.units:
            raise ValueError(
                f"ArithmeticCell needs a unit whose output is its state; "
                f"{type(unit).__name__} returns {unit.output_dim} features "
                f"for units={unit.units}."
            )
        return
    if not isinstance(unit, keras.layers.Layer) or hasattr(unit, "state_size"):
        raise TypeError(
            "ArithmeticCell needs a keras_nalm unit or a Keras layer (not a "
            f"recurrent cell), received {unit!r}."
        )
    if not isinstance(getattr(unit, "units", None), int) or unit.units < 1:
        raise TypeError(
            f"ArithmeticCell needs the layer's state size: {type(unit).__name__} "
            "has no int attribute `units` (its output size)."
        )


@register_serializable
class ArithmeticCell(NALMCell):
    """An arithmetic unit used recurrently: h_t = unit([x_t, h_{t-1}]).

    The unit (an NAU, NMU, NAC, NALU, ..., or any Keras layer of one's own
    that maps `[x_t, h_{t-1}]` to `h_t`) reads the step's input and its
    own previous output, so that an NAU cell learns running sums and an NMU
    cell running products (Trask et al. 2018, app. B; Madsen & Johansen
    2020, §4.2, where the reference code applies the unit to the
    concatenation [x_t, h_{t-1}]). The unit keeps its weights,
    constraints, sparsity regularizer and λ warm-up
    (`keras_nalm.callbacks.RegularizerWarmup` finds it inside
    `keras.layers.RNN`), and `keras_nalm.describe` prints the recurrence.

    The initial state is the identity of the unit's operation: 0 for
    additive units, 1 for multiplicative ones (NMU, NAC•), as the
    reference code starts its recurrent units; `initial_value` overrides
    it, and gives it for a layer that is not a keras_nalm unit (0 unless
    given: a multiplicative layer of one's own needs `initial_value=1.0`).
    Such a layer's `units` attribute is the state size; its sparsity error
    is its own `sparsity_error()` or eq. 17 over its `effective_weights()`
    where it defines one (`keras_nalm.utils.model_sparsity_error`), none
    otherwise. (`keras.layers.RNN.reset_state()` zeroes stateful states whatever
    the cell; `ArithmeticRNN.reset_state()` uses the initial value.)

    The unit's input regularizer R_z (`input_regularization` of the NAU,
    NMU, NAC+ and NAC•; Madsen §4.2 and eq. 75) is taken over the mean
    input of every step of the sequence, which a cell cannot see from
    inside the RNN's loop: run a cell whose unit has R_z in
    `ArithmeticRNN`, which adds it.

    Args:
        unit: a `keras_nalm` unit (`NALMLayer`) or another Keras layer with
            an int attribute `units` (its output size, the state size),
            not yet built. Its input size becomes `input_dim + units`.
        initial_value: float, the initial state (default None: a
            keras_nalm unit's identity, 0 for another layer).
        learn_initial_state: bool (default False); True: the initial state
            is a trainable weight `initial_state` (one value per unit),
            starting at `initial_value`, as the reference code of the
            recurrent function task learns it (stable-nalu,
            `SimpleFunctionRecurrentNetwork`).
        **kwargs: base layer arguments.

    Call arguments:
        inputs: the step's input, floating point `(batch_size, input_dim)`.
        states: `[h_{t-1}]`, `(batch_size, units)` (and, inside an
            `ArithmeticRNN` whose unit has R_z, the running sum of the
            previous states).
        training: bool; passed to the unit.

    Input shape: `(batch_size, input_dim)` per step;
        `(batch_size, time, input_dim)` in `keras.layers.RNN`.
    Output shape: `(batch_size, units)`: h_t, also the new state.

    Example:
    >>> cell = keras_nalm.layers.ArithmeticCell(keras_nalm.layers.NAU(1))
    >>> outputs = keras.layers.RNN(cell)(keras.Input((None, 3)))

    Reference:
    - [Trask et al., 2018](https://arxiv.org/abs/1808.00508), app. B.
    - [Madsen & Johansen, 2020](https://arxiv.org/abs/2001.05016), §4.2.
    """

    def __init__(self, unit, initial_value=None, learn_initial_state=False, **kwargs):
        if isinstance(unit, dict):
            unit = keras.saving.deserialize_keras_object(unit)
        _check_unit(unit)
        super().__init__(unit.units, **kwargs)
        self.unit = unit
        if initial_value is None:
            initial_value = getattr(unit, "identity_value", 0.0)
        self.initial_value = float(initial_value)
        self.learn_initial_state = bool(learn_initial_state)
        self.sums_previous_states = False

    @property
    def has_input_penalty(self):
        return getattr(self.unit, "has_input_penalty", False)

    @property
    def rnn_class(self):
        """The RNN layer to run the cell in: `ArithmeticRNN` when the unit
        has an input penalty, else `keras.layers.RNN`."""
        return ArithmeticRNN if self.has_input_penalty else keras.layers.RNN

    @property
    def state_size(self):
        if self.sums_previous_states:
            return [self.units, self.units]
        return self.units

    def build_cell(self, input_dim):
        if not self.unit.built:  # a loaded cell's unit is built from its config
            self.unit.build((None, input_dim + self.units))
        if self.learn_initial_state:
            self.learned_initial_state = self.add_unit_weight(
                "initial_state",
                keras.initializers.Constant(self.initial_value),
                None,
                None,
                (self.units,),
            )

    def step(self, x, states, training):
        if training and self.has_input_penalty and not self.sums_previous_states:
            raise ValueError(
                f"The unit of cell '{self.name}' has an input regularizer "
                "(input_regularization > 0), which needs the whole sequence: "
                "run the cell in keras_nalm.layers.ArithmeticRNN instead of "
                "keras.layers.RNN."
            )
        previous = states[0]
        inputs = ops.concatenate([x, previous], axis=-1)
        if isinstance(self.unit, NALMLayer):
            output = self.unit.compute(inputs)
        else:
            output = ops.cast(self.unit(inputs, training=training), previous.dtype)
        if self.sums_previous_states:
            return output, [output, states[1] + previous]
        return output, [output]

    def get_initial_state(self, batch_size=None):
        if self.learn_initial_state:
            # A tiled copy, not a broadcast view: a stateful RNN writes its
            # states in place, which PyTorch refuses on an expanded tensor.
            first = ops.tile(
                ops.expand_dims(self.learned_initial_state, 0), (batch_size, 1)
            )
        else:
            first = ops.full((batch_size, self.units), self.initial_value)
        states = [first]
        if self.sums_previous_states:
            states.append(ops.zeros((batch_size, self.units)))
        return [ops.cast(state, self.variable_dtype) for state in states]

    def sub_units(self):
        return [self.unit]

    def effective_weights(self):
        return self.unit.effective_weights()

    def arithmetic_weights(self):
        return self.unit.arithmetic_weights()

    def sparsity_error(self):
        """The unit's (None for a layer of one's own that defines none)."""
        return defined_sparsity_error(self.unit)

    def recurrence(self, input_names):
        """The lines `h1_t = ...` that the cell computes, for inputs named
        `input_names` (read off the unit's weights, see `describe`)."""
        if not isinstance(self.unit, NALMLayer):
            raise TypeError(
                f"describe reads keras_nalm units; the cell's unit is a "
                f"{type(self.unit).__name__}."
            )
        steps = [symbolic.Var(f"{name}_t", i) for i, name in enumerate(input_names)]
        previous = [
            symbolic.Var(f"h{k + 1}_{{t-1}}", len(steps) + k) for k in range(self.units)
        ]
        outputs, definitions = self.unit.symbolic(steps + previous)
        lines = [f"h{k + 1}_t = {expr}" for k, expr in enumerate(outputs)]
        return lines, definitions

    def get_config(self):
        config = super().get_config()
        del config["units"]  # the unit's
        config["unit"] = keras.saving.serialize_keras_object(self.unit)
        config["initial_value"] = self.initial_value
        config["learn_initial_state"] = self.learn_initial_state
        return config


@register_serializable
class ArithmeticRNN(keras.layers.RNN):
    """`keras.layers.RNN` over an `ArithmeticCell`, with the unit's input
    regularizer taken over the whole sequence.

    R_z (Madsen & Johansen 2020, §4.2, eq. 75) is a function of x̄, the
    mean input of the unit over the batch and every step: here the mean of
    [x_t, h_{t-1}] over the unmasked steps, as the reference code averages
    every input its recurrent unit has seen since the last optimizer step.
    The inputs' part is taken from the sequence; the states' part from a
    running sum of h_{t-1} that the cell carries as a second state, out of
    the RNN's loop (a loss added inside the loop could not leave it). The
    sum is internal: `return_state` returns h only. Without R_z this is
    `keras.layers.RNN(cell)`.

    `reset_state()` of a stateful layer restores the cell's initial value
    (1 for multiplicative units), where `keras.layers.RNN` zeroes it.

    Args:
        cell: an `ArithmeticCell`, or a unit (`NALMLayer`) or another
            layer (`ArithmeticCell`'s `unit`), which is wrapped in one.
        **kwargs: the arguments of `keras.layers.RNN` (`return_sequences`,
            `return_state`, `go_backwards`, `stateful`, `unroll`, ...).

    Call arguments:
        sequences: floating point `(batch_size, time, input_dim)`.
        initial_state: None (the cell's initial value) or `[h_0]`.
        mask: None or a boolean `(batch_size, time)`: masked steps keep
            the state and are left out of R_z's mean.
        training: bool; R_z is added only when training.

    Input shape: `(batch_size, time, input_dim)`.
    Output shape: `(batch_size, units)`, or `(batch_size, time, units)`
        with `return_sequences=True`; with `return_state=True`, also the
        last state h.

    Example:
    >>> nmu = keras_nalm.layers.NMU(1, input_regularization=1.0)
    >>> outputs = keras_nalm.layers.ArithmeticRNN(nmu)(keras.Input((None, 1)))

    Reference:
    - [Madsen & Johansen, 2020](https://arxiv.org/abs/2001.05016), §4.2
      and app. D.2, eq. 75.
    """

    def __init__(self, cell, **kwargs):
        if isinstance(cell, dict):
            cell = keras.saving.deserialize_keras_object(cell)
        if isinstance(cell, keras.layers.Layer) and not hasattr(cell, "state_size"):
            cell = ArithmeticCell(cell)
        if not isinstance(cell, ArithmeticCell):
            raise TypeError(
                "ArithmeticRNN needs an ArithmeticCell, a unit or a layer, "
                f"received {cell!r}."
            )
        cell.sums_previous_states = cell.has_input_penalty
        super().__init__(cell, **kwargs)

    def call(self, sequences, initial_state=None, mask=None, training=False):
        if not self.cell.sums_previous_states:
            return super().call(sequences, initial_state, mask, training)
        batch_size = ops.shape(sequences)[0]
        if initial_state is None:
            initial_state = (
                self.states
                if self.stateful
                else self.cell.get_initial_state(batch_size)
            )
        previous = (
            initial_state[0] if isinstance(initial_state, list) else initial_state
        )
        sums = ops.zeros((batch_size, self.cell.units), self.cell.variable_dtype)
        returns_state, self.return_state = self.return_state, True
        try:
            output, state, previous_sum = super().call(
                sequences, [previous, sums], mask, training
            )
        finally:
            self.return_state = returns_state
        if training:
            self.add_loss(self.input_penalty(sequences, mask, previous_sum))
        return (output, state) if returns_state else output

    def input_penalty(self, sequences, mask, previous_sum):
        """lambda_z * R_z with x̄ the mean of [x_t, h_{t-1}] over the batch
        and the unmasked steps."""
        x = ops.cast(sequences, self.cell.variable_dtype)
        if mask is None:
            weights = ops.ones(ops.shape(x)[:2] + (1,), x.dtype)
        else:
            weights = ops.cast(ops.expand_dims(mask, -1), x.dtype)
        count = ops.sum(weights)
        input_mean = ops.concatenate(
            [
                ops.sum(x * weights, axis=(0, 1)) / count,
                ops.sum(previous_sum, axis=0) / count,
            ],
            axis=0,
        )
        return self.cell.unit.input_penalty(input_mean)

    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        shapes = super().compute_output_shape(sequences_shape, initial_state_shape)
        if self.return_state and self.cell.sums_previous_states:
            return shapes[:2]
        return shapes

    def compute_mask(self, _, mask):
        masks = super().compute_mask(_, mask)
        if self.return_state and self.cell.sums_previous_states:
            return masks[:2]
        return masks

    def reset_state(self):
        if self.states is not None:
            batch_size = ops.shape(self.states[0])[0]
            for variable, value in zip(
                self.states, self.cell.get_initial_state(batch_size)
            ):
                variable.assign(value)
