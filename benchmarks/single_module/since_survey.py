"""The units published after the survey that take arguments, as factories
for the Single Module task's `--module` (a unit of ours goes where a
user's would: `--module benchmarks.single_module.since_survey:NAME`).

The sign variants of MulMCFC (bmistry4/nalm-benchmark, `mcfc.py`), the
modified Real NPU (bmistry4/nalm-division, `npu_real.py`) and the DMU in
float64, learned and with the oracle's operands (marict/nalm-benchmark,
`dag.py`); the
stochastic NMU and the MC-FC layers need none
(`keras_nalm.layers.nmu:StochasticNMU`, `keras_nalm.layers.mcfc:MCFC`,
`keras_nalm.layers.mcfc:MulMCFC`). `RESULTS.md` gives the commands.
"""

from keras_nalm import layers
from keras_nalm import regularizers


def mul_mcfc_inalu_sign(units):
    """MulMCFC on |x|, the sign restored as the iNALU does."""
    return layers.MulMCFC(units, sign="inalu")


def mul_mcfc_real_npu_sign(units):
    """MulMCFC on |x|, the sign restored as the Real NPU does."""
    return layers.MulMCFC(units, sign="real_npu")


def modified_real_npu(units):
    """The modified Real NPU of Mistry, Farrahi & Hare 2021: W clipped to
    [-1, 1] and g to [0, 1], mean(|1 - |W||) and mean(min(g, 1 - g))
    warmed up by `--regularizer-warmup 1,START,END`."""
    return layers.RealNPU(
        units,
        kernel_constraint="nau_clamp",
        gate_constraint="nmu_clamp",
        l1_regularizer=regularizers.UnitMagnitude(),
        gate_regularizer=regularizers.Sparsity(target="binary"),
        scale_variable="regularizer_scale",
    )


def dmu(units):
    """The DMU as its authors run it: float64, operands learned."""
    return layers.DMU(units, precision="float64")


def dmu_oracle_same(units):
    """The paper's DMU_add: operands fixed to (1, 1, 0, ...) (for addition
    and multiplication; the pattern is an oracle's), the gate learned."""
    return layers.DMU(units, operand_pattern=(1.0, 1.0), precision="float64")


def dmu_oracle_opposite(units):
    """The paper's DMU_sub: operands fixed to (1, -1, 0, ...) (for
    subtraction and division), the gate learned."""
    return layers.DMU(units, operand_pattern=(1.0, -1.0), precision="float64")
