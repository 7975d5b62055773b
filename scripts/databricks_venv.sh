#!/usr/bin/env bash
# The virtualenv with dbt-databricks that tests/test_databricks.py parses and compiles a user
# project with (.pdelta/venv-databricks). Idempotent: a stamp of the pins skips a current one.
# make test starts it in the background (its downloads wait on the network, not on the cores);
# a second run waits for the first (flock) and then finds the venv current.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3.11}
venv=.pdelta/venv-databricks
stamp=$venv/.pdelta-requirements
mkdir -p .pdelta
exec 9>.pdelta/venv-databricks.lock
flock 9
if cat requirements-databricks.txt constraints-databricks.txt | cmp -s - "$stamp" 2>/dev/null; then
  exit 0
fi
echo "[databricks] creating $venv (dbt-databricks, pinned by constraints-databricks.txt)"
rm -rf "$venv"
"$PY" -m venv "$venv"
"$venv/bin/pip" install -q -r requirements-databricks.txt -c constraints-databricks.txt
cat requirements-databricks.txt constraints-databricks.txt > "$stamp"
