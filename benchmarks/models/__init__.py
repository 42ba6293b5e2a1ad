"""The comparison models of the papers' experiments.

Cells that the papers compare the NALMs and the NRU with, registered for
Keras serialization under the package name `nalm_benchmarks`
(`"nalm_benchmarks>JANETCell"`, ...):

- `JANETCell` (van der Westhuizen & Lasenby 2018), `UGRNNCell` (Collins et
  al. 2017) and `NormalizedRNNCell` (a layer-normalised RNN): the NRU
  paper's baselines and Trask et al.'s language models;
- `SRUCell` (Oliva et al. 2017), `EURNNCell` (Jing et al. 2017b) and
  `GORUCell` (Jing et al. 2017a, both with the FFT-like orthogonal
  transition; `OrthogonalRNN` runs them with that transition computed
  once per sequence): the NRU paper's other baselines;
- `DNCCell` (Graves et al. 2016): Trask et al.'s program-evaluation
  baseline;
- `ChronoBias`: the chrono initialisation of gated RNNs (Tallec & Ollivier
  2018).

`benchmarks.nru.models` builds the NRU paper's parameter-matched models
from them.
"""

from benchmarks.models.cells import JANETCell
from benchmarks.models.cells import NormalizedRNNCell
from benchmarks.models.cells import UGRNNCell
from benchmarks.models.dnc import DNCCell
from benchmarks.models.initializers import ChronoBias
from benchmarks.models.orthogonal import EURNNCell
from benchmarks.models.orthogonal import GORUBias
from benchmarks.models.orthogonal import GORUCell
from benchmarks.models.orthogonal import OrthogonalRNN
from benchmarks.models.sru import SRUCell

__all__ = [
    "ChronoBias",
    "DNCCell",
    "EURNNCell",
    "GORUBias",
    "GORUCell",
    "JANETCell",
    "NormalizedRNNCell",
    "OrthogonalRNN",
    "SRUCell",
    "UGRNNCell",
]
