"""Training speed of every unit on the backend that runs it, relative to a
`keras.layers.Dense` of the same shape on the same backend.

    KERAS_BACKEND=jax python -m benchmarks.speed.backend_speed [--steps 2000]
        [--eager-steps N] [--output FILE]

For each layer (input_dim 100 -> 2 units, batch 128, MSE, Adam, inputs in
U[0.1, 0.9]) and each setting (`settings()`: eager; `jit_compile=True`; on
TensorFlow and JAX also 100 steps per execution, which PyTorch does not
support), `model.fit` trains `--steps` steps (eagerly `--eager-steps`:
JAX runs eagerly op by op, two orders of magnitude slower) after an epoch
that compiles and warms up; the best of three epochs counts. On PyTorch it also trains
NAU(100 -> 2) -> NMU(2 -> 1) with `model.fit` beside the plain PyTorch
loop of the same model that `benchmarks.throughput` measures (the
reference implementations' style: clamped weights, a fresh batch per
step, the regularizer at strength 0, the evaluation sets every 1 000
steps; one thread). Each measurement is one JSON row appended to FILE
(default `benchmarks/speed/results/backend_speed.jsonl`) with the ratio to
its baseline measured in the same run (Dense in the same setting; the
PyTorch loop), the versions and the commit; `docs/backends.md` shows them
(`benchmarks.claims`' `speed_table`). Compare ratios, not steps per
second, across runs: machines are noisy.
"""

import argparse
import datetime
import json
import os
import platform
import time

import keras
import numpy as np

import keras_nalm
from benchmarks.core.rows import provenance

L = keras_nalm.layers
#: The baseline first, then every unit of the library at its defaults
#: (and the NALU's complex multiplication).
LAYERS = {
    "Dense": lambda units: keras.layers.Dense(units, use_bias=False),
    "NAU": L.NAU,
    "NMU": L.NMU,
    "NAC": L.NAC,
    "NACMul": L.NACMul,
    "NALU": L.NALU,
    "NALU-complex": lambda units: L.NALU(units, multiplication="complex"),
    "GoldenRatioNALU": L.GoldenRatioNALU,
    "GatedNAUNMU": L.GatedNAUNMU,
    "INALU": L.INALU,
    "NPU": L.NPU,
    "RealNPU": L.RealNPU,
    "NLRL": L.NLRL,
    "NSR": L.NSR,
}
INPUT_DIM, UNITS, BATCH = 100, 2, 128
DEFAULT_OUTPUT = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "results", "backend_speed.jsonl"
)


def _data(steps, input_dim, outputs):
    rng = np.random.default_rng(0)
    x = rng.uniform(0.1, 0.9, size=(BATCH * steps, input_dim)).astype("float32")
    return x, x[:, :outputs] * x[:, outputs : 2 * outputs]


def fit_steps_per_second(model, steps, setting, repeats=3):
    """Steps per second of `model.fit` on fixed data in `setting`
    (`jit_compile`, `steps_per_execution`): the best of `repeats` epochs
    after one that compiles."""
    x, y = _data(steps, model.input_shape[-1], model.output_shape[-1])
    jit_compile, steps_per_execution = setting
    if jit_compile and keras.backend.backend() == "torch":
        # as in a fresh process: TorchDynamo guards Keras's train_step on the
        # model's name and stops compiling it after 8 models (its
        # recompile_limit), so the later ones would run eagerly
        import torch

        torch._dynamo.reset()
    model.compile(
        optimizer="adam",
        loss="mse",
        jit_compile=jit_compile,
        steps_per_execution=steps_per_execution,
    )
    return _best_rate(
        lambda: model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0), steps, repeats
    )


def _best_rate(train, steps, repeats):
    """Steps per second of the fastest of `repeats` calls of `train` (which
    trains `steps` steps), after one that compiles and warms up."""
    train()
    best = 0.0
    for _ in range(repeats):
        began = time.perf_counter()
        train()
        best = max(best, steps / (time.perf_counter() - began))
    return best


def _one_layer(make_layer):
    return keras.Sequential([keras.Input((INPUT_DIM,)), make_layer(UNITS)])


def _nau_nmu():
    inputs = keras.Input((INPUT_DIM,))
    hidden = L.NAU(2)(inputs)
    return keras.Model(inputs, L.NMU(1)(hidden))


def _pytorch_loop_steps_per_second(steps, repeats=3):
    from benchmarks.speed.throughput import pytorch_reference

    train = pytorch_reference(steps)
    return _best_rate(lambda: train(steps), steps, repeats)


def settings():
    """(jit_compile, steps_per_execution) of each measurement on this
    backend: eager, compiled, and (not on PyTorch) 100 compiled steps per
    execution."""
    found = [(False, 1), (True, 1)]
    return found if keras.backend.backend() == "torch" else [*found, (True, 100)]


def measurements(steps, eager_steps):
    """(layer, setting, steps trained, steps per second, baseline name,
    baseline's steps per second) of each measurement."""
    for setting in settings():
        length = steps if setting[0] else eager_steps
        baseline = None
        for name, make_layer in LAYERS.items():
            rate = fit_steps_per_second(_one_layer(make_layer), length, setting)
            baseline = baseline or rate
            yield name, setting, length, rate, "Dense", baseline
    if keras.backend.backend() == "torch":
        import torch

        torch.set_num_threads(1)
        loop = _pytorch_loop_steps_per_second(steps)
        yield "pytorch-loop:NAU-NMU", (False, 1), steps, loop, "pytorch-loop", loop
        for setting in settings():
            length = steps if setting[0] else eager_steps
            rate = fit_steps_per_second(_nau_nmu(), length, setting)
            yield "model.fit:NAU-NMU", setting, length, rate, "pytorch-loop", loop


def _versions():
    backend = keras.backend.backend()
    module = {"tensorflow": "tensorflow", "jax": "jax", "torch": "torch"}[backend]
    return {
        "keras_nalm": keras_nalm.__version__,
        "keras": keras.__version__,
        backend: __import__(module).__version__,
        "numpy": np.__version__,
        "python": platform.python_version(),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.speed.backend_speed",
        description=__doc__.split("\n")[0],
    )
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument(
        "--eager-steps", type=int, help="steps of the eager runs (default: --steps)"
    )
    parser.add_argument("--output", default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)
    eager_steps = args.eager_steps or args.steps
    common = {
        "backend": keras.backend.backend(),
        "input_dim": INPUT_DIM,
        "units": UNITS,
        "batch": BATCH,
        "versions": _versions(),
        "cpus": os.cpu_count(),
        "machine": platform.machine(),
        "date": datetime.date.today().isoformat(),
        **provenance(),
    }
    found = measurements(args.steps, eager_steps)
    for layer, setting, steps, rate, baseline, baseline_rate in found:
        row = {
            "layer": layer,
            "jit_compile": setting[0],
            "steps_per_execution": setting[1],
            "steps": steps,
            "steps_per_s": round(rate, 1),
            "baseline": baseline,
            "ratio_to_baseline": round(rate / baseline_rate, 3),
            **common,
        }
        with open(args.output, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(row) + "\n")
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
