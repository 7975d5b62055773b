#!/usr/bin/env bash
# make test: every test, from a fresh clone.
#  1. the shared delta model: generated macro and seed match python/pdelta/algebra.py
#  2. the local lane (tests/test_local_lane.py): dbt build of the repository's own project
#     integration_tests/ (seeds, models, data tests; pdelta installed from `../`) on the embedded
#     `local` session in two stages: the paper's example in its old state (full build), then its
#     new state (incremental refresh; all data tests: the paper's figures, full recomputation, the
#     shared algebra on Spark, seed loading); pdelta validate / explain; model contracts (a view's
#     and a mirror's) that stop a build with nothing written; grants applied and revoked (through
#     a stand-in for the catalog's grants, integration_tests/macros/ops/grants_double.sql); a Delta
#     MERGE check; a mirror whose feed gained a column (on_schema_change: fail stops it, the
#     default rebuilds it)
#  3. pytest: algebra, declaration errors, pdelta validate catalogue, capture of every raw format
#     on the embedded session; over a Spark Thrift Server started here: apply strategies, SIGKILL
#     fault injection, concurrency, SCD2 history (tests/test_apply.py), live validation, and
#     capture as a user project runs it (tests/test_capture_thrift.py: raw JSON feeds read by the
#     server, two formats joined in one view, quarantine), then docs/use-in-your-project.md
#     followed in an empty folder on its own embedded session (tests/test_user_guide.py: it is in
#     this stream for its length only); randomized equivalence + flag analysis
#     (PDELTA_DEEP=1: deep mode for the randomized suite and the fault injection)
#  4. the cluster lane (scripts/test_cluster.sh --lane): a Spark standalone cluster on 127.0.0.1 (a
#     master, two workers, executors in JVMs of their own) with a second Thrift Server as its
#     driver: the paper's D with both plans, one SIGKILLed refresh and its rerun, the randomized
#     chain4 shape on the embedded session as the cluster's driver (`make test-cluster`: every
#     kill point); then the benchmark harness on a few thousand rows, all four contenders checked
#     equal, and the adaptation benchmark's, two changes of each kind with and without the cost
#     model (tests/test_bench_smoke.py)
# Five streams run side by side, each with its own Spark JVM (the Thrift Servers', and one
# embedded session per pytest process): the Thrift tests; the randomized suite, then the consistent cut
# across one source's feeds (tests/test_source_cut.py); the capture module
# (one fixture that runs every raw format twice), the feed contract's bad-row catalogue, the
# feed history's runs and users' states read as of the bound (tests/test_state_compensation.py); the
# cluster lane, then the bench smoke runs (the lane ends first: ~11 of
# ~40 minutes); in the foreground, the local lane and the other modules (one pytest process: its
# JVM warms up once for both). make test is CPU-bound on small machines, so the split keeps the
# streams about equally long (one that ends early leaves a core idle). The logs of the background
# ones are printed when they end.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
started=$SECONDS
source scripts/test_settings.sh
mkdir -p .pdelta/tests

# CPU seconds per stream, printed at the end beside the wall time (scripts/cpu_meter.py): wall
# time also counts the time a process waits for a core, which depends on what else the machine
# runs (runs of one commit have differed by a third); CPU seconds count only the suite's own work
cpu_roots=.pdelta/tests/cpu_roots.txt
echo "local-lane+other-modules $$" > "$cpu_roots"
python scripts/cpu_meter.py "$cpu_roots" .pdelta/tests/cpu.txt &
meter_pid=$!

echo "== [1/3] shared delta model (Python <-> Jinja)"
pdelta gen-macros --check
# the dbt-databricks virtualenv of tests/test_databricks.py, set up while the streams run (its
# downloads wait on the network); the test waits for it
bash scripts/databricks_venv.sh > .pdelta/tests/databricks_venv.log 2>&1 &
echo "databricks-venv $!" >> "$cpu_roots"

echo "== starting a Spark Thrift Server (tests/test_apply.py, tests/test_live_validation.py, \
tests/test_capture_thrift.py)"
bash scripts/thrift_server.sh stop >/dev/null 2>&1 || true
bash scripts/thrift_server.sh start
thrift_pid=
random_pid=
capture_pid=
cluster_pid=
# a background stream's log (.pdelta/tests/$1) without Spark's timestamped log lines and blank lines
log_text() {
  grep -v '^\S*[0-9:]\{8\}  ' ".pdelta/tests/$1" | grep -v '^\s*$' || true
}
# the end of a background stream's log when it is still running at exit: make test stopped from
# outside (CI's time limit, say) or by a failure says where each unfinished stream was
unfinished() {
  if [ -n "$1" ] && kill -0 "$1" 2>/dev/null; then
    echo "== [test] $2 had not ended; the last lines of .pdelta/tests/$3:"
    log_text "$3" | tail -n 30
  fi
  return 0
}
cleanup() {
  unfinished "$thrift_pid" "the Thrift stream" thrift.log || true
  unfinished "$random_pid" "the randomized stream" randomized.log || true
  unfinished "$capture_pid" "the capture stream" capture.log || true
  unfinished "$cluster_pid" "the cluster and bench smoke stream" cluster.log || true
  [ -n "$meter_pid" ] && kill "$meter_pid" 2>/dev/null
  [ -n "$thrift_pid" ] && kill "$thrift_pid" 2>/dev/null
  [ -n "$random_pid" ] && kill "$random_pid" 2>/dev/null
  [ -n "$capture_pid" ] && kill "$capture_pid" 2>/dev/null
  if [ -n "$cluster_pid" ]; then  # the lane's own trap stops its server and cluster; make sure
    pkill -TERM -P "$cluster_pid" 2>/dev/null  # the stream's subshell runs the lane, then pytest
    kill "$cluster_pid" 2>/dev/null && sleep 2
    PDELTA_THRIFT_STATE=.pdelta/thrift-cluster bash scripts/thrift_server.sh stop >/dev/null 2>&1 || true
    bash scripts/spark_cluster.sh stop >/dev/null 2>&1 || true
  fi
  bash scripts/thrift_server.sh stop
}
trap cleanup EXIT
PDELTA_THRIFT_PORT="$(bash scripts/thrift_server.sh port)"
echo "thrift $(bash scripts/thrift_server.sh pid)" >> "$cpu_roots"
export PDELTA_THRIFT_PORT

echo "== [3/3] pytest over the Thrift Server (in the background; log: .pdelta/tests/thrift.log)"
python -m pytest tests/test_apply.py tests/test_live_validation.py tests/test_capture_thrift.py \
  tests/test_user_guide.py -q -p no:cacheprovider \
  --durations=5 -s \
  > .pdelta/tests/thrift.log 2>&1 &
thrift_pid=$!
echo "thrift $thrift_pid" >> "$cpu_roots"

echo "== [3/3] pytest: randomized equivalence (in the background; log: .pdelta/tests/randomized.log)"
python -m pytest tests/test_randomized_equivalence.py tests/test_source_cut.py -q -p no:cacheprovider \
  --durations=3 -s \
  > .pdelta/tests/randomized.log 2>&1 &
random_pid=$!
echo "randomized $random_pid" >> "$cpu_roots"

echo "== [3/3] pytest: capture of every raw format, the feed contract \
(in the background; log: .pdelta/tests/capture.log)"
PDELTA_LOCAL_DIR="$PDELTA_HOME/.pdelta/tests/capture-spark" python -m pytest \
  tests/test_capture.py tests/test_feed_contract.py tests/test_feed_history.py tests/test_state_compensation.py \
  -q -p no:cacheprovider --durations=3 \
  > .pdelta/tests/capture.log 2>&1 &
capture_pid=$!
echo "capture+feed-contract $capture_pid" >> "$cpu_roots"

echo "== [4] the cluster lane, then [3/3] the benchmark harnesses' smoke runs" \
     "(in the background; log: .pdelta/tests/cluster.log)"
(
  set +e
  PDELTA_CPU_ROOTS="$cpu_roots" PDELTA_CPU_STREAM=cluster+bench-smoke bash scripts/test_cluster.sh --lane
  lane_rc=$?
  echo "== pytest: the benchmark harnesses' smoke runs"
  python -m pytest tests/test_bench_smoke.py -q -p no:cacheprovider --durations=3 -s
  smoke_rc=$?
  echo "[cluster stream] cluster lane rc $lane_rc, bench smoke rc $smoke_rc"
  [ $lane_rc = 0 ] && [ $smoke_rc = 0 ]
) > .pdelta/tests/cluster.log 2>&1 &
cluster_pid=$!
echo "cluster+bench-smoke $cluster_pid" >> "$cpu_roots"

echo "== [2/3] dbt build on target 'local' (tests/test_local_lane.py), then [3/3] pytest: the other modules"
set +e
# one pytest process, so one embedded session (a Spark JVM that warms up once) for the local lane and
# the other modules; its Spark folder starts empty, as a clean clone's does
rm -rf "$PDELTA_HOME/.pdelta/tests/pytest"
PDELTA_LOCAL_DIR="$PDELTA_HOME/.pdelta/tests/pytest" python -m pytest tests -q -p no:cacheprovider --durations=5 \
  --ignore tests/test_randomized_equivalence.py --ignore tests/test_apply.py --ignore tests/test_live_validation.py \
  --ignore tests/test_capture_thrift.py --ignore tests/test_capture.py --ignore tests/test_feed_contract.py \
  --ignore tests/test_bench_smoke.py --ignore tests/test_user_guide.py --ignore tests/test_feed_history.py \
  --ignore tests/test_state_compensation.py --ignore tests/test_source_cut.py
rc=$?

echo "== pytest: capture of every raw format, the feed contract (output of the background run)"
wait "$capture_pid"
capture_rc=$?
capture_pid=
log_text capture.log
echo "== pytest: randomized equivalence (output of the background run)"
wait "$random_pid"
random_rc=$?
random_pid=
log_text randomized.log
echo "== the cluster lane and the bench smoke runs (output of the background run)"
wait "$cluster_pid"
cluster_rc=$?
cluster_pid=
log_text cluster.log
echo "== pytest over the Thrift Server (output of the background run)"
wait "$thrift_pid"
thrift_rc=$?
thrift_pid=
log_text thrift.log
kill -TERM "$meter_pid" 2>/dev/null && wait "$meter_pid"
meter_pid=
cat .pdelta/tests/cpu.txt 2>/dev/null || echo "[cpu] the CPU meter wrote nothing"
set -e
verdict() { [ "$1" = 0 ] && echo ok || echo FAILED; }
echo "[test] local lane and other modules: $(verdict $rc); capture + feed contract: $(verdict $capture_rc);" \
     "thrift pytest: $(verdict $thrift_rc); randomized: $(verdict $random_rc);" \
     "cluster lane + bench smoke: $(verdict $cluster_rc); $((SECONDS - started))s"
# A CI log keeps the end of what make test printed: for each failed stream, the lines that say what
# failed (pytest's failures, dbt's errors, the lane's steps) come last, where that end still shows them
digest() {  # rc, stream, log
  [ "$1" = 0 ] && return 0
  echo "== [test] $2 FAILED; from .pdelta/tests/$3:"
  grep -E 'FAILED|Error|error:|^E  |^== |^\$ |^\[(pdelta|cluster|thrift|test-cluster)|rc [1-9]' ".pdelta/tests/$3" \
    | tail -n 30 || true
  echo "   ... its last lines:"
  log_text "$3" | tail -n 12
}
digest $capture_rc "capture + feed contract" capture.log
digest $random_rc "randomized" randomized.log
digest $cluster_rc "cluster lane + bench smoke" cluster.log
digest $thrift_rc "thrift pytest" thrift.log
[ $rc = 0 ] || echo "== [test] the local lane and other modules FAILED: their output is above the background streams'"
[ $thrift_rc = 0 ] && [ $rc = 0 ] && [ $capture_rc = 0 ] && [ $random_rc = 0 ] && [ $cluster_rc = 0 ]
