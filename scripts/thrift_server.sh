#!/usr/bin/env bash
# Start / stop a local Spark Thrift Server with Delta Lake on 127.0.0.1.
#   scripts/thrift_server.sh start   -> picks a free port (or $PDELTA_THRIFT_PORT), waits until a
#                                       HiveServer2 client can run `SELECT 1`, prints the port
#   scripts/thrift_server.sh stop    -> stops the server it started, by its own pid
#   scripts/thrift_server.sh port    -> prints the port of the running server
#   scripts/thrift_server.sh pid     -> prints the pid of the running server (its process group)
# State (pid, port, log, Derby metastore, warehouse) lives in $PDELTA_THRIFT_STATE (default
# .pdelta/thrift), separate from the embedded session's metastore because Derby admits one process
# at a time; a second server (make test's cluster lane) runs beside the first with a state of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
HOME_DIR="$PWD"
STATE=${PDELTA_THRIFT_STATE:-.pdelta/thrift}
PIDFILE=$STATE/server.pid
PORTFILE=$STATE/server.port
mkdir -p "$STATE"

running() { [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; }

start() {
  if running; then echo "[thrift] already running on port $(cat "$PORTFILE") (pid $(cat "$PIDFILE"))"; return 0; fi
  local port=${PDELTA_THRIFT_PORT:-$(.venv/bin/python -c \
    'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')}
  # a port something already listens on would pass the readiness check below through that other
  # server, and everything meant for this one would go there
  if .venv/bin/python -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 2)' \
      "$port" 2>/dev/null; then
    echo "[thrift] port $port is taken by another process (PDELTA_THRIFT_PORT=$port?):" \
      "not starting a second server on it" >&2
    exit 1
  fi
  echo "[thrift] starting Spark Thrift Server with Delta on 127.0.0.1:$port (log: $STATE/server.log)"
  # PDELTA_SPARK_MASTER (e.g. spark://127.0.0.1:7077 from scripts/spark_cluster.sh): the server is
  # the driver of that cluster; its executors get Delta's jars shipped by the driver (--jars),
  # one executor of one core on each of two workers. Unset: local[*], everything in one JVM.
  local cluster=()
  if [ -n "${PDELTA_SPARK_MASTER:-}" ]; then
    echo "[thrift] on the cluster $PDELTA_SPARK_MASTER"
    cluster=(--master "$PDELTA_SPARK_MASTER"
      --jars "$(ls "$HOME_DIR"/.pdelta/jars/*.jar | paste -sd, -)"
      --conf spark.executor.memory="${PDELTA_EXECUTOR_MEMORY:-768m}"
      --conf spark.executor.cores=1
      --conf spark.cores.max=2
      --conf "spark.executor.extraJavaOptions=-Dlog4j2.configurationFile=$HOME_DIR/scripts/log4j2.properties \
${PDELTA_JVM_OPTIONS:-}")
  fi
  # setsid: the server gets its own process group, so stop can end the JVM and nothing else.
  # -Duser.timezone=UTC: a JVM outside UTC makes Delta rebuild each table's state at every commit
  # to verify its file list (profiles.yml.example says more). The fs.* and logStore settings keep
  # Hadoop from forking a process per file it creates or renames (profiles.yml.example says why).
  setsid "$SPARK_HOME/bin/spark-submit" \
    --class org.apache.spark.sql.hive.thriftserver.HiveThriftServer2 \
    --name pdelta-thrift \
    "${cluster[@]}" \
    --driver-memory "${PDELTA_THRIFT_DRIVER_MEMORY:-4g}" \
    --driver-class-path "$HOME_DIR/.pdelta/jars/*" \
    --driver-java-options "-Duser.timezone=UTC -Dderby.system.home=$HOME_DIR/$STATE \
-Dlog4j2.configurationFile=$HOME_DIR/scripts/log4j2.properties ${PDELTA_JVM_OPTIONS:-}" \
    --conf spark.sql.extensions=io.delta.sql.DeltaSparkSessionExtension \
    --conf spark.sql.catalog.spark_catalog=org.apache.spark.sql.delta.catalog.DeltaCatalog \
    --conf spark.sql.warehouse.dir="$HOME_DIR/$STATE/warehouse" \
    --conf "spark.hadoop.javax.jdo.option.ConnectionURL=jdbc:derby:;\
databaseName=$HOME_DIR/$STATE/metastore_db;create=true" \
    --conf spark.sql.shuffle.partitions="${PDELTA_SHUFFLE_PARTITIONS:-2}" \
    --conf spark.sql.session.timeZone=UTC \
    --conf spark.sql.adaptive.enabled="${PDELTA_SPARK_ADAPTIVE:-true}" \
    --conf spark.sql.codegen.wholeStage="${PDELTA_SPARK_CODEGEN:-true}" \
    --conf spark.sql.codegen.factoryMode="$([ "${PDELTA_SPARK_CODEGEN:-true}" = false ] \
      && echo NO_CODEGEN || echo FALLBACK)" \
    --conf spark.ui.enabled=false \
    --conf spark.databricks.delta.snapshotPartitions="${PDELTA_SNAPSHOT_PARTITIONS:-2}" \
    --conf spark.hadoop.fs.file.impl=org.apache.hadoop.fs.RawLocalFileSystem \
    --conf spark.hadoop.fs.AbstractFileSystem.file.impl=org.apache.hadoop.fs.local.RawLocalFs \
    --conf spark.hadoop.mapreduce.fileoutputcommitter.marksuccessfuljobs=false \
    --conf spark.delta.logStore.file.impl=io.delta.storage.LocalLogStore \
    --hiveconf hive.server2.thrift.bind.host=127.0.0.1 \
    --hiveconf hive.server2.thrift.port="$port" \
    spark-internal > "$STATE/server.log" 2>&1 < /dev/null &
  echo $! > "$PIDFILE"
  echo "$port" > "$PORTFILE"
  local deadline=$((SECONDS + ${PDELTA_THRIFT_START_TIMEOUT:-180}))
  until .venv/bin/python - "$port" <<'PY' 2>/dev/null
import sys
from pyhive import hive
conn = hive.connect(host="127.0.0.1", port=int(sys.argv[1]), username="pdelta")
cur = conn.cursor(); cur.execute("SELECT 1"); assert cur.fetchall() == [(1,)]
PY
  do
    if ! running; then
      echo "[thrift] server exited during start-up; last log lines:" >&2; tail -30 "$STATE/server.log" >&2; exit 1
    fi
    if [ $SECONDS -ge $deadline ]; then echo "[thrift] no answer within the timeout" >&2; stop; exit 1; fi
    sleep 2
  done
  echo "[thrift] ready on port $port (pid $(cat "$PIDFILE"))"
}

stop() {
  if running; then
    local pid; pid=$(cat "$PIDFILE")
    echo "[thrift] stopping pid $pid"
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid"
    for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -KILL -- "-$pid" 2>/dev/null || true
  fi
  rm -f "$PIDFILE" "$PORTFILE"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  port) running && cat "$PORTFILE" || { echo "[thrift] not running" >&2; exit 1; } ;;
  pid) running && cat "$PIDFILE" || { echo "[thrift] not running" >&2; exit 1; } ;;
  *) echo "usage: $0 start|stop|port|pid" >&2; exit 2 ;;
esac
