"""Keras registration of the benchmarks' own classes.

Every class the benchmarks register (the comparison cells, the tasks'
losses and metrics) goes through `register`, which is
`keras_nalm.saving.register_serializable` under the package name
`nalm_benchmarks`, so that no name collides with the library's
`keras_nalm>...` names.
"""

import functools

from keras_nalm.saving import register_serializable

PACKAGE = "nalm_benchmarks"

register = functools.partial(register_serializable, package=PACKAGE)
