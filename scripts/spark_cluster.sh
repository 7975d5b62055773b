#!/usr/bin/env bash
# Start / stop a Spark standalone cluster on 127.0.0.1: one master and two workers, each worker
# its own JVM with its own work directory, so executors are separate processes that share
# neither the driver's memory nor each other's (pyspark's own Master and Worker classes).
#   scripts/spark_cluster.sh start   -> starts master + workers, waits until both workers are
#                                       registered, prints the master URL (spark://127.0.0.1:PORT)
#   scripts/spark_cluster.sh stop    -> stops the processes it started, by their pids
#   scripts/spark_cluster.sh url     -> prints the master URL of the running cluster
# Each worker offers PDELTA_CLUSTER_WORKER_CORES cores (default 2: two applications, the Thrift
# Server and an embedded session, can hold one executor on each worker at the same time) and
# PDELTA_CLUSTER_WORKER_MEMORY (default 2g). State (pids, ports, logs, work dirs): .pdelta/cluster.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
STATE="$PWD/.pdelta/cluster"
mkdir -p "$STATE"
# the master and worker daemons are small: they only schedule
export SPARK_DAEMON_MEMORY="${SPARK_DAEMON_MEMORY:-256m}"

free_port() {
  .venv/bin/python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
alive() { [ -f "$STATE/$1.pid" ] && kill -0 "$(cat "$STATE/$1.pid")" 2>/dev/null; }

daemon() {  # name, class, args...
  local name=$1; shift
  # setsid: each daemon in its own process group, so stop ends it (and the executors a worker
  # forked) and nothing else
  setsid "$SPARK_HOME/bin/spark-class" "$@" > "$STATE/$name.log" 2>&1 < /dev/null &
  echo $! > "$STATE/$name.pid"
}

start() {
  if alive master; then echo "[cluster] already running: $(cat "$STATE/master.url")"; return 0; fi
  local port webui
  port=$(free_port); webui=$(free_port)
  echo "[cluster] starting a Spark master on 127.0.0.1:$port and two workers (logs: $STATE)"
  daemon master org.apache.spark.deploy.master.Master --host 127.0.0.1 --port "$port" --webui-port "$webui"
  echo "spark://127.0.0.1:$port" > "$STATE/master.url"
  echo "$webui" > "$STATE/master.webui"
  for n in 1 2; do
    mkdir -p "$STATE/worker$n"
    daemon "worker$n" org.apache.spark.deploy.worker.Worker --host 127.0.0.1 --webui-port "$(free_port)" \
      --cores "${PDELTA_CLUSTER_WORKER_CORES:-2}" --memory "${PDELTA_CLUSTER_WORKER_MEMORY:-2g}" \
      --work-dir "$STATE/worker$n" "spark://127.0.0.1:$port"
  done
  local deadline=$((SECONDS + ${PDELTA_CLUSTER_START_TIMEOUT:-120}))
  until [ "$(.venv/bin/python - "$webui" <<'PY' 2>/dev/null
import json, sys, urllib.request
with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/json/", timeout=5) as page:
    print(json.load(page).get("aliveworkers", 0))
PY
)" = 2 ]; do
    for name in master worker1 worker2; do
      if ! alive "$name"; then
        echo "[cluster] $name exited during start-up; last log lines:" >&2
        tail -20 "$STATE/$name.log" >&2; stop; exit 1
      fi
    done
    if [ $SECONDS -ge $deadline ]; then echo "[cluster] the workers did not register in time" >&2; stop; exit 1; fi
    sleep 1
  done
  echo "[cluster] ready: $(cat "$STATE/master.url") (2 workers)"
}

stop() {
  for name in worker1 worker2 master; do
    if alive "$name"; then
      local pid; pid=$(cat "$STATE/$name.pid")
      echo "[cluster] stopping $name (pid $pid)"
      kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid"
      for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
      kill -KILL -- "-$pid" 2>/dev/null || true
    fi
    rm -f "$STATE/$name.pid"
  done
  rm -f "$STATE/master.url" "$STATE/master.webui"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  url) alive master && cat "$STATE/master.url" || { echo "[cluster] not running" >&2; exit 1; } ;;
  *) echo "usage: $0 start|stop|url" >&2; exit 2 ;;
esac
