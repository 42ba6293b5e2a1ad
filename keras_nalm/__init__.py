"""keras_nalm: Neural Arithmetic Logic Modules as Keras 3 layers.

Import this package before `keras.saving.load_model` so that Keras finds
the registered `keras_nalm>...` classes.
"""

from keras_nalm import callbacks
from keras_nalm import constraints
from keras_nalm import datasets
from keras_nalm import evaluation
from keras_nalm import initializers
from keras_nalm import layers
from keras_nalm import optimizers
from keras_nalm import regularizers
from keras_nalm import tasks
from keras_nalm.describe import describe
from keras_nalm.export import export_saved_model

__version__ = "0.1.0"

__all__ = [
    "callbacks",
    "constraints",
    "datasets",
    "describe",
    "evaluation",
    "export_saved_model",
    "initializers",
    "layers",
    "optimizers",
    "regularizers",
    "tasks",
    "__version__",
]
