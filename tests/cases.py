"""Every public layer and cell configuration as a `keras_nalm.testing`
case, with its independent NumPy reference (`tests/reference.py`)."""

import keras
import numpy as np

import keras_nalm
from keras_nalm.testing import LayerCase
from keras_nalm.testing import weights
from tests import reference as ref

L = keras_nalm.layers
R = keras_nalm.regularizers
I = keras_nalm.initializers  # noqa: E741


def _initializer(seed):
    return keras.initializers.RandomUniform(-0.3, 0.3, seed=seed)


# A non-default value for every constructor argument, per class.
_KERNEL_VALUES = {
    "kernel_initializer": _initializer(1),
    "kernel_regularizer": keras.regularizers.L2(0.1),
    "kernel_constraint": keras_nalm.constraints.Clamp(-2.0, 2.0),
}
_GATE_VALUES = {
    "use_gate_bias": True,
    "gate_initializer": _initializer(2),
    "gate_bias_initializer": keras.initializers.Constant(0.1),
    "gate_regularizer": keras.regularizers.L1(0.2),
}
CONFIG_VALUES = {
    L.NAU: {
        **_KERNEL_VALUES,
        "sparsity_regularizer": R.Sparsity(0.3, shape="squared"),
        "regularizer_scale": 0.25,
        "input_regularization": 0.5,
    },
    L.NAC: {**_KERNEL_VALUES, "input_regularization": 0.5},
    L.NACMul: {
        **_KERNEL_VALUES,
        "input_regularization": 0.5,
        "weight": "sigmoid",
        "epsilon": 1e-5,
        "sparsity_regularizer": R.Sparsity(0.3, target="binary"),
        "regularizer_scale": 0.25,
    },
    L.NALU: {
        **_KERNEL_VALUES,
        **_GATE_VALUES,
        "shared_weights": False,
        "multiplication": "complex",
        "epsilon": 1e-5,
    },
    L.GatedNAUNMU: {
        **{
            f"{unit}_{key}": value
            for unit in ("nau", "nmu")
            for key, value in {
                **_KERNEL_VALUES,
                "sparsity_regularizer": R.Sparsity(0.3, shape="squared"),
            }.items()
        },
        **_GATE_VALUES,
        "regularizer_scale": 0.25,
    },
    L.INALU: {
        "omega": 5.0,
        "epsilon": 1e-5,
        "w_hat_initializer": _initializer(3),
        "m_hat_initializer": _initializer(4),
        "gate_initializer": _initializer(5),
        "kernel_regularizer": keras.regularizers.L2(0.1),
        "inalu_regularizer": R.INALURegularizer(0.1, threshold=5.0),
        "regularizer_scale": 0.25,
    },
    L.NPU: {
        "epsilon": 1e-5,
        "gate_gradient": "clip",
        "kernel_constraint": keras_nalm.constraints.Clamp(-1.0, 1.0),
        "gate_constraint": keras_nalm.constraints.Clamp(0.0, 1.0),
        "gate_regularizer": R.Sparsity(target="binary"),
        "scale_variable": "regularizer_scale",
        "kernel_initializer": _initializer(6),
        "kernel_regularizer": keras.regularizers.L2(0.1),
        "l1_regularizer": keras.regularizers.L1(0.5),
        "regularizer_scale": 0.25,
    },
    L.NLRL: {
        "epsilon": 1e-5,
        "kernel_initializer": _initializer(7),
        "output_gate_initializer": keras.initializers.Constant(0.3),
        "kernel_regularizer": keras.regularizers.L2(0.1),
    },
    L.NSR: {
        "redundancy": 2,
        "scale": 0.5,
        "selector_initializer": _initializer(8),
        "bit_scale_initializer": _initializer(9),
    },
}
CONFIG_VALUES[L.NMU] = CONFIG_VALUES[L.NAU]
CONFIG_VALUES[L.StochasticNMU] = {
    **CONFIG_VALUES[L.NAU],
    "noise_range": [0.5, 2.0],
    "seed": 7,
}
CONFIG_VALUES[L.NeuralReciprocalUnit] = {
    **CONFIG_VALUES[L.NAU],
    "separate_sign": True,
    "epsilon": 1e-5,
}
CONFIG_VALUES[L.NMRU] = {
    **CONFIG_VALUES[L.NAU],
    "sign_retrieval": False,
    "gated": True,
    "evaluation_epsilon": 1e-5,
}
CONFIG_VALUES[L.MCFC] = {
    "junction_initializer": _initializer(6),
    "gate_initializer": _initializer(7),
    "gate_bias_initializer": keras.initializers.Constant(0.1),
    "concentration_regularizer": R.Concentration(0.5),
    "regularizer_scale": 0.25,
}
CONFIG_VALUES[L.MulMCFC] = {
    **CONFIG_VALUES[L.MCFC],
    "sign": "inalu",
    "bias_initializer": keras.initializers.Constant(0.2),
    "sign_gate_initializer": keras.initializers.Constant(0.3),
    "sign_gate_regularizer": R.Sparsity(target="binary"),
    "epsilon": 1e-5,
}
CONFIG_VALUES[L.GoldenRatioNALU] = CONFIG_VALUES[L.NALU]
CONFIG_VALUES[L.DMU] = {
    "operand_pattern": [1.0, -1.0],
    "magnitude_limits": [1e-9, 1e5],
    "evaluation_magnitude_limits": [1e-15, 1e15],
    "sign_scale": 1e-3,
    "smoothing": 1e-6,
    "layer_norm_epsilon": 1e-3,
    "head_initializer": _initializer(8),
    "head_bias_initializer": keras.initializers.Constant(0.1),
    "precision": "float32",
}
CONFIG_VALUES[L.RealNPU] = CONFIG_VALUES[L.NPU]


def _nac_mul_weight(layer):
    w = weights(layer)
    if layer.weight == "nac":
        return ref.nac_weight(w["w_hat"], w["m_hat"])
    if layer.weight == "sigmoid":
        return ref.sigmoid(w["w_hat"])
    return np.clip(w["kernel"], 0, 1)


def _nalu_reference(layer, x):
    w = weights(layer)
    w_add = ref.nac_weight(w["w_hat"], w["m_hat"])
    w_mul = w_add
    if not layer.shared_weights:
        w_mul = ref.nac_weight(w["w_hat_mul"], w["m_hat_mul"])
    if layer.multiplication == "complex":
        mul = ref.complex_mul(x, w_mul, layer.epsilon)
    else:
        mul = ref.nac_mul(x, w_mul, layer.epsilon)
    return ref.gated(x, w["gate_kernel"], w.get("gate_bias"), x @ w_add, mul)


def _gnalu_reference(layer, x):
    w = weights(layer)
    weight = ref.golden_tanh(w["w_hat"]) * ref.golden_sigmoid(w["m_hat"])
    if layer.multiplication == "complex":
        mul = ref.complex_mul(x, weight, layer.epsilon)
    else:
        mul = ref.golden_mul(x, weight, layer.epsilon)
    logits = x @ w["gate_kernel"] + w.get("gate_bias", 0.0)
    g = ref.golden_sigmoid(logits)
    return g * (x @ weight) + (1 - g) * mul


def _gated_reference(layer, x):
    w = weights(layer)
    return ref.gated(
        x,
        w["gate_kernel"],
        w.get("gate_bias"),
        ref.nau(x, w["nau_kernel"]),
        ref.nmu(x, w["nmu_kernel"]),
    )


def _inalu_reference(layer, x):
    w = weights(layer)
    names = ("w_hat_add", "m_hat_add", "w_hat_mul", "m_hat_mul", "gate")
    return ref.inalu(x, *(w[name] for name in names), layer.omega, layer.epsilon)


def _npu_reference(layer, x):
    w = weights(layer)
    w_imag = w.get("w_imag", np.zeros_like(w["w_real"]))
    return ref.npu(x, w["w_real"], w_imag, w["gate"], layer.epsilon)


def _nlrl_reference(layer, x):
    w = weights(layer)
    return ref.nlrl(x, w["negation_gate"], w["kernel"], w["output_gate"], layer.epsilon)


def _nsr_reference(layer, x):
    w = weights(layer)
    names = ("v_op1", "v_op2", "sign_scale", "zero_scale", "shift")
    return ref.nsr(x, *(w[name] for name in names), layer.scale)


def _counts(trainable, non_trainable, losses, training_losses=None):
    """The harness's expected weight and loss counts."""
    return dict(
        trainable_weights=trainable,
        non_trainable_weights=non_trainable,
        losses=losses,
        training_losses=training_losses,
    )


DMU_SATURATION = {"saturation_training": True, "saturating_weights": (1.0, 2.0)}


def _case(name, cls, reference, counts, kwargs=None, **options):
    return LayerCase(
        name,
        cls,
        reference,
        init_kwargs=kwargs or {},
        config_values=CONFIG_VALUES[cls],
        **_counts(*counts),
        **options,
    )


def _nau_reference(layer, x):
    return ref.nau(x, weights(layer)["kernel"])


def _nmu_reference(layer, x):
    return ref.nmu(x, weights(layer)["kernel"])


def _dmu_reference(layer, x):
    pattern = layer.operand_pattern
    return ref.dmu(
        x, weights(layer), layer.units, pattern, layer.evaluation_magnitude_limits
    )


def _mcfc_reference(layer, x):
    w = weights(layer)
    return ref.mcfc(x, w["junction"], w["gate_kernel"], w["gate_bias"])


def _mul_mcfc_reference(layer, x):
    w = weights(layer)
    names = ("junction", "gate_kernel", "gate_bias", "bias")
    arguments = [w[name] for name in names]
    sign_gate = w.get("sign_gate")
    return ref.mul_mcfc(x, *arguments, layer.sign, sign_gate, layer.epsilon)


def _reciprocal_reference(layer, x):
    kernel = weights(layer)["kernel"]
    return ref.reciprocal_unit(x, kernel, False, layer.separate_sign, layer.epsilon)


def _nmru_reference(layer, x):
    w = weights(layer)
    return ref.nmru(
        x, w["kernel"], layer.evaluation_epsilon, layer.sign_retrieval, w.get("gate")
    )


def _nac_reference(layer, x):
    w = weights(layer)
    return x @ ref.nac_weight(w["w_hat"], w["m_hat"])


def _nac_mul_reference(layer, x):
    return ref.nac_mul(x, _nac_mul_weight(layer), layer.epsilon)


INPUT_REGULARIZATION = {"input_regularization": 0.5}
# (name, class, reference, (trainable, non-trainable, losses[, training
# losses]) weights and losses, constructor arguments)
LAYER_CASES = [
    _case("NAU", L.NAU, _nau_reference, (1, 1, 1)),
    _case("NAU-input-reg", L.NAU, _nau_reference, (1, 2, 1, 2), INPUT_REGULARIZATION),
    _case("NMU", L.NMU, _nmu_reference, (1, 1, 1)),
    _case("NMU-input-reg", L.NMU, _nmu_reference, (1, 2, 1, 2), INPUT_REGULARIZATION),
    # evaluation: the NMU (training calls: tests/test_newer_units.py)
    _case("StochasticNMU", L.StochasticNMU, _nmu_reference, (1, 1, 1)),
    _case(
        "StochasticNMU-batch",
        L.StochasticNMU,
        _nmu_reference,
        (1, 1, 1),
        {"noise_range": "batch"},
    ),
    # a zero input has an infinite reciprocal: the cases add an epsilon
    # (training calls: tests/test_newer_units.py)
    _case(
        "NeuralReciprocalUnit",
        L.NeuralReciprocalUnit,
        _reciprocal_reference,
        (1, 1, 1),
        {"epsilon": 1e-7},
    ),
    _case(
        "NeuralReciprocalUnit-separate-sign",
        L.NeuralReciprocalUnit,
        _reciprocal_reference,
        (1, 1, 1),
        {"epsilon": 1e-7, "separate_sign": True},
    ),
    _case("NMRU", L.NMRU, _nmru_reference, (1, 1, 1), {"evaluation_epsilon": 1e-7}),
    _case(
        "NMRU-plain",
        L.NMRU,
        _nmru_reference,
        (1, 1, 1),
        {"evaluation_epsilon": 1e-7, "sign_retrieval": False},
    ),
    _case(
        "NMRU-gated",
        L.NMRU,
        _nmru_reference,
        (2, 1, 1),
        {"evaluation_epsilon": 1e-7, "gated": True},
    ),
    _case("MCFC", L.MCFC, _mcfc_reference, (3, 1, 3)),
    # the DMU's inference hardens its plan: gradients in training calls only;
    # weights of 1-2 saturate its gate (logits up to ~50) where float32 holds
    # the gradient (at 10-20, sigmoid' of logits ~150 is below its range)
    _case("DMU", L.DMU, _dmu_reference, (8, 0, 0), **DMU_SATURATION),
    _case(
        "DMU-oracle",
        L.DMU,
        _dmu_reference,
        (4, 0, 0),
        {"operand_pattern": (1, -1)},
        **DMU_SATURATION,
    ),
    # sign="none" takes logarithms of the inputs: tests/test_newer_units.py
    _case(
        "MulMCFC-inalu",
        L.MulMCFC,
        _mul_mcfc_reference,
        (4, 1, 3),
        {"sign": "inalu", "epsilon": 1e-7},
    ),
    _case(
        "MulMCFC-real_npu",
        L.MulMCFC,
        _mul_mcfc_reference,
        (5, 1, 3),
        {"sign": "real_npu", "epsilon": 1e-7},
    ),
    _case("NAC", L.NAC, _nac_reference, (2, 0, 0)),
    _case("NAC-input-reg", L.NAC, _nac_reference, (2, 1, 0, 1), INPUT_REGULARIZATION),
    _case("NACMul-nac", L.NACMul, _nac_mul_reference, (2, 1, 0), {"weight": "nac"}),
    _case(
        "NACMul-sigmoid", L.NACMul, _nac_mul_reference, (1, 1, 0), {"weight": "sigmoid"}
    ),
    _case(
        "NACMul-linear", L.NACMul, _nac_mul_reference, (1, 1, 1), {"weight": "linear"}
    ),
    _case(
        "NACMul-linear-input-reg",
        L.NACMul,
        _nac_mul_reference,
        (1, 2, 1, 2),
        {"weight": "linear", **INPUT_REGULARIZATION},
    ),
]
for _shared in (True, False):
    for _mult in ("log", "complex"):
        for _bias in (False, True):
            LAYER_CASES.append(
                _case(
                    f"NALU-{'shared' if _shared else 'separate'}-{_mult}"
                    f"{'-bias' if _bias else ''}",
                    L.NALU,
                    _nalu_reference,
                    (3 + 2 * (not _shared) + _bias, 0, 0),
                    {
                        "shared_weights": _shared,
                        "multiplication": _mult,
                        "use_gate_bias": _bias,
                    },
                )
            )
GATE_BIAS = {"use_gate_bias": True}
LAYER_CASES += [
    _case("GatedNAUNMU", L.GatedNAUNMU, _gated_reference, (3, 1, 2)),
    _case("GatedNAUNMU-bias", L.GatedNAUNMU, _gated_reference, (4, 1, 2), GATE_BIAS),
    _case("GoldenRatioNALU", L.GoldenRatioNALU, _gnalu_reference, (3, 0, 0)),
    _case(
        "GoldenRatioNALU-complex-bias",
        L.GoldenRatioNALU,
        _gnalu_reference,
        (4, 0, 0),
        {"multiplication": "complex", **GATE_BIAS},
    ),
    _case("INALU", L.INALU, _inalu_reference, (5, 1, 5)),
    _case(
        "INALU-omega",
        L.INALU,
        _inalu_reference,
        (5, 1, 5),
        {"omega": 2.0, "epsilon": 1e-3},
    ),
    _case("NPU", L.NPU, _npu_reference, (3, 1, 3)),
    _case("NPU-clip", L.NPU, _npu_reference, (3, 1, 3), {"gate_gradient": "clip"}),
    _case("RealNPU", L.RealNPU, _npu_reference, (2, 1, 2)),
    _case(
        "RealNPU-modified",
        L.RealNPU,
        _npu_reference,
        (2, 1, 2),
        {
            "kernel_constraint": "nau_clamp",
            "gate_constraint": "nmu_clamp",
            "l1_regularizer": R.UnitMagnitude(),
            "gate_regularizer": R.Sparsity(target="binary"),
            "scale_variable": "regularizer_scale",
        },
    ),
    _case("NLRL", L.NLRL, _nlrl_reference, (3, 0, 0)),
    _case("NSR", L.NSR, _nsr_reference, (5, 0, 0)),
    _case(
        "NSR-redundant",
        L.NSR,
        _nsr_reference,
        (5, 0, 0),
        {"redundancy": 3, "scale": 0.5},
    ),
]


#: The units `ArithmeticCell` wraps (Madsen §4.2, Trask app. B): every
#: unit whose output is its state, in all its configurations above.
CELL_UNITS = (
    L.NAU,
    L.NMU,
    L.NAC,
    L.NACMul,
    L.NALU,
    L.GoldenRatioNALU,
    L.INALU,
    L.GatedNAUNMU,
    L.NPU,
    L.RealNPU,
)


#: Weights small enough that a log-space product of the state stays finite
#: over the harness's sequences (|h_t| grows like |h_{t-1}|^(sum of |W|)).
CELL_WEIGHT_SCALES = {L.NALU: 0.3, L.GoldenRatioNALU: 0.3}


def _cell_case(layer_case, suffix="", **cell_kwargs):
    """The layer case's unit as an `ArithmeticCell`: h_t = unit([x_t, h_{t-1}])
    (`cell_kwargs`: the cell's own arguments)."""
    unit_class, unit_reference = layer_case.layer_class, layer_case.reference

    def make(units, **kwargs):
        unit = unit_class(units, **layer_case.init_kwargs)
        return L.ArithmeticCell(unit, **{**cell_kwargs, **kwargs})

    def step(cell, x, states):
        output = unit_reference(cell.unit, np.concatenate([x, states[0]], axis=-1))
        return output, [output, *states[1:]]

    learned = bool(cell_kwargs.get("learn_initial_state"))
    return LayerCase(
        f"ArithmeticCell-{layer_case.name}{suffix}",
        L.ArithmeticCell,
        step,
        make=make,
        recurrent=True,
        derived_arguments=("units",),
        config_values={"initial_value": 0.5, "learn_initial_state": not learned},
        weight_scale=CELL_WEIGHT_SCALES.get(unit_class, 1.1),
        trainable_weights=layer_case.trainable_weights + learned,
        non_trainable_weights=layer_case.non_trainable_weights,
        losses=layer_case.losses,
        training_losses=layer_case.training_losses,
    )


def _nru_reference(cell, x, states):
    h, m = ref.nru_step(
        weights(cell),
        x,
        *states,
        cell.num_heads,
        cell.head_inputs,
        cell.head_reduction,
        cell.head_relu,
        cell.layer_norm,
        cell.normalization_order,
        cell.direction_overflow,
        cell.layer_norm_epsilon,
    )
    return h, [h, m]


NRU_CONFIG_VALUES = {
    "memory_size": 9,
    "num_heads": 1,
    "head_inputs": "input_hidden_memory",
    "head_reduction": "sum",
    "head_relu": True,
    "layer_norm": True,
    "layer_norm_epsilon": 1e-3,
    "normalization_order": 2.0,
    "direction_overflow": "normalize",
    "kernel_initializer": _initializer(3),
    "bias_initializer": keras.initializers.Constant(0.1),
    "kernel_regularizer": keras.regularizers.L2(0.1),
    "bias_regularizer": keras.regularizers.L1(0.2),
}


def _nru_case(name, layer_norm=False, **kwargs):
    """An NRU cell of 8 units, memory 16 and 4 heads (directions of size 8;
    with 3 units the ReLU state is often dead for every example)."""
    kwargs = {"memory_size": 16, "num_heads": 4, "layer_norm": layer_norm, **kwargs}
    return LayerCase(
        f"NRUCell-{name}",
        L.NRUCell,
        _nru_reference,
        init_kwargs=kwargs,
        recurrent=True,
        trainable_weights=4 + 2 * layer_norm,
        non_trainable_weights=0,
        losses=0,
        config_values=NRU_CONFIG_VALUES,
        units=8,
        weight_scale=0.5,
    )


NRU_CASES = [
    _nru_case("code"),  # the authors' code: heads read [h, m], mean over heads
    _nru_case(
        "paper", head_inputs="input_hidden_memory", head_reduction="sum"
    ),  # eq. 10-16
    _nru_case("relu-layer-norm", layer_norm=True, head_relu=True),
    # k = 4 does not divide sqrt(k m) = 6: the directions are formed
    _nru_case("heads-across-rows", memory_size=9, head_relu=True),
]


def _janet_reference(cell, x, states):
    h = ref.janet_step(weights(cell), x, states[0], cell.beta)
    return h, [h]


def _ugrnn_reference(cell, x, states):
    h = ref.ugrnn_step(weights(cell), x, states[0])
    return h, [h]


_ACTIVATIONS = {"relu": lambda z: np.maximum(z, 0.0), "tanh": np.tanh}


def _normalized_rnn_reference(cell, x, states):
    h = ref.normalized_rnn_step(
        weights(cell),
        x,
        states[0],
        _ACTIVATIONS[keras.activations.serialize(cell.activation)],
        cell.layer_norm,
    )
    return h, [h]


_BASELINE_CONFIG_VALUES = {
    "kernel_initializer": _initializer(4),
    "recurrent_initializer": keras.initializers.Identity(0.5),
    "bias_initializer": keras.initializers.Constant(0.1),
    "kernel_regularizer": keras.regularizers.L2(0.1),
    "recurrent_regularizer": keras.regularizers.L2(0.3),
    "bias_regularizer": keras.regularizers.L1(0.2),
}


def _baseline_case(name, layer_class, reference, trainable, config_values, **kwargs):
    return LayerCase(
        name,
        layer_class,
        reference,
        init_kwargs=kwargs,
        recurrent=True,
        trainable_weights=trainable,
        non_trainable_weights=0,
        losses=0,
        config_values={**_BASELINE_CONFIG_VALUES, **config_values},
        units=5,
        weight_scale=0.8,
    )


BASELINE_CASES = [
    _baseline_case(
        "JANETCell-chrono",
        keras_nalm.layers.JANETCell,
        _janet_reference,
        3,
        {"beta": 2.0, "bias_initializer": keras_nalm.initializers.ChronoBias(50, "fc")},
        bias_initializer=keras_nalm.initializers.ChronoBias(30, "fc", seed=2),
    ),
    _baseline_case("UGRNNCell", keras_nalm.layers.UGRNNCell, _ugrnn_reference, 3, {}),
    _baseline_case(
        "NormalizedRNNCell-id",
        keras_nalm.layers.NormalizedRNNCell,
        _normalized_rnn_reference,
        5,
        {"activation": "tanh", "layer_norm": False},
        recurrent_initializer="identity",
    ),
    _baseline_case(
        "NormalizedRNNCell-tanh-plain",
        keras_nalm.layers.NormalizedRNNCell,
        _normalized_rnn_reference,
        3,
        {"activation": "relu", "layer_norm": True},
        activation="tanh",
        layer_norm=False,
    ),
]


def _sru_reference(cell, x, states):
    output, mu = ref.sru_step(weights(cell), x, states[1], cell.alphas)
    return output, [output, mu]


def _eurnn_reference(cell, x, states):
    h = ref.eurnn_step(weights(cell), x, states[0])
    return h, [h]


def _goru_reference(cell, x, states):
    h = ref.goru_step(weights(cell), x, states[0])
    return h, [h]


_ORTHOGONAL_CONFIG_VALUES = {
    "kernel_initializer": _initializer(4),
    "theta_initializer": _initializer(5),
    "bias_initializer": keras.initializers.Constant(0.1),
    "kernel_regularizer": keras.regularizers.L2(0.1),
    "bias_regularizer": keras.regularizers.L1(0.2),
}


def _orthogonal_case(name, layer_class, reference, trainable, units, **config):
    return LayerCase(
        name,
        layer_class,
        reference,
        recurrent=True,
        trainable_weights=trainable,
        non_trainable_weights=0,
        losses=0,
        config_values={**_ORTHOGONAL_CONFIG_VALUES, **config},
        units=units,
        weight_scale=0.8,
        serving_rtol=1e-5,  # the rotations' products and sums may fuse
    )


#: The NRU paper's other baselines (Chandar et al. 2019): 5 units are three
#: FFT-like layers with unpaired units, 8 a full power of two.
SRU_AND_ORTHOGONAL_CASES = [
    LayerCase(
        "SRUCell",
        keras_nalm.layers.SRUCell,
        _sru_reference,
        init_kwargs={"statistics": 3, "recurrent_units": 2, "alphas": (0.0, 0.5, 0.9)},
        recurrent=True,
        trainable_weights=6,
        non_trainable_weights=0,
        losses=0,
        config_values={
            "statistics": 4,
            "recurrent_units": 3,
            "alphas": [0.25, 0.99],
            "kernel_initializer": _initializer(4),
            "bias_initializer": keras.initializers.Constant(0.1),
            "kernel_regularizer": keras.regularizers.L2(0.1),
            "bias_regularizer": keras.regularizers.L1(0.2),
        },
        units=4,
        weight_scale=0.8,
    ),
    _orthogonal_case("EURNNCell", keras_nalm.layers.EURNNCell, _eurnn_reference, 3, 5),
    _orthogonal_case(
        "EURNNCell-8", keras_nalm.layers.EURNNCell, _eurnn_reference, 3, 8
    ),
    _orthogonal_case(
        "GORUCell",
        keras_nalm.layers.GORUCell,
        _goru_reference,
        4,
        5,
        recurrent_initializer=keras.initializers.Identity(0.5),
        recurrent_regularizer=keras.regularizers.L2(0.3),
    ),
]


def _dnc_reference(cell, x, states):
    return ref.dnc_step(
        weights(cell), x, states, cell.memory_slots, cell.word_size, cell.read_heads
    )


DNC_CASE = LayerCase(
    "DNCCell",
    keras_nalm.layers.DNCCell,
    _dnc_reference,
    init_kwargs={"memory_slots": 5, "word_size": 3, "read_heads": 2},
    recurrent=True,
    trainable_weights=5,
    non_trainable_weights=0,
    losses=0,
    config_values={
        "memory_slots": 6,
        "word_size": 2,
        "read_heads": 3,
        "kernel_initializer": _initializer(4),
        "recurrent_initializer": keras.initializers.Identity(0.5),
        "bias_initializer": keras.initializers.Constant(0.1),
        "interface_initializer": _initializer(5),
    },
    units=4,
    weight_scale=0.8,
    serving_rtol=1e-5,  # the exported step equals the eager one exactly
)

#: The recurrent baselines of the NRU paper and of Trask et al.'s program
#: evaluation.
COMPARISON_CASES = BASELINE_CASES + SRU_AND_ORTHOGONAL_CASES + [DNC_CASE]
CELL_CASES = (
    [_cell_case(case) for case in LAYER_CASES if case.layer_class in CELL_UNITS]
    # the initial state a trainable weight, drawn as the others: the
    # reference reads it through `get_initial_state`
    + [_cell_case(LAYER_CASES[0], "-learned-initial-state", learn_initial_state=True)]
    + NRU_CASES
    + COMPARISON_CASES
)

ALL_CASES = LAYER_CASES + CELL_CASES
CASE_IDS = [case.name for case in LAYER_CASES]


def wrapped_unit(case):
    """The unit class an `ArithmeticCell` case wraps (None for others)."""
    return type(getattr(case.create(), "unit", None)) if case.recurrent else None


def wraps_with_defaults(case):
    """Whether a case is a cell of the default arguments around a unit (its
    variants then differ only by the unit's configuration); False for
    cases that wrap no unit."""
    cell = case.create()
    if not (case.recurrent and hasattr(cell, "unit")):
        return False
    default = type(cell)(cell.unit, name=cell.name).get_config()
    return cell.get_config() == default


def first_of_each_class(cases):
    """The first case of each layer class."""
    firsts = {}
    for case in cases:
        firsts.setdefault(case.layer_class, case)
    return list(firsts.values())
