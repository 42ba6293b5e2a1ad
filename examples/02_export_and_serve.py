"""Export a model of keras_nalm units as a SavedModel and call it from a
fresh process that imports only TensorFlow, not keras_nalm: the
SavedModel holds the traced computation, not the layers' Python code.

    python examples/02_export_and_serve.py [DIRECTORY]   # default /tmp/nalm_serving

The model computes y = (x1 - x2) * x3 with an NAU and an NMU whose weights
are set to the solution (example 01 learns them). Then:

    saved_model_cli show --dir DIRECTORY --tag_set serve \\
        --signature_def serving_default
    python examples/serve_saved_model.py DIRECTORY      # TensorFlow Serving's REST API
"""

import subprocess
import sys

import keras
import numpy as np

import keras_nalm

#: Run in a fresh interpreter: load the SavedModel and call its signature.
CALL_SIGNATURE = """
import sys
import tensorflow as tf
serving = tf.saved_model.load(sys.argv[1]).signatures["serving_default"]
outputs = serving(tf.constant([[3.0, 1.0, 5.0], [10.0, 30.0, 2.0]]))
print({name: value.numpy().ravel().tolist() for name, value in outputs.items()})
assert "keras_nalm" not in sys.modules
"""


def solved_model():
    """NAU (x1 - x2, x3) then NMU (their product), weights set by hand."""
    inputs = keras.Input((3,), name="x")
    hidden = keras_nalm.layers.NAU(2, name="nau")(inputs)
    outputs = keras_nalm.layers.NMU(1, name="nmu")(hidden)
    model = keras.Model(inputs, outputs)
    model.get_layer("nau").kernel.assign([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0]])
    model.get_layer("nmu").kernel.assign([[1.0], [1.0]])
    return model


def main(directory="/tmp/nalm_serving"):
    model = solved_model()
    keras_nalm.describe(model)
    keras_nalm.export_saved_model(model, directory)
    print(f"exported to {directory}; expected outputs:")
    print(model.predict(np.array([[3.0, 1.0, 5.0], [10.0, 30.0, 2.0]]), verbose=0))
    subprocess.run([sys.executable, "-c", CALL_SIGNATURE, directory], check=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
