"""Numbers in words and in programs: the data of Trask et al.'s (2018)
language-to-number translation (app. D, table 11) and program evaluation
(app. E, figure 6) tasks, in plain Python and NumPy.

- `number_words(n)`: 0-999 in British English words ("two hundred and
  thirty five"), one token per word; `NUMBER_VOCABULARY` holds the 30
  tokens and `encode_numbers` turns numbers into padded token ids.
- `split_numbers(seed)`: the paper's split of 0-999 into 169 training, 200
  validation and 631 test numbers; the training set holds 0-19 and a seeded
  sample of the rest, topped up so that every token appears in it.
- `make_program(family, rng, digits)`: a program of Zaremba & Sutskever's
  "learning to execute" families that the paper evaluates (`"add"`: the sum
  of two integers; `"if"`: a choice between two sums by a comparison), as
  text to read character by character, with its integer value.
"""

import numpy as np

from keras_nalm._validation import check_choice
from keras_nalm._validation import check_positive_int

ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve "
    "thirteen fourteen fifteen sixteen seventeen eighteen nineteen"
).split()
TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
#: Every token of the numbers 0-999, id 0 kept for padding (ids start at 1).
NUMBER_VOCABULARY = (*ONES, *TENS, "hundred", "and")
#: Trask app. D: 169 training, 200 validation and 631 test numbers.
SPLIT_SIZES = (169, 200, 631)
#: The numbers the training set always holds (Trask app. D: 0-19).
ALWAYS_TRAINED = range(20)


def _below_hundred(n):
    if n < 20:
        return [ONES[n]]
    tens, ones = divmod(n, 10)
    return [TENS[tens - 2]] + ([ONES[ones]] if ones else [])


def number_words(n):
    """`n` (an int in 0-999) in British English words, e.g. 235 -> "two
    hundred and thirty five" (no hyphens: one token per word)."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"number_words needs an int, received {n!r}.")
    if not 0 <= n <= 999:
        raise ValueError(f"number_words covers 0-999, received {n}.")
    hundreds, rest = divmod(int(n), 100)
    if not hundreds:
        return " ".join(_below_hundred(rest))
    words = [ONES[hundreds], "hundred"]
    if rest:
        words += ["and", *_below_hundred(rest)]
    return " ".join(words)


def encode_numbers(numbers, length=None):
    """Token ids (1-based, 0 pads at the end) of the numbers' words:
    an int array `(len(numbers), length)`; `length` defaults to the longest
    (at most 5 tokens: "seven hundred and seventy seven")."""
    index = {token: i + 1 for i, token in enumerate(NUMBER_VOCABULARY)}
    sentences = [[index[w] for w in number_words(int(n)).split()] for n in numbers]
    length = length or max(len(s) for s in sentences)
    ids = np.zeros((len(sentences), length), np.int32)
    for row, sentence in zip(ids, sentences):
        row[: len(sentence)] = sentence
    return ids


def _tokens(n):
    return set(number_words(n).split())


def _coverage(numbers):
    return set().union(*(_tokens(n) for n in numbers))


def split_numbers(seed=0, sizes=SPLIT_SIZES):
    """{"train", "validation", "test"}: disjoint sorted arrays covering
    0-(sum(sizes) - 1). Training holds 0-19 and a sample of the rest drawn
    from `seed`; while a token of those numbers is missing from it, the
    last drawn number whose tokens the others also hold is swapped for the
    first undrawn one that has the missing token. The rest is shuffled into
    validation and test."""
    train_size, validation_size, test_size = (
        check_positive_int("split size", s) for s in sizes
    )
    total = train_size + validation_size + test_size
    if total > 1000 or train_size < len(ALWAYS_TRAINED):
        raise ValueError(
            f"split sizes {sizes} need at least {len(ALWAYS_TRAINED)} training "
            "numbers and at most 1 000 in all."
        )
    rng = np.random.default_rng(seed)
    others = [int(n) for n in rng.permutation(np.arange(len(ALWAYS_TRAINED), total))]
    drawn = others[: train_size - len(ALWAYS_TRAINED)]
    undrawn = others[len(drawn) :]
    for token in sorted(_coverage(range(total))):
        train = [*ALWAYS_TRAINED, *drawn]
        if token in _coverage(train):
            continue
        covered = _coverage(train)
        outgoing = next(
            (n for n in reversed(drawn) if _coverage(set(train) - {n}) == covered),
            None,
        )
        if outgoing is None:
            raise ValueError(
                f"{train_size} training numbers cannot hold every token of "
                f"0-{total - 1}; the token {token!r} is missing."
            )
        incoming = next(n for n in undrawn if token in _tokens(n))
        drawn[drawn.index(outgoing)] = incoming
        undrawn[undrawn.index(incoming)] = outgoing
    return {
        "train": np.sort([*ALWAYS_TRAINED, *drawn]),
        "validation": np.sort(undrawn[:validation_size]),
        "test": np.sort(undrawn[validation_size:]),
    }


#: The program families of Trask app. E (Zaremba & Sutskever 2014).
PROGRAM_FAMILIES = ("add", "if")


def _integer(rng, digits):
    """A random integer of exactly `digits` digits (one digit: 0-9)."""
    low = 0 if digits == 1 else 10 ** (digits - 1)
    return int(rng.integers(low, 10**digits))


def make_program(family, rng, digits):
    """(text, value): a program of `family` over random integers of
    `digits` digits and the integer it prints.

    - `"add"`: `print((a+b))`.
    - `"if"`: `print((a+b) if c>d else (a-b))`, Zaremba & Sutskever's
      if-statement between two of their small expressions.
    """
    check_choice("family", family, PROGRAM_FAMILIES)
    check_positive_int("digits", digits)
    a, b = _integer(rng, digits), _integer(rng, digits)
    if family == "add":
        return f"print(({a}+{b}))", a + b
    c, d = _integer(rng, digits), _integer(rng, digits)
    value = a + b if c > d else a - b
    return f"print(({a}+{b}) if {c}>{d} else ({a}-{b}))", value


#: Every character of the programs, id 0 kept for padding (ids start at 1).
PROGRAM_VOCABULARY = tuple(sorted(set("print((0123456789+-) if>else")))


def encode_programs(texts, length=None):
    """Program texts to character ids (`PROGRAM_VOCABULARY`, from 1),
    right-padded with 0 to `length` (default the longest); int32."""
    index = {character: i + 1 for i, character in enumerate(PROGRAM_VOCABULARY)}
    length = length or max(len(text) for text in texts)
    ids = np.zeros((len(texts), length), np.int32)
    for row, text in enumerate(texts):
        if len(text) > length:
            raise ValueError(f"{text!r} is longer than {length} characters.")
        ids[row, : len(text)] = [index[character] for character in text]
    return ids


def program_set(family, digits, size, seed):
    """`size` programs of `family` whose operands have a number of digits
    drawn uniformly from `digits` (an int or a (low, high) range,
    inclusive): (texts, values as float64)."""
    low, high = (digits, digits) if isinstance(digits, int) else digits
    rng = np.random.default_rng(seed)
    pairs = [
        make_program(family, rng, int(rng.integers(low, high + 1)))
        for _ in range(check_positive_int("size", size))
    ]
    return [text for text, _ in pairs], np.array([v for _, v in pairs], np.float64)
