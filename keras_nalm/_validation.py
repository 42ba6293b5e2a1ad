"""Argument and input checks with clear error messages."""

import numbers

import keras


def check_positive_int(name, value):
    """Returns `value` if it is an int > 0, else raises a clear error."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"`{name}` must be a positive int, received {value!r}.")
    if value <= 0:
        raise ValueError(f"`{name}` must be a positive int, received {value}.")
    return int(value)


def check_non_negative_int(name, value):
    """Returns `value` if it is an int >= 0, else raises a clear error."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"`{name}` must be an int >= 0, received {value!r}.")
    if value < 0:
        raise ValueError(f"`{name}` must be an int >= 0, received {value}.")
    return int(value)


def check_non_negative_float(name, value):
    """Returns `value` as a float if it is a real number >= 0."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"`{name}` must be a float, received {value!r}.")
    if not value >= 0:
        raise ValueError(f"`{name}` must be >= 0, received {value}.")
    return float(value)


def check_positive_float(name, value):
    """Returns `value` as a float if it is a real number > 0."""
    value = check_non_negative_float(name, value)
    if value == 0:
        raise ValueError(f"`{name}` must be > 0, received {value}.")
    return value


def check_choice(name, value, choices):
    """Returns `value` if it is one of `choices`, else raises `ValueError`."""
    if value not in choices:
        raise ValueError(f"Unknown {name}={value!r}; expected one of {list(choices)}.")
    return value


def check_float_input(layer, inputs):
    """Raises a `TypeError` naming `layer` if `inputs` is not floating point."""
    dtype = keras.backend.standardize_dtype(inputs.dtype)
    if not keras.backend.is_float_dtype(dtype):
        raise TypeError(
            f"Layer '{layer.name}' ({type(layer).__name__}) expects floating "
            f"point inputs, but received dtype {dtype}. Cast the inputs, "
            "e.g. `keras.ops.cast(x, 'float32')`."
        )


def check_step_shape(cell, input_shape):
    """The feature count of one RNN step `(batch, features)`, or a
    `ValueError` naming `cell` and saying how to run it."""
    input_shape = tuple(input_shape)
    if len(input_shape) == 1:
        raise ValueError(
            f"Cell '{cell.name}' ({type(cell).__name__}) received steps of "
            f"shape {input_shape}: the RNN's input has no feature axis (it "
            "is (batch, time)). Give keras.layers.RNN sequences of shape "
            "(batch, time, features), e.g. x[..., None] for one feature."
        )
    if len(input_shape) != 2 or input_shape[-1] is None:
        raise ValueError(
            f"Cell '{cell.name}' ({type(cell).__name__}) expects one step "
            f"of shape (batch, features) with a known feature axis; "
            f"received shape {input_shape}. Run it in keras.layers.RNN "
            "on sequences of shape (batch, time, features)."
        )
    return int(input_shape[-1])
