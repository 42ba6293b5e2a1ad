"""The arithmetic dataset task's runs: the models of Madsen table 4 and the
others the command offers, their schedules and the worker entry point (the
command line and its documentation: `cli`)."""

import dataclasses
import functools

import keras

from benchmarks.arithmetic import cli
from benchmarks.core import arguments
from benchmarks.core import sweep
from benchmarks.core import units
from benchmarks.core.ranges import Range
from benchmarks.core.rows import generator_name
from benchmarks.core.rows import optimizer_name
from benchmarks.core.runs import RunSpec
from benchmarks.core.runs import SweepCommand
from benchmarks.core.runs import engine_chunk
from benchmarks.core.runs import optimizer_factory
from benchmarks.data.arithmetic_batches import ArithmeticBatches
from benchmarks.data.arithmetic_task import ArithmeticTask
from benchmarks.data.arithmetic_task import function_task
from keras_nalm import callbacks as C
from keras_nalm import layers as L
from keras_nalm.layers.nalu import GatedLayer

#: Steps of the paper preset; regularizer schedules are given at this scale.
PAPER_STEPS = {"arithmetic": 5_000_000, "function": 200_000, "trask_static": 100_000}
QUICK_STEPS = {"arithmetic": 100_000, "function": 20_000, "trask_static": 10_000}
THRESHOLD_EPSILON = 1e-5  # eq. 16
HIDDEN_SIZE = cli.HIDDEN_SIZE


@dataclasses.dataclass(frozen=True)
class Model:
    """Table 4: the two layers and the sparsity regularizer's schedule."""

    first: object  # (units) -> layer
    second: object
    strength: float = None  # lambda-hat; None: no regularizer schedule
    warmup: tuple = None  # (lambda_start, lambda_end) in paper steps


def _dense(activation=None, use_bias=True, kernel_initializer="glorot_uniform"):
    return lambda units: keras.layers.Dense(
        units,
        activation=activation,
        use_bias=use_bias,
        kernel_initializer=kernel_initializer,
    )


def _reference_basic(activation):
    """The reference's `BasicLayer` for table 6's ReLU and ReLU6 models: a
    biased layer (zero biases) with Kaiming-uniform weights and the
    activation, followed by its linear layer (`SimpleFunctionStaticNetwork`
    makes the second layer of a basic unit linear)."""
    return _dense(activation, kernel_initializer="he_uniform")


class CReLU(keras.layers.Layer):
    """Concatenated ReLU: [relu(x), relu(-x)] (doubles the features)."""

    def call(self, x):
        return keras.ops.concatenate([keras.ops.relu(x), keras.ops.relu(-x)], -1)

    def compute_output_shape(self, shape):
        return (*shape[:-1], 2 * shape[-1])


class SubtractedGateNAUNMU(L.GatedNAUNMU):
    """The gated NAU/NMU with the reference's gate numerics (its PyTorch
    `_abstract_nalu.py`): 1 - g subtracted in the layer's float dtype, which
    is exactly 0 once the gate's logit passes about 17 in float32, and g
    differentiated by the framework's g (1 - g). `GatedNAUNMU` computes
    1 - g as sigmoid(-logit) and differentiates the sigmoid from the logit
    (`keras_nalm.ops.sigmoid`), which keeps the NMU's term and gradient at
    any logit. A fidelity variant for table 6's flag, not a library layer."""

    def mix(self, x, addition, multiplication):
        gate = keras.ops.sigmoid(self.gate_logits(x))
        return gate * addition + (1.0 - gate) * multiplication


def _mlp_hidden(activation):
    """Trask app. B: one hidden layer (with bias) and a non-linearity
    (`"none"`: none)."""
    if activation == "none":
        activation = None
    if activation == "crelu":
        return lambda units: keras.Sequential([keras.layers.Dense(units), CReLU()])
    return lambda units: keras.layers.Dense(units, activation=activation)


def _linear_output(units):
    return keras.layers.Dense(units)


#: Madsen table 4, the gated NAU/NMU with the NMU's schedule (table 6), the
#: models of table 5 and figure 7, and Trask's MLP baselines (`mlp_*`:
#: Dense(2, activation) -> Dense(1), with biases).
MODELS = {
    "nmu": Model(L.NAU, L.NMU, 10.0, (1_000_000, 2_000_000)),
    "nau": Model(L.NAU, L.NAU, 0.01, (5_000, 50_000)),
    "nac_mul": Model(L.NAC, L.NACMul),
    "nac_mul_sigmoid": Model(L.NAC, functools.partial(L.NACMul, weight="sigmoid")),
    "nac_mul_nmu": Model(
        L.NAC,
        functools.partial(L.NACMul, weight="linear"),
        10.0,
        (1_000_000, 2_000_000),
    ),
    # Figure 3's NAC•,NMU: the reference's hidden-size script puts it after
    # an NAU (`--first-layer ReRegualizedLinearNAC`), where table 4 has a NAC+.
    "nau_nac_mul_nmu": Model(
        L.NAU,
        functools.partial(L.NACMul, weight="linear"),
        10.0,
        (1_000_000, 2_000_000),
    ),
    "nac": Model(L.NAC, L.NAC),
    "nalu": Model(L.NALU, L.NALU),
    # Trask app. F, table 12: the NALU's multiplicative path in complex
    # logarithms, so that it multiplies negative values.
    "nalu_complex": Model(
        functools.partial(L.NALU, multiplication="complex"),
        functools.partial(L.NALU, multiplication="complex"),
    ),
    "gated_nau_nmu": Model(L.GatedNAUNMU, L.GatedNAUNMU, 10.0, (1_000_000, 2_000_000)),
    # Table 6's gated model with the reference's float 1 - g (its flag).
    "gated_nau_nmu_subtracted_gate": Model(
        SubtractedGateNAUNMU, SubtractedGateNAUNMU, 10.0, (1_000_000, 2_000_000)
    ),
    # App. C.5, table 5 and figure 9: the gate of a NALU with shared or
    # separate weights after a NAC+, and the gated NAU/NMU after an NAU (the
    # reference's `function_task_static_nalu.sh`).
    "nac_nalu": Model(L.NAC, L.NALU),
    "nac_nalu_separate": Model(L.NAC, functools.partial(L.NALU, shared_weights=False)),
    "nau_gated_nau_nmu": Model(L.NAU, L.GatedNAUNMU, 10.0, (1_000_000, 2_000_000)),
    # App. C.3, figure 7: the NMU model without R_sparse (lambda-hat 0), without
    # clamping W after each step (the forward pass still clips; the
    # reference's `--oob-mode regualized --regualizer-oob 0`), and without both.
    "nmu_no_sparse": Model(L.NAU, L.NMU),
    "nmu_no_clamp": Model(
        functools.partial(L.NAU, kernel_constraint=None),
        functools.partial(L.NMU, kernel_constraint=None),
        10.0,
        (1_000_000, 2_000_000),
    ),
    "nmu_no_sparse_no_clamp": Model(
        functools.partial(L.NAU, kernel_constraint=None),
        functools.partial(L.NMU, kernel_constraint=None),
    ),
    # Tables 2 and 6's baselines as the reference builds them: biased
    # layers (zero biases), Glorot-uniform weights for the linear layers.
    "linear": Model(_dense(), _dense()),
    "relu": Model(_reference_basic("relu"), _dense()),
    "relu6": Model(_reference_basic("relu6"), _dense()),
    # Our first `linear`, without biases: it extrapolates subtraction, which
    # the biased layers do not (benchmarks/results/README.md, table 2).
    "linear_no_bias": Model(_dense(use_bias=False), _dense(use_bias=False)),
    **{
        f"mlp_{activation}": Model(_mlp_hidden(activation), _linear_output)
        for activation in cli.TRASK_ACTIVATIONS
    },
}


def model_of(config):
    """The `Model` of a job's configuration: a table's, or a unit of one's
    own as the output layer after table 4's NAU; with `--first-layer`'s
    unit first, and the protocol options the configuration gives."""
    name = config["model"]
    if units.is_unit_spec(name):
        model = Model(L.NAU, _own_layer(config, "model"))
    else:
        model = MODELS[name]
    if "first_layer" in config:
        model = dataclasses.replace(model, first=_own_layer(config, "first_layer"))
    if "regularizer_warmup" in config:
        strength, start, end = config["regularizer_warmup"]
        model = dataclasses.replace(model, strength=strength, warmup=(start, end))
    return model


def _own_layer(config, field):
    """(units) -> a layer of the unit of one's own that `config[field]` names,
    checked against its digest."""
    spec, digest = config[field], config[f"{field}_digest"]
    return lambda size: units.build_unit(spec, size, digest)


def _build_model(model, input_size, hidden_size):
    """Table 4's two layers: input -> hidden_size -> 1."""
    inputs = keras.Input((input_size,), name="x")
    hidden = model.first(hidden_size)(inputs)
    return keras.Model(inputs, model.second(1)(hidden), name="arithmetic")


def _callbacks(model, scale, seed):
    if model.strength is None:
        return []
    start, end = (round(step * scale) for step in model.warmup)
    return [C.RegularizerWarmup(start, end, max_strength=model.strength)]


#: Interpolation samples over which figure 9's gate is averaged.
GATE_SAMPLES = 1_000


def _log_extras(model, evaluation):
    """Figure 9's `gate` for a model whose second layer is gated: that
    gate's mean over interpolation inputs (the reference logs layer 2's
    `gate/mean` and plots it at the best step)."""
    if not isinstance(model.second(1), GatedLayer):
        return {}
    inputs = evaluation["interpolation"][0][:GATE_SAMPLES]

    def mean_gate(network):
        first, second = network.layers[-2:]
        return float(keras.ops.mean(second.gate(first(inputs))))

    return {"gate": mean_gate}


def _task(config, seed):
    if config["task"] == "function":
        return function_task()
    return ArithmeticTask.draw(
        seed,
        config["operation"],
        input_size=config["input_size"],
        subset_ratio=config["subset_ratio"],
        overlap_ratio=config["overlap_ratio"],
    )


def _source(config, seed):
    """The seed's task (and subsets) on the configuration's ranges."""
    return ArithmeticBatches(
        _task(config, seed),
        Range.parse(config["interpolation_range"]),
        Range.parse(config["extrapolation_range"]),
        threshold_epsilon=THRESHOLD_EPSILON,
        threshold_model="madsen",
        algorithm=generator_name(config),
    )


def run_spec(config):
    """The RunSpec of a job's configuration (a dict)."""
    model = model_of(config)
    scale = config["steps"] / PAPER_STEPS[config["task"]]
    return RunSpec(
        program_key=(
            config["task"],
            config["model"],
            config.get("first_layer"),
            optimizer_name(config),
            *arguments.protocol_key(config),
        ),
        build_model=functools.partial(
            _build_model,
            model,
            config["input_size"],
            config.get("hidden_size", HIDDEN_SIZE),
        ),
        make_source=functools.partial(_source, config),
        # Adam with default parameters (app. C.2), PyTorch's unless --optimizer
        make_optimizer=optimizer_factory(
            config, **arguments.optimizer_arguments(config)
        ),
        make_callbacks=functools.partial(_callbacks, model, scale),
        make_log_extras=functools.partial(_log_extras, model),
        steps=config["steps"],
        redraw_by_building=any(
            f"{field}_digest" in config for field in ("model", "first_layer")
        ),
    )


#: The sweep's worker entry point for a task's jobs:
#: `run_chunk_for(task, tensorboard=None, checkpoints=None)` -> (jobs -> rows).
run_chunk_for = functools.partial(
    engine_chunk,
    run_spec,
    extra_fields={"threshold_epsilon": THRESHOLD_EPSILON},
)


def jobs_for(args):
    """The jobs of the parsed command line (`cli.parse_arguments`)."""
    presets = {"paper": PAPER_STEPS, "quick": QUICK_STEPS}
    steps = args.max_steps or presets[args.preset][args.task]
    if args.task == "function":
        args.operation, args.input_size = ["mul"], 4
        args.subset_ratio = args.overlap_ratio = None
    own_first = args.first_layer is not None
    jobs = []
    for name in args.model:
        for operation in args.operation:
            config = {
                "task": args.task,
                **units.name_fields(name, "model"),
                "operation": operation,
                "input_size": args.input_size,
                "subset_ratio": args.subset_ratio,
                "overlap_ratio": args.overlap_ratio,
                "interpolation_range": args.interpolation_range,
                "extrapolation_range": args.extrapolation_range,
                "preset": args.preset,
                "steps": steps,
                "optimizer": args.optimizer,
                "generator": args.generator,
            }
            if args.hidden_size != HIDDEN_SIZE:  # rows of the default lack it
                config["hidden_size"] = args.hidden_size
            if own_first:
                config.update(units.name_fields(args.first_layer, "first_layer"))
            own = own_first or units.is_unit_spec(name)
            config.update(arguments.protocol_fields(args, own))
            jobs += [
                sweep.Job(tuple(sorted(config.items())), seed) for seed in args.seeds
            ]
    return jobs


#: The command (`python -m benchmarks.arithmetic`): parse, jobs, sweep, rows.
COMMAND = SweepCommand(
    cli.parse_arguments,
    jobs_for,
    run_chunk_for,
    own_units=units.named_in("model", "first_layer"),
    tasks=cli.TASKS,
)
run, main = COMMAND.run, COMMAND.main


def evaluate_unit(unit=None, first_layer=None, model=None, output=None, **options):
    """Runs units of one's own through Madsen's arithmetic task (or, with
    `task="function"`, the §1.1 function); returns the rows (also appended
    to `output`, a JSON-lines file, when given).

    `unit`, a Keras layer class or a module-level factory called with the
    output size, is the output layer after table 4's NAU; `first_layer`
    (called with the hidden size) replaces the first layer, of `unit`'s
    model or of `model` (table 4's names, e.g. `model="nmu"`). `options`
    are the command's options as keywords (`operation="mul"`,
    `seeds="0-9"`, `preset="quick"`, `learning_rate=1e-2`, ...; `python -m
    benchmarks.arithmetic --help`).
    """
    if (unit is None) == (model is None):
        raise ValueError("give one of `unit` (a unit of one's own) or `model`")
    return units.evaluate(
        {"model": unit, "first_layer": first_layer},
        cli.parse_arguments,
        run,
        jobs_for,
        output,
        {"model": model, **options},
    )
