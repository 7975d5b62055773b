#!/usr/bin/env bash
# make test-cluster: pdelta on a Spark standalone cluster, executors in JVMs of their own.
# Starts a master and two workers on 127.0.0.1 (scripts/spark_cluster.sh) and a Thrift Server as
# that cluster's driver (one executor on each worker, Delta's jars shipped with --jars), then:
#  1. the paper's D refreshed with both plans over that server: D as the paper gives it, equal to
#     its recomputation, the six sets each plan emitted;
#  2. the SIGKILL kill points of tests/test_apply.py over that server (a mirror + view refresh
#     killed before each of its statements, every rerun equal to recomputation, each change once);
#  3. the randomized chain4 shape (25 scenarios, both plans, 2 refreshes each) on target
#     `cluster`: the embedded session as a second driver on the cluster (the test checks that it
#     has two executors).
# Not part of `make test`: on this 2-core machine the executors' extra JVMs made the suite take
# 28.6 min with the Thrift tests on the cluster (against ~21 without), over its 25-minute budget.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
started=$SECONDS
source scripts/test_settings.sh
mkdir -p .pdelta/tests
bash scripts/thrift_server.sh stop >/dev/null 2>&1 || true
bash scripts/spark_cluster.sh stop >/dev/null 2>&1 || true
cleanup() { bash scripts/thrift_server.sh stop; bash scripts/spark_cluster.sh stop; }
trap cleanup EXIT
bash scripts/spark_cluster.sh start
PDELTA_SPARK_MASTER="$(bash scripts/spark_cluster.sh url)"
export PDELTA_SPARK_MASTER
bash scripts/thrift_server.sh start
PDELTA_THRIFT_PORT="$(bash scripts/thrift_server.sh port)"
export PDELTA_THRIFT_PORT

checked="paper_d paper_d_diff paper_d_six_sets_emitted paper_d_complete_emitted"
paper="+paper_d +paper_d_diff paper_d_recomputed paper_d_six_sets_emitted paper_d_complete_emitted"
echo "== [1/3] the paper's D over the Thrift Server on $PDELTA_SPARK_MASTER (project integration_tests/)"
(cd integration_tests && PDELTA_SCHEMA=pdelta_cluster python -m pdelta.runner \
  "deps --quiet" \
  "seed --target thrift --full-refresh" \
  "run --target thrift --full-refresh --vars '{paper_stage: old}' --select $paper" \
  "run --target thrift --vars '{paper_stage: new}' --select $paper" \
  "test --target thrift --vars '{paper_stage: new}' --select $checked")

echo "== [2/3] SIGKILL kill points over the Thrift Server on the cluster"
python -m pytest tests/test_apply.py -k sigkill -q -p no:cacheprovider -s

echo "== [3/3] the randomized chain4 shape on target 'cluster'"
export PDELTA_LOCAL_DIR="$PDELTA_HOME/.pdelta/tests/cluster"
rm -rf "$PDELTA_LOCAL_DIR"
# sources in Delta here (make test reads them from parquet: one file-listing job less per read)
PDELTA_RANDOM_TARGET=cluster PDELTA_RANDOM_SHAPES=chain4 PDELTA_RANDOM_INPUT_FORMAT=delta \
  PDELTA_RANDOM_DIR="$PDELTA_LOCAL_DIR/randomized" \
  python -m pytest tests/test_randomized_equivalence.py -q -p no:cacheprovider -s
echo "[test-cluster] ok in $((SECONDS - started))s"
