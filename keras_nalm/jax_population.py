"""Populations on JAX: many runs of one model in one compiled program, for
a GPU or TPU (Keras's JAX backend; no TensorFlow needed).

`JaxPopulationTrainer` is `keras_nalm.engine.PopulationTrainer`'s design
on the JAX backend, with the same arguments, `train`, `restart` and
`model_of`, and the same per-run logs and callbacks. A machine with JAX
and an accelerator but no TensorFlow (the GPU machines this project is
lent) trains populations through it:

- Each step is `jax.vmap`, over the runs, of the gradient of one run's
  loss through `model.stateless_call`: any Keras layer works unchanged,
  and the units' own gradients (exact at saturation) are the ones taken.
- `optimizer.stateless_apply` updates the stacked weights [R, ...] at
  once: Adam is elementwise, so each run keeps its own moments. A
  global-norm clip (`global_clipnorm`) and a per-variable one (`clipnorm`)
  are applied per run, over that run's gradients; constraints per run.
- `steps_per_call` steps are one `jax.lax.scan`, compiled once per
  program (`jax.jit`); evaluations are a second compiled call.
- A run's batch at step t is `source.draw((seed, t), data)`, written with
  `keras.ops` or `jax.numpy`, on the run's own data (its task and range).
  `threefry_uniform` draws the engine's Threefry-2x32-20 numbers, so a
  source written with it draws the same batches as the TensorFlow engine.
- Schedules (`graph_value_at`) set the control variables before every
  step, each run's from its own state: a schedule's Keras variables (the
  iNALU switch's "loss is low") are passed into the compiled call and
  read through a `keras.StatelessScope`.

What differs from the TensorFlow trainer: the initial weights are drawn
by Keras's JAX generator from the same seeds (other numbers than
TensorFlow's), and floating-point sums are associated differently, so
runs agree with the TensorFlow engine's in distribution, not bit for bit.
"""

import math

import jax
import jax.extend.random
import jax.numpy as jnp
import keras
import numpy as np
from keras import ops

from keras_nalm._population import Population
from keras_nalm.optimizers import clip_by_global_norm


def threefry_uniform(shape, seed):
    """Floats in [0, 1) of `shape` keyed by `seed` (int32, shape (2,)), the
    numbers `keras_nalm.engine.uniform` draws with `"threefry2x32"`:
    Threefry-2x32-20 blocks keyed by the seed with the counters (i, 0),
    laid out as the blocks' first words then their second, each word's
    top 24 bits scaled by 2^-24. (JAX's `threefry_2x32` splits its counts
    in halves, the first words' counters then the second's.)"""
    count = math.prod(shape)
    blocks = -(-count // 2)
    key = jax.lax.bitcast_convert_type(jnp.asarray(seed, jnp.int32), jnp.uint32)
    counters = jnp.concatenate(
        [jnp.arange(blocks, dtype=jnp.uint32), jnp.zeros(blocks, jnp.uint32)]
    )
    words = jax.extend.random.threefry_2x32(key, counters)[:count]
    top = jnp.right_shift(words, jnp.uint32(8)).astype(jnp.float32)
    return jnp.reshape(top * 2.0**-24, shape)


class JaxPopulationTrainer(Population):
    """Trains R runs of one model and batch source in one JAX program.

    Arguments, `train(steps, callbacks)`, `restart` and `model_of` are those
    of `keras_nalm.engine.PopulationTrainer` (see there), with sources whose
    `draw(seed, data)` (and `__call__(seed)`) use `keras.ops` or
    `jax.numpy` on the JAX backend, e.g. through `threefry_uniform`.

    Example:

    ```python
    import os
    os.environ["KERAS_BACKEND"] = "jax"
    from keras_nalm.jax_population import JaxPopulationTrainer
    trainer = JaxPopulationTrainer(build_model, source, seeds=range(225),
                                   optimizer=lambda: keras.optimizers.Adam(1e-3))
    logs = trainer.train(steps=50_000)
    ```
    """

    backend = "jax"

    def _hold(self, held, values):
        if values is None:
            return None
        return jax.tree_util.tree_map(jnp.asarray, values)

    def _evaluations(self):
        return self._compiled_calls()[1]()

    def _compiled_calls(self):
        """(train, evaluate) on the held state: `steps_per_call` steps of
        every run, storing the new weights, controls and optimizer state and
        returning each run's mean training loss; the evaluations."""
        if self._calls is None:
            train = jax.jit(self._train_call)
            evaluate = jax.jit(self._evaluate_call)

            def train_now():
                weights, controls, slots, losses = train(
                    _values(self.weights),
                    _values(self.controls),
                    _values(self.optimizer.variables),
                    self.seed_variable,
                    self.run_data,
                    self._schedule_states(),
                )
                _assign(self.weights, weights)
                _assign(self.controls, controls)
                _assign(self.optimizer.variables, slots)
                return np.asarray(losses)

            def evaluate_now():
                found = evaluate(
                    _values(self.weights),
                    _values(self.controls),
                    self.evaluation_sets,
                )
                return {key: np.asarray(value) for key, value in found.items()}

            self._calls = (train_now, evaluate_now)
        return self._calls

    def _train_call(self, weights, controls, slots, seeds, data, states):
        counter = next(
            i
            for i, v in enumerate(self.optimizer.variables)
            if v is self.optimizer.iterations
        )

        def step(carry, _):
            weights, controls, slots, losses_sum = carry
            at = slots[counter]
            controls = self._controls_at(controls, at, states)
            x, y = self._batches(seeds, data, at)
            losses, gradients = jax.vmap(self._loss_and_gradients)(
                weights, controls, x, y
            )
            weights, slots = self.optimizer.stateless_apply(
                slots, self._clipped(gradients), weights
            )
            weights = self._constrained(weights)
            return (weights, controls, slots, losses_sum + losses), None

        zeros = jnp.zeros([self.size], jnp.float32)
        (weights, controls, slots, losses_sum), _ = jax.lax.scan(
            step, (weights, controls, slots, zeros), length=self.steps_per_call
        )
        return weights, controls, slots, losses_sum / self.steps_per_call

    def _loss_and_gradients(self, weights, controls, x, y):
        """One run's training loss (with its regularizers) and gradients."""

        def loss_of(run_weights):
            y_pred, _, penalties = self.model.stateless_call(
                run_weights, controls, x, training=True, return_losses=True
            )
            loss = ops.mean(self.loss_function(y, y_pred))
            return loss + sum((ops.cast(p, loss.dtype) for p in penalties), 0.0)

        return jax.value_and_grad(loss_of)(list(weights))

    def _batches(self, seeds, data, step):
        step = jnp.asarray(step, jnp.int32)
        if data is None:
            return jax.vmap(lambda seed: self.source(jnp.stack([seed, step])))(seeds)
        return jax.vmap(
            lambda seed, run_data: self.source.draw(jnp.stack([seed, step]), run_data)
        )(seeds, data)

    def _clipped(self, gradients):
        if self.variable_clip_norm:
            limit = self.variable_clip_norm
            gradients = [
                jax.vmap(lambda g: _clip_by_norm(g, limit))(g) for g in gradients
            ]
        if not self.clip_norm:
            return gradients
        return jax.vmap(lambda run: clip_by_global_norm(list(run), self.clip_norm))(
            gradients
        )

    def _constrained(self, weights):
        return [
            stacked
            if variable.constraint is None
            else jax.vmap(variable.constraint)(stacked)
            for stacked, variable in zip(weights, self._trainable)
        ]

    def _schedule_states(self):
        """Each schedule group's graph state: the values of its callbacks'
        Keras variables, stacked over the runs where each run has its own
        callback."""
        states = []
        for group, _ in self._schedules:
            names = _state_names(group[0])
            if len(group) == 1:
                states.append([getattr(group[0], n).value for n in names])
            else:
                states.append(
                    [jnp.stack([getattr(c, n).value for c in group]) for n in names]
                )
        return states

    def _controls_at(self, controls, step, states):
        """The controls with every schedule's value at `step` ([R]: each
        run's from its own state)."""
        step = jnp.asarray(step, jnp.float32)
        controls = list(controls)
        for (group, indices), state in zip(self._schedules, states):
            schedule = group[0]
            variables = [getattr(schedule, n) for n in _state_names(schedule)]

            def value(run_state, schedule=schedule, variables=variables):
                mapping = list(zip(variables, run_state))
                with keras.StatelessScope(state_mapping=mapping):
                    return jnp.asarray(schedule.graph_value_at(step))

            if len(group) == 1 or not state:  # the same value for every run
                values = jnp.broadcast_to(value(state), [self.size])
            else:
                values = jax.vmap(value)(state)
            for index in indices:
                stacked = controls[index]
                shape = [self.size] + [1] * (stacked.ndim - 1)
                values_of = jnp.reshape(values, shape).astype(stacked.dtype)
                controls[index] = jnp.broadcast_to(values_of, stacked.shape)
        return controls

    def _evaluate_call(self, weights, controls, sets):
        found = {}
        for name, (x, y) in sets.items():

            def one(run_weights, run_controls, run_x, run_y):
                y_pred, _ = self.model.stateless_call(
                    run_weights, run_controls, run_x, training=False
                )
                values = {"loss": ops.mean(self.loss_function(run_y, y_pred))}
                for metric, function in self.metric_functions.items():
                    values[metric] = ops.mean(function(run_y, y_pred))
                return values

            for key, value in jax.vmap(one)(weights, controls, x, y).items():
                found[f"{name}_{key}"] = value
        return found


def _clip_by_norm(gradient, limit):
    norm = jnp.sqrt(jnp.sum(jnp.square(gradient)))
    return jnp.where(norm > limit, gradient * (limit / norm), gradient)


def _state_names(callback):
    """The names of a callback's Keras variables (its graph state)."""
    return sorted(n for n, v in vars(callback).items() if isinstance(v, keras.Variable))


def _values(variables):
    return [v.value for v in variables]


def _assign(variables, values):
    for variable, value in zip(variables, values):
        variable.assign(value)
