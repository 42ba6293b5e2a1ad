"""Batch sources: a task's training batches drawn inside the graph.

TensorFlow backend only. A batch source is a callable from a seed tensor
(int32, shape (2,): the run's data seed and the optimizer step) to one
batch `(x, y)`, built from stateless TensorFlow ops, so that the batch of
step t depends only on (seed, t). It also says how its task is judged:
`loss` and `metrics` to compile with, `evaluation_data(seed)` (the fixed
evaluation sets of a run) and `judge(model, log)` (the task's success
criterion). The same source feeds `keras_nalm.engine.InGraphTrainer`
and plain `model.fit` through `as_dataset`, batch for batch.

- `BatchSource`: the protocol, and `as_dataset(source, seed)`.
- `ArithmeticBatches`: Madsen & Johansen's arithmetic task (algorithm 1),
  the Single Module Task and the §1.1 function.
- `RecurrentArithmeticBatches`: Trask et al.'s recurrent arithmetic task
  (app. B): sums over sequences, extrapolation by length.
- `MNISTSequences`: sequences of MNIST digits and their running sum or
  product (Madsen & Johansen 2020, §4.2; Trask et al. 2018, app. C).
- `CopySource`: the copying-memory task, fixed or variable lag, and
  `DenoisingSource`: the denoising task (Chandar et al. 2019, §5.1-5.3).
- `NumberWords`: numbers 0-999 read as words (Trask et al. 2018, app. D).
- `ProgramBatches`: programs read character by character, their value the
  target (Trask et al. 2018, app. E).
- `PermutedPixels`: permuted sequential MNIST (Chandar et al. 2019, §6.2).
- `CorpusSource`: windows of a token corpus held in a variable (next-token
  prediction), the pattern for large fixed data.
- `random`: Threefry-2x32 in TensorFlow integer ops, the default generator.
"""

import keras

if keras.backend.backend() != "tensorflow":
    raise ImportError(
        "benchmarks.sources builds its batches with TensorFlow ops and needs "
        f"the TensorFlow backend; KERAS_BACKEND is {keras.backend.backend()!r}."
    )

from benchmarks.sources.arithmetic import ArithmeticBatches  # noqa: E402
from benchmarks.sources.corpus import CorpusSource  # noqa: E402
from benchmarks.sources.mnist import MNISTSequences  # noqa: E402
from benchmarks.sources.numbers import NumberWords  # noqa: E402
from benchmarks.sources.pixels import PermutedPixels  # noqa: E402
from benchmarks.sources.programs import ProgramBatches  # noqa: E402
from benchmarks.sources.recurrent_arithmetic import RecurrentArithmeticBatches  # noqa: E402
from benchmarks.sources.sequences import CopySource  # noqa: E402
from benchmarks.sources.sequences import DenoisingSource  # noqa: E402
from keras_nalm.engine.sources import ALGORITHMS  # noqa: E402
from keras_nalm.engine.sources import DEFAULT_ALGORITHM  # noqa: E402
from keras_nalm.engine.sources import BatchSource  # noqa: E402
from keras_nalm.engine.sources import as_dataset  # noqa: E402
from keras_nalm.engine.sources import uniform  # noqa: E402

__all__ = [
    "ALGORITHMS",
    "DEFAULT_ALGORITHM",
    "ArithmeticBatches",
    "BatchSource",
    "CopySource",
    "CorpusSource",
    "DenoisingSource",
    "MNISTSequences",
    "NumberWords",
    "ProgramBatches",
    "PermutedPixels",
    "RecurrentArithmeticBatches",
    "as_dataset",
    "uniform",
]
