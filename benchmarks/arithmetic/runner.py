"""The arithmetic dataset task (Madsen & Johansen 2020, §4.1, app. C).

Two layers with a hidden size of 2 (table 4) learn t = a ∘ b, a and b the
sums of two overlapping subsets of 100 inputs (algorithm 1, table 3), from
batches of 128 drawn from U[1,2]; a run is solved when its extrapolation
MSE on U[2,6] at the best validation step is below that of the
epsilon-perfect model (eq. 16, epsilon 1e-5). Each seed also draws the
subsets' position.

    python -m benchmarks.arithmetic --model nmu --operation mul \\
        --seeds 0-99 --output nmu_mul.jsonl

Preset `paper`: 5 000 000 steps and table 4's regularizer schedules;
`quick`: 100 000 steps with every schedule compressed by the same factor
(50x). `--max-steps` compresses or stretches the schedules the same way.
`--hidden-size` widens the first layer (figure 3; rows of table 4's size 2
carry no `hidden_size` field, and the reports name other sizes). Beside
table 4's models, `--model` takes table 5's gating models (app. C.5:
`nac_nalu`, `nac_nalu_separate`, `nau_gated_nau_nmu`; published values in
the report; the rows of a model whose second layer is gated carry figure
9's `gate`, its mean over 1 000 interpolation inputs at the best step),
figure 7's ablations of the NMU model (app. C.3:
`nmu_no_sparse`, `nmu_no_clamp`, `nmu_no_sparse_no_clamp`, with
`--hidden-size` 2-10 as the reference's ablation script), table 6's
`gated_nau_nmu` (and `gated_nau_nmu_subtracted_gate`, with the
reference's gate numerics), `nac_mul_sigmoid` and `nac_mul_nmu`, and
figure 3's `nau_nac_mul_nmu` (the NAC•,NMU after an NAU, as the
reference's hidden-size script runs it; table 4 puts a NAC+ before it).

`--task trask_static` is Trask et al.'s static task (app. B, tables 6-7)
with the protocol we had to choose: the paper fixes only the input size
(100), the hidden size (2) and the models (`--model trask`: the MLPs of
`TRASK_ACTIVATIONS`, NAC and NALU); its ranges, subsets, optimizer, batch
and steps are not published, so this task takes Madsen's dataset (U[1,2]
-> U[2,6], subset ratio 0.25, overlap 0.5, batch 128), PyTorch's Adam at
1e-3 and 100 000 steps (`paper`; `quick`: 10 000), all arguments. The
report scores each run against the same model untrained, as table 7.

`--task function` is the §1.1 function t = (x1 + x2)(x1 + x2 + x3 + x4)
of table 1 (input size 4, the subset options unused): the reference ran it
for 200 000 steps (`paper`; `quick`: 20 000) with table 4's models and
default schedules, so the NMU's sparsity regularizer (from step 10^6)
never starts.
"""

import argparse
import dataclasses
import functools

import keras

from benchmarks.core import sweep
from benchmarks.core.rows import generator_name
from benchmarks.core.rows import optimizer_name
from benchmarks.core.runs import RunSpec
from benchmarks.core.runs import add_generator_argument
from benchmarks.core.runs import add_optimizer_argument
from benchmarks.core.runs import check_steps
from benchmarks.core.runs import engine_chunk
from benchmarks.core.runs import optimizer_factory
from benchmarks.data.arithmetic_batches import ArithmeticBatches
from benchmarks.data.arithmetic_task import OPERATIONS
from benchmarks.data.arithmetic_task import ArithmeticTask
from benchmarks.data.arithmetic_task import Range
from benchmarks.data.arithmetic_task import function_task
from keras_nalm import callbacks as C
from keras_nalm import layers as L
from keras_nalm.layers.nalu import GatedLayer

#: Steps of the paper preset; regularizer schedules are given at this scale.
PAPER_STEPS = {"arithmetic": 5_000_000, "function": 200_000, "trask_static": 100_000}
QUICK_STEPS = {"arithmetic": 100_000, "function": 20_000, "trask_static": 10_000}
THRESHOLD_EPSILON = 1e-5  # eq. 16
HIDDEN_SIZE = 2


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
    """Trask app. B: one hidden layer (with bias) and a non-linearity."""
    if activation == "crelu":
        return lambda units: keras.Sequential([keras.layers.Dense(units), CReLU()])
    return lambda units: keras.layers.Dense(units, activation=activation)


def _linear_output(units):
    return keras.layers.Dense(units)


#: Trask et al. (2018) app. B, tables 6-7: the MLP baselines' activations.
TRASK_ACTIVATIONS = (
    "tanh",
    "sigmoid",
    "relu6",
    "softsign",
    "selu",
    "elu",
    "relu",
    "crelu",
    None,
)


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
        f"mlp_{activation or 'none'}": Model(_mlp_hidden(activation), _linear_output)
        for activation in TRASK_ACTIVATIONS
    },
}


#: Trask et al. table 7's models, in its column order (`--model trask`).
TRASK_MODELS = (
    "mlp_relu6",
    "mlp_softsign",
    "mlp_tanh",
    "mlp_sigmoid",
    "mlp_selu",
    "mlp_elu",
    "mlp_relu",
    "mlp_crelu",
    "mlp_none",
    "nac",
    "nalu",
)


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
    model = MODELS[config["model"]]
    scale = config["steps"] / PAPER_STEPS[config["task"]]
    return RunSpec(
        program_key=(config["task"], config["model"], optimizer_name(config)),
        build_model=functools.partial(
            _build_model,
            model,
            config["input_size"],
            config.get("hidden_size", HIDDEN_SIZE),
        ),
        make_source=functools.partial(_source, config),
        # Adam with default parameters (app. C.2), PyTorch's unless --optimizer
        make_optimizer=optimizer_factory(config),
        make_callbacks=functools.partial(_callbacks, model, scale),
        make_log_extras=functools.partial(_log_extras, model),
        steps=config["steps"],
    )


#: The sweep's worker entry point for a task's jobs:
#: `run_chunk_for(task, tensorboard=None)` -> (jobs -> rows).
run_chunk_for = functools.partial(
    engine_chunk,
    run_spec,
    extra_fields={"threshold_epsilon": THRESHOLD_EPSILON},
)


def jobs_for(args):
    presets = {"paper": PAPER_STEPS, "quick": QUICK_STEPS}
    steps = check_steps(args.max_steps or presets[args.preset][args.task])
    if args.task == "function":
        args.operation, args.input_size = "mul", 4
        args.subset_ratio = args.overlap_ratio = None
    jobs = []
    names = TRASK_MODELS if args.model == "trask" else args.model.split(",")
    for name in names:
        if name not in MODELS:
            raise SystemExit(f"Unknown model {name!r}: {sorted(MODELS)}.")
        for operation in args.operation.split(","):
            if operation not in OPERATIONS:
                raise SystemExit(f"Unknown operation {operation!r}: {OPERATIONS}.")
            config = {
                "task": args.task,
                "model": name,
                "operation": operation,
                "input_size": args.input_size,
                "subset_ratio": args.subset_ratio,
                "overlap_ratio": args.overlap_ratio,
                "interpolation_range": Range.parse(args.interpolation_range).to_text(),
                "extrapolation_range": Range.parse(args.extrapolation_range).to_text(),
                "preset": args.preset,
                "steps": steps,
                "optimizer": args.optimizer,
                "generator": args.generator,
            }
            if args.hidden_size != HIDDEN_SIZE:  # rows of the default lack it
                config["hidden_size"] = args.hidden_size
            jobs += [
                sweep.Job(tuple(sorted(config.items())), seed) for seed in args.seeds
            ]
    return jobs


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.arithmetic", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--task", choices=tuple(PAPER_STEPS), default="arithmetic")
    parser.add_argument(
        "--model", required=True, help="a model, an a,b list or trask (table 7's)"
    )
    parser.add_argument(
        "--operation", default="mul", help="an operation or a,b list (default mul)"
    )
    parser.add_argument("--interpolation-range", default="1,2")
    parser.add_argument("--extrapolation-range", default="2,6")
    parser.add_argument("--input-size", type=int, default=100)
    parser.add_argument(
        "--hidden-size",
        type=sweep.positive_int,
        default=HIDDEN_SIZE,
        help="units of the first layer (table 4: 2; Madsen figure 3 varies it)",
    )
    parser.add_argument("--subset-ratio", type=float, default=0.25)
    parser.add_argument("--overlap-ratio", type=float, default=0.5)
    add_optimizer_argument(parser)
    add_generator_argument(parser)
    sweep.add_common_arguments(parser, default_seeds="0-99")
    args = parser.parse_args(argv)
    run_chunk = run_chunk_for(args.task, tensorboard=args.tensorboard)
    sweep.run_from_args(jobs_for(args), run_chunk, args)
    return 0
