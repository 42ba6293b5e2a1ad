"""Registration of classes for Keras serialization.

Every public layer, constraint, regularizer, initializer, optimizer and
callback of `keras_nalm` is registered with `register_serializable`, so
that `keras.saving.load_model` finds it by the name
`"keras_nalm>ClassName"` once `keras_nalm` has been imported. Register a
unit of your own the same way, under your own package name:

    @keras_nalm.saving.register_serializable(package="my_units")
    class MyUnit(keras_nalm.layers.NALMLayer):
        ...

`load_model` loads a `.keras` file like `keras.saving.load_model`, and
names the classes a file needs that no imported module has registered.
"""

import json
import os
import zipfile

import keras

#: The package name under which `keras_nalm`'s own classes are registered.
PACKAGE = "keras_nalm"


#: The package under which the lab (`benchmarks/`) registered the recurrent
#: baselines before they moved into `keras_nalm.layers`: files saved
#: before then name them `"nalm_benchmarks>JANETCell"`, ...
LAB_PACKAGE = "nalm_benchmarks"


def register_serializable(symbol=None, *, package=PACKAGE, former_packages=()):
    """Registers a class with Keras under `"{package}>{ClassName}"`.

    Use it bare (`@register_serializable`, package `"keras_nalm"`) or with
    a package (`@register_serializable(package="my_units")`). A class that
    was registered under another package before (`former_packages`) is
    found by those names too, so that files saved then still load; it is
    saved under `package`.

    Args:
        symbol: the class to register; omit it to get a decorator.
        package: str, the package name of the registered name.
        former_packages: package names the class was registered under
            before (default none).

    Returns:
        `symbol`, registered, or a decorator when `symbol` is omitted.
    """

    def register(cls):
        cls = keras.saving.register_keras_serializable(package=package)(cls)
        for former in former_packages:
            keras.saving.get_custom_objects()[f"{former}>{cls.__name__}"] = cls
        return cls

    return register if symbol is None else register(symbol)


def _registered_names(config):
    """Every `registered_name` of the form `package>Name` in a saved config."""
    names = set()
    if isinstance(config, dict):
        name = config.get("registered_name")
        if isinstance(name, str) and ">" in name:
            names.add(name)
        for value in config.values():
            names |= _registered_names(value)
    elif isinstance(config, list):
        for value in config:
            names |= _registered_names(value)
    return names


def missing_classes(filepath):
    """The registered names (`"package>Name"`) that a `.keras` file needs and
    that no imported module has registered, sorted."""
    with zipfile.ZipFile(filepath) as archive:
        config = json.loads(archive.read("config.json"))
    return sorted(
        name
        for name in _registered_names(config)
        if keras.saving.get_registered_object(name) is None
    )


def load_model(filepath, **kwargs):
    """`keras.saving.load_model` for files that hold `keras_nalm` units.

    Importing `keras_nalm` registers its classes, which is all that
    `keras.saving.load_model` needs; this function also names, before
    loading, any class the file needs that is not registered (a unit of
    another package, whose module must be imported first), where Keras would report only
    that the model "could not be deserialized".

    Args:
        filepath: a `.keras` file.
        **kwargs: arguments of `keras.saving.load_model` (`compile`,
            `safe_mode`, ...).

    Returns:
        The loaded model.

    Raises:
        ValueError: the file needs classes that are not registered, or it
            is not a whole `.keras` archive (empty, truncated or damaged;
            Keras reports an empty or truncated file as not found).
    """
    if not (str(filepath).endswith(".keras") and os.path.isfile(filepath)):
        return keras.saving.load_model(filepath, **kwargs)
    damaged = (
        f"{filepath} is not a whole .keras archive (empty, truncated or "
        "damaged): save the model again"
    )
    if not zipfile.is_zipfile(filepath):
        raise ValueError(damaged + ".")
    try:
        missing = missing_classes(filepath)
    except (zipfile.BadZipFile, KeyError, ValueError) as error:
        raise ValueError(f"{damaged} ({error}).") from None
    if missing:
        packages = sorted({name.split(">")[0] for name in missing})
        raise ValueError(
            f"{filepath} needs {', '.join(missing)}, which no imported "
            f"module registers: import the module that defines them "
            f"(package {', '.join(packages)}) first."
        )
    try:
        return keras.saving.load_model(filepath, **kwargs)
    except zipfile.BadZipFile as error:
        raise ValueError(f"{damaged} ({error}).") from None
