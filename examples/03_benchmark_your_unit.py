"""Put units of your own through the lab's tasks and compare them with the
published ones, as a researcher with a new unit would.

    python examples/03_benchmark_your_unit.py [--seeds 0-4] [--output FILE]

The units below are plain `keras.layers.Layer`s, defined here and not in
keras_nalm:

- `ProductUnit`, y = prod_i (w_i x_i + 1 - w_i) with w clipped to [0, 1]
  (the NMU's form, Madsen & Johansen 2020 eq. 2, without its sparsity
  regularizer), through the Single Module Task's multiplication over the
  interpolation ranges U[1, 2) and U[-2, -1) with the quick preset
  (10 000 steps, the survey's protocol compressed 5x);
- `SumUnit`, y = x W with W clipped to [-1, 1] (the NAU's form, eq. 1,
  without its regularizer), used recurrently (h_t = SumUnit([x_t,
  h_{t-1}]), `keras_nalm.layers.ArithmeticCell`) in Trask et al.'s
  recurrent arithmetic task, a + b over sequences of 10 steps, tested on
  sequences of 1 000.

Both train with Adam at 1e-3; the reports print each unit beside our
committed rows and the papers' numbers, say where those ran another
budget (they are then not tested against yours) and give the command that
makes our rows at yours. Run from the checkout (the lab is not part of
the keras_nalm package). The same from the command line:

    python -m benchmarks.single_module \\
        --module examples/03_benchmark_your_unit.py:ProductUnit \\
        --operation mul --interpolation-range=1,2 --preset quick \\
        --seeds 0-4 --output mine.jsonl
    python -m benchmarks.recurrent \\
        --model examples/03_benchmark_your_unit.py:SumUnit \\
        --operation add --preset quick --seeds 0-4 --output mine_recurrent.jsonl
    python -m benchmarks.report mine.jsonl mine_recurrent.jsonl
"""

import argparse
import os
import sys

import keras

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


class ClippedUnit(keras.layers.Layer):
    """A unit with one weight W, clipped to [LOW, HIGH] and drawn from
    U[INITIAL] (the base of the units below).

    Args:
        units: the number of outputs.
    """

    LOW, HIGH, INITIAL = -1.0, 1.0, (-0.5, 0.5)

    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(
            shape=(input_shape[-1], self.units),
            initializer=keras.initializers.RandomUniform(*self.INITIAL),
            constraint=lambda w: keras.ops.clip(w, self.LOW, self.HIGH),
            name="w",
        )

    def effective_weights(self):
        """W as the unit uses it (the lab's sparsity error, eq. 17, on it)."""
        return keras.ops.clip(self.w, self.LOW, self.HIGH)


class ProductUnit(ClippedUnit):
    """y_j = prod_i (W_ij x_i + 1 - W_ij), W in [0, 1]."""

    LOW, HIGH, INITIAL = 0.0, 1.0, (0.25, 0.75)

    def call(self, x):
        w = self.effective_weights()
        return keras.ops.prod(x[..., :, None] * w + 1.0 - w, axis=-2)


class SumUnit(ClippedUnit):
    """y = x W, W in [-1, 1]."""

    def call(self, x):
        return keras.ops.matmul(x, self.effective_weights())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0-4")
    parser.add_argument("--output", default=None, help="keep the rows here")
    args = parser.parse_args(argv)

    from benchmarks import recurrent
    from benchmarks import single_module
    from benchmarks.report import build

    rows = []
    for interpolation in ("1,2", "-2,-1"):
        rows += single_module.evaluate_unit(
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
    recurrent_rows = recurrent.evaluate_unit(
        SumUnit, operation="add", preset="quick", seeds=args.seeds, quiet=True
    )
    text, _ = build(rows + recurrent_rows)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
