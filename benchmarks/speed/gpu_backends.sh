#!/usr/bin/env bash
# The layers on a GPU through Keras's other backends, for a machine without
# TensorFlow: the layer harness (tests/test_layers.py: equations against
# NumPy, contract, numerics, serialization, gradients) and the recurrent
# speed benchmark (python -m benchmarks.recurrent_speed) on JAX and PyTorch.
#
#     OUT=DIR bash benchmarks/speed/gpu_backends.sh
#
# Writes DIR/environment.txt, DIR/harness_{jax,jax_highest,torch}.txt and
# DIR/speed_{jax,torch}.json (default DIR: gpu_backends). When the JAX
# harness fails, it is run again with JAX_DEFAULT_MATMUL_PRECISION=highest,
# to tell TF32 matrix products (JAX's default for float32 on recent GPUs)
# from real faults. If Keras 3 or pytest is missing, a directory
# .device_site/ of pure-Python packages is put on PYTHONPATH. Each step is
# bounded by `timeout` (seconds in HARNESS_S, SPEED_S).
set -u
OUT=${OUT:-gpu_backends}
PYTHON=${PYTHON:-python3}
HARNESS_S=${HARNESS_S:-300}
SPEED_S=${SPEED_S:-120}
mkdir -p "$OUT"
export TF_CPP_MIN_LOG_LEVEL=3 PYTHONDONTWRITEBYTECODE=1

if ! "$PYTHON" -c 'import keras, pytest, sys; sys.exit(keras.__version__ < "3")' 2>/dev/null; then
    export PYTHONPATH=".device_site${PYTHONPATH:+:$PYTHONPATH}"
fi
{
    "$PYTHON" -V
    nvidia-smi -L
    "$PYTHON" -m pip list 2>/dev/null | grep -i -E '^(jax|jaxlib|jax-cuda|torch|keras|numpy|scipy|pytest|tensorflow)'
    echo "PYTHONPATH=${PYTHONPATH:-}"
    "$PYTHON" -c 'import jax; print("jax devices:", jax.devices())'
    "$PYTHON" -c 'import torch; print("torch cuda:", torch.cuda.is_available())'
} > "$OUT/environment.txt" 2>&1

harness() {  # backend, output name, extra environment
    env KERAS_BACKEND="$1" ${3:-} timeout "$HARNESS_S" "$PYTHON" -m pytest -v --tb=line \
        -p no:cacheprovider tests/test_layers.py > "$OUT/harness_$2.txt" 2>&1
}
speed() {  # backend, models, steps
    KERAS_BACKEND="$1" timeout "$SPEED_S" "$PYTHON" -m benchmarks.recurrent_speed \
        --models "$2" --steps "$3" --rounds 2 --output "$OUT/speed_$1.json" \
        > "$OUT/speed_$1.txt" 2>&1
}

harness jax jax || harness jax jax_highest JAX_DEFAULT_MATMUL_PRECISION=highest
speed jax nru,lstm,gru,janet 200
speed torch nru,lstm 100
harness torch torch
tail -n 3 "$OUT"/*.txt
