"""The arithmetic and logic units as Keras layers."""

from keras_nalm.layers.base import NALMLayer
from keras_nalm.layers.base import UnitBase
from keras_nalm.layers.baselines import JANETCell
from keras_nalm.layers.baselines import NormalizedRNNCell
from keras_nalm.layers.baselines import UGRNNCell
from keras_nalm.layers.dnc import DNCCell
from keras_nalm.layers.inalu import INALU
from keras_nalm.layers.logic import NLRL
from keras_nalm.layers.logic import NSR
from keras_nalm.layers.nac import NAC
from keras_nalm.layers.nac import NACMul
from keras_nalm.layers.nalu import GNALU
from keras_nalm.layers.nalu import NALU
from keras_nalm.layers.nalu import GatedNAUNMU
from keras_nalm.layers.nau import NAU
from keras_nalm.layers.nmu import NMU
from keras_nalm.layers.npu import NPU
from keras_nalm.layers.npu import RealNPU
from keras_nalm.layers.nru import NRUCell
from keras_nalm.layers.recurrent import ArithmeticCell
from keras_nalm.layers.recurrent import ArithmeticRNN
from keras_nalm.layers.recurrent import NALMCell

__all__ = [
    "UnitBase",
    "NALMLayer",
    "NALMCell",
    "ArithmeticCell",
    "ArithmeticRNN",
    "NAU",
    "NMU",
    "NAC",
    "NACMul",
    "NALU",
    "GNALU",
    "GatedNAUNMU",
    "INALU",
    "NPU",
    "RealNPU",
    "NLRL",
    "NSR",
    "NRUCell",
    "JANETCell",
    "UGRNNCell",
    "NormalizedRNNCell",
    "DNCCell",
]
