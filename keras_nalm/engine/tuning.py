"""Keras Tuner hyper-models trained by the in-graph engine.

Needs keras-tuner: `pip install 'keras-nalm[tuner]'`.

`EngineHyperModel` builds a Keras model from the hyper-parameters
(`build(hp)`) and trains it in `fit(hp, model)` with
`keras_nalm.engine.InGraphTrainer` (TensorFlow backend): the batches are
drawn inside the compiled loop from the task's batch source, so
`tuner.search()` takes no data. `fit` returns the task's own judgement of
the run, and the tuner optimises one of its entries (`hypermodel.objective`
is the one to use). The benchmarks' `ArithmeticHyperModel`
(`benchmarks.tune.hypermodels`) is a complete subclass:

    import keras_tuner
    from benchmarks.tune.hypermodels import ArithmeticHyperModel

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

import keras

try:
    import keras_tuner
except ImportError:  # pragma: no cover - depends on the install
    raise ImportError(
        "keras_nalm.engine.tuning needs keras-tuner (and tensorboard, without "
        "which its trials fail): pip install 'keras-nalm[tuner]'"
    ) from None

from keras_nalm.utils import reinitialize_model


class EngineHyperModel(keras_tuner.HyperModel):
    """A hyper-model trained with the in-graph engine on a batch source.

    Subclasses give `build(hp)` (an uncompiled Keras model),
    `make_source(hp, seed)` (a `keras_nalm.engine.BatchSource` whose
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
        from keras_nalm.engine.trainer import EvaluationLog
        from keras_nalm.engine.trainer import InGraphTrainer

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
