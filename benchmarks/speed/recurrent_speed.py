"""Training speed of the NRU against the LSTM (and the other recurrent
models of `benchmarks.nru.models`) at equal parameter counts, on the copy
task's shapes (Chandar et al. 2019, "Copying Memory Task": sequences of T + 20 steps, 10
one-hot inputs, 9 classes, batch 10).

    python -m benchmarks.recurrent_speed [--T 100] [--steps 500]
        [--rounds 3] [--models nru,lstm] [--output FILE.json]
    KERAS_BACKEND=jax python -m benchmarks.recurrent_speed ...

Paths measured, each after a warm-up that compiles it:

- `model.fit` (any Keras backend): `jit_compile=True` and
  `steps_per_execution=100` (PyTorch: neither; Keras compiles PyTorch
  through torch.compile, which is not what this measures), TorchAdam with
  gradients clipped to norm 1, on NumPy arrays of random symbols (the
  step's cost does not depend on the values);
- `engine` (TensorFlow only): `keras_nalm.engine.InGraphTrainer` on
  `CopySource`, 100 steps per compiled call, no evaluation set.

The rounds alternate the models, so that a slower or faster period of a
shared machine touches every model alike; the report gives each model's
median steps/s per path and its time per step relative to the first model
(`--models`; the NRU by default). On CPU, TensorFlow runs one intra-op and
one inter-op thread (one core), as the sweeps' workers do.
"""

import argparse
import json
import os
import statistics
import sys
import time

import keras
import numpy as np

from benchmarks.nru.definitions import MODELS
from benchmarks.nru.models import build_model
from benchmarks.nru.models import matched_units
from benchmarks.nru.models import parameter_count
from benchmarks.nru.models import synthetic_setting
from keras_nalm.optimizers import TorchAdam

BATCH_SIZE, CLASSES, SYMBOLS, PER_CALL = 10, 9, 10, 100


def device_description():
    """The accelerator Keras computes on, or the CPU's model."""
    backend = keras.backend.backend()
    if backend == "jax":
        import jax

        device = jax.devices()[0]
        if device.platform != "cpu":
            return f"GPU: {device.device_kind}"
    elif backend == "torch":
        import torch

        if torch.cuda.is_available():
            return f"GPU: {torch.cuda.get_device_name(0)}"
    elif backend == "tensorflow":
        import tensorflow as tf

        if tf.config.list_physical_devices("GPU"):
            return "GPU: " + tf.config.experimental.get_device_details(
                tf.config.list_physical_devices("GPU")[0]
            ).get("device_name", "GPU")
    with open("/proc/cpuinfo") as handle:
        for line in handle:
            if line.startswith("model name"):
                return "CPU: " + line.split(":", 1)[1].strip()
    return "CPU"


def _one_thread_tensorflow():
    import tensorflow as tf

    if not tf.config.list_physical_devices("GPU"):
        tf.config.threading.set_intra_op_parallelism_threads(1)
        tf.config.threading.set_inter_op_parallelism_threads(1)


def _compiled_model(name, T):
    length = T + 20
    setting = synthetic_setting(length)
    units = matched_units(name, setting)
    keras.utils.set_random_seed(0)
    return build_model(name, units, setting, chrono_max=length)


def _optimizer():
    return TorchAdam(1e-3, global_clipnorm=1.0)


def fit_timer(name, T, steps):
    """A function that trains `name` for `steps` steps with model.fit and
    returns the seconds it took."""
    model = _compiled_model(name, T)
    torch = keras.backend.backend() == "torch"
    model.compile(
        optimizer=_optimizer(),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        jit_compile=not torch,
        steps_per_execution=1 if torch else PER_CALL,
    )
    rng = np.random.default_rng(0)
    count = steps * BATCH_SIZE
    symbols = rng.integers(0, SYMBOLS, size=(count, T + 20))
    x = np.eye(SYMBOLS, dtype="float32")[symbols]
    y = rng.integers(0, CLASSES, size=(count, T + 20))

    def run():
        began = time.perf_counter()
        model.fit(x, y, batch_size=BATCH_SIZE, epochs=1, shuffle=False, verbose=0)
        return time.perf_counter() - began

    return run


def engine_timer(name, T, steps):
    """The same with the in-graph engine on CopySource (TensorFlow)."""
    from benchmarks.data.sequences import CopySource
    from keras_nalm.engine.trainer import InGraphTrainer

    model = _compiled_model(name, T)
    trainer = InGraphTrainer(model, CopySource(T, batch_size=BATCH_SIZE), 0, PER_CALL)
    trainer.compile(optimizer=_optimizer())
    done = [0]

    def run():
        began = time.perf_counter()
        first_call = done[0] // PER_CALL
        done[0] += steps
        trainer.fit(steps=done[0], initial_epoch=first_call, verbose=0)
        return time.perf_counter() - began

    return run


def measure(models, T, steps, rounds):
    paths = {"model.fit": fit_timer}
    if keras.backend.backend() == "tensorflow":
        _one_thread_tensorflow()
        paths["engine"] = engine_timer
    timers = {
        (path, name): make(name, T, steps)
        for path, make in paths.items()
        for name in models
    }
    for run in timers.values():
        run()  # warm-up: compiles
    seconds = {key: [] for key in timers}
    for _ in range(rounds):
        for key, run in timers.items():
            seconds[key].append(run())
    setting = synthetic_setting(T + 20)
    results = []
    for path in paths:
        baseline = statistics.median(seconds[(path, models[0])])
        for name in models:
            median = statistics.median(seconds[(path, name)])
            units = matched_units(name, setting)
            results.append(
                {
                    "path": path,
                    "model": name,
                    "units": units,
                    "parameters": parameter_count(name, units, setting),
                    "steps_per_s": steps / median,
                    "ms_per_step": 1e3 * median / steps,
                    "time_relative_to_first": median / baseline,
                    "rounds_seconds": seconds[(path, name)],
                }
            )
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.recurrent_speed",
        description=__doc__.split("\n")[0],
    )
    parser.add_argument("--T", type=int, default=100)
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--models", default="nru,lstm")
    parser.add_argument("--output", default=None, help="also write the JSON here")
    args = parser.parse_args(argv)
    models = args.models.split(",")
    unknown = set(models) - set(MODELS)
    if unknown:
        parser.error(f"unknown models {sorted(unknown)}: {list(MODELS)}")
    if args.steps % PER_CALL:
        parser.error(f"--steps must be a multiple of {PER_CALL}.")
    report = {
        "backend": keras.backend.backend(),
        "device": device_description(),
        "T": args.T,
        "batch_size": BATCH_SIZE,
        "steps": args.steps,
        "rounds": args.rounds,
        "results": measure(models, args.T, args.steps, args.rounds),
    }
    for result in report["results"]:
        print(
            f"{report['backend']:10s} {result['path']:9s} {result['model']:12s} "
            f"{result['parameters']:7d} params {result['steps_per_s']:8.1f} steps/s "
            f"{result['ms_per_step']:7.2f} ms/step "
            f"x{result['time_relative_to_first']:.2f}"
        )
    if args.output:
        os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
        with open(args.output, "w") as handle:
            json.dump(report, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
