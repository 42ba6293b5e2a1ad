"""Every public layer configuration, with its independent NumPy reference."""

import numpy as np

import keras_nalm
from tests import reference as ref

L = keras_nalm.layers


def weights_of(layer):
    return {v.name: np.asarray(v.numpy(), dtype=np.float64) for v in layer.weights}


def _nalu_reference(layer, x):
    w = weights_of(layer)
    w_add = ref.nac_weight(w["w_hat"], w["m_hat"])
    w_mul = w_add
    if not layer.shared_weights:
        w_mul = ref.nac_weight(w["w_hat_mul"], w["m_hat_mul"])
    if layer.multiplication == "complex":
        mul = ref.complex_mul(x, w_mul, layer.epsilon)
    else:
        mul = ref.nac_mul(x, w_mul, layer.epsilon)
    return ref.gated(x, w["gate_kernel"], w.get("gate_bias"), x @ w_add, mul)


def _nac_mul_weight(layer):
    w = weights_of(layer)
    if layer.weight_mode == "nac":
        return ref.nac_weight(w["w_hat"], w["m_hat"])
    if layer.weight_mode == "sigmoid":
        return ref.sigmoid(w["w_hat"])
    return np.clip(w["kernel"], 0, 1)


def _gated_reference(layer, x):
    w = weights_of(layer)
    return ref.gated(
        x,
        w["gate_kernel"],
        w.get("gate_bias"),
        ref.nau(x, w["nau_kernel"]),
        ref.nmu(x, w["nmu_kernel"]),
    )


# (id, layer class, constructor kwargs, reference(layer, x) -> y)
LAYER_CASES = [
    ("NAU", L.NAU, {}, lambda layer, x: ref.nau(x, weights_of(layer)["kernel"])),
    (
        "NAU-input-reg",
        L.NAU,
        {"input_regularization": 0.5},
        lambda layer, x: ref.nau(x, weights_of(layer)["kernel"]),
    ),
    ("NMU", L.NMU, {}, lambda layer, x: ref.nmu(x, weights_of(layer)["kernel"])),
    (
        "NMU-input-reg",
        L.NMU,
        {"input_regularization": 0.5},
        lambda layer, x: ref.nmu(x, weights_of(layer)["kernel"]),
    ),
    (
        "NAC",
        L.NAC,
        {},
        lambda layer, x: (
            x @ ref.nac_weight(weights_of(layer)["w_hat"], weights_of(layer)["m_hat"])
        ),
    ),
]
for _mode in ("nac", "sigmoid", "linear"):
    LAYER_CASES.append(
        (
            f"NACMul-{_mode}",
            L.NACMul,
            {"weight": _mode},
            lambda layer, x: ref.nac_mul(x, _nac_mul_weight(layer), layer.epsilon),
        )
    )
for _shared in (True, False):
    for _mult in ("log", "complex"):
        for _bias in (False, True):
            LAYER_CASES.append(
                (
                    f"NALU-{'shared' if _shared else 'separate'}-{_mult}"
                    f"{'-bias' if _bias else ''}",
                    L.NALU,
                    {
                        "shared_weights": _shared,
                        "multiplication": _mult,
                        "use_gate_bias": _bias,
                    },
                    _nalu_reference,
                )
            )
LAYER_CASES += [
    ("GatedNAUNMU", L.GatedNAUNMU, {}, _gated_reference),
    ("GatedNAUNMU-bias", L.GatedNAUNMU, {"use_gate_bias": True}, _gated_reference),
]


def _gnalu_reference(layer, x):
    w = weights_of(layer)
    weight = ref.golden_tanh(w["w_hat"]) * ref.golden_sigmoid(w["m_hat"])
    if layer.multiplication == "complex":
        mul = ref.complex_mul(x, weight, layer.epsilon)
    else:
        mul = ref.golden_mul(x, weight, layer.epsilon)
    logits = x @ w["gate_kernel"] + w.get("gate_bias", 0.0)
    g = ref.golden_sigmoid(logits)
    return g * (x @ weight) + (1 - g) * mul


def _inalu_reference(layer, x):
    w = weights_of(layer)
    return ref.inalu(
        x,
        w["w_hat_add"],
        w["m_hat_add"],
        w["w_hat_mul"],
        w["m_hat_mul"],
        w["gate"],
        layer.omega,
        layer.epsilon,
    )


def _npu_reference(layer, x):
    w = weights_of(layer)
    w_imag = w.get("w_imag", np.zeros_like(w["w_real"]))
    return ref.npu(x, w["w_real"], w_imag, w["gate"], layer.epsilon)


def _nlrl_reference(layer, x):
    w = weights_of(layer)
    return ref.nlrl(x, w["negation_gate"], w["kernel"], w["output_gate"], layer.epsilon)


def _nsr_reference(layer, x):
    w = weights_of(layer)
    return ref.nsr(
        x,
        w["v_op1"],
        w["v_op2"],
        w["sign_scale"],
        w["zero_scale"],
        w["shift"],
        layer.scale,
    )


LAYER_CASES += [
    ("GNALU", L.GNALU, {}, _gnalu_reference),
    (
        "GNALU-complex-bias",
        L.GNALU,
        {"multiplication": "complex", "use_gate_bias": True},
        _gnalu_reference,
    ),
    ("INALU", L.INALU, {}, _inalu_reference),
    ("INALU-omega", L.INALU, {"omega": 2.0, "epsilon": 1e-3}, _inalu_reference),
    ("NPU", L.NPU, {}, _npu_reference),
    ("NPU-clip", L.NPU, {"gate_gradient": "clip"}, _npu_reference),
    ("RealNPU", L.RealNPU, {}, _npu_reference),
    ("NLRL", L.NLRL, {}, _nlrl_reference),
    ("NSR", L.NSR, {}, _nsr_reference),
    ("NSR-redundant", L.NSR, {"redundancy": 3, "scale": 0.5}, _nsr_reference),
]

CASE_IDS = [case[0] for case in LAYER_CASES]


def perturb_weights(layer, rng, scale=1.5):
    """Sets every trainable weight to U[-scale, scale]: some entries land
    outside the clamp ranges, so clipping in `call` is exercised too."""
    for variable in layer.trainable_weights:
        variable.assign(
            rng.uniform(-scale, scale, size=variable.shape).astype("float32")
        )


def awkward_inputs(rng, input_dim=4, batch=64):
    """Zeros, negatives, and values 20x outside the U[1, 2] training range."""
    x = rng.uniform(-40, 40, size=(batch, input_dim))
    x[:8] = 0.0
    x[8:16, 0] = 0.0
    x[16:24] = -rng.uniform(1, 2, size=(8, input_dim))
    x[24:32] = rng.uniform(20, 40, size=(8, input_dim))
    return x.astype("float32")
