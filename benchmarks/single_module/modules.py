"""The Single Module Task's modules and their protocols (Mistry et al. 2022,
tables 5-12), read by the command line before TensorFlow loads and by the
training, which builds them (`benchmarks.core.lazy`)."""

import dataclasses
import functools

from benchmarks.core.lazy import layer

OPERATIONS = ("add", "sub", "mul", "div")
PAPER_STEPS = 50_000
#: Mistry table 6: the NPU's beta range per operation.
NPU_BETA = {"mul": (1e-7, 1e-5), "div": (1e-9, 1e-7)}


# Callback factories: (operation, time scale, seed) -> callbacks.


def regularizer_warmup(max_strength, start=20_000, end=35_000):
    """Table 7: lambda from 0 to `max_strength` between steps 20 000 and 35 000
    (other `start`, `end`: the reference's schedules for more inputs)."""

    def callbacks(operation, scale, seed):
        from keras_nalm.callbacks import RegularizerWarmup

        return [RegularizerWarmup(int(start * scale), int(end * scale), max_strength)]

    return callbacks


def _beta_growth(operation, scale, seed):
    """Table 6: beta grows 10x every 10 000 steps."""
    from keras_nalm.callbacks import BetaGrowth

    start, end = NPU_BETA[operation]
    return [BetaGrowth(start, end, growth=10.0, step=int(10_000 * scale))]


def _inalu_callbacks(operation, scale, seed, reset_optimizer=True):
    """Table 8, monitoring the validation (interpolation) MSE as the
    reference does. The reference stores that MSE (refreshed every 1 000
    steps) at every step and checks every 10 steps once 5 000 are stored;
    here it is stored once per 1 000 steps, so 5 records stand for 5 000."""
    from keras_nalm import callbacks as C

    monitor = "interpolation_mse"
    return [
        C.INALUReinitializer(
            interval=1,
            max_stored=max(1, round(5 * scale)),
            monitor=monitor,
            seed=seed,
            reset_optimizer=reset_optimizer,
        ),
        C.INALURegularizerSwitch(min_step=int(10_000 * scale), monitor=monitor),
    ]


def _no_callbacks(operation, scale, seed):
    return []


def _adam(learning_rate=1e-3, clipvalue=None):
    """Table 5-8's Adam settings, as arguments of any of `arguments.OPTIMIZERS`."""
    return {"learning_rate": learning_rate, "clipvalue": clipvalue}


@dataclasses.dataclass(frozen=True)
class Module:
    """A module of the task: `layer()` a fresh layer with one output, the
    operations the survey runs it on, its optimizer's arguments, its
    callbacks' factory and its steps at the paper preset."""

    layer: object
    operations: tuple
    optimizer: dict = dataclasses.field(default_factory=_adam)
    callbacks: object = _no_callbacks
    paper_steps: int = PAPER_STEPS


LINEAR, POWER = ("add", "sub"), ("mul", "div")
#: The NPUs as the survey's code builds them when its benchmark script
#: names no option: W_re from Glorot uniform (`--npu-Wr-init
#: xavier-uniform`) and the gate's clip differentiated as `torch.clamp`
#: (no gradient outside [0, 1]), where the layers' own defaults are a
#: narrower W_re range and a straight-through gate.
SURVEY_NPU = {"kernel_initializer": "glorot_uniform", "gate_gradient": "clip"}
#: Table 6: Adam at 5e-3, beta growing 10x every 10 000 steps.
NPU_PROTOCOL = (_adam(5e-3), _beta_growth)
#: The survey's modules and the operations it runs each on (tables 9-12).
MODULES = {
    "nac": Module(layer("NAC", units=1), LINEAR),
    "nau": Module(layer("NAU", units=1), LINEAR, callbacks=regularizer_warmup(0.01)),
    "nac_mul": Module(layer("NACMul", units=1), POWER),
    "nmu": Module(layer("NMU", units=1), ("mul",), callbacks=regularizer_warmup(10.0)),
    "nalu": Module(layer("NALU", units=1), OPERATIONS),
    "gnalu": Module(layer("GoldenRatioNALU", units=1), OPERATIONS),
    "inalu": Module(
        layer("INALU", units=1), OPERATIONS, _adam(clipvalue=0.1), _inalu_callbacks
    ),
    "npu": Module(layer("NPU", units=1, **SURVEY_NPU), POWER, *NPU_PROTOCOL),
    "realnpu": Module(layer("RealNPU", units=1, **SURVEY_NPU), POWER, *NPU_PROTOCOL),
}
#: The reference's benchmark script (bmistry4/nalm-benchmark,
#: `single_layer_benchmark.sh`, the runs of the survey's figures 19-20)
#: trains the NAU with 10 or 100 inputs for 100 000 steps, lambda over
#: 50 000 -> 75 000; every other module keeps its input-size-2 protocol
#: (the iNALU of figure 18: 50 000 steps, as with 2 inputs).
MORE_INPUTS = {
    "nau": Module(
        layer("NAU", units=1),
        LINEAR,
        callbacks=regularizer_warmup(0.01, 50_000, 75_000),
        paper_steps=100_000,
    ),
}
#: Variants that test a hypothesis about a difference from the survey (not
#: in `--module all`). The NPUs: our layers' defaults (W_re from the
#: reference code's "xavier-uniform-constrained" range, a straight-through
#: gate), the benchmark's default before it took the survey's, and each of
#: the two apart, and that at Adam's default learning rate (1e-3, not table
#: 6's 5e-3): {name: (layer arguments, learning rate)}. The iNALU
#: re-initialized without zeroing Adam's moments, as the reference.
CONSTRAINED, STRAIGHT_THROUGH = "nau_uniform", "straight_through"
NPU_VARIANTS = {
    "constrained_straight_through": (
        {"kernel_initializer": CONSTRAINED, "gate_gradient": STRAIGHT_THROUGH},
        5e-3,
    ),
    "straight_through": ({**SURVEY_NPU, "gate_gradient": STRAIGHT_THROUGH}, 5e-3),
    "constrained": ({**SURVEY_NPU, "kernel_initializer": CONSTRAINED}, 5e-3),
    "constrained_straight_through_lr_1e-3": (
        {"kernel_initializer": CONSTRAINED, "gate_gradient": STRAIGHT_THROUGH},
        1e-3,
    ),
}
VARIANTS = {
    **{
        f"{name}_{variant}": Module(
            layer(class_name, units=1, **arguments),
            POWER,
            _adam(learning_rate),
            _beta_growth,
        )
        for name, class_name in (("npu", "NPU"), ("realnpu", "RealNPU"))
        for variant, (arguments, learning_rate) in NPU_VARIANTS.items()
    },
    "inalu_keep_adam": Module(
        layer("INALU", units=1),
        OPERATIONS,
        _adam(clipvalue=0.1),
        functools.partial(_inalu_callbacks, reset_optimizer=False),
    ),
}
