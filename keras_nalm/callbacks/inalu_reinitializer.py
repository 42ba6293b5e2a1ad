"""The iNALU's re-initialization of stagnated layers (Mistry et al. 2022, §4.1)."""

import keras
import numpy as np

from keras_nalm._validation import check_positive_float
from keras_nalm._validation import check_positive_int
from keras_nalm.callbacks.steps import MonitoredLoss
from keras_nalm.layers.inalu import INALU
from keras_nalm.saving import register_serializable
from keras_nalm.utils import reset_optimizer_state
from keras_nalm.utils import walk_layers


@register_serializable
class INALUReinitializer(keras.callbacks.Callback):
    """Re-initializes iNALU layers whose training has stagnated (Mistry §4.1).

    It stores the loss of every batch (see `INALURegularizerSwitch` for
    `monitor`; an epoch-level key is stored once per epoch). Every
    `interval` stored losses, once more than `max_stored` are stored, it
    compares the two halves of the stored losses: when mean(first half)
    <= mean(second half) + std(second half) (no progress) and mean(second
    half) > `loss_threshold` (not solved), it re-initializes every weight
    of the target iNALU layers with fresh random values (a new seed each
    time: an initializer with a fixed seed would draw the same values
    again), with `reset_optimizer` sets the optimizer's slots for
    those weights (Adam's moments) to zero, and clears the stored losses.
    The reference protocol is interval 10, 5 000 stored losses, threshold 1,
    with gradients clipped to [-0.1, 0.1]
    (`keras.optimizers.Adam(clipvalue=0.1)`); its re-initialization
    (bmistry4/nalm-benchmark, `single_layer_benchmark.py`) calls only
    `reset_parameters()`, so Adam's moments carry over
    (`reset_optimizer=False`).

    `reinitializations` counts the re-initializations; `"reinitializations"`
    is written into the epoch logs.

    Args:
        interval: int > 0, batches between checks (default 10).
        max_stored: int > 0, losses needed before checking (default 5 000).
        loss_threshold: float > 0 (default 1.0).
        monitor: `"mse"` (default, compile with `metrics=["mse"]`),
            another batch-level metric, or a `"val_..."` key, read per epoch.
        layer_names: None (every iNALU of the model) or a list of names.
        seed: int or None; seeds the fresh draws (None: NumPy's global
            generator, seeded by `keras.utils.set_random_seed`).
        reset_optimizer: bool (default True): zero the optimizer's slots
            of the re-initialized weights; False keeps them, as the
            reference code does.

    Example:
    >>> reinit = keras_nalm.callbacks.INALUReinitializer(seed=0)
    >>> model.compile(optimizer="adam", loss="mse", metrics=["mse"])
    >>> model.fit(x, y, callbacks=[reinit])

    Reference:
    - [Schlör et al., 2020](https://arxiv.org/abs/2003.07629).
    - [Mistry et al., 2022](https://arxiv.org/abs/2111.05036), §4.1.
    """

    def __init__(
        self,
        interval=10,
        max_stored=5_000,
        loss_threshold=1.0,
        monitor="mse",
        layer_names=None,
        seed=None,
        reset_optimizer=True,
    ):
        super().__init__()
        self.interval = check_positive_int("interval", interval)
        self.max_stored = check_positive_int("max_stored", max_stored)
        self.loss_threshold = check_positive_float("loss_threshold", loss_threshold)
        self.monitor = monitor
        self.layer_names = list(layer_names) if layer_names is not None else None
        self.seed = seed
        if not isinstance(reset_optimizer, bool):
            raise TypeError(
                f"Expected reset_optimizer to be a bool, received {reset_optimizer!r}."
            )
        self.reset_optimizer = reset_optimizer
        self._rng = np.random.default_rng(seed)
        self._monitored = MonitoredLoss(type(self).__name__, monitor)
        self.losses = []
        self.reinitializations = 0
        self._records = 0

    def stagnated(self):
        """The reference criterion on the stored losses."""
        half = len(self.losses) // 2
        first, second = np.asarray(self.losses[:half]), np.asarray(self.losses[half:])
        return (
            first.mean() <= second.mean() + second.std()
            and second.mean() > self.loss_threshold
        )

    def target_layers(self):
        layers = [
            layer for layer in walk_layers(self.model) if isinstance(layer, INALU)
        ]
        if self.layer_names is not None:
            layers = [layer for layer in layers if layer.name in self.layer_names]
        if not layers:
            raise ValueError("INALUReinitializer: the model has no target INALU layer.")
        return layers

    def reinitialize(self):
        variables = []
        for layer in self.target_layers():
            seed = int(self._rng.integers(2**31 - 1)) if self.seed is not None else None
            variables += layer.reinitialize(seed)
        if self.reset_optimizer:
            reset_optimizer_state(self.model, variables)
        self.losses = []
        self.reinitializations += 1

    def on_train_begin(self, logs=None):
        self.target_layers()  # fail early with a clear error

    def record(self, loss):
        """Stores a loss; every `interval` records, checks for stagnation."""
        self.losses.append(loss)
        self._records += 1
        if self._records % self.interval == 0 and len(self.losses) > self.max_stored:
            if self.stagnated():
                self.reinitialize()

    def on_train_batch_end(self, batch, logs=None):
        loss = self._monitored.from_batch(batch, logs, self.model)
        if loss is not None:
            self.record(loss)

    def on_epoch_end(self, epoch, logs=None):
        loss = self._monitored.from_epoch(logs)
        if loss is not None:
            self.record(loss)
        if logs is not None:
            logs["reinitializations"] = self.reinitializations

    def get_config(self):
        return {
            "interval": self.interval,
            "max_stored": self.max_stored,
            "loss_threshold": self.loss_threshold,
            "monitor": self.monitor,
            "layer_names": self.layer_names,
            "seed": self.seed,
            "reset_optimizer": self.reset_optimizer,
        }

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __deepcopy__(self, memo):
        return self.from_config(self.get_config())
