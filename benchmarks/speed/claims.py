"""The claims of the speed measurements (`benchmarks.claims`):
`speed_table FILE FIELD=VALUE ...`, each unit's training speed per backend
and setting relative to Dense's (`benchmarks.speed.backend_speed`)."""

from benchmarks.core.claim_rows import Claim
from benchmarks.core.claim_rows import matching
from benchmarks.speed import backend_table


def speed_table(path, *filters):
    """Each unit's training speed per backend and setting, relative to
    Dense's, of the matching rows."""
    return "\n".join(backend_table.speed_table(matching(path, filters)))


CLAIMS = {"speed_table": Claim(speed_table, table=True)}
