"""Trask et al.'s identity task's non-linearities (2018, table 5), read by
the command line before TensorFlow loads and by the runner."""

from benchmarks.core.lazy import lazy

#: The rows' tasks this folder runs (`benchmarks.registry`).
TASKS = ("identity",)

#: Table 5's non-linearities, with PyTorch's defaults where Keras' differ
#: (LeakyReLU slope 0.01; PReLU one shared slope starting at 0.25).
#: PyTorch's Threshold needs a threshold and a value that the paper does
#: not give; we use 1 and 0.
ACTIVATIONS = {
    "hard_tanh": lazy("keras.activations:hard_tanh"),
    "relu6": "relu6",
    "softsign": "softsign",
    "tanh": "tanh",
    "sigmoid": "sigmoid",
    "threshold": lazy("keras.activations:threshold", threshold=1.0, default_value=0.0),
    "selu": "selu",
    "elu": "elu",
    "soft_shrink": lazy("keras.activations:soft_shrink"),
    "relu": "relu",
    "leaky_relu": lazy("keras.activations:leaky_relu", negative_slope=0.01),
    "tanh_shrink": lazy("keras.activations:tanh_shrink"),
    "softplus": "softplus",
    "prelu": "prelu",
    "none": None,
}
