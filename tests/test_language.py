"""Numbers in words and programs (Trask et al. 2018, app. D and E)."""

import numpy as np
import pytest

from keras_nalm.language import NUMBER_VOCABULARY
from keras_nalm.language import encode_numbers
from keras_nalm.language import make_program
from keras_nalm.language import number_words
from keras_nalm.language import split_numbers

HAND_CHECKED = {
    0: "zero",
    7: "seven",
    13: "thirteen",
    20: "twenty",
    21: "twenty one",
    100: "one hundred",
    101: "one hundred and one",
    110: "one hundred and ten",
    115: "one hundred and fifteen",
    999: "nine hundred and ninety nine",
}


def test_numbers_are_written_in_british_english_words():
    assert {n: number_words(n) for n in HAND_CHECKED} == HAND_CHECKED
    words = {token for n in range(1000) for token in number_words(n).split()}
    assert words == set(NUMBER_VOCABULARY) and len(words) == 30


@pytest.mark.parametrize("bad, error", [(1000, ValueError), (-1, ValueError)])
def test_numbers_outside_0_to_999_are_refused(bad, error):
    with pytest.raises(error, match="0-999"):
        number_words(bad)
    with pytest.raises(TypeError, match="int"):
        number_words(2.0)


def test_tokens_are_ids_from_one_padded_with_zeros():
    ids = encode_numbers([777, 5, 120])
    vocabulary = ("<pad>", *NUMBER_VOCABULARY)
    words = [" ".join(vocabulary[i] for i in row if i) for row in ids]
    assert words == [number_words(n) for n in (777, 5, 120)]
    assert ids.shape == (3, 5) and (ids[1, 1:] == 0).all()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_split_has_the_papers_sizes_and_every_token_in_training(seed):
    split = split_numbers(seed)
    sizes = {name: len(numbers) for name, numbers in split.items()}
    assert sizes == {"train": 169, "validation": 200, "test": 631}
    everything = np.concatenate(list(split.values()))
    np.testing.assert_array_equal(np.sort(everything), np.arange(1000))
    assert set(range(20)) <= set(split["train"].tolist())
    trained = {t for n in split["train"] for t in number_words(int(n)).split()}
    assert trained == set(NUMBER_VOCABULARY)
    np.testing.assert_array_equal(split_numbers(seed)["test"], split["test"])
    assert not np.array_equal(split_numbers(seed + 3)["test"], split["test"])


def test_a_missing_token_is_swapped_into_training():
    """Three drawn numbers among 20-41 must hold twenty, thirty and forty."""
    for seed in range(10):
        split = split_numbers(seed, (23, 10, 9))
        tens = {number_words(int(n)).split()[0] for n in split["train"][20:]}
        assert tens == {"twenty", "thirty", "forty"}, (seed, split["train"])
    with pytest.raises(ValueError, match="cannot hold every token"):
        split_numbers(0, (21, 10, 11))


@pytest.mark.parametrize("family", ["add", "if"])
def test_programs_print_what_python_evaluates(family):
    rng = np.random.default_rng(0)
    for digits in (1, 2, 3, 4):
        for _ in range(1_250):
            text, value = make_program(family, rng, digits)
            assert text.startswith("print(") and text.endswith(")")
            assert eval(text[len("print(") : -1], {"__builtins__": {}}) == value


def test_program_operands_have_the_asked_number_of_digits():
    rng = np.random.default_rng(1)
    texts = [make_program("add", rng, 3)[0] for _ in range(200)]
    operands = [t[len("print((") : -2].split("+") for t in texts]
    assert all(len(a) == 3 and len(b) == 3 for a, b in operands)
    with pytest.raises(ValueError, match="family"):
        make_program("while", rng, 2)
