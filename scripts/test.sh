#!/usr/bin/env bash
# make test: every test, from a fresh clone.
#  1. the shared delta model: macros/algebra/delta_model.sql matches python/pdelta/algebra.py
#  2. dbt build (seeds, models, data tests) of this project on the embedded `local` session and
#     on the `thrift` target against a Spark Thrift Server started here, each in two stages:
#     the paper's example in its old state (full build), then its new state (incremental
#     refresh, checked against the paper's figures and full recomputation); then a Delta
#     MERGE check through dbt on each target
#  3. pytest: unit tests, the randomized equivalence suite (PDELTA_DEEP=1 for deep mode)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
export PDELTA_LOCAL_DIR="$PDELTA_HOME/.pdelta/tests/local"
started=$SECONDS

echo "== [1/3] shared delta model (Python <-> Jinja)"
pdelta gen-macros --check

echo "== starting a Spark Thrift Server for the thrift target"
bash scripts/thrift_server.sh stop >/dev/null 2>&1 || true
bash scripts/thrift_server.sh start
trap 'bash scripts/thrift_server.sh stop' EXIT
PDELTA_THRIFT_PORT="$(bash scripts/thrift_server.sh port)"
export PDELTA_THRIFT_PORT

for target in local thrift; do
  echo "== [2/3] dbt build on target '$target'"
  [ "$target" = local ] && rm -rf "$PDELTA_LOCAL_DIR"
  python -m pdelta.runner \
    "seed --target $target --full-refresh" \
    "build --target $target --full-refresh --vars '{paper_stage: old}' --exclude resource_type:seed tag:paper_after_changes" \
    "build --target $target --vars '{paper_stage: new}' --exclude resource_type:seed" \
    "test --target $target --vars '{paper_stage: new}'" \
    "run-operation assert_delta_merge --target $target --args '{model_name: smoke_delta}'"
done

echo "== [3/3] pytest"
set +e
python -m pytest tests -q -p no:cacheprovider
rc=$?
set -e
echo "[test] finished in $((SECONDS - started))s"
exit $rc
