"""Loads `.keras` files saved on TensorFlow under another backend.

    KERAS_BACKEND=jax python -m tests.backend_check DIRECTORY

DIRECTORY holds `{case}.keras`, `{case}.x.npy` and `{case}.y.npy` (the
outputs on TensorFlow); prints one JSON line per case with the largest
difference of the outputs here.
"""

import json
import os
import sys

import keras
import numpy as np

import keras_nalm  # noqa: F401 (registers the classes)


def main(directory):
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".keras"):
            continue
        case = name[: -len(".keras")]
        model = keras.saving.load_model(os.path.join(directory, name))
        x = np.load(os.path.join(directory, f"{case}.x.npy"))
        expected = np.load(os.path.join(directory, f"{case}.y.npy"))
        got = keras.ops.convert_to_numpy(model(x, training=False))
        difference = float(np.max(np.abs(got - expected)))
        scale = float(np.max(np.abs(expected)))
        print(json.dumps({"case": case, "difference": difference, "scale": scale}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
