"""Registration of classes for Keras serialization.

Every public layer, constraint, regularizer, initializer, optimizer and
callback of `keras_nalm` is registered with `register_serializable`, so
that `keras.saving.load_model` finds it by the name
`"keras_nalm>ClassName"` once `keras_nalm` has been imported. Register a
unit of your own the same way, under your own package name:

    @keras_nalm.saving.register_serializable(package="my_units")
    class MyUnit(keras_nalm.layers.NALMLayer):
        ...
"""

import keras

#: The package name under which `keras_nalm`'s own classes are registered.
PACKAGE = "keras_nalm"


def register_serializable(symbol=None, *, package=PACKAGE):
    """Registers a class with Keras under `"{package}>{ClassName}"`.

    Use it bare (`@register_serializable`, package `"keras_nalm"`) or with
    a package (`@register_serializable(package="my_units")`).

    Args:
        symbol: the class to register; omit it to get a decorator.
        package: str, the package name of the registered name.

    Returns:
        `symbol`, registered, or a decorator when `symbol` is omitted.
    """
    decorator = keras.saving.register_keras_serializable(package=package)
    return decorator if symbol is None else decorator(symbol)
