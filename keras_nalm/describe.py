"""`describe`: print the arithmetic expression that a stack of units computes."""

import keras

from keras_nalm import symbolic
from keras_nalm.layers.arithmetic_cell import ArithmeticCell
from keras_nalm.layers.base import NALMLayer


def _is_recurrent_unit(layer):
    return isinstance(layer, keras.layers.RNN) and isinstance(
        layer.cell, ArithmeticCell
    )


def _chain_layers(model):
    """The model's layers in order, if they form a single chain of units."""
    layers = [
        layer
        for layer in model.layers
        if not isinstance(layer, keras.layers.InputLayer)
    ]
    if not layers:
        raise ValueError("describe() needs a model with at least one layer.")
    for index, layer in enumerate(layers):
        if _is_recurrent_unit(layer) and index == 0:
            continue
        if not isinstance(layer, NALMLayer):
            raise ValueError(
                "describe() reads models built from keras_nalm layers only, "
                "led by at most one RNN over an ArithmeticCell; layer "
                f"'{layer.name}' is a {type(layer).__name__}."
            )
    if isinstance(model, keras.Sequential):
        return layers
    if len(model.inputs) != 1 or len(model.outputs) != 1:
        raise ValueError(
            "describe() reads single-input, single-output chains of units; "
            f"the model has {len(model.inputs)} inputs and "
            f"{len(model.outputs)} outputs."
        )
    for previous, layer in zip(layers, layers[1:]):
        if layer.input is not previous.output:
            raise ValueError(
                "describe() reads chains of units, where each layer consumes "
                f"the previous one's output; '{layer.name}' does not consume "
                f"'{previous.name}'."
            )
    return layers


def describe(model, input_names=None, print_fn=print):
    """Prints the expression a stack of NALM layers computes, and returns it.

    Each unit's weights are rounded to their discrete values ({-1, 0, 1}
    for the NAU, NAC+ and NAC• exponents, {0, 1} for the NMU) and the units
    are composed symbolically, e.g. for an NAU(4 -> 2) -> NMU(2 -> 1) model
    that has learned Madsen §1.1's function:

        nau: sparsity error 3.1e-07
        nmu: sparsity error 1.2e-07
        y0 = (x1 + x2) * (x1 + x2 + x3 + x4)

    A model led by a `keras.layers.RNN` over an `ArithmeticCell` prints the
    recurrence first, e.g. `h1_t = h1_{t-1} + x1_t`, and the following units
    read its last state, `h1_T` (the cell's inputs are then named `x1_t`,
    ...).

    The sparsity error (Madsen eq. 17, max min(|W|, |1 - |W||)) tells how
    far the weights are from the discrete values that the printed
    expression assumes. Gated units (NALU, GatedNAUNMU) print both
    branches and the gate, `g*(add) + (1 - g)*(mul)`, with a line defining
    the gate. The NAC• (`NACMul`, NALU "log") works on |x|: the printed
    product is of magnitudes.

    Args:
        model: a `keras.Sequential` or functional model whose layers are
            `keras_nalm` units forming a single chain.
        input_names: list of names for the input features (default
            x1, x2, ..., as in the papers).
        print_fn: function that prints a line (default `print`); None to
            print nothing.

    Returns:
        The printed text (str).
    """
    layers = _chain_layers(model)
    first = layers[0].cell if _is_recurrent_unit(layers[0]) else layers[0]
    input_dim = first.input_dim
    if input_names is None:
        input_names = [f"x{i + 1}" for i in range(input_dim)]
    if len(input_names) != input_dim:
        raise ValueError(
            f"input_names has {len(input_names)} names, but the model has "
            f"{input_dim} input features."
        )
    expressions = [symbolic.Var(name, i) for i, name in enumerate(input_names)]
    lines, definitions = [], []
    if first is not layers[0]:
        lines.append(f"{layers[0].name}: sparsity error {first.sparsity_error():.3g}")
        recurrence, cell_definitions = first.recurrence(input_names)
        lines += recurrence
        definitions.extend(cell_definitions)
        expressions = [symbolic.Var(f"h{k + 1}_T", k) for k in range(first.units)]
        layers = layers[1:]
    for layer in layers:
        lines.append(f"{layer.name}: sparsity error {layer.sparsity_error():.3g}")
        expressions, layer_definitions = layer.symbolic(expressions)
        definitions.extend(layer_definitions)
    lines += [f"y{k} = {expr}" for k, expr in enumerate(expressions)]
    lines += [f"  where {line}" for line in definitions]
    text = "\n".join(lines)
    if print_fn is not None:
        print_fn(text)
    return text
