#!/usr/bin/env bash
# Installs this repository as the package `pdelta` of its own dbt project, integration_tests/
# (`dbt deps`: a link in integration_tests/dbt_packages/), when the link is missing or points at
# another clone. make setup and the cluster lane run it; tests/pdelta_env.py's integration_deps
# does the same in Python for the test modules (in the process that imported dbt).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(readlink -f integration_tests/dbt_packages/pdelta 2>/dev/null)" != "$PWD" ]; then
  echo "[setup] installing pdelta into integration_tests/ (dbt deps)"
  ( source scripts/env.sh && cd integration_tests && dbt deps --quiet )
fi
