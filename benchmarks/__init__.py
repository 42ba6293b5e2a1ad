"""The reproductions of the papers' experiments, apart from the library.

One folder per task (`single_module`, `arithmetic`, `identity`,
`recurrent`, `sequential_mnist`, `language`, `nru`, `tune`), each run with
`python -m benchmarks.<task>`; `registry` maps the rows' tasks to their
folders, for `python -m benchmarks.report`, `benchmarks.reproduce` and
`benchmarks.claims`. Shared machinery is in `core`, shared data in `data`,
and the speed measurements in `speed`. The lab is a distribution of its
own that is never published (`benchmarks/pyproject.toml`): `pip install -e
. -e ./benchmarks` from the checkout installs it with TensorFlow, SciPy and
Keras Tuner; without them, importing it says so. The populations on an
accelerator (`python -m benchmarks.speed.jax_population`) need none of
TensorFlow and Keras Tuner: `BENCHMARKS_JAX_ONLY=1` skips that check
(`benchmarks/speed/gpu_population.sh` sets it).
"""

import importlib.util
import os

_NEEDED = {"tensorflow": "tensorflow", "scipy": "scipy", "keras_tuner": "keras-tuner"}
if os.environ.get("BENCHMARKS_JAX_ONLY") == "1":
    _NEEDED = {"scipy": "scipy"}
_MISSING = [
    name for module, name in _NEEDED.items() if not importlib.util.find_spec(module)
]
if _MISSING:
    raise ImportError(
        f"The benchmarks need {', '.join(_MISSING)}, which this environment "
        "lacks: pip install -e . -e ./benchmarks (from the repository's root)."
    )
