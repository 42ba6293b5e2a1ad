#!/usr/bin/env bash
# The survey's whole Single Module benchmark (5 175 runs, paper preset) as
# populations on a GPU machine without TensorFlow: Keras's JAX backend and
# keras_nalm.jax_population (python -m benchmarks.speed.jax_population).
#
#     OUT=DIR KERAS_NALM_COMMIT=$(git rev-parse HEAD) bash benchmarks/speed/gpu_population.sh
#
# Writes DIR/rows.jsonl (the rows, resumable), DIR/population.json (the
# row of benchmarks/speed/results/population.jsonl: runs, wall_seconds,
# device, commit, population), DIR/environment.txt and DIR/log.txt. Where
# Keras 3 is missing (the device machines), .device_site/ is put on
# PYTHONPATH; make it beforehand on a machine with the registry (Keras, its
# compiled dependency optree and namex, as wheels for the device's Python):
#
#     python -m pip install --target .device_site --no-deps --only-binary=:all: \
#         --python-version 3.12 --platform manylinux2014_x86_64 keras namex optree
#
# and carry it with the command. Bounded by `timeout` (TIMEOUT_S, default
# 540 s); a second call resumes from DIR/rows.jsonl.
set -u
OUT=${OUT:-gpu_population}
PYTHON=${PYTHON:-python3}
TIMEOUT_S=${TIMEOUT_S:-540}
mkdir -p "$OUT"
export KERAS_BACKEND=jax BENCHMARKS_JAX_ONLY=1 PYTHONDONTWRITEBYTECODE=1

if ! "$PYTHON" -c 'import keras, sys; sys.exit(keras.__version__ < "3")' 2>/dev/null; then
    export PYTHONPATH=".device_site${PYTHONPATH:+:$PYTHONPATH}"
fi
{
    "$PYTHON" -V
    nvidia-smi -L 2>&1
    "$PYTHON" -c 'import jax, keras; print("jax", jax.__version__, jax.devices()); print("keras", keras.__version__)'
} > "$OUT/environment.txt" 2>&1

timeout "$TIMEOUT_S" "$PYTHON" -m benchmarks.speed.jax_population \
    --preset paper --module all --operation all --interpolation-range all \
    --seeds 0-24 --output "$OUT/rows.jsonl" > "$OUT/population.json" 2> "$OUT/log.txt"
status=$?
tail -n 2 "$OUT/log.txt"
echo "status $status; rows: $(wc -l < "$OUT/rows.jsonl" 2>/dev/null || echo 0)"
cat "$OUT/population.json"
exit $status
