"""The comparison models of the papers' experiments.

Cells that the papers compare the NALMs and the NRU with, registered for
Keras serialization under the package name `nalm_benchmarks`
(`"nalm_benchmarks>JANETCell"`, ...):

- `JANETCell` (van der Westhuizen & Lasenby 2018), `UGRNNCell` (Collins et
  al. 2017) and `NormalizedRNNCell` (a layer-normalised RNN): the NRU
  paper's baselines and Trask et al.'s language models;
- `DNCCell` (Graves et al. 2016): Trask et al.'s program-evaluation
  baseline;
- `ChronoBias`: the chrono initialisation of gated RNNs (Tallec & Ollivier
  2018).

`benchmarks.models.comparison` builds the NRU paper's parameter-matched
models from them.
"""

from benchmarks.models.cells import JANETCell
from benchmarks.models.cells import NormalizedRNNCell
from benchmarks.models.cells import UGRNNCell
from benchmarks.models.dnc import DNCCell
from benchmarks.models.initializers import ChronoBias

__all__ = ["ChronoBias", "DNCCell", "JANETCell", "NormalizedRNNCell", "UGRNNCell"]
