"""Callbacks that drive the units' training-time machinery."""

import math

import keras
from keras import ops

from keras_nalm._export import nalm_export
from keras_nalm._validation import check_choice

SCHEDULES = ("linear", "exp")


@nalm_export
class RegularizerWarmup(keras.callbacks.Callback):
    """Warms up the sparsity regularizers of NALM layers (Madsen eq. 14).

    Sets the `regularizer_scale` variable of each target layer to

        linear: lambda = max_strength * clip((t - start) / (end - start), 0, 1)
        exp:    lambda = max_strength * (1 - exp(-exp_rate * t))

    where t is the optimizer's step counter (`optimizer.iterations`), so a
    run resumed from a checkpoint continues the schedule where it stopped.
    The `exp` mode is the reference code's alternative and ignores `start`
    and `end`. The scale lives in a variable, so the new value takes effect
    inside a compiled (`jit_compile=True`) `model.fit`. With
    `steps_per_execution=N`, the value is updated between executions.

    Each layer's regularizers keep their own strength (1.0 for the package's
    `Sparsity`), so `max_strength` is the paper's lambda_hat: 10 for the
    NMU models and 0.01 for the NAU models of Madsen table 4.

    The current lambda is written into `logs` as `"regularizer_scale"`
    (progress bar, History, TensorBoard).

    The constructor takes plain values only, so Keras Tuner can deep-copy
    the callback; target layers are looked up through `self.model` in every
    hook.

    Args:
        start: int >= 0, the step where the warm-up begins (lambda_start).
        end: int > start, the step where lambda reaches `max_strength`.
        max_strength: float >= 0, lambda_hat (default 1.0).
        mode: `"linear"` (default, eq. 14) or `"exp"`.
        exp_rate: float > 0, the rate of the `exp` mode (default 1e-5).
        update_freq: `"batch"` (default: before every batch, or every
            execution with `steps_per_execution`), `"epoch"`, or an int N
            (every N batches).
        layer_names: None (default: every layer with a
            `regularizer_scale` variable, nested ones included) or a list
            of layer names.

    Example:
    >>> warmup = keras_nalm.callbacks.RegularizerWarmup(
    ...     start=10_000, end=20_000, max_strength=10.0)
    >>> model.fit(x, y, callbacks=[warmup])

    Reference:
    - [Madsen & Johansen, 2020](https://arxiv.org/abs/2001.05016), §2.7.
    """

    def __init__(
        self,
        start,
        end,
        max_strength=1.0,
        mode="linear",
        exp_rate=1e-5,
        update_freq="batch",
        layer_names=None,
    ):
        super().__init__()
        check_choice("mode", mode, SCHEDULES)
        if not 0 <= start < end:
            raise ValueError(
                f"Expected 0 <= start < end, received start={start}, end={end}."
            )
        if max_strength < 0 or exp_rate <= 0:
            raise ValueError(
                "Expected max_strength >= 0 and exp_rate > 0, received "
                f"max_strength={max_strength}, exp_rate={exp_rate}."
            )
        valid_freq = update_freq in ("batch", "epoch") or (
            isinstance(update_freq, int)
            and not isinstance(update_freq, bool)
            and update_freq > 0
        )
        if not valid_freq:
            raise ValueError(
                "update_freq must be 'batch', 'epoch' or a positive int, "
                f"received {update_freq!r}."
            )
        self.start = int(start)
        self.end = int(end)
        self.max_strength = float(max_strength)
        self.mode = mode
        self.exp_rate = float(exp_rate)
        self.update_freq = update_freq
        self.layer_names = list(layer_names) if layer_names is not None else None
        self._batches_seen = 0
        self.current_strength = None

    def strength_at(self, step):
        """lambda at optimizer step `step`."""
        if self.mode == "exp":
            return self.max_strength * (1.0 - math.exp(-self.exp_rate * step))
        fraction = (step - self.start) / (self.end - self.start)
        return self.max_strength * min(max(fraction, 0.0), 1.0)

    def _target_variables(self):
        variables = [
            v
            for v in self.model.non_trainable_variables
            if v.path.split("/")[-1] == "regularizer_scale"
        ]
        if self.layer_names is None:
            return variables
        wanted = set(self.layer_names)
        chosen = [v for v in variables if set(v.path.split("/")[:-1]) & wanted]
        found = {part for v in chosen for part in v.path.split("/")[:-1]}
        missing = wanted - found
        if missing:
            raise ValueError(
                f"RegularizerWarmup: no NALM layer named {sorted(missing)} "
                "in the model."
            )
        return chosen

    def _update(self):
        step = int(ops.convert_to_numpy(self.model.optimizer.iterations))
        self.current_strength = self.strength_at(step)
        for variable in self._target_variables():
            variable.assign(self.current_strength)

    def on_train_begin(self, logs=None):
        self._batches_seen = 0
        self._update()

    def on_train_batch_begin(self, batch, logs=None):
        if self.update_freq == "epoch":
            return
        every = 1 if self.update_freq == "batch" else self.update_freq
        if self._batches_seen % every == 0:
            self._update()
        self._batches_seen += 1

    def on_epoch_begin(self, epoch, logs=None):
        if self.update_freq == "epoch":
            self._update()

    def on_train_batch_end(self, batch, logs=None):
        if logs is not None:
            logs["regularizer_scale"] = self.current_strength

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["regularizer_scale"] = self.current_strength

    def get_config(self):
        return {
            "start": self.start,
            "end": self.end,
            "max_strength": self.max_strength,
            "mode": self.mode,
            "exp_rate": self.exp_rate,
            "update_freq": self.update_freq,
            "layer_names": self.layer_names,
        }

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __deepcopy__(self, memo):
        # A fresh, unattached copy: Keras Tuner deep-copies callbacks for
        # every trial, and the model a used callback points to must not be
        # copied with it.
        return self.from_config(self.get_config())
