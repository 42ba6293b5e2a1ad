"""The units published after the survey that take arguments, as factories
for the Single Module task's `--module` (a unit of ours goes where a
user's would: `--module benchmarks.single_module.since_survey:NAME`).

The sign variants of MulMCFC (bmistry4/nalm-benchmark, `mcfc.py`); the
stochastic NMU and the MC-FC layers need none
(`keras_nalm.layers.nmu:StochasticNMU`, `keras_nalm.layers.mcfc:MCFC`,
`keras_nalm.layers.mcfc:MulMCFC`). `RESULTS.md` gives the commands.
"""

from keras_nalm import layers


def mul_mcfc_inalu_sign(units):
    """MulMCFC on |x|, the sign restored as the iNALU does."""
    return layers.MulMCFC(units, sign="inalu")


def mul_mcfc_real_npu_sign(units):
    """MulMCFC on |x|, the sign restored as the Real NPU does."""
    return layers.MulMCFC(units, sign="real_npu")
