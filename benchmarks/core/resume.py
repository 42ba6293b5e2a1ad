"""Mid-run checkpoints: a long engine run resumes where it was stopped.

`RunCheckpoint` writes, after every compiled call (every evaluation), the
run's whole state to one `.npz` file, atomically (a temporary file, then
`os.replace`): the model's variables (trainable, non-trainable, random
seeds), the optimizer's variables (its step count among them), the
`EvaluationLog`'s series and the wall seconds spent so far. `train_run`
restores it before training and continues with `fit(initial_epoch=...)`.
Nothing else needs saving: the engine draws step t's batch from
(seed, t) only, Keras resets the running metrics at every epoch, and the
warm-up schedules (`RegularizerWarmup`, `BetaGrowth`) are functions of the
step. Callbacks that keep state of their own (the iNALU's reinitialiser
and regularizer switch) cannot resume: `resumable` tells such runs apart.
"""

import dataclasses
import json
import os

import keras
import numpy as np

from keras_nalm.callbacks import BetaGrowth
from keras_nalm.callbacks import RegularizerWarmup

#: Callbacks whose effect is a function of the optimizer step alone, when
#: the trainer computes them in its loop (`update_freq="batch"`).
STEP_SCHEDULES = (RegularizerWarmup, BetaGrowth)

_FORMAT = 1


def resumable(callbacks):
    """Whether a run with `callbacks` resumes exactly from a checkpoint."""
    return all(
        isinstance(callback, STEP_SCHEDULES) and callback.update_freq == "batch"
        for callback in callbacks
    )


def _json_number(value):
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"cannot store {type(value).__name__} in a checkpoint")


def _variables(trainer):
    return {
        "model": trainer.model.variables,
        "optimizer": trainer.optimizer.variables,
    }


def _identity(seed, steps):
    return {"format": _FORMAT, "seed": int(seed), "steps": int(steps)}


@dataclasses.dataclass(frozen=True)
class Restored:
    """A run's saved state: the epochs done, the evaluation log's series,
    the wall seconds spent and the variables' values (`{group}_{index}`).
    `NOTHING` is a run's state before its first epoch."""

    epoch: int = 0
    series: dict = None
    elapsed: float = 0.0
    arrays: dict = None


NOTHING = Restored()


def load(path, seed, steps):
    """The run's state saved at `path` (`NOTHING` when there is none); a
    checkpoint of another seed or length is refused."""
    if path is None or not os.path.exists(path):
        return NOTHING
    with np.load(path) as saved:
        arrays = dict(saved)
    meta = json.loads(str(arrays.pop("meta")))
    identity = _identity(seed, steps)
    found = {key: meta.get(key) for key in identity}
    if found != identity:
        raise ValueError(
            f"checkpoint {path} belongs to another run ({found}, not "
            f"{identity}); remove it to start the run again"
        )
    return Restored(meta["epoch"], meta["series"], meta["elapsed"], arrays)


class RunCheckpoint(keras.callbacks.Callback):
    """Saves an `InGraphTrainer`'s run at every epoch end; restores it at
    the start of training.

    Args:
        path: the checkpoint's file (`.npz`); its folder is made.
        seed: the run's seed, stored to be checked on restore.
        steps: the run's length in optimizer steps, likewise.
        log: the run's `keras_nalm.engine.EvaluationLog`.
        elapsed: a function returning the wall seconds the run has spent,
            its earlier segments included.
        restored: the `Restored` state to start from (`load`).
    """

    def __init__(self, path, seed, steps, log, elapsed, restored=NOTHING):
        super().__init__()
        self.path = path
        self.identity = _identity(seed, steps)
        self.log = log
        self.elapsed = elapsed
        self._arrays = restored.arrays

    def on_train_begin(self, logs=None):
        if self._arrays is None:
            return
        for group, variables in _variables(self.model).items():
            count = sum(name.startswith(f"{group}_") for name in self._arrays)
            if count != len(variables):
                raise ValueError(
                    f"checkpoint {self.path} holds {count} {group} variables, "
                    f"the run has {len(variables)}"
                )
            for index, variable in enumerate(variables):
                variable.assign(self._arrays[f"{group}_{index}"])
        self._arrays = None

    def on_epoch_end(self, epoch, logs=None):
        meta = {
            **self.identity,
            "epoch": epoch + 1,
            "series": self.log.series,
            "elapsed": self.elapsed(),
        }
        arrays = {
            f"{group}_{index}": keras.ops.convert_to_numpy(variable)
            for group, variables in _variables(self.model).items()
            for index, variable in enumerate(variables)
        }
        arrays["meta"] = np.array(json.dumps(meta, default=_json_number))
        os.makedirs(os.path.dirname(self.path) or ".", exist_ok=True)
        temporary = f"{self.path}.partial"
        with open(temporary, "wb") as file:
            np.savez(file, **arrays)
        os.replace(temporary, self.path)

    def remove(self):
        """Deletes the checkpoint (the run has finished)."""
        if os.path.exists(self.path):
            os.remove(self.path)
