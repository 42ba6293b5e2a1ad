"""Keras Tuner hyper-models of the benchmark tasks (`pip install 'keras-nalm[tuner]'`).

A hyper-model here builds a Keras model from the hyper-parameters
(`build(hp)`) and trains it in `fit(hp, model)` with the in-graph engine
(`keras_nalm.xla_engine.InGraphTrainer`, TensorFlow backend): the batches
are drawn inside the compiled loop from the task's batch source, so
`tuner.search()` takes no data. `fit` returns the task's own judgement of
the run, and the tuner optimises one of its entries (`hypermodel.objective`
is the one to use):

    import keras_tuner
    from keras_nalm.tuning import ArithmeticHyperModel

    hypermodel = ArithmeticHyperModel("mul", steps=20_000)
    tuner = keras_tuner.BayesianOptimization(
        hypermodel, objective=hypermodel.objective, max_trials=20,
        directory="tuning", project_name="mul")
    tuner.search()
    print(tuner.get_best_hyperparameters()[0].values)

An epoch is `steps_per_epoch` optimizer steps (default 1 000, the papers'
evaluation interval): `search(epochs=E)` trains E epochs per trial, and
Hyperband's epoch budgets are step budgets. A trial Hyperband continues
starts from the weights the tuner saved and at the optimizer step where
it stopped, so the regularizer's warm-up and the data stream go on where
they were. The tuner's callbacks (its checkpoint of the best epoch,
`search(callbacks=...)`) see the user's model, not the trainer around it;
that model is not compiled (the trainer holds the optimizer), so
callbacks that read `model.optimizer`, such as `keras.callbacks.TensorBoard`,
do not work there: `on_fit_end` receives each run's log instead
(`python -m benchmarks.tune --tensorboard DIR` writes it).

Distributed tuning is Keras Tuner's own: run the same script on a chief
(`KERASTUNER_TUNER_ID=chief`) and on workers (`tuner0`, `tuner1`, ...),
all with `KERASTUNER_ORACLE_IP` and `KERASTUNER_ORACLE_PORT` set to the
chief's address (`python -m benchmarks.tune`, README "Hyper-parameter
search").
"""

import math

import keras

try:
    import keras_tuner
except ImportError:  # pragma: no cover - depends on the install
    raise ImportError(
        "keras_nalm.tuning needs keras-tuner (and tensorboard, without which "
        "its trials fail): pip install 'keras-nalm[tuner]'"
    ) from None

from keras_nalm import layers as L
from keras_nalm.callbacks import RegularizerWarmup
from keras_nalm.optimizers import TorchAdam
from keras_nalm.sources import ArithmeticBatches
from keras_nalm.tasks import OPERATIONS
from keras_nalm.tasks import ArithmeticTask
from keras_nalm.tasks import Range
from keras_nalm.utils import reinitialize_model

#: The optimizers a trial can use: PyTorch's Adam (the reference
#: implementations'), Keras's Adam and RMSprop.
OPTIMIZERS = {
    "torch_adam": TorchAdam,
    "adam": keras.optimizers.Adam,
    "rmsprop": keras.optimizers.RMSprop,
}

#: Madsen & Johansen (2020) table 4's two-layer models by unit: the hidden
#: layer and the output layer. The units in REGULARIZED carry the sparsity
#: regularizer whose warm-up (lambda_start, lambda_end, lambda-hat) is tuned.
ARITHMETIC_UNITS = {
    "nmu": (L.NAU, L.NMU),
    "nau": (L.NAU, L.NAU),
    "nac": (L.NAC, L.NAC),
    "nac_mul": (L.NAC, L.NACMul),
    "nalu": (L.NALU, L.NALU),
    "gated_nau_nmu": (L.GatedNAUNMU, L.GatedNAUNMU),
}
REGULARIZED = ("nmu", "nau", "gated_nau_nmu")

#: Objectives above this (and NaN) are reported as this, so that a
#: diverged trial ranks last instead of breaking the Bayesian oracle.
WORST_MSE = 1e30


def _finite_mse(value):
    """The MSE, or WORST_MSE when it is missing (a run that diverged from
    its first evaluation on), not finite or larger."""
    if value is None or not math.isfinite(value) or value >= WORST_MSE:
        return WORST_MSE
    return float(value)


class EngineHyperModel(keras_tuner.HyperModel):
    """A hyper-model trained with the in-graph engine on a batch source.

    Subclasses give `build(hp)` (an uncompiled Keras model),
    `make_source(hp, seed)` (a `keras_nalm.sources.BatchSource` whose
    `judge` returns the run's metrics), `make_optimizer(hp)` and, if the
    units need them, `make_callbacks(hp)`; `metrics(judgement)` turns the
    judgement into the numbers the tuner records.

    Args:
        steps: int > 0, the step budget of a trial when `search` gives no
            `epochs` (a multiple of `steps_per_epoch`).
        steps_per_epoch: int > 0, optimizer steps per epoch and per
            evaluation (default 1 000).
        seed: int, the seed of the first fit; each later fit of this
            hyper-model (a new trial, or another execution of one) adds 1.
        name, tunable: as `keras_tuner.HyperModel`.
    """

    #: What the tuner should optimise: an entry of `metrics(...)`.
    objective = None
    #: Extra series to log at each evaluation: {name: function(model)}.
    log_extras = {}
    #: Called after each fit with (hyper-parameter values, seed, the run's
    #: `EvaluationLog`, the model), e.g. to write TensorBoard summaries.
    on_fit_end = None

    def __init__(self, steps, steps_per_epoch=1_000, seed=0, name=None, tunable=True):
        super().__init__(name=name, tunable=tunable)
        for argument, value in (("steps", steps), ("steps_per_epoch", steps_per_epoch)):
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{argument} must be an int > 0, got {value!r}.")
        if steps % steps_per_epoch:
            raise ValueError(
                f"steps={steps} must be a multiple of "
                f"steps_per_epoch={steps_per_epoch}."
            )
        self.steps = steps
        self.steps_per_epoch = steps_per_epoch
        self.seed = int(seed)
        self.fits = 0

    def make_source(self, hp, seed):
        raise NotImplementedError

    def make_optimizer(self, hp):
        raise NotImplementedError

    def make_callbacks(self, hp):
        return []

    def metrics(self, judgement):
        """The judgement's numbers (booleans as 0/1), lists left out."""
        return {
            key: float(value)
            for key, value in judgement.items()
            if isinstance(value, (bool, int, float))
        }

    def fit(
        self, hp, model, *args, epochs=None, initial_epoch=0, callbacks=None, **kwargs
    ):
        """Trains `model` for `epochs` epochs (default `steps` in all) and
        returns `metrics(judgement)`. `verbose` goes to the engine's fit;
        data arguments are refused (the batches are drawn in-graph)."""
        from keras_nalm.xla_engine import EvaluationLog
        from keras_nalm.xla_engine import InGraphTrainer

        verbose = kwargs.pop("verbose", 0)
        if args or kwargs:
            raise TypeError(
                f"{type(self).__name__}.fit draws its batches in-graph: call "
                "tuner.search() without data (it takes epochs=, callbacks=, "
                f"verbose=); got {len(args)} positional and {sorted(kwargs)}."
            )
        epochs = epochs or self.steps // self.steps_per_epoch
        seed = self.seed + self.fits
        self.fits += 1
        if initial_epoch == 0:  # Hyperband's continued trials keep their weights
            reinitialize_model(model, seed)
        source = self.make_source(hp, seed)
        trainer = InGraphTrainer(
            model, source, seed, self.steps_per_epoch, source.evaluation_data(seed)
        )
        trainer.compile(optimizer=self.make_optimizer(hp))
        trainer.optimizer.iterations.assign(initial_epoch * self.steps_per_epoch)
        log = EvaluationLog({**source.log_extras, **self.log_extras})
        trainer.fit(
            steps=epochs * self.steps_per_epoch,
            initial_epoch=initial_epoch,
            callbacks=[log, *self.make_callbacks(hp), _OnUserModel(callbacks or [])],
            verbose=verbose,
        )
        if self.on_fit_end is not None:
            self.on_fit_end(dict(hp.values), seed, log, model)
        return self.metrics(source.judge(model, log))


class _OnUserModel(keras.callbacks.Callback):
    """Runs `callbacks` with the trainer's inner model as their `model`
    (the tuner's checkpoint saves and reloads the user's model's weights)."""

    def __init__(self, callbacks):
        super().__init__()
        self.callbacks = keras.callbacks.CallbackList(list(callbacks))

    def set_model(self, model):
        super().set_model(model)
        self.callbacks.set_model(model.model)

    def on_train_begin(self, logs=None):
        self.callbacks.on_train_begin(logs)

    def on_epoch_begin(self, epoch, logs=None):
        self.callbacks.on_epoch_begin(epoch, logs)

    def on_epoch_end(self, epoch, logs=None):
        self.callbacks.on_epoch_end(epoch, logs)

    def on_train_end(self, logs=None):
        self.callbacks.on_train_end(logs)


class ArithmeticHyperModel(EngineHyperModel):
    """The arithmetic dataset task (Madsen & Johansen 2020, §4.1) to tune.

    Each trial draws the task's subsets from its seed (algorithm 1: inputs
    of `input_size`, subsets of `subset_ratio`, overlapping by
    `overlap_ratio`), trains on batches of 128 from U[1, 2] and is judged
    as in the paper: the extrapolation MSE on U[2, 6] at the step with the
    lowest interpolation MSE, and success against the epsilon-perfect
    model (eq. 16). `metrics` reports `extrapolation_mse` (non-finite or
    above 1e30: 1e30), `log10_extrapolation_mse` (the objective: the MSEs
    of a search span dozens of decades, which a Gaussian process cannot
    fit on a linear scale), `interpolation_mse`, `sparsity_error`,
    `solved` (1 or 0) and `solved_at`.

    Hyper-parameters (names as `hp` records them):
        unit: a key of `ARITHMETIC_UNITS` (table 4's two layers; default
            choices: all of them).
        hidden_size: 2 (table 4), 4 or 8.
        learning_rate: log-uniform in [1e-4, 1e-1] (the paper: 1e-3).
        optimizer: a key of `OPTIMIZERS`.
        warmup_start, warmup_length: the sparsity regularizer's warm-up as
            fractions of `steps` (the paper: 0.2 and 0.2 of 5·10^6 steps),
            and regularizer_strength (lambda-hat, log-uniform in
            [1e-3, 100]; the paper: 10 for the NMU, 0.01 for the NAU);
            only for the units in `REGULARIZED`.

    Args:
        operation: one of `keras_nalm.tasks.OPERATIONS`.
        steps: the step budget of a trial (default 50 000).
        units: the unit choices (default: every key of ARITHMETIC_UNITS).
        input_size, subset_ratio, overlap_ratio: the task (default 100,
            0.25, 0.5: the paper's).
        interpolation_range, extrapolation_range: `Range` texts (default
            "1,2" and "2,6").
        threshold_epsilon: the epsilon-perfect model's epsilon (1e-5).
        steps_per_epoch, seed, name, tunable: as `EngineHyperModel`.
    """

    objective = keras_tuner.Objective("log10_extrapolation_mse", "min")

    def __init__(
        self,
        operation,
        steps=50_000,
        units=tuple(ARITHMETIC_UNITS),
        input_size=100,
        subset_ratio=0.25,
        overlap_ratio=0.5,
        interpolation_range="1,2",
        extrapolation_range="2,6",
        threshold_epsilon=1e-5,
        **kwargs,
    ):
        super().__init__(steps, **kwargs)
        if operation not in OPERATIONS:
            raise ValueError(f"Unknown operation {operation!r}: {OPERATIONS}.")
        unknown = sorted(set(units) - set(ARITHMETIC_UNITS))
        if not units or unknown:
            raise ValueError(
                f"units must name some of {sorted(ARITHMETIC_UNITS)}; got {units!r}."
            )
        self.operation = operation
        self.units = list(units)
        self.input_size = input_size
        self.subset_ratio = subset_ratio
        self.overlap_ratio = overlap_ratio
        self.ranges = (
            Range.parse(interpolation_range),
            Range.parse(extrapolation_range),
        )
        self.threshold_epsilon = threshold_epsilon

    def build(self, hp):
        hidden, output = ARITHMETIC_UNITS[hp.Choice("unit", self.units)]
        inputs = keras.Input((self.input_size,), name="x")
        hidden_values = hidden(hp.Choice("hidden_size", [2, 4, 8]))(inputs)
        return keras.Model(inputs, output(1)(hidden_values), name="arithmetic")

    def make_optimizer(self, hp):
        optimizer = OPTIMIZERS[hp.Choice("optimizer", list(OPTIMIZERS))]
        return optimizer(
            learning_rate=hp.Float("learning_rate", 1e-4, 1e-1, sampling="log")
        )

    def make_callbacks(self, hp):
        regularized = [unit for unit in self.units if unit in REGULARIZED]
        if hp.get("unit") not in regularized:
            return []
        with hp.conditional_scope("unit", regularized):
            start = hp.Float("warmup_start", 0.0, 0.6, step=0.1)
            length = hp.Float("warmup_length", 0.1, 0.4, step=0.1)
            strength = hp.Float("regularizer_strength", 1e-3, 100.0, sampling="log")
        begin = round(start * self.steps)
        end = max(begin + 1, round((start + length) * self.steps))
        return [RegularizerWarmup(begin, end, max_strength=strength)]

    def make_source(self, hp, seed):
        task = ArithmeticTask.draw(
            seed,
            self.operation,
            input_size=self.input_size,
            subset_ratio=self.subset_ratio,
            overlap_ratio=self.overlap_ratio,
        )
        return ArithmeticBatches(
            task,
            *self.ranges,
            threshold_epsilon=self.threshold_epsilon,
            threshold_model="madsen",
        )

    def metrics(self, judgement):
        metrics = super().metrics(judgement)
        metrics["extrapolation_mse"] = _finite_mse(judgement.get("extrapolation_mse"))
        metrics["log10_extrapolation_mse"] = math.log10(
            max(metrics["extrapolation_mse"], 1e-30)
        )
        return metrics
