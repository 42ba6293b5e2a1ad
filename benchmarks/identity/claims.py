"""The claims of Trask's identity task, table 5 (`benchmarks.claims`):

- `identity_outside FILE FIELD=VALUE ...`: how many of table 5's means lie
  outside our interval (t-test, p < 0.05), "3 of 17";
- `percent_error FILE FIELD=VALUE ...`: table 5's "% error" of the
  matching rows, per activation ("98.5-99.1");
- `largest_change FILE EARLIER FIELD=VALUE ...`: the largest change, in
  percent, of an activation's mean error from EARLIER's ("2.9").
"""

from benchmarks.core.claim_rows import Claim
from benchmarks.core.claim_rows import matching
from benchmarks.core.claim_rows import pretty
from benchmarks.core.claim_rows import span
from benchmarks.identity import report


def identity_outside(path, *filters):
    flags = report.outside_published(matching(path, filters))
    return f"{sum(flags.values())} of {len(flags)}"


def percent_error(path, *filters):
    """Table 5's "% error" of the matching rows' mean absolute error, per
    activation: one value, or "low-high" over several ("98.5-99.1")."""
    return span(list(report.percent_errors(matching(path, filters)).values()))


def largest_change(path, earlier, *filters):
    """The largest change, in percent, of an activation's mean absolute
    error in the matching rows of an identity file from its mean in the
    file `earlier` ("2.9")."""
    now = report.percent_errors(matching(path, filters))
    before = report.percent_errors(matching(earlier, filters))
    return pretty(max(abs(now[key] / before[key] - 1) * 100 for key in now))


CLAIMS = {
    "identity_outside": Claim(identity_outside),
    "percent_error": Claim(percent_error),
    "largest_change": Claim(largest_change),
}


IDENTITY_KERAS_THREEFRY2X32 = (
    "identity/results/fidelity/identity_keras_threefry2x32.jsonl"
)
IDENTITY_PYTORCH_DEFAULTS = "identity/results/fidelity/identity_pytorch_defaults.jsonl"
LINEAR_HALVING = "identity/results/linear_halving.jsonl"
PAPER = "identity/results/paper.jsonl"
TRASK2018_TABLE5 = "identity/published/trask2018_table5.csv"

#: The named claims of the pages over the rows of the identity task (a page's
#: `<!--=id.NAME-->` stands for the expression; `benchmarks.claims`).
NAMED = {
    "id.halving.mae.1e-4": f"below {LINEAR_HALVING} mean_absolute_error 1e-4",
    "id.keras.mae.none": (
        f"mean {IDENTITY_KERAS_THREEFRY2X32} mean_absolute_error activation=none"
    ),
    "id.keras.not_none": (
        f"largest_change {IDENTITY_KERAS_THREEFRY2X32} {PAPER} activation!=none"
    ),
    "id.mae.1e-4.none": f"below {PAPER} mean_absolute_error 1e-4 activation=none",
    "id.max.halving.mae": f"maximum {LINEAR_HALVING} mean_absolute_error",
    "id.mean.halving.mae": f"mean {LINEAR_HALVING} mean_absolute_error",
    "id.mean.mae.none": f"mean {PAPER} mean_absolute_error activation=none",
    "id.median.mae.none": f"median {PAPER} mean_absolute_error activation=none",
    "id.outside": f"identity_outside {PAPER}",
    "id.outside.keras": f"identity_outside {IDENTITY_KERAS_THREEFRY2X32}",
    "id.outside.torch": f"identity_outside {IDENTITY_PYTORCH_DEFAULTS}",
    "id.pct.hard_tanh+4": (
        f"percent_error {PAPER} activation=hard_tanh|relu6|softsign|tanh|sigmoid"
    ),
    "id.pct.leaky_relu": f"percent_error {PAPER} activation=leaky_relu",
    "id.pct.prelu": f"percent_error {PAPER} activation=prelu",
    "id.pct.relu": f"percent_error {PAPER} activation=relu",
    "id.pub.hard_tanh+4": (
        f"paper {TRASK2018_TABLE5} error_percent - "
        "activation=hard_tanh|relu6|softsign|tanh|sigmoid"
    ),
    "id.pub.leaky_relu.1": (
        f"paper {TRASK2018_TABLE5} error_percent - activation=leaky_relu"
    ),
    "id.pub.leaky_relu.2": (
        f"paper {TRASK2018_TABLE5} mean_absolute_error - activation=leaky_relu"
    ),
    "id.pub.mae.elu": f"paper {TRASK2018_TABLE5} mean_absolute_error - activation=elu",
    "id.pub.mae.none": (
        f"paper {TRASK2018_TABLE5} mean_absolute_error - activation=none"
    ),
    "id.pub.mae.prelu": (
        f"paper {TRASK2018_TABLE5} mean_absolute_error - activation=prelu"
    ),
    "id.pub.mae.relu": (
        f"paper {TRASK2018_TABLE5} mean_absolute_error - activation=relu"
    ),
    "id.pub.mae.selu": (
        f"paper {TRASK2018_TABLE5} mean_absolute_error - activation=selu"
    ),
    "id.pub.mae.softplus": (
        f"paper {TRASK2018_TABLE5} mean_absolute_error - activation=softplus"
    ),
    "id.pub.pct.prelu": (f"paper {TRASK2018_TABLE5} error_percent - activation=prelu"),
    "id.pub.pct.relu": (f"paper {TRASK2018_TABLE5} error_percent - activation=relu"),
    "id.pub.soft_shrink": (
        f"paper {TRASK2018_TABLE5} mean_absolute_error - activation=soft_shrink"
    ),
    "id.pub.tanh_shrink": (
        f"paper {TRASK2018_TABLE5} mean_absolute_error - activation=tanh_shrink"
    ),
    "id.pub.threshold": (
        f"paper {TRASK2018_TABLE5} mean_absolute_error - activation=threshold"
    ),
    "id.soft_shrink": (
        f"mean {IDENTITY_PYTORCH_DEFAULTS} mean_absolute_error activation=soft_shrink"
    ),
    "id.table5": f"report_table {PAPER} columns=1,7,8,9",
    "id.tanh_shrink": (
        f"mean {IDENTITY_PYTORCH_DEFAULTS} mean_absolute_error activation=tanh_shrink"
    ),
    "id.torch.leaky_relu": (
        f"mean {IDENTITY_PYTORCH_DEFAULTS} mean_absolute_error activation=leaky_relu"
    ),
    "id.torch.mae.elu": (
        f"mean {IDENTITY_PYTORCH_DEFAULTS} mean_absolute_error activation=elu"
    ),
    "id.torch.mae.prelu": (
        f"mean {IDENTITY_PYTORCH_DEFAULTS} mean_absolute_error activation=prelu"
    ),
    "id.torch.mae.relu": (
        f"mean {IDENTITY_PYTORCH_DEFAULTS} mean_absolute_error activation=relu"
    ),
    "id.torch.mae.selu": (
        f"mean {IDENTITY_PYTORCH_DEFAULTS} mean_absolute_error activation=selu"
    ),
    "id.torch.sigmoid": (
        f"mean {IDENTITY_PYTORCH_DEFAULTS} mean_absolute_error activation=sigmoid"
    ),
    "id.torch.softplus": (
        f"mean {IDENTITY_PYTORCH_DEFAULTS} mean_absolute_error activation=softplus"
    ),
    "id.torch.threshold": (
        f"mean {IDENTITY_PYTORCH_DEFAULTS} mean_absolute_error activation=threshold"
    ),
}
