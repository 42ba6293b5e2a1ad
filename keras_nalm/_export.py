"""Registration of public symbols for Keras serialization."""

import keras

PACKAGE = "keras_nalm"


def nalm_export(symbol):
    """Registers `symbol` with Keras under the package name `keras_nalm`.

    Every public layer, constraint, regularizer, initializer and callback is
    decorated with this, so that `keras.saving.load_model` finds it by the
    name `"keras_nalm>ClassName"` once `keras_nalm` has been imported.
    """
    return keras.saving.register_keras_serializable(package=PACKAGE)(symbol)
