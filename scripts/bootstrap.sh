#!/usr/bin/env bash
# Idempotent set-up: virtualenv with the pinned stack, the pdelta helper package, and the Delta
# Lake jars resolved once from Maven Central into .pdelta/jars (only the jars pyspark lacks, so
# Spark's own Hadoop/Parquet versions are never shadowed). Safe to run again: each step checks a
# stamp and skips work that is already done.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3.11}
DELTA_COORD=$(sed -n 's/^delta_maven_coordinate *= *//p' scripts/versions.txt)

if [ ! -x .venv/bin/python ]; then
  echo "[setup] creating virtualenv .venv with $PY"
  "$PY" -m venv .venv
fi
stamp=.venv/.pdelta-requirements
if ! cat requirements.txt constraints.txt | cmp -s - "$stamp" 2>/dev/null; then
  echo "[setup] installing pinned requirements (dbt-core, dbt-spark, pyspark, delta-spark, ...)"
  .venv/bin/pip install -q --upgrade pip
  # constraints.txt pins every transitive package to the versions this was tested with
  .venv/bin/pip install -q -r requirements.txt -c constraints.txt
  cat requirements.txt constraints.txt > "$stamp"
else
  echo "[setup] virtualenv up to date"
fi
if ! .venv/bin/python -c "import pdelta" 2>/dev/null; then
  echo "[setup] installing the pdelta helper package (editable) from python/"
  .venv/bin/pip install -q -e python/
fi

mkdir -p .pdelta
if [ ! -f .pdelta/jars/.complete ] || [ "$(cat .pdelta/jars/.complete)" != "$DELTA_COORD" ]; then
  echo "[setup] resolving $DELTA_COORD from Maven Central (once)"
  rm -rf .pdelta/jars
  echo 'pass' > .pdelta/noop.py
  ( source scripts/env.sh && "$SPARK_HOME/bin/spark-submit" --packages "$DELTA_COORD" \
      --conf spark.jars.ivy="$PWD/.pdelta/ivy" \
      --conf spark.ui.enabled=false .pdelta/noop.py ) > .pdelta/ivy-resolve.log 2>&1 || {
    echo "[setup] could not resolve $DELTA_COORD; see .pdelta/ivy-resolve.log:" >&2
    grep -iE 'not found|unresolved|error' .pdelta/ivy-resolve.log | head -20 >&2
    exit 1
  }
  .venv/bin/python scripts/select_jars.py .pdelta/ivy/jars .pdelta/jars
  echo "$DELTA_COORD" > .pdelta/jars/.complete
else
  echo "[setup] Delta jars present in .pdelta/jars"
fi
[ -f profiles.yml ] && [ profiles.yml -nt profiles.yml.example ] || {
  echo "[setup] writing profiles.yml from profiles.yml.example"
  cp profiles.yml.example profiles.yml
}
# the repository's own dbt project (the demo's and the test lanes') installs pdelta from `../`
bash scripts/integration_deps.sh
echo "[setup] done"
