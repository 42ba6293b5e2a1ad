"""The arithmetic and logic units, the recurrent cells, and the recurrent
baselines the papers compare them with, as Keras layers.

The bases to subclass for a unit of your own are public too: `NALMLayer`
(weights, control variables, `describe`), `KernelLayer` (one clipped
`kernel`), `ScaledRegularizationLayer` (a regularizer that a callback
scales), `InputRegularization` (Madsen's R_z on the inputs),
`RecurrentCell` (the skeleton every cell shares) and `NALMCell` (a
recurrent cell built from units); CONTRIBUTING.md says how.
"""

from keras_nalm.layers.arithmetic_cell import ArithmeticCell
from keras_nalm.layers.arithmetic_cell import ArithmeticRNN
from keras_nalm.layers.arithmetic_cell import NALMCell
from keras_nalm.layers.base import InputRegularization
from keras_nalm.layers.base import KernelLayer
from keras_nalm.layers.base import NALMLayer
from keras_nalm.layers.base import ScaledRegularizationLayer
from keras_nalm.layers.base import UnitBase
from keras_nalm.layers.division import NMRU
from keras_nalm.layers.division import NeuralReciprocalUnit
from keras_nalm.layers.dmu import DMU
from keras_nalm.layers.dnc import DNCCell
from keras_nalm.layers.inalu import INALU
from keras_nalm.layers.logic import NLRL
from keras_nalm.layers.logic import NSR
from keras_nalm.layers.mcfc import MCFC
from keras_nalm.layers.mcfc import MulMCFC
from keras_nalm.layers.nac import NAC
from keras_nalm.layers.nac import NACMul
from keras_nalm.layers.nalu import GNALU
from keras_nalm.layers.nalu import NALU
from keras_nalm.layers.nalu import GatedNAUNMU
from keras_nalm.layers.nalu import GoldenRatioNALU
from keras_nalm.layers.nau import NAU
from keras_nalm.layers.nmu import NMU
from keras_nalm.layers.nmu import StochasticNMU
from keras_nalm.layers.npu import NPU
from keras_nalm.layers.npu import RealNPU
from keras_nalm.layers.nru import NRU
from keras_nalm.layers.nru import NRUCell
from keras_nalm.layers.orthogonal import EURNNCell
from keras_nalm.layers.orthogonal import GORUCell
from keras_nalm.layers.orthogonal import OrthogonalRNN
from keras_nalm.layers.recurrent_cell import RecurrentCell
from keras_nalm.layers.rnn_cells import JANETCell
from keras_nalm.layers.rnn_cells import NormalizedRNNCell
from keras_nalm.layers.rnn_cells import UGRNNCell
from keras_nalm.layers.sru import SRUCell

__all__ = [
    # the units
    "NAU",
    "NMU",
    "NAC",
    "NACMul",
    "NALU",
    "GoldenRatioNALU",
    "GNALU",
    "GatedNAUNMU",
    "INALU",
    "NPU",
    "RealNPU",
    "NLRL",
    "NSR",
    # the units since the survey
    "StochasticNMU",
    "NeuralReciprocalUnit",
    "NMRU",
    "MCFC",
    "MulMCFC",
    "DMU",
    # the recurrent cells
    "ArithmeticCell",
    "ArithmeticRNN",
    "NRUCell",
    "NRU",
    # the recurrent baselines of the NRU paper and Trask et al.
    "JANETCell",
    "SRUCell",
    "EURNNCell",
    "GORUCell",
    "OrthogonalRNN",
    "NormalizedRNNCell",
    "UGRNNCell",
    "DNCCell",
    # the bases of units and cells of one's own
    "RecurrentCell",
    "NALMCell",
    "UnitBase",
    "NALMLayer",
    "KernelLayer",
    "ScaledRegularizationLayer",
    "InputRegularization",
]
