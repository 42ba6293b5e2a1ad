"""Demo: learn t = (x1 + x2) * (x1 + x2 + x3 + x4) and read it off the weights.

Madsen & Johansen (2020, §1.1) show that an NAU(4 -> 2) followed by an
NMU(2 -> 1) learns this 10-parameter function from inputs in U[1, 2] and
extrapolates it to U[2, 6]. This script trains that model with
`model.fit`, warms the sparsity regularizer up (Madsen eq. 14), and judges
success as the paper does: the extrapolation MSE must be below the MSE of
an epsilon-perfect model (eq. 16, epsilon = 1e-5).

Run it with `python -m keras_nalm.demo` (`--help` for the options).
"""

import argparse
import sys
import time

import keras
import numpy as np

import keras_nalm

#: The training (interpolation) and test (extrapolation) ranges, U[low, high].
INTERPOLATION_RANGE = (1.0, 2.0)
EXTRAPOLATION_RANGE = (2.0, 6.0)
EPSILON = 1e-5
BATCH_SIZE = 128


def range_name(value_range):
    low, high = value_range
    return f"U[{low:g},{high:g}]"


def target(x):
    """t = (x1 + x2) * (x1 + x2 + x3 + x4) of each row of `x`, as a column."""
    return np.sum(x[:, :2], axis=1, keepdims=True) * np.sum(x, axis=1, keepdims=True)


def sample(rng, n, value_range):
    """`n` inputs from `value_range` and their targets, float32."""
    x = rng.uniform(*value_range, size=(n, 4))
    return x.astype(np.float32), target(x).astype(np.float32)


def epsilon_perfect_mse(value_range, epsilon=EPSILON, samples=1_000_000, seed=0):
    """The success threshold: the MSE of the epsilon-perfect model on
    `value_range` (Madsen & Johansen 2020, eq. 16), simulated on `samples`
    inputs. Its NAU weights are off by epsilon (1 - epsilon on the inputs
    of each sum, epsilon on the others) and its NMU is exact."""
    x = np.random.default_rng(seed).uniform(*value_range, size=(samples, 4))
    first = (1.0 - epsilon) * x[:, :2].sum(axis=1) + epsilon * x[:, 2:].sum(axis=1)
    second = (1.0 - epsilon) * x.sum(axis=1)
    return float(np.mean((first * second - target(x)[:, 0]) ** 2))


def build_model():
    inputs = keras.Input((4,), name="x")
    hidden = keras_nalm.layers.NAU(2, name="nau")(inputs)
    outputs = keras_nalm.layers.NMU(1, name="nmu")(hidden)
    return keras.Model(inputs, outputs, name="nau_nmu")


def train(
    seed=0,
    steps=40_000,
    warmup_start=20_000,
    warmup_end=30_000,
    max_strength=10.0,
    steps_per_epoch=1_000,
    test_samples=100_000,
    verbose=0,
):
    """Trains the NAU -> NMU model on fresh U[1, 2] batches and evaluates it.

    Every step sees a new batch of 128 samples, as in the paper's protocol.
    After each epoch of `steps_per_epoch` steps the model is validated on
    10 000 fixed interpolation samples; the weights of the best epoch are
    kept (early stopping on the validation set, Madsen §4.1.2).
    Returns a dict with the model, `extrapolation_mse`, `threshold` (the
    epsilon-perfect model's MSE on the extrapolation range, simulated on
    10^6 samples: `epsilon_perfect_mse`), `solved`, `best_epoch` and
    `seconds`.
    """
    keras.utils.set_random_seed(seed)
    rng = np.random.default_rng(seed)
    x_train, y_train = sample(rng, steps * BATCH_SIZE, INTERPOLATION_RANGE)
    x_valid, y_valid = sample(rng, 10_000, INTERPOLATION_RANGE)
    x_test, y_test = sample(rng, test_samples, EXTRAPOLATION_RANGE)

    model = build_model()
    model.compile(
        optimizer=keras.optimizers.Adam(1e-3),
        loss="mse",
        metrics=["mse"],
        # PyTorch's trainer runs one step per execution
        steps_per_execution=1
        if keras.backend.backend() == "torch"
        else min(500, steps_per_epoch),
        # XLA on TensorFlow and JAX; eager on PyTorch, where TorchDynamo
        # (`jit_compile=True`) took twice as long per step on this model
        jit_compile=keras.backend.backend() != "torch",
    )
    epochs = max(1, steps // steps_per_epoch)
    warmup = keras_nalm.callbacks.RegularizerWarmup(
        warmup_start, warmup_end, max_strength=max_strength
    )
    best = keras.callbacks.EarlyStopping(
        monitor="val_mse", patience=epochs, restore_best_weights=True
    )
    began = time.perf_counter()
    model.fit(
        x_train,
        y_train,
        batch_size=BATCH_SIZE,
        steps_per_epoch=steps_per_epoch,
        epochs=epochs,
        validation_data=(x_valid, y_valid),
        validation_batch_size=10_000,
        shuffle=False,
        callbacks=[warmup, best],
        verbose=verbose,
    )
    seconds = time.perf_counter() - began
    predictions = model.predict(x_test, batch_size=10_000, verbose=0)
    errors = predictions.astype(np.float64) - y_test.astype(np.float64)
    extrapolation_mse = float(np.mean(errors**2))
    threshold = epsilon_perfect_mse(EXTRAPOLATION_RANGE, seed=seed)
    return {
        "model": model,
        "extrapolation_mse": extrapolation_mse,
        "threshold": threshold,
        "solved": extrapolation_mse < threshold,
        "best_epoch": best.best_epoch + 1,
        "seconds": seconds,
    }


def _count(minimum):
    """An argparse type: an int of at least `minimum`."""

    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is below {minimum}")
        return value

    return parse


def _strength(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"{text} is not a strength >= 0")
    return value


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m keras_nalm.demo", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--seed", type=_count(0), default=0)
    parser.add_argument(
        "--steps", type=_count(1_000), default=40_000, help="optimizer steps"
    )
    parser.add_argument("--warmup-start", type=_count(0), default=20_000)
    parser.add_argument("--warmup-end", type=_count(0), default=30_000)
    parser.add_argument("--max-strength", type=_strength, default=10.0)
    args = parser.parse_args(argv)
    if args.warmup_end <= args.warmup_start:
        parser.error(
            f"--warmup-end ({args.warmup_end}) must come after --warmup-start "
            f"({args.warmup_start})"
        )

    print(
        "Learning t = (x1 + x2) * (x1 + x2 + x3 + x4) with NAU(4->2) -> NMU(2->1):"
        f" {args.steps} steps of batch {BATCH_SIZE} from "
        f"{range_name(INTERPOLATION_RANGE)}, seed {args.seed}.",
        flush=True,
    )
    result = train(
        seed=args.seed,
        steps=args.steps,
        warmup_start=args.warmup_start,
        warmup_end=args.warmup_end,
        max_strength=args.max_strength,
    )
    print(
        f"Trained in {result['seconds']:.1f} s; the best epoch was "
        f"{result['best_epoch']} of {max(1, args.steps // 1_000)}."
    )
    print(
        f"Extrapolation MSE on {range_name(EXTRAPOLATION_RANGE)}: "
        f"{result['extrapolation_mse']:.3g} (threshold of the "
        f"epsilon-perfect model, epsilon={EPSILON:g}: {result['threshold']:.3g})"
    )
    print("PASS" if result["solved"] else "FAIL")
    print("Learned expression:")
    keras_nalm.describe(result["model"])
    return 0 if result["solved"] else 1


if __name__ == "__main__":
    sys.exit(main())
