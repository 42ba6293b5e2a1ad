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
