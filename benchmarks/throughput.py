"""Training throughput: the in-graph engine against plain `model.fit`.

The workload is Madsen & Johansen's arithmetic task model: NAU(100 -> 2)
-> NMU(2 -> 1), batch 128, MSE, Adam, the NMU's sparsity regularizer
wired in (at strength 0, as before its warm-up), evaluated on 10 000
interpolation and 10 000 extrapolation samples every 1 000 steps.

- `"InGraphTrainer"`: `keras_nalm.xla_engine.InGraphTrainer`, 1 000 steps
  per compiled call, batches drawn in-graph (threefry).
- `"model.fit"`: the same model with `model.fit(steps_per_execution=1000,
  jit_compile=True)`, batches from a `tf.data` pipeline that draws them
  with the same stateless generator, the two evaluation sets as
  `validation_data` every epoch of 1 000 steps.

Each engine runs in its own process with one intra-op and one inter-op
thread (one process per core), after a warm-up that compiles it; with
`--processes N`, N copies of each start measuring together and the total
is reported too. Prints one JSON line per engine (and per concurrent process):
`{"engine": NAME, "seed_steps_per_s": N, ...}`.

    python -m benchmarks.throughput [--steps 20000] [--processes 1]
"""

import argparse
import json
import multiprocessing
import os
import sys
import time
from queue import Empty

ENGINES = ("InGraphTrainer", "model.fit")
LOG_INTERVAL = 1_000


def _setup(device):
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf

    if device == "cpu":
        tf.config.set_visible_devices([], "GPU")
    tf.config.threading.set_intra_op_parallelism_threads(1)
    tf.config.threading.set_inter_op_parallelism_threads(1)


def _workload(seed=0):
    import keras
    import numpy as np

    import keras_nalm
    from keras_nalm.tasks import ArithmeticTask
    from keras_nalm.tasks import Range

    keras.utils.set_random_seed(seed)
    task = ArithmeticTask.draw(seed, "mul")
    inputs = keras.Input((task.input_size,))
    hidden = keras_nalm.layers.NAU(2, name="nau")(inputs)
    outputs = keras_nalm.layers.NMU(1, name="nmu")(hidden)
    model = keras.Model(inputs, outputs, name="nau_nmu")
    rng = np.random.default_rng(seed)
    interpolation, extrapolation = Range.parse("1,2"), Range.parse("2,6")
    evaluation = {
        "interpolation": task.sample(rng, 10_000, interpolation),
        "extrapolation": task.sample(rng, 10_000, extrapolation),
    }
    return model, task, interpolation, evaluation


def _measure(fit, steps, barrier=None):
    fit(LOG_INTERVAL)  # compiles
    if barrier is not None:
        barrier.wait()  # concurrent processes measure together
    began = time.perf_counter()
    fit(steps)
    return time.perf_counter() - began


def run_engine(name, steps, barrier=None):
    import keras

    from keras_nalm.callbacks import RegularizerWarmup
    from keras_nalm.xla_engine import ArithmeticBatches
    from keras_nalm.xla_engine import InGraphTrainer

    model, task, interpolation, evaluation = _workload()
    optimizer = keras.optimizers.Adam(1e-3)
    warmup = RegularizerWarmup(10**6, 2 * 10**6, max_strength=10.0)
    if name == "InGraphTrainer":
        batches = ArithmeticBatches(task, interpolation)
        trainer = InGraphTrainer(model, batches, evaluation_data=evaluation)
        trainer.compile(optimizer=optimizer, loss="mse", metrics=["mse"])

        def fit(n):
            trainer.fit(steps=n, callbacks=[warmup], verbose=0)

    else:
        import tensorflow as tf

        model.compile(
            optimizer=optimizer,
            loss="mse",
            metrics=["mse"],
            steps_per_execution=LOG_INTERVAL,
            jit_compile=True,
        )
        seeds = tf.data.Dataset.range(2**31 - 1).map(
            lambda i: tf.stack([tf.constant(0, tf.int32), tf.cast(i, tf.int32)])
        )
        batches = ArithmeticBatches(task, interpolation, algorithm="philox")
        data = seeds.map(batches).prefetch(tf.data.AUTOTUNE)
        x_valid, y_valid = evaluation["interpolation"]

        def fit(n):
            model.fit(
                data,
                epochs=n // LOG_INTERVAL,
                steps_per_epoch=LOG_INTERVAL,
                validation_data=(x_valid, y_valid),
                validation_batch_size=10_000,
                callbacks=[warmup],
                verbose=0,
            )

    seconds = _measure(fit, steps, barrier)
    return {"engine": name, "seed_steps_per_s": steps / seconds, "seconds": seconds}


def _child(name, steps, device, queue, barrier):
    _setup(device)
    queue.put(run_engine(name, steps, barrier))


def measure_in_processes(name, steps, processes, device):
    context = multiprocessing.get_context("spawn")
    queue, barrier = context.Queue(), context.Barrier(processes)
    children = [
        context.Process(target=_child, args=(name, steps, device, queue, barrier))
        for _ in range(processes)
    ]
    for child in children:
        child.start()
    results = []
    while len(results) < processes:
        try:
            results.append(queue.get(timeout=5))
        except Empty:
            if any(child.exitcode not in (None, 0) for child in children):
                raise RuntimeError(f"A {name} measurement process failed.") from None
    for child in children:
        child.join()
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.throughput", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--device", choices=("cpu", "gpu"), default="cpu")
    args = parser.parse_args(argv)
    if args.steps % LOG_INTERVAL:
        parser.error(f"--steps must be a multiple of {LOG_INTERVAL}.")
    from benchmarks.sweep import device_name

    _setup(args.device)
    device = device_name().replace(" (1 thread per worker)", "")
    baseline = None
    for name in reversed(ENGINES):  # the baseline first
        results = measure_in_processes(name, args.steps, args.processes, args.device)
        per_process = sum(r["seed_steps_per_s"] for r in results) / len(results)
        baseline = baseline or per_process
        for index, result in enumerate(results):
            result.update(
                process=index,
                processes=args.processes,
                threads_per_process=1,
                steps=args.steps,
                device=device,
                ratio_to_model_fit=result["seed_steps_per_s"] / baseline,
            )
            print(json.dumps(result), flush=True)
        if args.processes > 1:
            total = sum(r["seed_steps_per_s"] for r in results)
            print(json.dumps({"engine": name, "total_seed_steps_per_s": total}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
