"""Threefry-2x32 in TensorFlow integer ops: Random123's known answers, an
independent NumPy evaluation, and the distribution of the floats."""

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow", reason="the engine runs on TensorFlow")

from scipy import stats  # noqa: E402

from keras_nalm.engine import ALGORITHMS  # noqa: E402
from keras_nalm.engine import uniform  # noqa: E402
from keras_nalm.engine.threefry import random_words  # noqa: E402
from keras_nalm.engine.threefry import threefry2x32  # noqa: E402

#: Random123's tests/kat_vectors for threefry2x32: rounds, counter, key,
#: expected output.
KNOWN_ANSWERS = [
    (13, (0x00000000, 0x00000000), (0x00000000, 0x00000000), (0x9D1C5EC6, 0x8BD50731)),
    (13, (0xFFFFFFFF, 0xFFFFFFFF), (0xFFFFFFFF, 0xFFFFFFFF), (0xFD36D048, 0x2D17272C)),
    (13, (0x243F6A88, 0x85A308D3), (0x13198A2E, 0x03707344), (0xBA3E4725, 0xF27D669E)),
    (20, (0x00000000, 0x00000000), (0x00000000, 0x00000000), (0x6B200159, 0x99BA4EFE)),
    (20, (0xFFFFFFFF, 0xFFFFFFFF), (0xFFFFFFFF, 0xFFFFFFFF), (0x1CB996FC, 0xBB002BE7)),
    (20, (0x243F6A88, 0x85A308D3), (0x13198A2E, 0x03707344), (0xC4923A9C, 0x483DF7A0)),
]


def numpy_threefry2x32(key, counter, rounds):
    """Threefry-2x32 written from the SC 2011 paper's description, on
    Python integers modulo 2^32."""
    mask = 0xFFFFFFFF
    rotations = (13, 15, 26, 6, 17, 29, 16, 24)
    schedule = (key[0], key[1], key[0] ^ key[1] ^ 0x1BD11BDA)
    x0, x1 = (counter[0] + key[0]) & mask, (counter[1] + key[1]) & mask
    for r in range(rounds):
        x0 = (x0 + x1) & mask
        d = rotations[r % 8]
        x1 = ((x1 << d) | (x1 >> (32 - d))) & mask
        x1 ^= x0
        if r % 4 == 3:
            s = r // 4 + 1
            x0 = (x0 + schedule[s % 3]) & mask
            x1 = (x1 + schedule[(s + 1) % 3] + s) & mask
    return x0, x1


def _words(values):
    return [tf.constant(v, tf.uint32) for v in values]


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("rounds, counter, key, expected", KNOWN_ANSWERS)
def test_known_answers_of_random123(rounds, counter, key, expected, compiled):
    def hash_():
        return threefry2x32(_words(key), _words(counter), rounds)

    if compiled:
        hash_ = tf.function(hash_, jit_compile=True)
    assert tuple(int(v) for v in hash_()) == expected
    assert numpy_threefry2x32(key, counter, rounds) == expected


def test_jaxs_threefry_gives_our_words_in_our_layout():
    # The route of populations to a GPU without TensorFlow (docs/backends.md):
    # JAX's Threefry-2x32 over the counts (0, ..., n - 1, then n zeros) is
    # our blocks' first words, then their second.
    jax_random = pytest.importorskip("jax.extend.random")
    jnp = pytest.importorskip("jax.numpy")
    n = 50
    counts = jnp.concatenate([jnp.arange(n, dtype="uint32"), jnp.zeros(n, "uint32")])
    theirs = jax_random.threefry_2x32(jnp.array([7, 3], "uint32"), counts)
    ours = random_words(2 * n, tf.constant([7, 3]))
    np.testing.assert_array_equal(np.asarray(theirs), ours.numpy())


def test_batches_count_blocks_under_a_key_of_seed_and_step():
    words = random_words(7, tf.constant([5, -3]), rounds=20).numpy()
    key = (5, (-3) & 0xFFFFFFFF)
    blocks = [numpy_threefry2x32(key, (i, 0), 20) for i in range(4)]
    expected = ([x0 for x0, _ in blocks] + [x1 for _, x1 in blocks])[:7]
    np.testing.assert_array_equal(words, expected)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_generator_draws_floats_and_integers_in_range(algorithm):
    @tf.function(jit_compile=True)
    def draw(seed):
        floats = uniform((4096, 3), seed, algorithm, minval=-2.0, maxval=6.0)
        digits = uniform((4096,), seed, algorithm, minval=1, maxval=9, dtype=tf.int32)
        return floats, digits

    floats, digits = (v.numpy() for v in draw(tf.constant([1, 2])))
    assert floats.shape == (4096, 3) and floats.dtype == np.float32
    assert -2.0 <= floats.min() < -1.9 and 5.9 < floats.max() < 6.0
    assert set(np.unique(digits)) == set(range(1, 9))
    np.testing.assert_array_equal(draw(tf.constant([1, 2]))[0].numpy(), floats)
    assert not np.array_equal(draw(tf.constant([1, 3]))[0].numpy(), floats)


def test_floats_have_24_random_bits():
    floats = uniform((1 << 16,), tf.constant([0, 0]), "threefry2x32").numpy()
    scaled = floats.astype(np.float64) * 2**24
    np.testing.assert_array_equal(scaled, np.round(scaled))  # multiples of 2^-24
    assert np.mean(scaled % 2 == 1) > 0.45  # the last of the 24 bits is used


@pytest.mark.large
@pytest.mark.parametrize("algorithm", ["threefry2x32", "threefry2x32_13"])
def test_ten_million_floats_are_uniform_and_serially_uncorrelated(algorithm):
    n = 10_000_000
    draw = tf.function(lambda seed: uniform((n,), seed, algorithm), jit_compile=True)
    u = np.concatenate([draw(tf.constant([7, step])).numpy() for step in range(2)])
    assert stats.kstest(u, "uniform").pvalue > 1e-3
    counts = np.bincount((u * 1000).astype(int), minlength=1000)
    assert stats.chisquare(counts).pvalue > 1e-3
    for lag in (1, 2, 3, n):  # n: the seams between two batches' streams
        r = np.corrcoef(u[:-lag], u[lag:])[0, 1]
        assert abs(r) < 5 / np.sqrt(len(u) - lag), (lag, r)
    assert abs(u.mean() - 0.5) < 5 * np.sqrt(1 / 12 / len(u))
