"""Tables that name what they build without importing it.

A task's tables (its modules, models, activations) are read by its command
line before TensorFlow loads, so that `--help` and a wrong name answer at
once, and by its runner, which builds from them: one table serves both.
Their entries name a class or function by its import path (`Lazy`), which
is imported when the entry is first called.
"""

import dataclasses
import importlib


@dataclasses.dataclass(frozen=True)
class Lazy:
    """A callable named `"package.module:name"`, imported when called, with
    keyword arguments of its own (sorted `(name, value)` pairs), which the
    caller's override, as `functools.partial`'s:
    `Lazy("keras.layers:Dense", (("use_bias", False),))(4)` is
    `keras.layers.Dense(4, use_bias=False)`."""

    path: str
    arguments: tuple = ()

    def target(self):
        """The class or function the path names."""
        module, name = self.path.split(":")
        return getattr(importlib.import_module(module), name)

    def __call__(self, *args, **kwargs):
        return self.target()(*args, **{**dict(self.arguments), **kwargs})


def lazy(path, **arguments):
    """`Lazy(path)` with `arguments`."""
    return Lazy(path, tuple(sorted(arguments.items())))


def layer(name, **arguments):
    """A layer of `keras_nalm.layers` by its class name, with `arguments`."""
    return lazy(f"keras_nalm.layers:{name}", **arguments)
