# Sourced by the project's scripts: the environment every pdelta command runs in.
PDELTA_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PDELTA_HOME
export PATH="$PDELTA_HOME/.venv/bin:$PATH"
export PYSPARK_PYTHON="$PDELTA_HOME/.venv/bin/python"
export PYSPARK_DRIVER_PYTHON="$PYSPARK_PYTHON"
if [ -z "${SPARK_HOME:-}" ] && [ -x "$PYSPARK_PYTHON" ]; then
  SPARK_HOME="$("$PYSPARK_PYTHON" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')"
  export SPARK_HOME
fi
# Loopback only: this machine's hostname resolves to loopback and nothing here talks to other hosts.
export SPARK_LOCAL_IP="${SPARK_LOCAL_IP:-127.0.0.1}"
export DBT_PROFILES_DIR="${DBT_PROFILES_DIR:-$PDELTA_HOME}"
export DBT_SEND_ANONYMOUS_USAGE_STATS=false
