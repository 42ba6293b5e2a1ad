"""Speed measurements: each measures its baseline in the same run and reports
ratios (`benchmarks/README.md`).

- throughput.py (`python -m benchmarks.throughput`), recurrent_speed.py (`python
  -m benchmarks.recurrent_speed`), generator_cost.py, backend_speed.py,
  random_stream.py, cluster_overhead.py (`python -m benchmarks.speed.NAME`),
  gpu_backends.sh
- results/: the measurements
"""
