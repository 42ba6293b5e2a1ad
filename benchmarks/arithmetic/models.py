"""The arithmetic dataset task's models (Madsen & Johansen 2020, table 4,
table 5, figures 3 and 7; Trask et al. 2018, app. B) and steps, read by the
command line before TensorFlow loads and by the runner, which builds them
(`benchmarks.core.lazy`)."""

import dataclasses

from benchmarks.core.lazy import layer
from benchmarks.core.lazy import lazy

#: The rows' tasks this folder runs (`benchmarks.registry`).
TASKS = ("arithmetic", "function", "trask_static")

#: Steps of the paper preset; regularizer schedules are given at this scale.
PAPER_STEPS = {"arithmetic": 5_000_000, "function": 200_000, "trask_static": 100_000}
QUICK_STEPS = {"arithmetic": 100_000, "function": 20_000, "trask_static": 10_000}
HIDDEN_SIZE = 2
THRESHOLD_EPSILON = 1e-5  # eq. 16
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
    "none",
)


@dataclasses.dataclass(frozen=True)
class Model:
    """Table 4: the two layers, each `(units) -> layer`, and the sparsity
    regularizer's schedule."""

    first: object
    second: object
    strength: float = None  # lambda-hat; None: no regularizer schedule
    warmup: tuple = None  # (lambda_start, lambda_end) in paper steps


def _dense(activation=None, use_bias=True, kernel_initializer="glorot_uniform"):
    return lazy(
        "keras.layers:Dense",
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


def _mlp_hidden(activation):
    """Trask app. B: one hidden layer (with bias) and a non-linearity
    (`"none"`: none)."""
    if activation == "crelu":
        return lazy("benchmarks.arithmetic.layers:crelu_dense")
    return lazy(
        "keras.layers:Dense", activation=None if activation == "none" else activation
    )


NMU_SCHEDULE = (10.0, (1_000_000, 2_000_000))
#: Madsen table 4, the gated NAU/NMU with the NMU's schedule (table 6), the
#: models of table 5 and figure 7, and Trask's MLP baselines (`mlp_*`:
#: Dense(2, activation) -> Dense(1), with biases).
MODELS = {
    "nmu": Model(layer("NAU"), layer("NMU"), *NMU_SCHEDULE),
    "nau": Model(layer("NAU"), layer("NAU"), 0.01, (5_000, 50_000)),
    "nac_mul": Model(layer("NAC"), layer("NACMul")),
    "nac_mul_sigmoid": Model(layer("NAC"), layer("NACMul", weight="sigmoid")),
    "nac_mul_nmu": Model(layer("NAC"), layer("NACMul", weight="linear"), *NMU_SCHEDULE),
    # Figure 3's NAC•,NMU: the reference's hidden-size script puts it after
    # an NAU (`--first-layer ReRegualizedLinearNAC`), where table 4 has a NAC+.
    "nau_nac_mul_nmu": Model(
        layer("NAU"), layer("NACMul", weight="linear"), *NMU_SCHEDULE
    ),
    "nac": Model(layer("NAC"), layer("NAC")),
    "nalu": Model(layer("NALU"), layer("NALU")),
    # Trask app. F, table 12: the NALU's multiplicative path in complex
    # logarithms, so that it multiplies negative values.
    "nalu_complex": Model(
        layer("NALU", multiplication="complex"),
        layer("NALU", multiplication="complex"),
    ),
    "gated_nau_nmu": Model(layer("GatedNAUNMU"), layer("GatedNAUNMU"), *NMU_SCHEDULE),
    # Table 6's gated model with the reference's float 1 - g (its flag).
    "gated_nau_nmu_subtracted_gate": Model(
        lazy("benchmarks.arithmetic.layers:SubtractedGateNAUNMU"),
        lazy("benchmarks.arithmetic.layers:SubtractedGateNAUNMU"),
        *NMU_SCHEDULE,
    ),
    # App. C.5, table 5 and figure 9: the gate of a NALU with shared or
    # separate weights after a NAC+, and the gated NAU/NMU after an NAU (the
    # reference's `function_task_static_nalu.sh`).
    "nac_nalu": Model(layer("NAC"), layer("NALU")),
    "nac_nalu_separate": Model(layer("NAC"), layer("NALU", shared_weights=False)),
    "nau_gated_nau_nmu": Model(layer("NAU"), layer("GatedNAUNMU"), *NMU_SCHEDULE),
    # App. C.3, figure 7: the NMU model without R_sparse (lambda-hat 0), without
    # clamping W after each step (the forward pass still clips; the
    # reference's `--oob-mode regualized --regualizer-oob 0`), and without both.
    "nmu_no_sparse": Model(layer("NAU"), layer("NMU")),
    "nmu_no_clamp": Model(
        layer("NAU", kernel_constraint=None),
        layer("NMU", kernel_constraint=None),
        *NMU_SCHEDULE,
    ),
    "nmu_no_sparse_no_clamp": Model(
        layer("NAU", kernel_constraint=None), layer("NMU", kernel_constraint=None)
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
        f"mlp_{activation}": Model(_mlp_hidden(activation), lazy("keras.layers:Dense"))
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
#: Trask et al. table 12's models (app. F): table 7's with the NALU of
#: imaginary activations (`--model trask_table12`).
TRASK_TABLE12_MODELS = (*TRASK_MODELS[:-1], "nalu_complex")
