"""Training throughput: the in-graph engine against plain `model.fit` and a
PyTorch reference loop.

Two workloads (`--workload`):

- `arithmetic` (default): Madsen & Johansen's arithmetic task model,
  NAU(100 -> 2) -> NMU(2 -> 1), batch 128, MSE, Adam, the NMU's sparsity
  regularizer wired in (at strength 0, as before its warm-up), evaluated
  on 10 000 interpolation and 10 000 extrapolation samples every 1 000
  steps.
- `copy`: the copying task at T = 100 (sequences of 120 steps, batch 10)
  with an LSTM of 22 k parameters and a linear read-out, cross-entropy
  on every step, evaluated on 1 000 sequences every 100 steps.

Engines (`--engines`, the first is the baseline of the ratios):

- `"pytorch"` (arithmetic, when torch is installed): the same model and
  protocol as a plain PyTorch loop in the reference implementations' style.
- `"model.fit"`: `model.fit(steps_per_execution=1000 (copy: 100),
  jit_compile=True)` on `keras_nalm.engine.as_dataset` (the engine's
  batches, drawn by the same XLA-compiled generator in a `tf.data`
  pipeline), the (first) evaluation set as `validation_data` every epoch.
- `"InGraphTrainer:GENERATOR"`: `keras_nalm.engine.InGraphTrainer`,
  1 000 (copy: 100) steps per compiled call, batches drawn in-graph with
  GENERATOR (`threefry2x32`, the default; `threefry2x32_13`; TensorFlow's
  `threefry`, the engine's generator before threefry2x32; `philox`), the
  evaluation in the same call.

Each engine runs in its own process with one intra-op and one inter-op
thread (one process per core; PyTorch with one thread), after a warm-up
that compiles it; with `--processes N`, N copies of each start measuring
together and the total is reported too. Prints one JSON line per engine
(and per concurrent process): `{"engine": NAME, "seed_steps_per_s": N,
"ratio_to_baseline": ..., "ratio_to_pytorch": ...,
"ratio_to_InGraphTrainer:threefry": ...}`.

    python -m benchmarks.throughput [--workload arithmetic|copy] [--steps N]
        [--engines a,b,...] [--processes 1]
"""

import argparse
import json
import multiprocessing
import os
import sys
import time
from queue import Empty

#: The engines measured, the baseline first: `model.fit`, the engine with
#: each generator (`InGraphTrainer:threefry` is the engine before
#: threefry2x32), and the PyTorch reference loop (arithmetic workload, when
#: torch is installed).
DEFAULT_GENERATOR = "threefry2x32"
ENGINES = (
    "model.fit",
    "InGraphTrainer:threefry",
    "InGraphTrainer:threefry2x32",
    "InGraphTrainer:threefry2x32_13",
    "InGraphTrainer:philox",
    "pytorch",
)
LOG_INTERVAL = 1_000


def _setup(device):
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf

    if device == "cpu":
        tf.config.set_visible_devices([], "GPU")
    tf.config.threading.set_intra_op_parallelism_threads(1)
    tf.config.threading.set_inter_op_parallelism_threads(1)


def _arithmetic_workload(algorithm, seed=0):
    """Madsen's arithmetic task: NAU(100 -> 2) -> NMU(2 -> 1), batch 128,
    evaluated on 10 000 interpolation and extrapolation samples, the NMU's
    sparsity regularizer wired in (strength 0, before its warm-up)."""
    import keras

    import keras_nalm
    from benchmarks.core.ranges import Range
    from benchmarks.data.arithmetic_batches import ArithmeticBatches
    from benchmarks.data.arithmetic_task import ArithmeticTask
    from keras_nalm.callbacks import RegularizerWarmup

    keras.utils.set_random_seed(seed)
    task = ArithmeticTask.draw(seed, "mul")
    inputs = keras.Input((task.input_size,))
    hidden = keras_nalm.layers.NAU(2, name="nau")(inputs)
    outputs = keras_nalm.layers.NMU(1, name="nmu")(hidden)
    model = keras.Model(inputs, outputs, name="nau_nmu")
    source = ArithmeticBatches(
        task, Range.parse("1,2"), Range.parse("2,6"), algorithm=algorithm
    )
    warmup = RegularizerWarmup(10**6, 2 * 10**6, max_strength=10.0)
    return model, source, source.evaluation_data(seed), [warmup], LOG_INTERVAL


def _copy_workload(algorithm, seed=0):
    """The copying task at T = 100 (120 steps per sequence, batch 10) with
    an LSTM of 22 k parameters (68 units and a linear read-out), evaluated
    on 1 000 sequences."""
    import keras
    import tensorflow as tf

    from benchmarks.data.sequences import CopySource

    keras.utils.set_random_seed(seed)
    source = CopySource(time_lag=100, batch_size=10, algorithm=algorithm)
    inputs = keras.Input((source.length, 10))
    hidden = keras.layers.LSTM(68, return_sequences=True)(inputs)
    model = keras.Model(inputs, keras.layers.Dense(source.classes)(hidden))
    draw = tf.function(CopySource(100, batch_size=1_000), jit_compile=True)
    evaluation = {"test": tuple(v.numpy() for v in draw(tf.constant([seed, -1])))}
    return model, source, evaluation, [], 100


WORKLOADS = {"arithmetic": _arithmetic_workload, "copy": _copy_workload}


def _measure(fit, steps, warm_up_steps, barrier=None):
    fit(warm_up_steps)  # compiles
    if barrier is not None:
        barrier.wait()  # concurrent processes measure together
    began = time.perf_counter()
    fit(steps)
    return time.perf_counter() - began


def pytorch_reference(steps, seed=0):
    """The arithmetic workload as a plain PyTorch loop in the reference
    implementations' style (stable-nalu): a fresh `torch.rand` batch every
    step, the NAU's and NMU's weights clamped in the forward pass and after
    each Adam step, the sparsity regularizer computed (at strength 0) every
    step, both evaluation sets every 1 000 steps. Returns a function that
    trains `n` steps."""
    import numpy as np
    import torch

    from benchmarks.core.ranges import Range
    from benchmarks.data.arithmetic_task import ArithmeticTask

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    task = ArithmeticTask.draw(seed, "mul")
    subsets = torch.tensor(task.subset_weights(), dtype=torch.float32)
    rng = np.random.default_rng(seed)
    evaluation = [
        tuple(torch.tensor(v, dtype=torch.float32) for v in task.sample(rng, 10_000, r))
        for r in (Range.parse("1,2"), Range.parse("2,6"))
    ]
    nau = torch.nn.Parameter(torch.empty(100, 2).uniform_(-0.5, 0.5))
    nmu = torch.nn.Parameter(torch.empty(2, 1).uniform_(0.25, 0.75))
    optimizer = torch.optim.Adam([nau, nmu], lr=1e-3)

    def model(x):
        hidden = x @ nau.clamp(-1, 1)
        w = nmu.clamp(0, 1)
        return torch.prod(hidden[:, :, None] * w + 1 - w, dim=1)

    def sparsity(w, low):
        return (
            torch.minimum(w.abs(), (1 - w.abs()).abs()).mean()
            if low
            else (torch.minimum(w.abs(), (1 - w).abs()).mean())
        )

    def train(n):
        for step in range(n):
            x = torch.rand(128, 100) + 1.0
            sums = x @ subsets
            target = sums[:, :1] * sums[:, 1:]
            loss = torch.mean((model(x) - target) ** 2)
            loss = loss + 0.0 * (sparsity(nau, True) + sparsity(nmu, False))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            with torch.no_grad():
                nau.clamp_(-1, 1)
                nmu.clamp_(0, 1)
                if step % LOG_INTERVAL == 0:
                    for x_set, y_set in evaluation:
                        torch.mean((model(x_set) - y_set) ** 2).item()

    return train


def run_engine(name, workload, steps, barrier=None):
    import keras

    from keras_nalm.engine import as_dataset
    from keras_nalm.engine.trainer import InGraphTrainer

    kind, _, algorithm = name.partition(":")
    if kind == "pytorch":
        seconds = _measure(pytorch_reference(0), steps, LOG_INTERVAL, barrier)
        return _result(name, workload, steps, seconds)
    model, source, evaluation, callbacks, per_call = WORKLOADS[workload](
        algorithm or DEFAULT_GENERATOR
    )
    optimizer = keras.optimizers.Adam(1e-3)
    if kind == "InGraphTrainer":
        trainer = InGraphTrainer(model, source, 0, per_call, evaluation)
        trainer.compile(optimizer=optimizer)

        def fit(n):
            trainer.fit(steps=n, callbacks=callbacks, verbose=0)

    else:
        model.compile(
            optimizer=optimizer,
            loss=source.loss,
            metrics=source.metrics,
            steps_per_execution=per_call,
            jit_compile=True,
        )
        data = as_dataset(source, seed=0).prefetch(2)
        x_valid, y_valid = next(iter(evaluation.values()))

        def fit(n):
            model.fit(
                data,
                epochs=n // per_call,
                steps_per_epoch=per_call,
                validation_data=(x_valid, y_valid),
                validation_batch_size=len(x_valid),
                callbacks=callbacks,
                verbose=0,
            )

    seconds = _measure(fit, steps, per_call, barrier)
    return _result(name, workload, steps, seconds)


def _result(name, workload, steps, seconds):
    return {
        "engine": name,
        "workload": workload,
        "seed_steps_per_s": steps / seconds,
        "seconds": seconds,
    }


def _child(name, workload, steps, device, queue, barrier):
    _setup(device)
    queue.put(run_engine(name, workload, steps, barrier))


def measure_in_processes(name, workload, steps, processes, device):
    context = multiprocessing.get_context("spawn")
    queue, barrier = context.Queue(), context.Barrier(processes)
    children = [
        context.Process(
            target=_child, args=(name, workload, steps, device, queue, barrier)
        )
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
    parser.add_argument("--workload", choices=tuple(WORKLOADS), default="arithmetic")
    parser.add_argument(
        "--steps",
        type=int,
        default=None,
        help="default: 20 000 (arithmetic), 500 (copy)",
    )
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--device", choices=("cpu", "gpu"), default="cpu")
    parser.add_argument(
        "--engines",
        default=None,
        help="a comma-separated subset of " + ",".join(ENGINES) + " (default: all "
        "that apply; the first is the baseline of the ratios)",
    )
    args = parser.parse_args(argv)
    steps = args.steps or {"arithmetic": 20_000, "copy": 500}[args.workload]
    per_call = LOG_INTERVAL if args.workload == "arithmetic" else 100
    if steps % per_call:
        parser.error(f"--steps must be a multiple of {per_call}.")
    engines = args.engines.split(",") if args.engines else _applicable(args.workload)
    unknown = set(engines) - set(ENGINES)
    if unknown:
        parser.error(f"unknown engines {sorted(unknown)}: {list(ENGINES)}")
    from benchmarks.core.rows import device_name

    _setup(args.device)
    device = device_name().replace(" (1 thread per worker)", "")
    rates = {}
    for name in engines:
        results = measure_in_processes(
            name, args.workload, steps, args.processes, args.device
        )
        rates[name] = sum(r["seed_steps_per_s"] for r in results) / len(results)
        for index, result in enumerate(results):
            result.update(
                process=index,
                processes=args.processes,
                threads_per_process=1,
                steps=steps,
                device=device,
                ratio_to_baseline=result["seed_steps_per_s"] / rates[engines[0]],
            )
            for reference in ("InGraphTrainer:threefry", "pytorch"):
                if reference in rates and reference != name:
                    ratio = result["seed_steps_per_s"] / rates[reference]
                    result[f"ratio_to_{reference}"] = ratio
            print(json.dumps(result), flush=True)
        if args.processes > 1:
            total = sum(r["seed_steps_per_s"] for r in results)
            print(json.dumps({"engine": name, "total_seed_steps_per_s": total}))
    return 0


def _applicable(workload):
    """Every engine for the arithmetic workload (PyTorch when installed);
    model.fit and the default engine for the copy task."""
    if workload != "arithmetic":
        return ["model.fit", f"InGraphTrainer:{DEFAULT_GENERATOR}"]
    engines = [name for name in ENGINES if name != "pytorch"]
    try:
        import torch  # noqa: F401
    except ImportError:
        return engines
    return ["pytorch", *engines]


if __name__ == "__main__":
    sys.exit(main())
