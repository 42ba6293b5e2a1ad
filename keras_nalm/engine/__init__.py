"""The in-graph training engine: many optimizer steps per compiled call.

TensorFlow backend only, and imported only when used (`import
keras_nalm.engine`); the layers, callbacks and `describe` work on every
backend without it.

- `InGraphTrainer`: trains a model for `steps_per_call` optimizer steps
  inside one XLA loop, drawing each step's batch in the graph from a
  batch source; `EvaluationLog` records its evaluations.
- `PopulationTrainer`: trains R runs of one model and source (their own
  seeds, data and weights) in one XLA program, each run's weights
  stacked on a leading axis (`keras_nalm.engine.population`).
- `BatchSource`: the batch-source protocol (a batch keyed by (seed, step),
  the task's loss, metrics, evaluation sets and judgement); `uniform`
  draws its random numbers with one of `ALGORITHMS` (default
  Threefry-2x32-20, `keras_nalm.engine.threefry`); `HeldImages` holds
  fixed data in variables; `as_dataset` feeds a source to `model.fit`.
- `keras_nalm.engine.tuning.EngineHyperModel`: Keras Tuner searches
  trained by the engine (needs keras-tuner; import it from its module).

The callbacks of `keras_nalm.callbacks` see one batch per engine call:
the engine declares `steps_per_call` through
`keras_nalm.callbacks.MultiStepModel`.
"""

import keras

if keras.backend.backend() != "tensorflow":
    raise ImportError(
        "keras_nalm.engine draws its batches with TensorFlow ops and needs the "
        f"TensorFlow backend; KERAS_BACKEND is {keras.backend.backend()!r}. "
        "Train with model.fit instead."
    )

from keras_nalm.engine.algorithms import ALGORITHMS  # noqa: E402
from keras_nalm.engine.algorithms import DEFAULT_ALGORITHM  # noqa: E402
from keras_nalm.engine.algorithms import THREEFRY_ROUNDS  # noqa: E402
from keras_nalm.engine.population import PopulationTrainer  # noqa: E402
from keras_nalm.engine.sources import BatchSource  # noqa: E402
from keras_nalm.engine.sources import HeldImages  # noqa: E402
from keras_nalm.engine.sources import as_dataset  # noqa: E402
from keras_nalm.engine.sources import uniform  # noqa: E402
from keras_nalm.engine.trainer import EvaluationLog  # noqa: E402
from keras_nalm.engine.trainer import InGraphTrainer  # noqa: E402

__all__ = [
    "ALGORITHMS",
    "DEFAULT_ALGORITHM",
    "THREEFRY_ROUNDS",
    "BatchSource",
    "EvaluationLog",
    "HeldImages",
    "InGraphTrainer",
    "PopulationTrainer",
    "as_dataset",
    "uniform",
]
