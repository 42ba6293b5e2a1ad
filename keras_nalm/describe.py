"""`describe`: print the arithmetic expression that a stack of units computes."""

import keras
import numpy as np

from keras_nalm import symbolic
from keras_nalm.layers.arithmetic_cell import ArithmeticCell
from keras_nalm.layers.base import NALMLayer


def _is_recurrent_unit(layer):
    return isinstance(layer, keras.layers.RNN) and isinstance(
        layer.cell, ArithmeticCell
    )


def _is_unit(layer):
    return isinstance(layer, NALMLayer) or _is_recurrent_unit(layer)


def _unit_chain(layers):
    """`(lead, units)`: the layers before the units (not read) and the
    units that end the model; a unit followed by another layer, or an RNN
    over an ArithmeticCell after the first unit, is refused."""
    start = len(layers)
    while start and _is_unit(layers[start - 1]):
        start -= 1
    lead, units = layers[:start], layers[start:]
    if not units:
        raise ValueError(
            "describe() reads the keras_nalm units that end a model; its last "
            f"layer '{layers[-1].name}' is a {type(layers[-1]).__name__}."
        )
    for layer in lead:
        if _is_unit(layer):
            raise ValueError(
                "describe() reads the keras_nalm units that end a model; unit "
                f"'{layer.name}' is followed by a layer of another kind."
            )
    for layer in units[1:]:
        if _is_recurrent_unit(layer):
            raise ValueError(
                "describe() reads at most one RNN over an ArithmeticCell, "
                f"first among the units; '{layer.name}' follows another unit."
            )
    return lead, units


def _chain_layers(model):
    """`(lead, units)` of the model (`_unit_chain`), once the units are
    known to form a single chain fed by the model's input or by the last
    layer before them."""
    layers = [
        layer
        for layer in model.layers
        if not isinstance(layer, keras.layers.InputLayer)
    ]
    if not layers:
        raise ValueError("describe() needs a model with at least one layer.")
    lead, units = _unit_chain(layers)
    if isinstance(model, keras.Sequential):
        return lead, units
    try:
        inputs, outputs = model.inputs, model.outputs
    except AttributeError:
        raise TypeError(
            f"describe() reads functional and Sequential models; "
            f"'{model.name}' is a subclassed model, whose structure Keras does "
            "not record: describe its units, e.g. describe(model.some_unit)."
        ) from None
    if len(inputs) != 1 or len(outputs) != 1:
        raise ValueError(
            "describe() reads single-input, single-output chains of units; "
            f"the model has {len(inputs)} inputs and {len(outputs)} outputs."
        )
    chain = lead[-1:] + units
    for previous, layer in zip(chain, chain[1:]):
        if layer.input is not previous.output:
            raise ValueError(
                "describe() reads chains of units, where each layer consumes "
                f"the previous one's output; '{layer.name}' does not consume "
                f"'{previous.name}'."
            )
    if not lead and units[0].input is not inputs[0]:
        raise ValueError(
            f"describe() reads chains of units; '{units[0].name}' does not "
            "consume the model's input."
        )
    return lead, units


def _as_chain(model):
    """`(lead, units)`: the chain of units of a built model and the layers
    before it, or a single built unit."""
    if isinstance(model, keras.Model):
        if not model.built:
            raise ValueError(
                f"describe() needs a built model; '{model.name}' is not built: "
                "call it on data or give it an Input (or model.build(shape))."
            )
        return _chain_layers(model)
    if isinstance(model, NALMLayer) or _is_recurrent_unit(model):
        if not model.built:
            raise ValueError(
                f"describe() needs a built layer; '{model.name}' is not built: "
                "call it on inputs or layer.build(input_shape) first."
            )
        return [], [model]
    raise TypeError(
        "describe() reads a keras.Model of keras_nalm units or a single unit, "
        f"not a {type(model).__name__}."
    )


def _exactness(unit, tolerance):
    """`(sparsity error, inexact)`: the unit's sparsity error and how many
    of its arithmetic weights lie farther than `tolerance` from 0, 1 or -1,
    as text ("" when none does)."""
    weights = unit.arithmetic_weights()
    distances = np.minimum(np.abs(weights), np.abs(1.0 - np.abs(weights)))
    far = int(np.sum(distances > tolerance))
    if not far:
        return "", False
    return (
        f" (inexact: {far} of {weights.size} weights are more than "
        f"{tolerance:g} from the value printed)"
    ), True


def describe(model, input_names=None, print_fn=print, tolerance=0.01):
    """Prints the expression a stack of NALM layers computes, and returns it.

    Each unit's weights are rounded to their discrete values ({-1, 0, 1}
    for the NAU, NAC+ and NAC• exponents, {0, 1} for the NMU) and the units
    are composed symbolically, e.g. for an NAU(4 -> 2) -> NMU(2 -> 1) model
    that has learned Madsen §1.1's function:

        nau: sparsity error 3.1e-07
        nmu: sparsity error 1.2e-07
        y0 = (x1 + x2) * (x1 + x2 + x3 + x4)

    The read-out is exact only as far as the weights are discrete: the
    sparsity error (Madsen eq. 17, max min(|W|, |1 - |W||)) of each unit
    tells how far its weights are from the values printed. A unit with a
    weight farther than `tolerance` from 0, 1 and -1 says how many such
    weights it has, and every expression after it is written with `≈`
    instead of `=`, e.g. for an unsolved model:

        nau: sparsity error 0.34 (inexact: 2 of 8 weights are more than
            0.01 from the value printed)
        nmu: sparsity error 2e-06
        y0 ≈ (x1 + x2) * (x1 + x2 + x3 + x4)

    A model led by a `keras.layers.RNN` over an `ArithmeticCell` prints the
    recurrence first, e.g. `h1_t = h1_{t-1} + x1_t`, and the following units
    read its last state, `h1_T` (the cell's inputs are then named `x1_t`,
    ...). Gated units (NALU, GatedNAUNMU) print both branches and the gate,
    `g*(add) + (1 - g)*(mul)`, with a line defining the gate. The NAC•
    (`NACMul`, NALU "log") works on |x|: the printed product is of
    magnitudes.

    Layers of other kinds may lead the units (e.g. a `Dense` feature
    extractor, Dense -> NAU -> NMU): their output's features are the
    expression's inputs, named after the layer (`features_1`, ...), as
    `describe` cannot read them.

    Args:
        model: a built `keras.Sequential` or functional model that ends in
            a single chain of `keras_nalm` units (after any other layers),
            or one built unit (or RNN over an `ArithmeticCell`).
        input_names: list of names for the inputs of the first unit
            (default x1, x2, ..., as in the papers, or the leading layer's
            name and the feature's number).
        print_fn: function that prints a line (default `print`); None to
            print nothing.
        tolerance: float >= 0, the distance from a discrete value beyond
            which a weight makes the read-out approximate (default 0.01).

    Returns:
        The printed text (str).

    Raises:
        ValueError: the model is not built or does not end in a chain of
            units.
        TypeError: `model` is neither a Keras model nor a unit, or a
            subclassed model (whose layers' connections Keras does not
            record).
    """
    if not tolerance >= 0:
        raise ValueError(f"tolerance must be >= 0, got {tolerance!r}.")
    lead, layers = _as_chain(model)
    first = layers[0].cell if _is_recurrent_unit(layers[0]) else layers[0]
    input_dim = first.input_dim
    if input_names is None:
        prefix = f"{lead[-1].name}_" if lead else "x"
        input_names = [f"{prefix}{i + 1}" for i in range(input_dim)]
    if len(input_names) != input_dim:
        raise ValueError(
            f"input_names has {len(input_names)} names, but the model has "
            f"{input_dim} input features."
        )
    expressions = [symbolic.Var(name, i) for i, name in enumerate(input_names)]
    lines, definitions, approximate = [], [], False

    def header(layer, unit):
        nonlocal approximate
        note, inexact = _exactness(unit, tolerance)
        approximate = approximate or inexact
        return f"{layer.name}: sparsity error {unit.sparsity_error():.3g}{note}"

    def equation(text):
        return text.replace(" = ", " ≈ ", 1) if approximate else text

    if first is not layers[0]:
        lines.append(header(layers[0], first))
        recurrence, cell_definitions = first.recurrence(input_names)
        lines += [equation(line) for line in recurrence]
        definitions.extend(cell_definitions)
        expressions = [symbolic.Var(f"h{k + 1}_T", k) for k in range(first.units)]
        layers = layers[1:]
    for layer in layers:
        lines.append(header(layer, layer))
        expressions, layer_definitions = layer.symbolic(expressions)
        definitions.extend(layer_definitions)
    lines += [equation(f"y{k} = {expr}") for k, expr in enumerate(expressions)]
    lines += [f"  where {line}" for line in definitions]
    text = "\n".join(lines)
    if print_fn is not None:
        print_fn(text)
    return text
