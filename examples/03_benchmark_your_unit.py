"""Put a unit of your own through the Single Module Task and compare it with
the survey's modules (Mistry et al. 2022), as a researcher with a new unit
would.

    python examples/03_benchmark_your_unit.py [--seeds 0-4] [--output FILE]

The unit below is a plain `keras.layers.Layer`, defined here and not in
keras_nalm: a multiplicative unit y = prod_i (w_i x_i + 1 - w_i) with w
clipped to [0, 1] (the NMU's form, Madsen & Johansen 2020 eq. 2, without
its sparsity regularizer). The lab trains it on the Single Module Task's
multiplication over the interpolation ranges U[1, 2) and U[-2, -1) with
the quick preset (10 000 steps, the survey's protocol compressed 5x), with
Adam at 1e-3, and prints its success rate, "solved at" and sparsity error
beside our committed rows of the survey's modules and the survey's
published rates, each with Fisher's exact test, and the test pooled over
the two ranges. Run from the checkout (the lab is not part of the
keras_nalm package). The same from the command line:

    python -m benchmarks.single_module \\
        --module examples/03_benchmark_your_unit.py:ProductUnit \\
        --operation mul --interpolation-range=1,2 --preset quick \\
        --seeds 0-4 --output mine.jsonl
    python -m benchmarks.report mine.jsonl
"""

import argparse
import os
import sys

import keras

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


class ProductUnit(keras.layers.Layer):
    """y_j = prod_i (W_ij x_i + 1 - W_ij), W clipped to [0, 1].

    Args:
        units: the number of outputs.
    """

    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(
            shape=(input_shape[-1], self.units),
            initializer=keras.initializers.RandomUniform(0.25, 0.75),
            constraint=lambda w: keras.ops.clip(w, 0.0, 1.0),
            name="w",
        )

    def call(self, x):
        w = keras.ops.clip(self.w, 0.0, 1.0)
        return keras.ops.prod(x[..., :, None] * w + 1.0 - w, axis=-2)

    def sparsity_error(self):
        """Madsen eq. 17 on W (the lab's sparsity column)."""
        w = keras.ops.convert_to_numpy(self.w)
        return float(abs(w - w.round()).max())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0-4")
    parser.add_argument("--output", default=None, help="keep the rows here")
    args = parser.parse_args(argv)

    from benchmarks.report import build
    from benchmarks.single_module import evaluate_unit

    rows = []
    for interpolation in ("1,2", "-2,-1"):
        rows += evaluate_unit(
            ProductUnit,
            operation="mul",
            interpolation_range=interpolation,
            preset="quick",
            seeds=args.seeds,
            output=args.output,
            quiet=True,
        )
    solved = sum(row["solved"] for row in rows)
    print(f"ProductUnit solved {solved} of {len(rows)} runs.\n")
    text, _ = build(rows)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
