"""Learn y = (x1 - x2) * x3 with an NAU -> NMU model, read it off the weights,
save it, load it, and export it for serving.

    python examples/01_learn_a_function.py
"""

import tempfile
from pathlib import Path

import keras
import numpy as np
import tensorflow as tf

import keras_nalm

rng = np.random.default_rng(0)
keras.utils.set_random_seed(0)
steps, batch = 20_000, 128


def target(x):
    return (x[:, 0:1] - x[:, 1:2]) * x[:, 2:3]


# Fresh training samples for every step, from the interpolation range U[1, 2].
x_train = rng.uniform(1, 2, size=(steps * batch, 3)).astype("float32")
x_valid = rng.uniform(1, 2, size=(10_000, 3)).astype("float32")

inputs = keras.Input((3,), name="x")
hidden = keras_nalm.layers.NAU(2, name="nau")(inputs)
outputs = keras_nalm.layers.NMU(1, name="nmu")(hidden)
model = keras.Model(inputs, outputs)
model.compile(
    optimizer="adam",
    loss="mse",
    metrics=["mse"],
    steps_per_execution=500,
    jit_compile=True,
)
model.fit(
    x_train,
    target(x_train),
    batch_size=batch,
    steps_per_epoch=1_000,
    epochs=steps // 1_000,
    validation_data=(x_valid, target(x_valid)),
    callbacks=[
        # Sparsity regularizer off for 10k steps, then up to lambda = 10.
        keras_nalm.callbacks.RegularizerWarmup(10_000, 15_000, max_strength=10.0),
        # Keep the weights of the best validation epoch (Madsen §4.1.2).
        keras.callbacks.EarlyStopping(
            "val_mse", patience=steps, restore_best_weights=True
        ),
    ],
    verbose=2,
)

# Extrapolate to inputs 5 to 50 times larger than any seen in training.
x_test = rng.uniform(10, 100, size=(1_000, 3)).astype("float32")
relative_error = np.abs(model.predict(x_test, verbose=0) - target(x_test)) / np.abs(
    target(x_test)
)
print(f"median relative error on U[10, 100]: {np.median(relative_error):.2e}")
keras_nalm.describe(model)
print("NAU weights:\n", model.get_layer("nau").effective_weights()["kernel"].round(4))

with tempfile.TemporaryDirectory() as folder:
    model.save(Path(folder) / "model.keras")
    loaded = keras.saving.load_model(Path(folder) / "model.keras")
    loaded.export(str(Path(folder) / "serving"), verbose=False)
    served = tf.saved_model.load(str(Path(folder) / "serving"))
    same = np.array_equal(
        served.serve(x_test).numpy(), model.predict(x_test, verbose=0)
    )
    print("SavedModel serves the same outputs:", same)
