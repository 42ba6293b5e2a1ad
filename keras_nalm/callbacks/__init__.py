"""Callbacks that drive the units' training-time machinery.

- `control`: the schedules of the units' control variables, read inside
  the compiled step: `RegularizerWarmup` (Madsen's λ warm-up, eq. 14),
  `BetaGrowth` (the NPU's β) and `INALURegularizerSwitch` (the iNALU's
  regularizer, Mistry §4.1);
- `inalu_reinitializer`: `INALUReinitializer`, which re-initializes
  stagnated iNALU layers;
- `steps`: `MultiStepModel`, the protocol of a model whose batch hooks span
  several optimizer steps (the engine's `InGraphTrainer`).

Control variables are read inside the compiled train step, so new values
take effect in `model.fit(jit_compile=True)`; the constructors take plain
values only, so that Keras Tuner can deep-copy the callbacks.
"""

from keras_nalm.callbacks.control import SCHEDULES
from keras_nalm.callbacks.control import BetaGrowth
from keras_nalm.callbacks.control import INALURegularizerSwitch
from keras_nalm.callbacks.control import RegularizerWarmup
from keras_nalm.callbacks.inalu_reinitializer import INALUReinitializer
from keras_nalm.callbacks.steps import MultiStepModel

__all__ = [
    "SCHEDULES",
    "BetaGrowth",
    "INALURegularizerSwitch",
    "INALUReinitializer",
    "MultiStepModel",
    "RegularizerWarmup",
]
