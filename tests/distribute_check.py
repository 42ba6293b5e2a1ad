"""Trains units with `model.fit` under a `tf.distribute` strategy; prints JSON.

    python tests/distribute_check.py mirrored      # one device, then two
    TF_CONFIG=... python tests/distribute_check.py multiworker

The model is the demo's NAU(4 -> 2) -> NMU(2 -> 1), whose sparsity
regularizer's λ warms up (`RegularizerWarmup`) and whose NAU weights are
clipped by their constraint, beside an NPU(4 -> 1) whose β grows
(`BetaGrowth`); both learn the demo's function from one fixed data set
with a global batch of 64. `mirrored` trains it on one device and then
under `MirroredStrategy` over two logical CPU devices; `multiworker`
under `MultiWorkerMirroredStrategy` (one CPU per worker process,
`TF_CONFIG`). Each run prints its final weights and control values.
Run by `tests/test_distribute.py`: a strategy must give the weights of the
one-device run.
"""

import json
import sys

import tensorflow as tf

MODE = sys.argv[1]
if MODE == "multiworker":  # created before any other TensorFlow op
    STRATEGY = tf.distribute.MultiWorkerMirroredStrategy()
else:
    tf.config.set_logical_device_configuration(
        tf.config.list_physical_devices("CPU")[0],
        [tf.config.LogicalDeviceConfiguration()] * 2,
    )
    STRATEGY = None

import keras  # noqa: E402
import numpy as np  # noqa: E402

import keras_nalm  # noqa: E402
from keras_nalm import demo  # noqa: E402
from keras_nalm import layers as L  # noqa: E402
from keras_nalm.utils import walk_layers  # noqa: E402

BATCH_SIZE = 64
STEPS = 40


def _data():
    rng = np.random.default_rng(0)
    return demo.sample(rng, BATCH_SIZE * STEPS // 2, demo.INTERPOLATION_RANGE)


def _train():
    keras.utils.set_random_seed(7)
    inputs = keras.Input((4,))
    product = L.NMU(1, name="nmu")(L.NAU(2, name="nau")(inputs))
    power = L.NPU(1, name="npu")(inputs)
    model = keras.Model(inputs, [product, power])
    model.compile(optimizer=keras.optimizers.Adam(1e-2), loss=["mse", "mse"])
    callbacks = [
        keras_nalm.callbacks.RegularizerWarmup(0, STEPS // 2, max_strength=10.0),
        keras_nalm.callbacks.BetaGrowth(1e-7, 1e-5, step=STEPS // 4),
    ]
    x, y = _data()
    batches = tf.data.Dataset.from_tensor_slices((x, (y, y))).batch(BATCH_SIZE)
    options = tf.data.Options()  # every worker sees its part of each batch
    options.experimental_distribute.auto_shard_policy = (
        tf.data.experimental.AutoShardPolicy.DATA
    )
    model.fit(batches.with_options(options), epochs=2, callbacks=callbacks, verbose=0)
    return {
        "weights": {w.path: w.numpy().tolist() for w in model.weights},
        "controls": {
            variable.path: float(variable.numpy())
            for layer in walk_layers(model)
            for variable in layer.non_trainable_weights
            if tuple(variable.shape) == ()
        },
        "steps": int(model.optimizer.iterations.numpy()),
    }


def _under(strategy):
    with strategy.scope():
        return _train()


if MODE == "multiworker":
    result = {"multiworker": _under(STRATEGY)}
else:
    devices = [device.name for device in tf.config.list_logical_devices("CPU")]
    result = {
        "single": _train(),
        "mirrored": _under(tf.distribute.MirroredStrategy(devices)),
        "replicas": len(devices),
    }
print(json.dumps(result))
