"""Keras Tuner searches over a benchmark task's models: the sequence tasks'
hyper-model, the tuners and their summary (the command line and its
documentation: `cli`)."""

import functools
import json
import os

import keras_tuner

from benchmarks.core.runs import run_directory
from benchmarks.core.training import control_values
from benchmarks.core.training import write_tensorboard
from benchmarks.data.synthetic_tasks import SOURCES as SEQUENCE_SOURCES
from benchmarks.nru.definitions import MODELS as RECURRENT_MODELS
from benchmarks.nru.models import build_model
from benchmarks.nru.models import matched_units
from benchmarks.nru.models import synthetic_setting
from benchmarks.tune import cli
from benchmarks.tune.hypermodels import ARITHMETIC_UNITS
from benchmarks.tune.hypermodels import ArithmeticHyperModel
from keras_nalm.engine.tuning import EngineHyperModel
from keras_nalm.optimizers import TorchAdam

#: Madsen & Johansen (2020) table 4 and app. C.2: what the paper trained
#: each unit with (Adam, PyTorch's, at 1e-3; hidden size 2; warm-up of
#: the sparsity regularizer from 20 % to 40 % of the 5·10^6 steps).
PAPER_SETTINGS = {
    "nmu": "hidden_size 2, torch_adam 1e-3, warm-up 0.2 + 0.2, strength 10",
    "nau": "hidden_size 2, torch_adam 1e-3, warm-up 0.001 + 0.009, strength 0.01",
    "nac": "hidden_size 2, torch_adam 1e-3, no regularizer",
    "nac_mul": "hidden_size 2, torch_adam 1e-3, no regularizer",
    "nalu": "hidden_size 2, torch_adam 1e-3, no regularizer",
    "gated_nau_nmu": "hidden_size 2, torch_adam 1e-3, warm-up 0.2 + 0.2, strength 10",
}
#: Chandar et al. (2019), "Experiments": every model at the NRU's parameter
#: count (width 1), Adam (PyTorch's) at 1e-3, gradients clipped to norm 1.
SEQUENCE_PAPER_SETTING = "width 1, learning_rate 1e-3, clip_norm 1"
SEQUENCE_TASKS = tuple(SEQUENCE_SOURCES)


class SequenceHyperModel(EngineHyperModel):
    """The NRU paper's synthetic tasks (copy, variable copy, denoising) to tune.

    Hyper-parameters: `model` (one of `benchmarks.nru.task.MODELS`),
    `width` (the units as a multiple of those that match the NRU's
    parameter count: 0.5, 1 or 2), `learning_rate` (log-uniform in
    [1e-4, 1e-2], PyTorch's Adam) and `clip_norm` (the global gradient
    norm: 0.5, 1 or 5). Batches of `batch_size` (default 10, the paper's);
    the objective is the lowest cross-entropy per step on the fixed
    validation set (`best_cross_entropy`).
    """

    objective = keras_tuner.Objective("best_cross_entropy", "min")

    def __init__(self, task, T, steps, batch_size=10, models=RECURRENT_MODELS, **kw):
        super().__init__(steps, **kw)
        self.make_task = lambda: SEQUENCE_SOURCES[task](T, batch_size=batch_size)
        self.length = self.make_task().length
        self.setting = synthetic_setting(self.length)
        self.models = list(models)

    def build(self, hp):
        model = hp.Choice("model", self.models)
        width = hp.Choice("width", [0.5, 1.0, 2.0])
        units = max(1, round(width * matched_units(model, self.setting)))
        return build_model(model, units, self.setting, self.length)

    def make_source(self, hp, seed):
        return self.make_task()

    def make_optimizer(self, hp):
        return TorchAdam(
            learning_rate=hp.Float("learning_rate", 1e-4, 1e-2, sampling="log"),
            global_clipnorm=hp.Choice("clip_norm", [0.5, 1.0, 5.0]),
        )


def _tuner_class(name):
    base = {
        "random": keras_tuner.RandomSearch,
        "bayesian": keras_tuner.BayesianOptimization,
        "hyperband": keras_tuner.Hyperband,
    }[name]

    class ReportingTuner(base):
        """Prints a JSON line per finished trial (which tuner ran it)."""

        def on_trial_end(self, trial):
            super().on_trial_end(trial)
            trial = self.oracle.get_trial(trial.trial_id)  # the chief's record
            line = {
                "trial": trial.trial_id,
                "tuner": self.tuner_id,
                "status": trial.status,
                "score": trial.score,
                "values": trial.hyperparameters.values,
            }
            print(json.dumps(line, sort_keys=True), flush=True)

    return ReportingTuner


def make_hypermodel(args):
    common = {"steps_per_epoch": args.steps_per_epoch, "seed": args.seed}
    if args.task == "arithmetic":
        units = args.models or list(ARITHMETIC_UNITS)
        return ArithmeticHyperModel(args.operation, args.steps, units, **common)
    models = args.models or list(RECURRENT_MODELS)
    return SequenceHyperModel(args.task, args.T, args.steps, models=models, **common)


def write_trial_summaries(root, task, values, seed, log, model):
    """A run's series and learned expression as TensorBoard summaries in
    `root/task/<unit or model>-<hash of the values>/seed_N`."""
    config = {key: value for key, value in values.items() if key != "unit"}
    config["model"] = values.get("unit", values.get("model"))
    write_tensorboard(run_directory(root, task, config, seed), values, log, model)


def paper_setting(values):
    """What the paper trained the trial's unit or model with."""
    if "unit" in values:
        return f"paper's {values['unit']}: {PAPER_SETTINGS[values['unit']]}"
    return f"paper's {values['model']}: {SEQUENCE_PAPER_SETTING}"


def make_tuner(args):
    hypermodel = make_hypermodel(args)
    if args.tensorboard:
        hypermodel.log_extras = {"controls": control_values}
        hypermodel.on_fit_end = functools.partial(
            write_trial_summaries, args.tensorboard, args.task
        )
    if args.tuner == "hyperband":
        budget = {
            "max_epochs": args.steps // args.steps_per_epoch,
            "hyperband_iterations": 1,
        }
    else:
        budget = {"max_trials": args.max_trials}
    return _tuner_class(args.tuner)(
        hypermodel,
        objective=hypermodel.objective,
        executions_per_trial=args.executions_per_trial,
        directory=args.directory,
        project_name=args.project_name,
        overwrite=args.overwrite,
        seed=args.seed,
        **budget,
    )


def summary(tuner, count=3):
    """The best trials' scores and hyper-parameters, with the paper's."""
    lines = [f"best {count} trials (objective {tuner.oracle.objective.name}):"]
    for trial in tuner.oracle.get_best_trials(count):
        values = {
            key: value
            for key, value in trial.hyperparameters.values.items()
            if not key.startswith("tuner/")
        }
        lines.append(f"  {trial.score:.4g}  {json.dumps(values, sort_keys=True)}")
        lines.append(f"    {paper_setting(values)}")
    return "\n".join(lines)


def record_search(args):
    """Writes the search's settings into its project (`cli.SEARCH_FILE`),
    which `cli` checks before resuming the project."""
    project = os.path.join(args.directory, args.project_name)
    os.makedirs(project, exist_ok=True)
    with open(os.path.join(project, cli.SEARCH_FILE), "w", encoding="utf-8") as handle:
        json.dump(cli.search_settings(args), handle, sort_keys=True)


def run(args):
    """Runs the search of the parsed command line; returns the exit status."""
    try:
        tuner = make_tuner(args)
    except ValueError as error:
        raise SystemExit(str(error)) from None
    record_search(args)
    tuner.search(verbose=0)
    if os.environ.get("KERASTUNER_TUNER_ID", "chief").startswith("chief"):
        print(summary(tuner), flush=True)
    return 0


def main(argv=None):
    """The command, in this process: `main(["--task", "copy", ...])`."""
    return run(cli.parse_arguments(argv))
