#!/usr/bin/env bash
# `make bench`: the benchmark matrix (python -m pdelta.bench; see docs/bench/README.md).
# Results go to docs/bench/ (results.json, .csv, .md, .png); Spark state to .pdelta/bench.
# Override the matrix with BENCH_ARGS, e.g. BENCH_ARGS="--matrix 100000:0.001,0.5".
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
# big data: more memory and partitions than the test suite's tiny defaults; AQE and codegen on
export PDELTA_DRIVER_MEMORY="${PDELTA_DRIVER_MEMORY:-14g}"
export PDELTA_SHUFFLE_PARTITIONS="${PDELTA_SHUFFLE_PARTITIONS:-16}"
# Delta state reconstruction with the shipped profile's 2 partitions: the product's setting, not one that
# favours the rebuild (pdelta reads more table versions per refresh than the rebuild does)
export PDELTA_SNAPSHOT_PARTITIONS="${PDELTA_SNAPSHOT_PARTITIONS:-2}"
export PDELTA_SPARK_ADAPTIVE="${PDELTA_SPARK_ADAPTIVE:-true}"
export PDELTA_SPARK_CODEGEN="${PDELTA_SPARK_CODEGEN:-true}"
if [ "${1:-}" = "adapt" ]; then
  shift
  # view adaptation (issue #19): each predicate and column change at 1M and 10M root rows, adapted vs rebuilt
  exec python -m pdelta.bench.adapt ${BENCH_ARGS:-} "$@"
fi
if [ "${1:-}" = "large" ]; then
  shift
  # 100M root rows at a fixed delta (0.001 % = 1,000 changes per relation level): hours here
  exec python -m pdelta.bench --matrix 100000000:0.00001,0.0001 --workloads chain ${BENCH_ARGS:-} "$@"
fi
# default: 1M root rows at every ratio, 10M at 0.01 % and 0.1 % (the fixed-delta comparison:
# 0.01 % of 10M = 0.1 % of 1M), both workloads
exec python -m pdelta.bench \
  --matrix 1000000:0.0001,0.001,0.01,0.1,0.5 --matrix 10000000:0.0001,0.001 ${BENCH_ARGS:-} "$@"
