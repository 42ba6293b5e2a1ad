"""The cost of one Madsen-task batch of uniform floats, per generator.

    python -m benchmarks.speed.generator_cost [--shape 128,100] [--iterations 2000]

One thread, inside one jit-compiled `tf.while_loop` that draws a batch
keyed by (seed, i) per iteration and adds it to an accumulator of the same
shape (so that every number is used and nothing else is computed); best of
5 calls, in microseconds per batch. Beside `keras_nalm.engine.ALGORITHMS`
it measures two diagnostics of the Threefry-2x32 layout: the blocks' first
words only (half the floats from the same number of blocks) and one float
per block, as many blocks as floats. Their difference shows what XLA's CPU
fusion does with a block whose two words feed one output: it hashes the
block once per word.
"""

import argparse
import math
import os
import sys
import time


def _diagnostics(tf, shape):
    from keras_nalm.engine.threefry import block_words

    count = math.prod(shape)

    def first_words(seed, blocks):
        words = block_words(blocks, seed)[0]
        return tf.cast(tf.bitwise.right_shift(words, 8), tf.float32) * 2.0**-24

    return {
        "threefry2x32, first words of count/2 blocks": lambda seed: first_words(
            seed, count // 2
        ),
        "threefry2x32, first words of count blocks": lambda seed: first_words(
            seed, count
        ),
    }


def measure(tf, draw, iterations):
    @tf.function(jit_compile=True)
    def loop(seed):
        initial = tf.zeros_like(draw(tf.stack([seed, 0])))

        def body(i, total):
            return i + 1, total + draw(tf.stack([seed, i]))

        return tf.while_loop(lambda i, _: i < iterations, body, (0, initial))[1]

    loop(tf.constant(-1)).numpy()  # compiles
    best = math.inf
    for repeat in range(5):
        began = time.perf_counter()
        loop(tf.constant(repeat)).numpy()
        best = min(best, time.perf_counter() - began)
    return best / iterations * 1e6


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.speed.generator_cost",
        description=__doc__.split("\n")[0],
    )
    parser.add_argument("--shape", default="128,100")
    parser.add_argument("--iterations", type=int, default=2000)
    args = parser.parse_args(argv)
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf

    from keras_nalm.engine import ALGORITHMS
    from keras_nalm.engine import uniform

    tf.config.threading.set_intra_op_parallelism_threads(1)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    shape = tuple(int(n) for n in args.shape.split(","))
    draws = {
        name: (lambda seed, a=name: uniform(shape, seed, a)) for name in ALGORITHMS
    }
    draws.update(_diagnostics(tf, shape))
    print(f"| generator | µs per {math.prod(shape)} floats |\n|---|---:|")
    for name, draw in draws.items():
        print(f"| {name} | {measure(tf, draw, args.iterations):.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
