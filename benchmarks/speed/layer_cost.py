"""Training cost of each unit relative to a `keras.layers.Dense` of the same shape.

    python -m benchmarks.speed.layer_cost [--steps 20000] [--input-dim 100] [--units 2]

Trains a single layer (input_dim -> units, batch 128, MSE, Adam) with
`model.fit(steps_per_execution=1000, jit_compile=True)` on fixed random data
and prints one JSON line per layer: steps per second and the ratio to the
Dense baseline measured in the same run (machines are noisy: compare ratios,
not absolute figures, across runs).
"""

import argparse
import json
import os
import platform
import time

import keras
import numpy as np

import keras_nalm

L = keras_nalm.layers
LAYERS = {
    "Dense": lambda units: keras.layers.Dense(units, use_bias=False),
    "NAU": L.NAU,
    "NMU": L.NMU,
    "NAC": L.NAC,
    "NACMul": L.NACMul,
    "NALU": L.NALU,
    "NALU-complex": lambda units: L.NALU(units, multiplication="complex"),
    "GatedNAUNMU": L.GatedNAUNMU,
}
BATCH = 128


def steps_per_second(make_layer, steps, input_dim, units, repeats=3):
    rng = np.random.default_rng(0)
    x = rng.uniform(1, 2, size=(BATCH * 1000, input_dim)).astype("float32")
    y = x[:, :units] * x[:, units : 2 * units]
    model = keras.Sequential([keras.Input((input_dim,)), make_layer(units)])
    model.compile(
        optimizer="adam", loss="mse", steps_per_execution=1000, jit_compile=True
    )
    epochs = max(1, steps // 1000)
    model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0)  # compile and warm up
    best = 0.0
    for _ in range(repeats):
        began = time.perf_counter()
        model.fit(x, y, batch_size=BATCH, epochs=epochs, verbose=0)
        best = max(best, epochs * 1000 / (time.perf_counter() - began))
    return best


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--input-dim", type=int, default=100)
    parser.add_argument("--units", type=int, default=2)
    args = parser.parse_args(argv)
    baseline = None
    for name, make_layer in LAYERS.items():
        rate = steps_per_second(make_layer, args.steps, args.input_dim, args.units)
        baseline = baseline or rate
        print(
            json.dumps(
                {
                    "layer": name,
                    "steps_per_s": round(rate),
                    "ratio_to_dense": round(rate / baseline, 3),
                    "input_dim": args.input_dim,
                    "units": args.units,
                    "batch": BATCH,
                    "keras": keras.__version__,
                    "backend": keras.backend.backend(),
                    "cpus": os.cpu_count(),
                    "machine": platform.machine(),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
