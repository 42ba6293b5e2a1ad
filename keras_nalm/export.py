"""Exporting a trained model for serving (TensorFlow backend)."""

import keras


def export_saved_model(model, path, **kwargs):
    """`model.export(path, format="tf_saved_model", **kwargs)` on the
    TensorFlow backend, and a clear error on the others.

    The exported SavedModel serves the inference pass (`training=False`:
    no input penalties) through its `serve` endpoint:
    `tf.saved_model.load(path).serve(x)`. On JAX and PyTorch, Keras's own
    export is not tested with these layers (with keras 3.15, JAX fails to
    trace the NMU's product for SavedModel and PyTorch's export fails for
    any model): save a `.keras` file, which every backend loads, and
    export it from TensorFlow.
    """
    backend = keras.backend.backend()
    if backend != "tensorflow":
        raise RuntimeError(
            f"keras_nalm exports SavedModels from the TensorFlow backend; "
            f"KERAS_BACKEND is {backend!r}. Save the model with "
            "model.save('model.keras'), load it with KERAS_BACKEND=tensorflow "
            "and export it there."
        )
    kwargs.setdefault("format", "tf_saved_model")
    kwargs.setdefault("verbose", False)
    return model.export(path, **kwargs)
