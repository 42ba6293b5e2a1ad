"""Regularizers of the arithmetic units (Madsen & Johansen 2020).

Weight regularizers (`Sparsity`, `OutOfBounds`) are ordinary Keras
regularizers. Passed as a layer's `sparsity_regularizer`, they are
multiplied by the layer's non-trainable variable `regularizer_scale`, so a
callback such as `keras_nalm.callbacks.RegularizerWarmup` can change their
strength while a jit-compiled `model.fit` runs (a Python float would be
frozen into the compiled step). The input regularizer R_z needs the layer's
input, so the layers add it themselves (argument `input_regularization`);
its formula is `input_penalty` below.
"""

import keras
from keras import ops

from keras_nalm._validation import check_choice
from keras_nalm._validation import check_non_negative_float
from keras_nalm.ops import absolute
from keras_nalm.saving import register_serializable

TARGETS = ("ternary", "binary")
SHAPES = ("linear", "squared")


@register_serializable
class Sparsity(keras.regularizers.Regularizer):
    """Sparsity regularizer R_sparse of the NAU and NMU.

    With `target="ternary"` (NAU, weights towards {-1, 0, 1}, Madsen eq. 6):

        linear:  strength * mean(min(|W|, |1 - |W||))
        squared: strength * mean(W^2 * (1 - |W|)^2)

    With `target="binary"` (NMU, weights towards {0, 1}, Madsen eq. 11):

        linear:  strength * mean(min(|W|, |1 - W|))
        squared: strength * mean(W^2 * (1 - W)^2)

    Inside the clamped range these equal eq. 6 and eq. 11; the absolute
    values keep the penalty non-negative outside it (Madsen app. C.3). The
    `squared` shape is the reference code's alternative.

    Args:
        strength: float >= 0 (default 1.0). As a layer's
            `sparsity_regularizer`, the penalty is further multiplied by the
            layer's `regularizer_scale` variable (lambda_sparse).
        target: `"ternary"` or `"binary"`.
        shape: `"linear"` (the paper's) or `"squared"`.

    Example:
    >>> layer = keras_nalm.layers.NAU(2, sparsity_regularizer=
    ...     keras_nalm.regularizers.Sparsity(target="ternary", shape="squared"))

    Reference:
    - [Madsen & Johansen, 2020](https://arxiv.org/abs/2001.05016), eq. 6
      and 11, app. C.3.
    """

    def __init__(self, strength=1.0, target="ternary", shape="linear"):
        check_choice("target", target, TARGETS)
        check_choice("shape", shape, SHAPES)
        self.strength = check_non_negative_float("strength", strength)
        self.target = target
        self.shape = shape

    def __call__(self, w):
        w = ops.convert_to_tensor(w)
        magnitude = absolute(w) if self.target == "ternary" else w
        if self.shape == "linear":
            penalty = ops.minimum(absolute(w), absolute(1.0 - magnitude))
        else:
            penalty = ops.square(w) * ops.square(1.0 - magnitude)
        return self.strength * ops.mean(penalty)

    def get_config(self):
        return {
            "strength": self.strength,
            "target": self.target,
            "shape": self.shape,
        }


@register_serializable
class OutOfBounds(keras.regularizers.Regularizer):
    """Penalty for weights outside `[min_value, max_value]`.

    `strength * mean(relu(W - max_value) + relu(min_value - W))`, the
    reference code's R_oob: mean(relu(|W| - 1)) for the NAU's [-1, 1] and
    mean(relu(|W - 1/2| - 1/2)) for the NMU's [0, 1]. Use it as a
    `kernel_regularizer` in place of clamping, with `kernel_constraint=None`
    (the units still clip W in their forward pass, as eq. 5 and 10 define).

    Args:
        strength: float >= 0 (default 1.0).
        min_value: float, the lower bound.
        max_value: float, the upper bound.

    Example:
    >>> bounds = keras_nalm.regularizers.OutOfBounds(min_value=-1.0, max_value=1.0)
    >>> layer = keras_nalm.layers.NAU(
    ...     2, kernel_constraint=None, kernel_regularizer=bounds)

    Reference:
    - [Madsen & Johansen, 2020](https://arxiv.org/abs/2001.05016), app. C.
    """

    def __init__(self, strength=1.0, min_value=-1.0, max_value=1.0):
        self.strength = check_non_negative_float("strength", strength)
        self.min_value = float(min_value)
        self.max_value = float(max_value)
        if not self.min_value < self.max_value:
            raise ValueError(
                "OutOfBounds needs min_value < max_value, received "
                f"{self.min_value} and {self.max_value}."
            )

    def __call__(self, w):
        w = ops.convert_to_tensor(w)
        excess = ops.relu(w - self.max_value) + ops.relu(self.min_value - w)
        return self.strength * ops.mean(excess)

    def get_config(self):
        return {
            "strength": self.strength,
            "min_value": self.min_value,
            "max_value": self.max_value,
        }


@register_serializable
class INALURegularizer(keras.regularizers.Regularizer):
    """The iNALU's penalty on near-zero parameters (Mistry eq. 10).

        strength * mean(max(threshold - |theta|, 0))

    summed over the iNALU's parameters (w_hat and m_hat of both paths and
    the gate). It keeps the parameters away from 0, where tanh and sigmoid
    leave W undecided. Mistry eq. 10 divides by t = threshold as well; the
    reference implementations (the iNALU authors' and nalm-benchmark) do
    not, and weigh it by 0.05: that is the default here, and
    `strength=0.05 / 20` gives the equation as printed.

    Args:
        strength: float >= 0 (default 0.05).
        threshold: float > 0, t (default 20).

    Example:
    >>> penalty = keras_nalm.regularizers.INALURegularizer(strength=0.05)
    >>> penalty(keras.ops.array([[0.5, -30.0]]))

    Reference:
    - [Schlör et al., 2020](https://arxiv.org/abs/2003.07629).
    - [Mistry et al., 2022](https://arxiv.org/abs/2111.05036), eq. 10.
    """

    def __init__(self, strength=0.05, threshold=20.0):
        self.strength = check_non_negative_float("strength", strength)
        self.threshold = check_non_negative_float("threshold", threshold)

    def __call__(self, w):
        w = ops.convert_to_tensor(w)
        return self.strength * ops.mean(ops.relu(self.threshold - absolute(w)))

    def get_config(self):
        return {"strength": self.strength, "threshold": self.threshold}


@register_serializable
class UnitMagnitude(keras.regularizers.Regularizer):
    """strength * mean(|1 - |W||): every weight's magnitude towards 1.

    The weight penalty of the modified Real NPU (Mistry, Farrahi & Hare
    2021), whose weights are exponents: +-1 multiply or divide by an input
    (its gate closes the inputs that take no part).

    Args:
        strength: float >= 0 (default 1.0).

    Example:
    >>> penalty = keras_nalm.regularizers.UnitMagnitude()

    Reference:
    - [Mistry, Farrahi & Hare, 2021](https://arxiv.org/abs/2110.05177);
      bmistry4/nalm-division, `stable_nalu/layer/npu_real.py`.
    """

    def __init__(self, strength=1.0):
        self.strength = check_non_negative_float("strength", strength)

    def __call__(self, x):
        return self.strength * ops.mean(absolute(1.0 - absolute(x)))

    def get_config(self):
        return {"strength": self.strength}


@register_serializable
class L1(keras.regularizers.Regularizer):
    """strength * sum(|W|), with the subgradient 0 at W = 0 on every backend.

    Keras's `keras.regularizers.L1` on the JAX backend differentiates |W|
    as 1 at W = 0 (TensorFlow, PyTorch and the NPU's reference code, in
    PyTorch, as 0). Under Adam even a tiny penalty then moves a weight
    held at exactly 0 by a full step: the NPU's imaginary weights start at
    0 and get no data gradient from positive inputs, and with Keras's L1
    on JAX they leave 0. This one gives the same values and, on
    TensorFlow and PyTorch, the same gradients as Keras's
    (`keras_nalm.ops.absolute`). The NPU's default (`"npu_l1"`).

    Args:
        strength: float >= 0 (default 1.0).

    Example:
    >>> penalty = keras_nalm.regularizers.L1(1.0)

    Reference:
    - [Heim et al., 2020](https://arxiv.org/abs/2006.01681) (the NPU's
      L1 penalty, scaled by beta).
    - [Mistry et al., 2022](https://arxiv.org/abs/2111.05036), §4.3.
    """

    def __init__(self, strength=1.0):
        self.strength = check_non_negative_float("strength", strength)

    def __call__(self, w):
        return self.strength * ops.sum(absolute(ops.convert_to_tensor(w)))

    def get_config(self):
        return {"strength": self.strength}


@register_serializable
class Concentration(keras.regularizers.Regularizer):
    """The MC-FC layers' regularizer: -strength * mean(W^2).

    Negative and unbounded below, it rewards large weights: the junction's
    logits towards a one-hot softmax (each input's mass to one output) and
    the output gate's towards saturation (Hoedt et al. 2021, as the
    NALM benchmark's `MCFullyConnected.regualizer`).

    Args:
        strength: float >= 0 (default 1.0).

    Example:
    >>> keras_nalm.layers.MCFC(1, regularizer_scale=10.0)

    Reference:
    - [Hoedt et al., 2021](https://arxiv.org/abs/2101.05186), MC-LSTM;
      bmistry4/nalm-benchmark, `stable_nalu/layer/mcfc.py`.
    """

    def __init__(self, strength=1.0):
        self.strength = check_non_negative_float("strength", strength)

    def __call__(self, x):
        return -self.strength * ops.mean(ops.square(x))

    def get_config(self):
        return {"strength": self.strength}


def input_penalty(kernel, input_mean, target):
    """The input regularizer R_z (Madsen §4.2 and app. D.2, eq. 75).

    `input_mean` is x̄, the mean of the unit's input over the batch (and,
    for a recurrent cell, over the time steps): one value per input.
    For `target="binary"` (NMU, identity 1): mean((1 - W) * (1 - x̄)^2).
    For `target="ternary"` (NAU, identity 0): mean((1 - |W|) * x̄^2).
    It pushes the inputs of unused weights towards the unit's identity, so
    that an input network cannot hide a factor in a half-open weight.
    """
    check_choice("target", target, TARGETS)
    input_mean = ops.expand_dims(input_mean, -1)
    if target == "binary":
        return ops.mean((1.0 - kernel) * ops.square(1.0 - input_mean))
    return ops.mean((1.0 - ops.abs(kernel)) * ops.square(input_mean))


class _ScaledPenalty(keras.regularizers.Regularizer):
    """`scale * scaled(w) [+ extra(w)]`, `scale` a layer's control variable.

    The penalty that NALM layers attach to a weight: the unit's own
    regularizer (sparsity, iNALU, L1), scaled by the layer's control
    variable, plus the user's ordinary `kernel_regularizer`, if any. It is
    not serialized: the layer's config holds the two regularizers, and the
    layer builds this again from them. A `Regularizer`, because Keras
    before 3.9 accepts nothing else as a weight's regularizer.
    """

    def __init__(self, scaled, scale, extra=None):
        self.scaled = scaled
        self.scale = scale
        self.extra = extra

    def __call__(self, w):
        penalty = self.scaled(w)
        penalty = ops.cast(self.scale, penalty.dtype) * penalty
        if self.extra is not None:
            penalty = penalty + self.extra(w)
        return penalty


def scaled_penalty(scaled, scale, extra=None):
    """The weight penalty `scale * scaled(w) + extra(w)` (`extra` optional),
    `scale` a variable read when the loss is computed."""
    return _ScaledPenalty(scaled, scale, extra)


_NAMED = {
    "nau_sparsity": lambda: Sparsity(target="ternary"),
    "nmu_sparsity": lambda: Sparsity(target="binary"),
    "nau_out_of_bounds": lambda: OutOfBounds(min_value=-1.0, max_value=1.0),
    "nmu_out_of_bounds": lambda: OutOfBounds(min_value=0.0, max_value=1.0),
    "inalu": INALURegularizer,
    "npu_l1": lambda: L1(1.0),
    "concentration": Concentration,
}


def get(identifier):
    """Resolves a regularizer: this package's names first, then Keras's.

    Names: `"nau_sparsity"`, `"nmu_sparsity"`, `"nau_out_of_bounds"`,
    `"nmu_out_of_bounds"`, `"inalu"` (`INALURegularizer()`), `"npu_l1"`
    (`L1(1.0)`, the NPU's L1 before its beta),
    `"concentration"` (`Concentration()`, the MC-FC layers'). Anything
    else (`None`, an instance, a config dict, a Keras name such as `"l2"`)
    goes to `keras.regularizers.get`.
    """
    if isinstance(identifier, str) and identifier in _NAMED:
        return _NAMED[identifier]()
    return keras.regularizers.get(identifier)
