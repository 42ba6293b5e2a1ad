"""keras_nalm: Neural Arithmetic Logic Modules as Keras 3 layers.

Import this package before `keras.saving.load_model` so that Keras finds
the registered `keras_nalm>...` classes (or load with
`keras_nalm.load_model`, which also names any class a file needs that no
imported module registers). The in-graph training engine
(TensorFlow only) is imported on its own: `import keras_nalm.engine`.
"""

from keras_nalm import callbacks
from keras_nalm import constraints
from keras_nalm import initializers
from keras_nalm import layers
from keras_nalm import optimizers
from keras_nalm import regularizers
from keras_nalm import saving
from keras_nalm import symbolic
from keras_nalm.describe import describe
from keras_nalm.export import export_saved_model
from keras_nalm.saving import load_model

__version__ = "0.2.0"

__all__ = [
    "callbacks",
    "constraints",
    "describe",
    "export_saved_model",
    "initializers",
    "layers",
    "load_model",
    "optimizers",
    "regularizers",
    "saving",
    "symbolic",
    "__version__",
]
