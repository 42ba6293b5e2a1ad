"""Report builders, one per task, registered by task name.

Each module here calls `benchmarks.core.report_registry.register` for its
tasks; importing this package registers them all. A new task adds a module
here and one import line below.
"""

from benchmarks.core.report_registry import report_for
from benchmarks.reports import arithmetic  # noqa: F401
from benchmarks.reports import identity  # noqa: F401
from benchmarks.reports import language  # noqa: F401
from benchmarks.reports import nru  # noqa: F401
from benchmarks.reports import nru_tables  # noqa: F401
from benchmarks.reports import programs  # noqa: F401
from benchmarks.reports import sequential_mnist  # noqa: F401
from benchmarks.reports import trask_recurrent  # noqa: F401

__all__ = ["report_for"]
