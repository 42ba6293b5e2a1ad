"""The figure of a Keras Tuner search's log: each trial's score in the
order the search ran them, a colour per unit.

    python -m benchmarks.tune.figure LOG --output FIGURE.png
"""

import argparse
import os
import sys

from benchmarks.core.formatting import load_pyplot
from benchmarks.core.formatting import save_figure
from benchmarks.tune.claims import read_trials


def draw(trials, path):
    """Writes the figure of `trials` (in the order they ran) to `path`."""
    pyplot = load_pyplot()
    units = list(dict.fromkeys(trial["values"]["unit"] for trial in trials))
    figure, axis = pyplot.subplots(figsize=(8, 4))
    for index, unit in enumerate(units):
        points = [
            (number, trial["score"])
            for number, trial in enumerate(trials, start=1)
            if trial["values"]["unit"] == unit
        ]
        axis.scatter(*zip(*points), color=f"C{index}", label=unit, s=24)
    axis.set_xlabel("trial")
    axis.set_ylabel("score: log10 of the extrapolation MSE")
    axis.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5))
    axis.set_title("Keras Tuner search: each trial's score")
    directory, name = os.path.split(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    return save_figure(pyplot, figure, directory, os.path.splitext(name)[0])


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.tune.figure", description=__doc__.split("\n")[0]
    )
    parser.add_argument("log", help="a search's log (python -m benchmarks.tune > LOG)")
    parser.add_argument("--output", required=True, help="the figure, a .png file")
    args = parser.parse_args(argv)
    if not args.output.endswith(".png"):
        parser.error(f"--output {args.output} is not a .png file")
    try:
        trials = read_trials(args.log)
    except (OSError, ValueError) as error:
        parser.error(str(error))
    print(f"wrote {draw(trials, args.output)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
