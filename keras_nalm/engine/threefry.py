"""Counter-based random numbers for in-graph batches: Threefry-2x32.

Threefry-2x32-R (Salmon, Moraes, Dror & Shaw, "Parallel random numbers: as
easy as 1, 2, 3", SC 2011; the Random123 library) maps a 64-bit key and a
64-bit counter to 64 random bits with R rounds of 32-bit additions,
rotations and exclusive ors, and a key injection every four rounds. Written
here with TensorFlow's integer ops on uint32 tensors, a whole batch is one
fused XLA loop over its counters, cheaper per number than
`tf.random.stateless_uniform`'s threefry, and it also runs outside XLA
(in `tf.data`). The output matches Random123's known-answer vectors
(`tests/test_random.py`).

A batch keyed by (seed, step) uses the key (seed, step) and the counters
(i, 0) for its blocks i = 0, ..., n - 1: each block gives two 32-bit
words, laid out as the n first words then the n second words, and each
word one float of 24 random bits, (word >> 8) * 2^-24, uniform
on the 2^24 multiples of 2^-24 in [0, 1). 24 bits are all that float32
represents exactly in [0.5, 1): a float of 23 random bits (the
exponent-bitcast trick) would leave every other float of [0.5, 1) unused
and halve the resolution everywhere.

Rounds: 20 by default, Random123's choice. The SC 2011 paper reports the
fewest rounds with which each Threefry variant passed TestU01's BigCrush
(12 or 13, as we read its table 2, for the 32-bit, two-word variant; we
could not check the table again here) and adds rounds as a safety margin;
13 is offered as the speed option with that caveat.
"""

import math

import tensorflow as tf

#: Threefry-2x32's rotation distances (Random123, `threefry.h`).
ROTATIONS = (13, 15, 26, 6, 17, 29, 16, 24)
#: The key schedule's parity constant.
PARITY = 0x1BD11BDA


def _rotate_left(x, distance):
    return tf.bitwise.bitwise_or(
        tf.bitwise.left_shift(x, tf.constant(distance, tf.uint32)),
        tf.bitwise.right_shift(x, tf.constant(32 - distance, tf.uint32)),
    )


def threefry2x32(key, counter, rounds=20):
    """Threefry-2x32-`rounds` of uint32 tensors: key (k0, k1) and counter
    (x0, x1), broadcast together; returns the two output words."""
    k0, k1 = key
    k2 = tf.bitwise.bitwise_xor(
        tf.bitwise.bitwise_xor(k0, k1), tf.constant(PARITY, tf.uint32)
    )
    schedule = (k0, k1, k2)
    x0, x1 = counter[0] + k0, counter[1] + k1
    for r in range(rounds):
        x0 = x0 + x1
        x1 = tf.bitwise.bitwise_xor(_rotate_left(x1, ROTATIONS[r % 8]), x0)
        if r % 4 == 3:  # inject the key after every four rounds
            s = r // 4 + 1
            x0 = x0 + schedule[s % 3]
            x1 = x1 + schedule[(s + 1) % 3] + tf.constant(s, tf.uint32)
    return x0, x1


def block_words(blocks, seed, rounds=20):
    """The two words of the blocks 0, ..., `blocks` - 1 keyed by `seed`
    (int32, shape (2,)): uint32 tensors x0 and x1 of shape (blocks,)."""
    # int32 -> uint32 by a cast wraps as a bitcast does (two's complement),
    # and `tf.vectorized_map` vectorizes a cast (a population's draws)
    key = tf.unstack(tf.cast(tf.cast(seed, tf.int32), tf.uint32))
    counters = (tf.cast(tf.range(blocks), tf.uint32), tf.zeros((blocks,), tf.uint32))
    return threefry2x32(key, counters, rounds)


def random_words(count, seed, rounds=20):
    """`count` uint32 words keyed by `seed` (int32, shape (2,))."""
    # XLA fuses the hash into whatever consumes its words and computes each
    # word's whole chain anew: the block is hashed once per word used.
    # Concatenated, each word still costs one chain, but no shuffle.
    words = block_words(math.ceil(count / 2), seed, rounds)
    return tf.concat(words, axis=0)[:count]


def threefry_uniform(shape, seed, rounds=20, minval=0, maxval=None, dtype=tf.float32):
    """Uniform numbers of `shape` keyed by `seed`, as
    `tf.random.stateless_uniform` draws them: floats in [minval, maxval)
    (default [0, 1)) with 24 random bits, or integers in [minval, maxval)
    for an integer `dtype` (the word scaled by the range, so a range that
    divides 2^32 is exactly uniform)."""
    count = math.prod(shape)
    words = random_words(count, seed, rounds)
    if tf.as_dtype(dtype).is_integer:
        span = tf.cast(maxval - minval, tf.uint64)
        scaled = tf.bitwise.right_shift(
            tf.cast(words, tf.uint64) * span, tf.constant(32, tf.uint64)
        )
        values = tf.cast(scaled, dtype) + tf.cast(minval, dtype)
        return tf.reshape(values, shape)
    unit = tf.cast(tf.bitwise.right_shift(words, tf.constant(8, tf.uint32)), dtype)
    unit = tf.reshape(unit * tf.constant(2.0**-24, dtype), shape)
    maxval = 1.0 if maxval is None else maxval
    if minval == 0 and maxval == 1.0:
        return unit
    return unit * (maxval - minval) + minval
