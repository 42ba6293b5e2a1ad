"""Keras registration of the benchmarks' own classes."""

import functools

from keras_nalm.saving import register_serializable

#: The package name of the comparison models' registered classes, so that
#: they never collide with the library's `keras_nalm>...` names.
PACKAGE = "nalm_benchmarks"

register = functools.partial(register_serializable, package=PACKAGE)
