"""Model-level helpers on public Keras API: walking a model's layers (into
nested models, wrappers and RNN cells), re-initialising a model for a new
seed, resetting optimizer state, and the model's sparsity error."""

import keras
import numpy as np
from keras import ops

from keras_nalm.layers.base import UnitBase
from keras_nalm.layers.base import defined_sparsity_error
from keras_nalm.layers.base import sparsity_error


def sublayers(layer):
    """The layers `layer` is built from, in order: a model's `layers`, an
    RNN's `cell`, a wrapper's layer(s), stacked cells' `cells`, and
    otherwise the layers held by its public attributes (a unit's cell, a
    custom layer's sublayers)."""
    if isinstance(layer, keras.Model):
        return list(layer.layers)
    if isinstance(layer, keras.layers.RNN):
        return [layer.cell]
    if isinstance(layer, keras.layers.Bidirectional):
        return [layer.forward_layer, layer.backward_layer]
    if isinstance(layer, keras.layers.Wrapper):
        return [layer.layer]
    if isinstance(layer, keras.layers.StackedRNNCells):
        return list(layer.cells)
    found = []
    for name, value in vars(layer).items():
        if name.startswith("_"):
            continue
        values = value if isinstance(value, (list, tuple)) else [value]
        found += [v for v in values if isinstance(v, keras.layers.Layer)]
    return found


def walk_layers(model):
    """Every layer inside `model` (not `model` itself), depth first, each
    once: nested models, `keras.layers.RNN` cells, wrappers and the units
    of recurrent cells included."""
    seen, ordered = {id(model)}, []

    def visit(layer):
        for child in sublayers(layer):
            if id(child) not in seen:
                seen.add(id(child))
                ordered.append(child)
                visit(child)

    visit(model)
    return ordered


def trainable_parameter_count(model):
    """The number of trainable parameters of `model` (or of a layer)."""
    return sum(int(np.prod(w.shape)) for w in model.trainable_weights)


def own_trainable_weights(layer):
    """`layer`'s trainable weights that none of its sublayers holds."""
    inner = {id(w) for child in sublayers(layer) for w in child.trainable_weights}
    return [w for w in layer.trainable_weights if id(w) not in inner]


#: Initializer attributes whose name is not `{weight name}_initializer`.
_INITIALIZER_ATTRIBUTES = {"recurrent_kernel": "recurrent_initializer"}


def _initializer_attribute(layer, name):
    """The attribute holding the initializer of the weight `name`: the
    mapping above, `{name}_initializer`, or for `{part}_kernel` and
    `{part}_bias` (a layer of several dense maps, such as the NRU cell's)
    `kernel_initializer` and `bias_initializer`."""
    if name in _INITIALIZER_ATTRIBUTES:
        return _INITIALIZER_ATTRIBUTES[name]
    attribute = f"{name}_initializer"
    if hasattr(layer, attribute):
        return attribute
    for kind in ("kernel", "bias"):
        if name.endswith(f"_{kind}") and hasattr(layer, f"{kind}_initializer"):
            return f"{kind}_initializer"
    return attribute


def _with_unit_forget_bias(initializer, units):
    """Keras's LSTM bias with `unit_forget_bias=True`: the forget gate's
    block (the second of [i, f, c, o]) at 1, the others from `initializer`."""

    def initialize(shape, dtype=None):
        return keras.ops.concatenate(
            [
                initializer((units,), dtype=dtype),
                keras.ops.ones((units,), dtype=dtype),
                initializer((2 * units,), dtype=dtype),
            ]
        )

    return initialize


def _fresh_initializer(layer, variable, seed):
    name = variable.name.split("/")[-1]
    attribute = _initializer_attribute(layer, name)
    initializer = keras.initializers.get(getattr(layer, attribute, None))
    if initializer is None:
        raise TypeError(
            f"Cannot re-initialize the weight '{variable.path}' of "
            f"{type(layer).__name__} '{layer.name}': the layer has no "
            f"`{attribute}`."
        )
    config = initializer.get_config()
    if "seed" in config:
        config["seed"] = seed
        initializer = type(initializer).from_config(config)
    if name == "bias" and getattr(layer, "unit_forget_bias", False):
        return _with_unit_forget_bias(initializer, layer.units)
    return initializer


def reinitialize_layer(layer, seed):
    """Fresh values for the weights `layer` itself holds, drawn from `seed`.

    A keras_nalm unit or cell redraws its weights (`UnitBase.reinitialize`,
    sub-units included); another layer redraws each of its own weights
    from its `{weight}_initializer` attribute (`kernel_initializer`,
    `bias_initializer`, `alpha_initializer`, ...) seeded with `seed` (the
    i-th weight with `seed + i`).
    """
    if isinstance(layer, UnitBase):
        return layer.reinitialize(seed)
    weights = own_trainable_weights(layer)
    for index, variable in enumerate(weights):
        initializer = _fresh_initializer(layer, variable, seed + index)
        variable.assign(initializer(variable.shape, variable.dtype))
    return weights


def reinitialize_model(model, seed):
    """Fresh weights for every layer of `model`, reproducibly from `seed`.

    Each layer of `walk_layers(model)` takes the next seed of a NumPy
    generator seeded with `seed` (weightless layers included, so the draw
    of a layer does not depend on the layers after it) and redraws the
    weights it holds itself (`reinitialize_layer`); units inside recurrent
    cells are redrawn by their cell.
    """
    rng = np.random.default_rng(seed)
    inside_units = set()
    for layer in walk_layers(model):
        layer_seed = int(rng.integers(2**31 - 1))
        if id(layer) in inside_units:
            continue
        if isinstance(layer, UnitBase):
            inside_units.update(id(unit) for unit in walk_layers(layer))
        reinitialize_layer(layer, layer_seed)


def optimizer_variables_of(model, variables):
    """The optimizer variables (Adam's moments, ...) that belong to
    `variables`, some of `model.trainable_variables`.

    Keras names them `{variable.path with "_" for "/"}_{slot}`; each is
    given to the trainable variable with the longest matching prefix, so
    that `w_hat` does not claim the slots of `w_hat_add`.
    """
    owners = {v.path.replace("/", "_") + "_": v for v in model.trainable_variables}
    targets = {id(v) for v in variables}
    found = []
    for slot in model.optimizer.variables:
        prefixes = [prefix for prefix in owners if slot.name.startswith(prefix)]
        if prefixes and id(owners[max(prefixes, key=len)]) in targets:
            found.append(slot)
    return found


def reset_optimizer_state(model, variables=None):
    """Zeroes the optimizer state of `model` as a fresh run would have it.

    With `variables=None`: every optimizer variable but the learning rate,
    the step counter `iterations` included. Otherwise only the optimizer
    variables of those trainable variables (`optimizer_variables_of`),
    e.g. after re-initialising some weights.
    """
    optimizer = model.optimizer
    if not optimizer.built:
        return
    if variables is None:
        learning_rate = optimizer.learning_rate
        state = [v for v in optimizer.variables if v is not learning_rate]
    else:
        state = optimizer_variables_of(model, variables)
    for variable in state:
        variable.assign(ops.zeros(variable.shape, variable.dtype))


def unit_sparsity_error(model):
    """Madsen eq. 17, the max over the model's arithmetic units only (None
    when it has none): the units' error inside a larger network, whose
    other layers (a CNN's) are not meant to be sparse."""
    errors = [
        layer.sparsity_error()
        for layer in walk_layers(model)
        if isinstance(layer, UnitBase)
    ]
    errors = [error for error in errors if error is not None]
    return max(errors) if errors else None


def model_sparsity_error(model, strict=False):
    """Madsen eq. 17, the max over the model's units and Dense layers.

    A unit is any layer that defines it: the units of this package, or a
    layer of one's own with a `sparsity_error()` method, or with an
    `effective_weights()` method (eq. 17 is then taken over the arrays it
    returns: one, a list or a dict of them). A model with none of these
    is measured over its rank-2 trainable weights; one without those
    raises `ValueError`.

    With `strict=True`, a model holding a layer with trainable weights of
    its own that defines neither method (and is not a Dense layer) has no
    sparsity error: the function returns None rather than applying eq. 17
    to weights it was not written for.
    """
    errors, undefined = [], False
    for layer in walk_layers(model):
        error = defined_sparsity_error(layer)
        if error is not None:
            errors.append(error)
        elif isinstance(layer, keras.layers.Dense):
            errors.append(sparsity_error(ops.convert_to_numpy(layer.kernel)))
        elif own_trainable_weights(layer):
            undefined = True
    if strict and undefined:
        return None
    if not errors:
        errors = [
            sparsity_error(ops.convert_to_numpy(weight))
            for weight in model.trainable_weights
            if len(weight.shape) == 2
        ]
    if not errors:
        raise ValueError("The model has no unit, Dense layer or matrix to measure.")
    return max(errors)
