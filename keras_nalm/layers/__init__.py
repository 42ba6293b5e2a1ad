"""The arithmetic units as Keras layers."""

from keras_nalm.layers.base import NALMLayer
from keras_nalm.layers.nac import NAC
from keras_nalm.layers.nac import NACMul
from keras_nalm.layers.nalu import NALU
from keras_nalm.layers.nalu import GatedNAUNMU
from keras_nalm.layers.nau import NAU
from keras_nalm.layers.nmu import NMU

__all__ = ["NALMLayer", "NAU", "NMU", "NAC", "NACMul", "NALU", "GatedNAUNMU"]
