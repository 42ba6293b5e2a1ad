"""The layers of the arithmetic task's models that are not library layers:
the CReLU of Trask's MLP baselines and the gated NAU/NMU with the reference's
gate numerics (named by `task.MODELS`, imported when a model is built)."""

import keras

from keras_nalm import layers as L


class CReLU(keras.layers.Layer):
    """Concatenated ReLU: [relu(x), relu(-x)] (doubles the features)."""

    def call(self, x):
        return keras.ops.concatenate([keras.ops.relu(x), keras.ops.relu(-x)], -1)

    def compute_output_shape(self, shape):
        return (*shape[:-1], 2 * shape[-1])


def crelu_dense(units):
    """Trask app. B's CReLU hidden layer: a biased Dense, then CReLU."""
    return keras.Sequential([keras.layers.Dense(units), CReLU()])


class SubtractedGateNAUNMU(L.GatedNAUNMU):
    """The gated NAU/NMU with the reference's gate numerics (its PyTorch
    `_abstract_nalu.py`): 1 - g subtracted in the layer's float dtype, which
    is exactly 0 once the gate's logit passes about 17 in float32, and g
    differentiated by the framework's g (1 - g). `GatedNAUNMU` computes
    1 - g as sigmoid(-logit) and differentiates the sigmoid from the logit
    (`keras_nalm.ops.sigmoid`), which keeps the NMU's term and gradient at
    any logit. A fidelity variant for table 6's flag, not a library layer."""

    def mix(self, x, addition, multiplication):
        gate = keras.ops.sigmoid(self.gate_logits(x))
        return gate * addition + (1.0 - gate) * multiplication
