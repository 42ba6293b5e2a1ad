"""One training run of an arithmetic task with the in-graph engine.

`train_run(spec, seed)` trains `spec`'s model for one seed and returns
the papers' summary of it (see `keras_nalm.evaluation.summarize_run`).
Trainers are cached per process and reused for every seed and range with
the same compiled program (`spec.program_key`).
"""

import dataclasses
import time
from typing import Callable

import keras
import numpy as np

from benchmarks import sweep
from keras_nalm.evaluation import summarize_run
from keras_nalm.layers.base import NALMLayer
from keras_nalm.layers.base import sparsity_error
from keras_nalm.optimizers import TorchAdam
from keras_nalm.tasks import ArithmeticTask
from keras_nalm.tasks import Range
from keras_nalm.xla_engine import ArithmeticBatches
from keras_nalm.xla_engine import InGraphTrainer

EVALUATION_SAMPLES = 10_000  # Madsen app. C.2, Mistry table 5
THRESHOLD_SAMPLES = 1_000_000
LOG_INTERVAL = 1_000


#: The optimizers a run can train with: Keras's Adam (the default, which
#: made the committed results) or Adam as PyTorch computes it, epsilon 1e-8
#: (the reference implementations').
OPTIMIZERS = {"adam": keras.optimizers.Adam, "torch_adam": TorchAdam}
DEFAULT_OPTIMIZER = "adam"


def add_optimizer_argument(parser):
    parser.add_argument(
        "--optimizer",
        choices=tuple(OPTIMIZERS),
        default=DEFAULT_OPTIMIZER,
        help="adam: keras.optimizers.Adam (default); torch_adam: PyTorch's Adam",
    )


def optimizer_config(name):
    """The configuration entry of an optimizer: none for the default, so that
    rows made before the option existed keep their keys."""
    return {} if name == DEFAULT_OPTIMIZER else {"optimizer": name}


def check_steps(steps):
    """Runs are evaluated every LOG_INTERVAL steps: steps must be a multiple."""
    if steps % LOG_INTERVAL:
        raise SystemExit(f"--max-steps must be a multiple of {LOG_INTERVAL}: {steps}.")
    return steps


@dataclasses.dataclass(frozen=True)
class RunSpec:
    """Everything one run needs apart from its seed.

    `build_model(input_size)` returns an uncompiled model,
    `make_optimizer()` a fresh optimizer, `make_callbacks(seed)` the
    unit-specific callbacks (warm-up, beta growth, iNALU), `make_task(seed)`
    the `ArithmeticTask` of that seed. `program_key` identifies runs that
    can share a compiled program (everything but seed and ranges).
    """

    program_key: tuple
    build_model: Callable
    make_optimizer: Callable
    make_callbacks: Callable
    make_task: Callable
    interpolation_range: Range
    extrapolation_range: Range
    steps: int
    threshold_epsilon: float
    threshold_model: str


def _layers(model):
    return model._flatten_layers(include_self=False, recursive=True)


def model_sparsity_error(model):
    """Madsen eq. 17, the max over the model's NALM and Dense layers."""
    errors = []
    for layer in _layers(model):
        if isinstance(layer, NALMLayer):
            errors.append(layer.sparsity_error())
        elif isinstance(layer, keras.layers.Dense):
            errors.append(sparsity_error(keras.ops.convert_to_numpy(layer.kernel)))
    return max(errors)


def reinitialize_model(model, seed):
    """Fresh weights for every layer, drawn from `seed` (same draw every time)."""
    rng = np.random.default_rng(seed)
    for layer in _layers(model):
        layer_seed = int(rng.integers(2**31 - 1))
        if isinstance(layer, NALMLayer):
            layer.reinitialize(layer_seed)
        elif isinstance(layer, keras.layers.Dense):  # Keras' default initializers
            initializer = keras.initializers.GlorotUniform(seed=layer_seed)
            layer.kernel.assign(initializer(layer.kernel.shape))
            if layer.bias is not None:
                layer.bias.assign(keras.ops.zeros_like(layer.bias))
        elif isinstance(layer, keras.layers.PReLU):  # a constant initializer
            layer.alpha.assign(layer.alpha_initializer(layer.alpha.shape))
        elif layer._trainable_variables:  # weights of its own, not of sublayers
            raise TypeError(f"Cannot re-initialize {type(layer).__name__} layers.")


class EvaluationLog(keras.callbacks.Callback):
    """Records the step, interpolation/extrapolation MSE and sparsity error
    at the start and after every call of the trainer."""

    def __init__(self, network):
        super().__init__()
        self.network = network
        self.series = {name: [] for name in ("step", "interpolation", "extrapolation")}
        self.series["sparsity"] = []

    def record(self, interpolation, extrapolation):
        self.series["step"].append(int(self.model.optimizer.iterations))
        self.series["interpolation"].append(interpolation)
        self.series["extrapolation"].append(extrapolation)
        self.series["sparsity"].append(model_sparsity_error(self.network))

    def on_train_begin(self, logs=None):
        values = self.model.evaluation_mse()
        self.record(values["interpolation_mse"], values["extrapolation_mse"])

    def on_train_batch_end(self, batch, logs=None):
        self.record(float(logs["interpolation_mse"]), float(logs["extrapolation_mse"]))


_TRAINERS = {}
_THRESHOLDS = {}


def _evaluation_sets(task, spec, seed):
    rng = np.random.default_rng([seed, 1])
    return {
        "interpolation": task.sample(rng, EVALUATION_SAMPLES, spec.interpolation_range),
        "extrapolation": task.sample(rng, EVALUATION_SAMPLES, spec.extrapolation_range),
    }


def threshold(task, spec):
    key = (task, spec.extrapolation_range, spec.threshold_epsilon, spec.threshold_model)
    if key not in _THRESHOLDS:
        _THRESHOLDS[key] = task.threshold(
            spec.extrapolation_range,
            epsilon=spec.threshold_epsilon,
            samples=THRESHOLD_SAMPLES,
            model=spec.threshold_model,
        )
    return _THRESHOLDS[key]


def _trainer(spec, task, seed, evaluation):
    intervals = len(spec.interpolation_range.intervals)
    key = (spec.program_key, intervals, task.operation, task.input_size)
    trainer = _TRAINERS.get(key)
    if trainer is None:
        keras.utils.set_random_seed(seed)
        model = spec.build_model(task.input_size)
        batches = ArithmeticBatches(task, spec.interpolation_range)
        trainer = InGraphTrainer(
            model, batches, seed, LOG_INTERVAL, evaluation_data=evaluation
        )
        trainer.compile(optimizer=spec.make_optimizer(), loss="mse", metrics=["mse"])
        _TRAINERS.clear()  # one live program per process keeps memory flat
        _TRAINERS[key] = trainer
    trainer.batches.set_task(task)
    trainer.batches.set_range(spec.interpolation_range)
    trainer.restart(seed, evaluation)
    reinitialize_model(trainer.model, seed)
    return trainer


def train_run(spec, seed):
    """Trains one seed; returns the summary dict plus `threshold`, the
    untrained model's MSEs (`initial_*_mse`) and `wall_seconds`."""
    began = time.perf_counter()
    task = spec.make_task(seed)
    if not isinstance(task, ArithmeticTask):
        raise TypeError("make_task must return an ArithmeticTask.")
    evaluation = _evaluation_sets(task, spec, seed)
    trainer = _trainer(spec, task, seed, evaluation)
    log = EvaluationLog(trainer.model)
    trainer.fit(
        steps=spec.steps, callbacks=[log, *spec.make_callbacks(seed)], verbose=0
    )
    limit = threshold(task, spec)
    summary = summarize_run(
        log.series["step"],
        log.series["interpolation"],
        log.series["extrapolation"],
        log.series["sparsity"],
        limit,
    )
    summary.update(
        threshold=limit,
        initial_interpolation_mse=log.series["interpolation"][0],
        initial_extrapolation_mse=log.series["extrapolation"][0],
        wall_seconds=time.perf_counter() - began,
    )
    return summary


def run_jobs(make_spec, task_name, extra_fields, jobs):
    """Trains each job (a `sweep.Job`) and returns its JSON row.

    `make_spec(config)` gives the job's RunSpec; `extra_fields` (a dict)
    is added to every row. Used through `functools.partial` as a sweep's
    worker entry point.
    """
    environment = sweep.environment()
    rows = []
    for job in jobs:
        config = dict(job.config)
        result = train_run(make_spec(config), job.seed)
        rows.append(
            {
                "task": task_name,
                "config": config,
                **config,
                "seed": job.seed,
                "max_steps": config["steps"],
                **extra_fields,
                **result,
                **environment,
            }
        )
    return rows
