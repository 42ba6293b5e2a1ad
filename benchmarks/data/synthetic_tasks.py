"""The NRU paper's synthetic sequence tasks by name (Chandar et al. 2019,
"Experiments"): `SOURCES[task](T, batch_size=...)` is the task's batch
source (`benchmarks.data.sequences`, imported when called), so that command
lines read the names before TensorFlow loads."""

from benchmarks.core.lazy import lazy

SOURCES = {
    "copy": lazy("benchmarks.data.sequences:CopySource"),
    "variable_copy": lazy("benchmarks.data.sequences:CopySource", variable_lag=True),
    "denoise": lazy("benchmarks.data.sequences:DenoisingSource"),
}
