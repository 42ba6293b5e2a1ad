"""The claims of the NRU paper's tasks (`benchmarks.claims`), each
`NAME FILE ...` on a results page:

- `converged FILE FIELD=VALUE ...` ("2 of 3"), `converged_at ...` (the
  steps, "16 000, 21 000") and `best_range ...` (the best validation
  cross-entropies, "0.004-0.007") of the synthetic tasks' runs;
- `converged_median FILE FIELD=VALUE ...` (the median step, "18 500");
- `converged_ratio FILE model=A model=B`: A's steps over B's in the seeds
  where both converged ("1.1-1.6");
- `at_step FILE STEP FIELD=VALUE ...`: one run's validation cross-entropy
  at an evaluated step;
- `converged_p FILE OTHER FIELD=VALUE ...`: Fisher's two-sided exact p of
  the matching runs' convergence in FILE against those in OTHER
  ("0.029" for 3 of 3 against 0 of 4);
- `table_one FILES`: the paper's table 1 (top 1 and top 2 per model) from
  result files of one task each (`benchmarks.nru.rankings`);
  `top_in MODEL PLACES FILES`: in how many of those tasks that it ran
  MODEL is among the best PLACES ("4 of 6").

"Converged" is `benchmarks.nru.synthetic_report.converged_at`'s criterion.
"""

import statistics

from benchmarks.core import stats
from benchmarks.core.claim_rows import Claim
from benchmarks.core.claim_rows import matching
from benchmarks.core.claim_rows import pretty
from benchmarks.core.claim_rows import rows
from benchmarks.core.claim_rows import spaced
from benchmarks.core.claim_rows import two_digit_span
from benchmarks.nru import rankings
from benchmarks.nru.synthetic_report import converged_at


def _steps_converged(path, filters):
    """The steps at which the matching runs converged (None: did not)."""
    return [converged_at(row) for row in matching(path, filters)]


def converged(path, *filters):
    reached = _steps_converged(path, filters)
    return f"{sum(step is not None for step in reached)} of {len(reached)}"


def steps_converged(path, *filters):
    reached = sorted(
        step for step in _steps_converged(path, filters) if step is not None
    )
    return ", ".join(map(spaced, reached)) or "—"


def best_range(path, *filters):
    return two_digit_span(
        [row["best_cross_entropy"] for row in matching(path, filters)]
    )


def converged_median(path, *filters):
    """The median step at which the matching runs converged ("18 500")."""
    reached = [step for step in _steps_converged(path, filters) if step is not None]
    if not reached:
        raise ValueError(f"No run of {path} matching {' '.join(filters)} converged.")
    return spaced(round(statistics.median(reached)))


def converged_ratio(path, slower, faster):
    """The range over seeds of the ratio of the steps at which the model
    `slower` and the model `faster` (`model=NAME`) converged, in the seeds
    where both did ("1.1-1.6")."""
    steps = [
        {row["seed"]: converged_at(row) for row in matching(path, [model])}
        for model in (slower, faster)
    ]
    ratios = [
        steps[0][seed] / steps[1][seed]
        for seed in steps[0].keys() & steps[1].keys()
        if steps[0][seed] and steps[1][seed]
    ]
    if not ratios:
        raise ValueError(f"No seed of {path} where {slower} and {faster} converged.")
    return two_digit_span(ratios)


def at_step(path, step, *filters):
    """The validation cross-entropy of the one matching run at an
    evaluated step ("1.1·10⁻⁴")."""
    found = matching(path, filters)
    if len(found) != 1:
        raise ValueError(
            f"at_step needs one row; {' '.join(filters)} matches {len(found)}."
        )
    series = dict(
        zip(found[0]["evaluation_steps"], found[0]["validation_cross_entropy_series"])
    )
    if int(step) not in series:
        raise ValueError(f"Step {step} was not evaluated in {path}.")
    return pretty(series[int(step)])


def converged_p(path, other, *filters):
    """Fisher's two-sided exact p of the matching runs' convergence in
    `path` against those in `other` (two budgets or two settings)."""
    counts = []
    for source in (path, other):
        reached = _steps_converged(source, filters)
        counts += [sum(step is not None for step in reached), len(reached)]
    return f"{stats.fisher_exact_p(*counts):.2g}"


def table_one(*paths):
    """The NRU paper's table 1 from result files, one task each."""
    return rankings.table_one([rows(path) for path in paths])


def top_in(model, places, *paths):
    """ "4 of 6": in how many of the tasks (one file each) that `model`
    ran it is among the best `places`, as `table_one` counts."""
    ranked = [rankings.ranking(rows(path)) for path in paths]
    ran = [task for task in ranked if model in dict(task)]
    if not ran:
        raise ValueError(f"No file of {', '.join(paths)} holds rows of {model!r}.")
    among = sum(model in rankings.top(task, int(places)) for task in ran)
    return f"{among} of {len(ran)}"


CLAIMS = {
    "converged": Claim(converged),
    "converged_at": Claim(steps_converged),
    "best_range": Claim(best_range),
    "converged_median": Claim(converged_median),
    "converged_ratio": Claim(converged_ratio),
    "at_step": Claim(at_step),
    "converged_p": Claim(converged_p),
    "table_one": Claim(table_one, table=True),
    "top_in": Claim(top_in),
}
