"""The reproductions of the papers' experiments, apart from the library.

One folder per task (`single_module`, `arithmetic`, `identity`,
`recurrent`, `sequential_mnist`, `language`, `nru`, `tune`), each run with
`python -m benchmarks.<task>`; `registry` maps the rows' tasks to their
folders, for `python -m benchmarks.report`, `benchmarks.reproduce` and
`benchmarks.claims`. Shared machinery is in `core`, shared data in `data`,
the comparison models in `models` and the speed measurements in `speed`.
Needs `pip install ".[benchmarks]"` (TensorFlow and SciPy) besides the
library.
"""
