"""Helpers for train-to-solution tests: fresh batches every step, judged on
the extrapolation range against an epsilon-perfect model (Madsen §4.1.1)."""

import keras
import numpy as np

import keras_nalm

EPSILON = 1e-5
BATCH = 128


def build_for_one_trace(model, x, y):
    """Builds a compiled model's optimizer and compiled metrics eagerly on a
    batch, and returns the model: on TensorFlow, keras 3.15's `fit` would
    create the metrics' variables inside its first trace of the training
    step and then trace it again (twice the tracing of every fit)."""
    model.optimizer.build(model.trainable_variables)
    model.compute_metrics(x, y, model(x[:1]))
    model.reset_metrics()
    return model


def epsilon_perfect(weights, epsilon=EPSILON):
    """Moves each discrete weight epsilon towards the wrong value: 1 -> 1-eps,
    -1 -> -(1-eps), 0 -> eps (Madsen eq. 16)."""
    weights = np.asarray(weights, dtype=np.float64)
    return np.where(weights == 0, epsilon, weights * (1 - epsilon))


def fit_and_judge(
    layers,
    target,
    perfect,
    input_dim,
    interpolation=(1.0, 2.0),
    extrapolation=(2.0, 6.0),
    steps=5000,
    learning_rate=1e-3,
    warmup=None,
    callbacks=(),
    clipvalue=None,
    seed=0,
):
    """Trains `keras.Sequential(layers)` on fresh samples of `interpolation`
    and returns (extrapolation MSE, threshold, model), the threshold being
    the MSE of `perfect(x)` (the epsilon-perfect model) on the same
    extrapolation samples."""
    keras.utils.set_random_seed(seed)
    rng = np.random.default_rng(seed)
    x = rng.uniform(*interpolation, size=(steps * BATCH, input_dim)).astype("float32")
    model = keras.Sequential([keras.Input((input_dim,))] + layers)
    model.compile(
        optimizer=keras.optimizers.Adam(learning_rate, clipvalue=clipvalue),
        loss="mse",
        metrics=["mse"],
        steps_per_execution=250,
        jit_compile=True,
    )
    build_for_one_trace(model, x[:BATCH], target(x[:BATCH]))
    callbacks = list(callbacks)
    if warmup is not None:
        callbacks.append(keras_nalm.callbacks.RegularizerWarmup(*warmup))
    model.fit(x, target(x), batch_size=BATCH, epochs=1, callbacks=callbacks, verbose=0)
    x_test = rng.uniform(*extrapolation, size=(100_000, input_dim))
    y_test = target(x_test)
    predictions = keras.ops.convert_to_numpy(model(x_test.astype("float32")))
    mse = float(np.mean((predictions.astype(np.float64) - y_test) ** 2))
    threshold = float(np.mean((perfect(x_test) - y_test) ** 2))
    return mse, threshold, model


def division_threshold_model(x, epsilon):
    """The epsilon-perfect division of Mistry et al. 2022, §6.5:
    ((1 - eps) / (1 + eps)) * x1 / x2."""
    return ((1 - epsilon) / (1 + epsilon)) * x[:, :1] / x[:, 1:2]
