"""A language-to-number model's prediction word by word on numbers it never
saw (Trask et al. 2018, app. D: the main text shows such running
predictions of its LSTM + NALU).

    python -m benchmarks.language.running_prediction ROWS.jsonl --line N \\
        [--numbers 6] [--figure FIGURE.png]

Trains again the run of line N of a `python -m benchmarks.language` results file (its
configuration and seed; the run is deterministic, so this is the model
that made the row, at its last step) and prints, for `--numbers` test
numbers spread over the test split, the prediction after each word
(`benchmarks.language.running_predictions`); `--figure` plots them
(matplotlib).
"""

import argparse
import json
import sys

import numpy as np

from benchmarks.core.rows import read_rows
from benchmarks.core.training import train_run
from benchmarks.language import runner as language
from benchmarks.language.task import run_spec
from benchmarks.language.vocabulary import encode_numbers
from benchmarks.language.vocabulary import number_words
from benchmarks.language.vocabulary import split_numbers


def trained_model(row):
    """The model of `row`'s run, trained again from its configuration."""
    if row["task"] != "language_to_number":
        raise SystemExit(f"Not a language_to_number row: task {row['task']!r}.")
    models = []
    train_run(
        run_spec(row["config"]),
        row["seed"],
        write_log=lambda log, model: models.append(model),
    )
    return models[0]


def unseen_numbers(split_seed, count):
    """`count` test numbers spread over the test split (sorted)."""
    test = split_numbers(split_seed)["test"]
    return [int(n) for n in test[np.linspace(0, len(test) - 1, count).astype(int)]]


def running_table(model, numbers):
    """[(number, [(word, prediction), ...]), ...]."""
    ids = encode_numbers(numbers)
    values = language.running_predictions(model, ids)
    table = []
    for number, row in zip(numbers, values):
        words = number_words(number).split()
        table.append((number, list(zip(words, row[: len(words)].tolist()))))
    return table


def plot(table, title, path):
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    for number, steps in table:
        axes.plot(range(1, len(steps) + 1), [value for _, value in steps], "o-")
        axes.axhline(number, color="grey", linewidth=0.5)
        axes.annotate(number_words(number), (len(steps), steps[-1][1]), fontsize=7)
    axes.set_xticks(range(1, 1 + max(len(steps) for _, steps in table)))
    axes.set_xlabel("words read")
    axes.set_ylabel("prediction")
    axes.set_title(title, fontsize=9)
    figure.tight_layout()
    figure.savefig(path, dpi=120)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.language.running_prediction",
        description=__doc__.split("\n")[0],
    )
    parser.add_argument("rows", help="a results file of python -m benchmarks.language")
    parser.add_argument("--line", type=int, default=1, help="the row (from 1)")
    parser.add_argument("--numbers", type=int, default=6)
    parser.add_argument("--figure", help="a PNG file")
    args = parser.parse_args(argv)
    rows = read_rows([args.rows])
    if not 1 <= args.line <= len(rows):
        raise SystemExit(f"--line must be in 1-{len(rows)}: {args.line}.")
    row = rows[args.line - 1]
    model = trained_model(row)
    table = running_table(model, unseen_numbers(row["split_seed"], args.numbers))
    config = row["config"]
    title = (
        f"{config['model']}, {config['size']} units, lr {config['learning_rate']:g}, "
        f"seed {row['seed']}, {config['steps']} steps (test MAE {row['test_mae']:.3g})"
    )
    print(title)
    for number, steps in table:
        print(json.dumps({"number": number, "running": steps}))
    if args.figure:
        plot(table, title, args.figure)
    return 0


if __name__ == "__main__":
    sys.exit(main())
