"""The arithmetic units a search chooses from, read by the command line
before TensorFlow loads and by the hyper-model, which builds them."""

from benchmarks.core.lazy import layer

#: Madsen & Johansen (2020) table 4's two-layer models by unit: the hidden
#: layer and the output layer. The units in `hypermodels.REGULARIZED` carry the sparsity
#: regularizer whose warm-up (lambda_start, lambda_end, lambda-hat) is tuned.
ARITHMETIC_UNITS = {
    "nmu": (layer("NAU"), layer("NMU")),
    "nau": (layer("NAU"), layer("NAU")),
    "nac": (layer("NAC"), layer("NAC")),
    "nac_mul": (layer("NAC"), layer("NACMul")),
    "nalu": (layer("NALU"), layer("NALU")),
    "gated_nau_nmu": (layer("GatedNAUNMU"), layer("GatedNAUNMU")),
}
