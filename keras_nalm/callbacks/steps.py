"""How many optimizer steps lie between two batch hooks, and what the logs hold.

`keras.Model.fit` calls a callback's batch hooks once per execution of
`steps_per_execution` steps; a `MultiStepModel` (the engine's
`InGraphTrainer`) runs `steps_per_call` steps per call. The callbacks of
this package read both through here.
"""

import json

from keras import ops


def current_step(model):
    return int(ops.convert_to_numpy(model.optimizer.iterations))


class MultiStepModel:
    """The protocol of a model whose batch hooks span several optimizer steps.

    `keras.Model.fit` calls a callback's batch hooks once per execution of
    `steps_per_execution` steps. A model whose compiled call runs its own
    loop of optimizer steps (`keras_nalm.engine.InGraphTrainer`) subclasses
    this mixin, so that the callbacks here know how many steps lie between
    two hooks and which logged values are values rather than running means.

    Attributes:
        steps_per_call: int > 0, optimizer steps between two batch hooks.
        point_log_keys: tuple of str, the log keys that hold the value at
            the call's last step (evaluations), not a running mean.
    """

    steps_per_call = 1
    point_log_keys = ()


def updates_per_batch(model):
    """Optimizer steps between two batch hooks: a `MultiStepModel`'s
    `steps_per_call`, else the compiled `steps_per_execution` (1 by
    default)."""
    if isinstance(model, MultiStepModel):
        return int(model.steps_per_call)
    return int(getattr(model, "steps_per_execution", None) or 1)


def point_log_keys(model):
    return model.point_log_keys if isinstance(model, MultiStepModel) else ()


class MonitoredLoss:
    """Reads the monitored loss from `logs`, batch by batch or per epoch.

    A key that `model.fit` logs after each batch (`"loss"`, or a compiled
    metric such as `"mse"`) is reported as a running mean since the epoch
    began; with equal batches, batch n's value is n * mean_n - (n - 1) *
    mean_(n-1) (with `steps_per_execution`, the mean of the execution).
    Keys a `MultiStepModel` lists in `point_log_keys` (`InGraphTrainer`'s
    `"{name}_mse"` evaluations) are values, not running means, and are
    read as they are. Other keys (`"val_loss"`, ...) are read at the end
    of each epoch.
    """

    def __init__(self, owner, monitor):
        self.owner, self.monitor = owner, monitor
        self.batches, self.mean = 0, 0.0

    @property
    def per_batch(self):
        return not self.monitor.startswith("val_")

    def from_batch(self, batch, logs, model=None):
        """The batch's value, or None when the monitor is per epoch."""
        if not self.per_batch or logs is None:
            return None
        if self.monitor in point_log_keys(model):
            return float(logs[self.monitor])
        if self.monitor not in logs:
            raise ValueError(
                f"{self.owner} monitors '{self.monitor}', which the training "
                f"logs do not have (they have {sorted(logs)}). Compile the "
                "model with metrics=['mse'], or pass another `monitor`."
            )
        running, batches = float(logs[self.monitor]), batch + 1
        if batches <= self.batches:  # a new epoch began
            self.batches, self.mean = 0, 0.0
        value = (batches * running - self.batches * self.mean) / (
            batches - self.batches
        )
        self.batches, self.mean = batches, running
        return value

    def from_epoch(self, logs):
        """The epoch's value, or None when the monitor is per batch."""
        if self.per_batch or not logs or self.monitor not in logs:
            return None
        return float(logs[self.monitor])


def is_schedule(callback):
    """Whether a trainer sets `callback`'s control values inside its loop
    before every step: it has `graph_value_at` and updates every batch."""
    return (
        hasattr(callback, "graph_value_at")
        and getattr(callback, "update_freq", "batch") == "batch"
    )


def schedule_program(schedules):
    """What a compiled call bakes in of its schedules: each callback's class
    and configuration (the constants of its `graph_value_at`) and the
    variables it sets. Callbacks equal in these share a program."""
    return [
        (
            type(callback),
            json.dumps(callback.get_config(), sort_keys=True, default=repr),
            tuple(id(v) for v in variables),
        )
        for callback, variables in schedules
    ]
