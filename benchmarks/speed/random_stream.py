"""Writes the engine's random words to stdout, for external test batteries.

    python -m benchmarks.speed.random_stream --generator threefry2x32 \\
        | dieharder -a -g 200

The words are those the batches of one run draw, step after step: the
32-bit Threefry-2x32 outputs keyed by (seed, step) for steps 0, 1, 2, ...,
each step `--words` words (the counters 0, 1, ... of its blocks), written
as raw little-endian uint32 until the reader closes the pipe (or `--bytes`
are written).
"""

import argparse
import os
import sys


def main(argv=None):
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf

    from keras_nalm.engine.sources import THREEFRY_ROUNDS
    from keras_nalm.engine.threefry import random_words

    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.speed.random_stream",
        description=__doc__.split("\n")[0],
    )
    parser.add_argument(
        "--generator", choices=tuple(THREEFRY_ROUNDS), default="threefry2x32"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--words", type=int, default=1 << 22, help="per step")
    parser.add_argument("--bytes", type=int, default=None, help="stop after")
    args = parser.parse_args(argv)
    rounds = THREEFRY_ROUNDS[args.generator]
    draw = tf.function(
        lambda seed: random_words(args.words, seed, rounds), jit_compile=True
    )
    written, step = 0, 0
    output = sys.stdout.buffer
    try:
        while args.bytes is None or written < args.bytes:
            data = draw(tf.constant([args.seed, step])).numpy().astype("<u4").tobytes()
            output.write(data)
            written += len(data)
            step += 1
    except BrokenPipeError:  # the battery has read what it needs
        sys.stderr.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
