"""Callbacks that drive the units' control variables on a schedule.

Each callback sets non-trainable control variables of the units
(`regularizer_scale`, `beta`, `inalu_regularization`). Control variables
are read inside the compiled train step, so new values take effect in
`model.fit(jit_compile=True)`; a Python float would be frozen into the
compiled step. The constructors take plain values only, so that Keras
Tuner can deep-copy the callbacks; targets are looked up through
`self.model` in every hook. With `steps_per_execution=N`, updates happen
between executions, every N steps.
"""

import math

import keras
from keras import ops

from keras_nalm._validation import check_choice
from keras_nalm._validation import check_non_negative_float
from keras_nalm._validation import check_non_negative_int
from keras_nalm._validation import check_positive_float
from keras_nalm._validation import check_positive_int
from keras_nalm.callbacks.steps import MonitoredLoss
from keras_nalm.callbacks.steps import current_step
from keras_nalm.callbacks.steps import updates_per_batch
from keras_nalm.saving import register_serializable

SCHEDULES = ("linear", "exp")


def _check_update_freq(update_freq):
    if update_freq in ("batch", "epoch"):
        return update_freq
    if (
        isinstance(update_freq, int)
        and not isinstance(update_freq, bool)
        and update_freq > 0
    ):
        return update_freq
    raise ValueError(
        "update_freq must be 'batch', 'epoch' or a positive int, "
        f"received {update_freq!r}."
    )


class _ControlCallback(keras.callbacks.Callback):
    """Sets a named control variable of NALM layers to `value_at(step)`.

    Subclasses set `variable_name` (the control variable they drive) and
    implement `value_at(step)`. The value is written into `logs` under
    `variable_name` (progress bar, History, TensorBoard).

    Args:
        update_freq: `"batch"` (default: before every batch, or every
            execution with `steps_per_execution`), `"epoch"`, or an int N
            (every N batches).
        layer_names: None (default: every layer with the control variable,
            nested ones included) or a list of layer names.
    """

    variable_name = None

    def __init__(self, update_freq="batch", layer_names=None):
        super().__init__()
        self.update_freq = _check_update_freq(update_freq)
        self.layer_names = list(layer_names) if layer_names is not None else None
        self._batches_seen = 0
        self.current_value = None

    def value_at(self, step):
        raise NotImplementedError

    def target_variables(self, model=None):
        """The control variables of the target layers of `model` (default:
        the model the callback is attached to)."""
        model = model if model is not None else self.model
        variables = [
            v
            for v in model.non_trainable_variables
            if v.path.split("/")[-1] == self.variable_name
        ]
        if self.layer_names is None:
            return variables
        wanted = set(self.layer_names)
        chosen = [v for v in variables if set(v.path.split("/")[:-1]) & wanted]
        found = {part for v in chosen for part in v.path.split("/")[:-1]}
        missing = wanted - found
        if missing:
            raise ValueError(
                f"{type(self).__name__}: no layer named {sorted(missing)} with "
                f"a '{self.variable_name}' variable in the model."
            )
        return chosen

    def adopt_graph_state(self, compiled):
        """Makes this callback's `graph_value_at` read the variables of
        `compiled`, an equal callback (same class and configuration) that
        an engine's compiled call reads, so that the call serves this one
        too. Only the rule's constants are read here: nothing to adopt."""

    def update(self):
        self.current_value = float(self.value_at(current_step(self.model)))
        for variable in self.target_variables():
            variable.assign(self.current_value)

    def on_train_begin(self, logs=None):
        self._batches_seen = 0
        self.update()

    def on_train_batch_begin(self, batch, logs=None):
        if self.update_freq == "epoch":
            return
        every = 1 if self.update_freq == "batch" else self.update_freq
        if self._batches_seen % every == 0:
            self.update()
        self._batches_seen += 1

    def on_epoch_begin(self, epoch, logs=None):
        if self.update_freq == "epoch":
            self.update()

    def on_train_batch_end(self, batch, logs=None):
        if logs is not None:
            logs[self.variable_name] = self.current_value

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs[self.variable_name] = self.current_value

    def get_config(self):
        return {"update_freq": self.update_freq, "layer_names": self.layer_names}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __deepcopy__(self, memo):
        # A fresh, unattached copy: Keras Tuner deep-copies callbacks for
        # every trial, and the model a used callback points to must not be
        # copied with it.
        return self.from_config(self.get_config())


@register_serializable
class RegularizerWarmup(_ControlCallback):
    """Warms up the sparsity regularizers of NALM layers (Madsen eq. 14).

    Sets the `regularizer_scale` variable of each target layer (NAU, NMU,
    NACMul, GatedNAUNMU) to

        linear: lambda = max_strength * clip((t - start) / (end - start), 0, 1)
        exp:    lambda = max_strength * (1 - exp(-exp_rate * t))

    where t is the optimizer's step counter (`optimizer.iterations`), so a
    run resumed from a checkpoint continues the schedule where it stopped.
    The `exp` mode is the reference code's alternative and ignores `start`
    and `end`.

    Each layer's sparsity regularizer keeps its own strength (1.0 for the
    package's `Sparsity`), so `max_strength` is the paper's lambda_hat: 10
    for the NMU models and 0.01 for the NAU models of Madsen table 4.
    lambda is written into `logs` as `"regularizer_scale"`.

    Args:
        start: int >= 0, the step where the warm-up begins (lambda_start).
        end: int > start, the step where lambda reaches `max_strength`.
        max_strength: float >= 0, lambda_hat (default 1.0).
        mode: `"linear"` (default, eq. 14) or `"exp"`.
        exp_rate: float > 0, the rate of the `exp` mode (default 1e-5).
        update_freq: `"batch"` (default), `"epoch"` or an int N (every N
            batches).
        layer_names: None (default: every layer with a `regularizer_scale`
            variable, nested ones included) or a list of layer names.

    Example:
    >>> warmup = keras_nalm.callbacks.RegularizerWarmup(
    ...     start=10_000, end=20_000, max_strength=10.0)
    >>> model.fit(x, y, callbacks=[warmup])

    Reference:
    - [Madsen & Johansen, 2020](https://arxiv.org/abs/2001.05016), §2.7.
    """

    variable_name = "regularizer_scale"

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
        super().__init__(update_freq=update_freq, layer_names=layer_names)
        self.mode = check_choice("mode", mode, SCHEDULES)
        self.start = check_non_negative_int("start", start)
        self.end = check_non_negative_int("end", end)
        if not self.start < self.end:
            raise ValueError(
                f"Expected start < end, received start={start}, end={end}."
            )
        self.max_strength = check_non_negative_float("max_strength", max_strength)
        self.exp_rate = check_positive_float("exp_rate", exp_rate)

    def value_at(self, step):
        """lambda at optimizer step `step`."""
        if self.mode == "exp":
            return self.max_strength * (1.0 - math.exp(-self.exp_rate * step))
        fraction = (step - self.start) / (self.end - self.start)
        return self.max_strength * min(max(fraction, 0.0), 1.0)

    def graph_value_at(self, step):
        """`value_at` of a float32 step tensor, in graph ops (what a
        multi-step engine sets before every step)."""
        if self.mode == "exp":
            return self.max_strength * (1.0 - ops.exp(-self.exp_rate * step))
        fraction = (step - self.start) / (self.end - self.start)
        return self.max_strength * ops.clip(fraction, 0.0, 1.0)

    def get_config(self):
        return {
            "start": self.start,
            "end": self.end,
            "max_strength": self.max_strength,
            "mode": self.mode,
            "exp_rate": self.exp_rate,
            **super().get_config(),
        }


@register_serializable
class BetaGrowth(_ControlCallback):
    """Grows the beta of the NPU's L1 regularizer (Mistry §4.3, table 6).

    beta starts at `start` and is multiplied by `growth` every `step`
    optimizer steps until it reaches `end` (divided, if `end < start`), as
    the reference code does:

        beta(t) = start * growth^min(floor(t / step), n),  n the number of
        growths that take start to end

    It sets the `beta` variable of each NPU and RealNPU (attribute
    `regularizer_scale`) and writes beta into `logs` as `"beta"`. The
    Single Module Task uses beta from 1e-7 to 1e-5 for multiplication and
    from 1e-9 to 1e-7 for division, growth 10 every 10 000 steps.

    Args:
        start: float > 0, beta_start.
        end: float > 0, beta_end.
        growth: float > 1, the factor (default 10).
        step: int > 0, steps between growths (default 10 000).
        update_freq: as `RegularizerWarmup`'s.
        layer_names: as `RegularizerWarmup`'s.

    Example:
    >>> beta = keras_nalm.callbacks.BetaGrowth(1e-7, 1e-5)

    Reference:
    - [Heim et al., 2020](https://arxiv.org/abs/2006.01681)
    - [Mistry et al., 2022](https://arxiv.org/abs/2111.05036), §4.3.
    """

    variable_name = "beta"

    def __init__(
        self,
        start,
        end,
        growth=10.0,
        step=10_000,
        update_freq="batch",
        layer_names=None,
    ):
        super().__init__(update_freq=update_freq, layer_names=layer_names)
        self.start = check_positive_float("start", start)
        self.end = check_positive_float("end", end)
        self.growth = check_positive_float("growth", growth)
        if self.growth <= 1:
            raise ValueError(f"growth must be > 1, received {growth}.")
        self.step = check_positive_int("step", step)
        ratio = max(self.end, self.start) / min(self.end, self.start)
        self._growths = math.ceil(math.log(ratio) / math.log(self.growth) - 1e-9)

    def value_at(self, step):
        """beta at optimizer step `step`."""
        growths = min(step // self.step, self._growths)
        factor = self.growth**growths
        return self.start * factor if self.end >= self.start else self.start / factor

    def graph_value_at(self, step):
        """`value_at` of a float32 step tensor, in graph ops."""
        growths = ops.minimum(ops.floor(step / self.step), float(self._growths))
        factor = ops.power(self.growth, growths)
        return self.start * factor if self.end >= self.start else self.start / factor

    def get_config(self):
        return {
            "start": self.start,
            "end": self.end,
            "growth": self.growth,
            "step": self.step,
            **super().get_config(),
        }


@register_serializable
class INALURegularizerSwitch(_ControlCallback):
    """Switches the iNALU regularizer on once training has settled.

    Sets the `inalu_regularization` variable of each iNALU to 1 when more
    than `min_step` optimizer steps have run and the last loss is below
    `loss_threshold`, and to 0 otherwise (the reference protocol: step >
    10 000 and loss < 1; Mistry §4.1). The loss is `monitor`: by default
    `"mse"`, the data error of the last batch (or execution), for which the
    model must be compiled with `metrics=["mse"]`; or a key that Keras logs
    at the end of an epoch, such as `"val_mse"` (the reference code uses
    its interpolation validation error). Do not monitor `"loss"`: it
    includes this regularizer, which is about 5 when it switches on and
    would switch itself off again. Written into `logs` as
    `"inalu_regularization"`. Where a batch hook covers several optimizer
    steps with `steps_per_execution`, the value holds for all of them and
    is the one the per-step rule gives most of them. An `InGraphTrainer`
    applies the rule before every step of its calls instead
    (`graph_value_at`), from the loss known when the call began (the
    reference refreshes its interpolation error every 1 000 steps too).

    Args:
        min_step: int >= 0 (default 10 000).
        loss_threshold: float > 0 (default 1.0).
        monitor: `"mse"` (default), another batch-level metric, or a
            `"val_..."` key, read per epoch.
        update_freq: as `RegularizerWarmup`'s.
        layer_names: as `RegularizerWarmup`'s.

    Example:
    >>> switch = keras_nalm.callbacks.INALURegularizerSwitch()
    >>> model.compile(optimizer="adam", loss="mse", metrics=["mse"])
    >>> model.fit(x, y, callbacks=[switch])

    Reference:
    - [Schlör et al., 2020](https://arxiv.org/abs/2003.07629).
    - [Mistry et al., 2022](https://arxiv.org/abs/2111.05036), §4.1.
    """

    variable_name = "inalu_regularization"

    def __init__(
        self,
        min_step=10_000,
        loss_threshold=1.0,
        monitor="mse",
        update_freq="batch",
        layer_names=None,
    ):
        super().__init__(update_freq=update_freq, layer_names=layer_names)
        self.min_step = check_non_negative_int("min_step", min_step)
        self.loss_threshold = check_positive_float("loss_threshold", loss_threshold)
        self.monitor = monitor
        self._monitored = MonitoredLoss(type(self).__name__, monitor)
        self.last_loss = math.inf
        # 1.0 while the last loss is below the threshold: what the graph
        # reads at every step of a multi-step call (`graph_value_at`)
        self._loss_is_low = keras.Variable(
            0.0, dtype="float32", trainable=False, name="loss_is_low"
        )

    def value_at(self, step):
        # Most of the batch's steps step, ..., step + updates - 1 are past
        # min_step (see the class docstring).
        updates = updates_per_batch(self.model)
        late_enough = step + updates - self.min_step - 1 >= updates / 2
        active = late_enough and self.last_loss < self.loss_threshold
        return 1.0 if active else 0.0

    def graph_value_at(self, step):
        """The per-step rule at a float32 step tensor, in graph ops: on
        past `min_step` while the loss of the call's start is low."""
        late_enough = ops.cast(ops.greater(step, float(self.min_step)), "float32")
        return late_enough * self._loss_is_low

    def adopt_graph_state(self, compiled):
        compiled._loss_is_low.assign(self._loss_is_low)
        self._loss_is_low = compiled._loss_is_low

    def update(self):
        self._loss_is_low.assign(float(self.last_loss < self.loss_threshold))
        super().update()

    def on_train_batch_end(self, batch, logs=None):
        loss = self._monitored.from_batch(batch, logs, self.model)
        if loss is not None:
            self.last_loss = loss
        super().on_train_batch_end(batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        loss = self._monitored.from_epoch(logs)
        if loss is not None:
            self.last_loss = loss
        super().on_epoch_end(epoch, logs)

    def get_config(self):
        return {
            "min_step": self.min_step,
            "loss_threshold": self.loss_threshold,
            "monitor": self.monitor,
            **super().get_config(),
        }
