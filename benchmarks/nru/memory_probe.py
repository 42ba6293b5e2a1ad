"""The psMNIST NRU's memory before training: how it grows over 784 pixels.

    python -m benchmarks.nru.memory_probe --seeds 0-2 --output FILE.jsonl

An existing `--output` is resumed: the seeds and cells whose rows it
holds (with the same settings) are not probed again.

The runner's psMNIST NRU (the authors' pMNIST configuration: 212 units,
memory 256, 4 linear heads; `benchmarks.nru.models.PSMNIST`) with the
weights the runner draws for each seed, untrained, reads the first
`--examples` validation images of the runner's permuted pixels. A row per
seed and cell records the largest |m| of the memory over the images after
every step (`max_memory`, 784 values), its last value
(`final_max_memory`) and its mean growth per step over the second half of
the sequence in percent (`growth_percent`: (m_784 / m_392)^(1/392) - 1).
The cells, each with the same weights:

- `direction_overflow="zero"`, float32: the cell as the runner trains it
  (the authors' code's float32 normalisation, which zeroes a direction
  whose L5 norm overflows);
- `direction_overflow="normalize"`, float32: exact normalisation;
- `direction_overflow="normalize"`, float64, the biases of PyTorch's
  `nn.Linear` (`nru_bias="linear"`): the authors' initialisation and
  arithmetic without float32's overflow.

Compiled by XLA, as the runner runs the cell.
"""

import dataclasses
import json
import os
import sys

from benchmarks.core.arguments import new_parser
from benchmarks.core.arguments import parse_seeds
from benchmarks.core.arguments import positive_int
from benchmarks.core.command import run_command
from benchmarks.core.rows import NotRowsError
from benchmarks.core.rows import parse_rows
from benchmarks.core.rows import row_key
from benchmarks.data.loaders import add_mnist_arguments
from benchmarks.data.loaders import check_mnist_arguments

#: The rows' `task`.
TASK = "untrained_memory"
#: The probed cells: (direction_overflow, dtype, the NRU's biases).
CELLS = (
    ("zero", "float32", "zeros"),
    ("normalize", "float32", "zeros"),
    ("normalize", "float64", "linear"),
)


def parse_arguments(argv=None):
    """The probe's command line (no TensorFlow)."""
    parser = new_parser("python -m benchmarks.nru.memory_probe", __doc__)
    parser.add_argument(
        "--seeds", type=parse_seeds, default=[0, 1, 2], help="default 0-2"
    )
    parser.add_argument(
        "--examples",
        type=positive_int,
        default=100,
        help="validation images read (default 100, a training batch's size)",
    )
    parser.add_argument(
        "--permutation-seed",
        type=int,
        default=50,
        help="the pixel permutation's seed (the authors' 50)",
    )
    add_mnist_arguments(parser)
    parser.add_argument(
        "--output",
        required=True,
        help="a JSON-lines file (an existing one is resumed)",
    )
    args = parser.parse_args(argv)
    check_mnist_arguments(parser, args)
    try:
        _finished(args.output)
    except NotRowsError as error:
        parser.error(str(error))
    return args


def _finished(output):
    """The keys (`row_key`) of the probe's rows already in `output`, or
    `NotRowsError` for a file that holds anything else."""
    if not os.path.exists(output):
        return set()
    with open(output, "rb") as handle:
        rows = parse_rows(output, handle.read())
    for number, row in enumerate(rows, 1):
        if row.get("task") != TASK:
            raise NotRowsError(f"{output}, row {number}, is not a row of this probe")
    return {row_key(row) for row in rows}


def _config(args, mnist, cell):
    from benchmarks.nru.models import PSMNIST

    overflow, dtype, bias = cell
    return {
        "model": "nru",
        "units": PSMNIST.nru_units,
        "nru_bias": bias,
        "direction_overflow": overflow,
        "dtype": dtype,
        "mnist": mnist,
        "permutation_seed": args.permutation_seed,
        "examples": args.examples,
        "steps": PSMNIST.length,
    }


def _pixels(args, mnist):
    """The first `--examples` validation images, as the runner permutes
    them."""
    from benchmarks.data.loaders import cached_mnist
    from benchmarks.nru.pixels import PermutedPixels
    from benchmarks.nru.runner import default_validation_size

    data = cached_mnist(mnist, args.mnist_path, args.data_dir)
    source = PermutedPixels(
        data["train"],
        data["test"],
        permutation_seed=args.permutation_seed,
        validation_size=default_validation_size(len(data["train"][1])),
    )
    return source.evaluation["validation"][0][: args.examples]


def probed_cell(seed, cell_choice):
    """The NRU cell of the runner's psMNIST model with the seed's weights,
    as `cell_choice` (an entry of `CELLS`) computes."""
    from benchmarks.nru.models import PSMNIST
    from benchmarks.nru.models import build_model
    from keras_nalm.utils import reinitialize_model

    overflow, dtype, bias = cell_choice
    setting = dataclasses.replace(PSMNIST, nru_bias=bias)
    model = build_model("nru", PSMNIST.nru_units, setting, PSMNIST.length)
    reinitialize_model(model, seed)
    runner_cell = next(layer.cell for layer in model.layers if hasattr(layer, "cell"))
    config = runner_cell.get_config()
    cell = type(runner_cell).from_config(
        {**config, "direction_overflow": overflow, "dtype": dtype}
    )
    cell.build((None, 1))
    cell.set_weights(runner_cell.get_weights())
    return cell


def largest_memory(cell, pixels):
    """The largest |m| over the sequences after every step: (steps,)."""
    import keras
    import numpy as np
    import tensorflow as tf

    def step(memories, inputs):
        states = memories[1]
        _, states = cell(inputs, states)
        return (keras.ops.max(keras.ops.abs(states[1])), states)

    @tf.function(jit_compile=True)
    def run(sequences):
        batch = tf.shape(sequences)[0]
        states = cell.get_initial_state(batch_size=batch)
        steps = tf.transpose(sequences, (1, 0, 2))
        first = (tf.zeros((), sequences.dtype), states)
        return tf.scan(step, steps, initializer=first)[0]

    return np.asarray(run(tf.constant(pixels, cell.compute_dtype)), np.float64)


def probe_row(args, mnist, seed, cell_choice, pixels):
    """The row of one seed and one probed cell."""
    import numpy as np

    from benchmarks.core.rows import environment
    from benchmarks.core.rows import make_row

    config = _config(args, mnist, cell_choice)
    cell = probed_cell(seed, cell_choice)
    memory = largest_memory(cell, pixels)
    half = len(memory) // 2
    growth = (memory[-1] / memory[half - 1]) ** (1 / (len(memory) - half)) - 1
    result = {
        "max_memory": memory.tolist(),
        "final_max_memory": float(memory[-1]),
        "growth_percent": float(100 * growth) if np.isfinite(growth) else None,
    }
    return make_row(TASK, config, seed, result, {}, environment())


def main(argv=None):
    return run_command(parse_arguments, run, argv)


def run(args):
    """Writes the probe's rows to `--output`; returns the exit status."""
    import tensorflow as tf

    tf.get_logger().setLevel("ERROR")  # a new program per cell is no retracing
    from benchmarks.data.loaders import resolve_mnist

    mnist = resolve_mnist(args.mnist, args.mnist_path, args.data_dir)
    pixels = _pixels(args, mnist)
    finished = _finished(args.output)
    jobs = [
        (seed, cell_choice)
        for seed in args.seeds
        for cell_choice in CELLS
        if row_key({"config": _config(args, mnist, cell_choice), "seed": seed})
        not in finished
    ]
    print(
        f"{len(args.seeds) * len(CELLS) - len(jobs)} of "
        f"{len(args.seeds) * len(CELLS)} rows already in {args.output}."
    )
    with open(args.output, "a", encoding="utf-8") as output:
        for seed, cell_choice in jobs:
            row = probe_row(args, mnist, seed, cell_choice, pixels)
            output.write(json.dumps(row, sort_keys=True) + "\n")
            output.flush()
            print(f"seed {seed}, {' '.join(cell_choice)}: {_summary(row)}")
    return 0


def _summary(row):
    growth = row["growth_percent"]
    per_step = "" if growth is None else f", {growth:.2f} % per step"
    return f"largest |m| {row['final_max_memory']:.3g}{per_step}"


if __name__ == "__main__":
    sys.exit(main())
