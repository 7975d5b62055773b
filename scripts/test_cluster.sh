#!/usr/bin/env bash
# pdelta on a Spark standalone cluster, executors in JVMs of their own.
#   scripts/test_cluster.sh          make test-cluster: every kill point
#   scripts/test_cluster.sh --lane   make test's cluster lane (a stream of scripts/test.sh): one kill point
# Starts a master and two workers on 127.0.0.1 (scripts/spark_cluster.sh) and a Thrift Server as
# that cluster's driver (one executor on each worker, Delta's jars shipped with --jars; its own
# metastore in .pdelta/thrift-cluster, so it runs beside make test's other server), then:
#  1. the paper's D refreshed with both plans over that server: D as the paper gives it, equal to
#     its recomputation, the six sets each plan emitted;
#  2. the SIGKILL kill points of tests/test_apply.py over that server (a mirror + view refresh
#     killed before each of its statements, or before the middle one with --lane; every rerun
#     equal to recomputation, each change once);
#  3. the randomized chain4 shape (25 scenarios, both plans, 2 refreshes each) on target
#     `cluster`: the embedded session as a second driver on the cluster (the test checks that it
#     has two executors).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
started=$SECONDS
source scripts/test_settings.sh
lane=false
[ "${1:-}" = --lane ] && lane=true
mkdir -p .pdelta/tests
export PDELTA_THRIFT_STATE=.pdelta/thrift-cluster
# make test exports its own server's port: this lane's server picks a free one
unset PDELTA_THRIFT_PORT
bash scripts/thrift_server.sh stop >/dev/null 2>&1 || true
bash scripts/spark_cluster.sh stop >/dev/null 2>&1 || true
cleanup() { bash scripts/thrift_server.sh stop; bash scripts/spark_cluster.sh stop; }
trap cleanup EXIT
trap 'exit 143' TERM INT  # make test stops this stream with SIGTERM: the EXIT trap still stops the cluster
bash scripts/spark_cluster.sh start
PDELTA_SPARK_MASTER="$(bash scripts/spark_cluster.sh url)"
export PDELTA_SPARK_MASTER
bash scripts/thrift_server.sh start
PDELTA_THRIFT_PORT="$(bash scripts/thrift_server.sh port)"
export PDELTA_THRIFT_PORT
# make test's CPU meter charges the cluster's daemons and server to this stream (they are
# started in process groups of their own, outside this script's process tree), under the
# stream's name (PDELTA_CPU_STREAM)
if [ -n "${PDELTA_CPU_ROOTS:-}" ]; then
  stream=${PDELTA_CPU_STREAM:-cluster}
  for name in master worker1 worker2; do echo "$stream $(cat .pdelta/cluster/$name.pid)" >> "$PDELTA_CPU_ROOTS"; done
  echo "$stream $(bash scripts/thrift_server.sh pid)" >> "$PDELTA_CPU_ROOTS"
fi

checked="paper_d paper_d_diff paper_d_six_sets_emitted paper_d_complete_emitted"
paper="+paper_d +paper_d_diff paper_d_recomputed paper_d_recomputed_reordered paper_d_six_sets_emitted \
paper_d_complete_emitted"
echo "== [cluster 1/3] the paper's D over the Thrift Server on $PDELTA_SPARK_MASTER (project integration_tests/)"
# target folders of its own: make test's local lane runs dbt on this project at the same time
old="--target thrift --target-path target/cluster/old" new="--target thrift --target-path target/cluster/new"
# the package is installed in integration_tests/ by make setup; dbt deps here only when its link is
# missing or points at another clone (in make test the local lane reads the link at the same time)
bash scripts/integration_deps.sh
(cd integration_tests && PDELTA_SCHEMA=pdelta_cluster python -m pdelta.runner \
  "seed $old --full-refresh --select path:seeds/paper" \
  "run $old --full-refresh --vars '{paper_stage: old}' --select $paper" \
  "run $new --vars '{paper_stage: new}' --select $paper" \
  "test $new --vars '{paper_stage: new}' --select $checked")

echo "== [cluster 2/3] SIGKILL kill points over the Thrift Server on the cluster"
if $lane; then export PDELTA_FAULT_SAMPLE=1; fi
python -m pytest tests/test_apply.py -k sigkill -q -p no:cacheprovider -s

echo "== [cluster 3/3] the randomized chain4 shape on target 'cluster'"
# the server is done: its executors' JVMs would only hold memory and CPU the next driver can use
bash scripts/thrift_server.sh stop
export PDELTA_LOCAL_DIR="$PDELTA_HOME/.pdelta/tests/cluster"
rm -rf "$PDELTA_LOCAL_DIR"
# sources in Delta here (make test reads them from parquet: one file-listing job less per read)
PDELTA_RANDOM_TARGET=cluster PDELTA_RANDOM_SHAPES=chain4 PDELTA_RANDOM_INPUT_FORMAT=delta \
  PDELTA_RANDOM_DIR="$PDELTA_LOCAL_DIR/randomized" \
  python -m pytest tests/test_randomized_equivalence.py -q -p no:cacheprovider -s
echo "[test-cluster] ok in $((SECONDS - started))s"
