"""Run several dbt (and pdelta) commands in one process, so the embedded Spark session (and its
JVM) starts once instead of once per command. Stops at the first failing command.

    python -m pdelta.runner "seed --target local" "build --target local --vars '{a: 1}'" \
                            "pdelta explain paper_d --target local"
"""
from __future__ import annotations

import shlex
import sys
import time


def run_all(commands: list[str]) -> int:
    from dbt.cli.main import dbtRunner

    from .spark import quiet_pyspark_logging

    quiet_pyspark_logging()
    runner = dbtRunner()
    for command in commands:
        started = time.time()
        if command.startswith("pdelta "):
            from .cli import main

            print(f"\n$ {command}", flush=True)
            ok = main(shlex.split(command)[1:]) == 0
            what = " ".join(command.split()[:2])
        else:
            print(f"\n$ dbt {command}", flush=True)
            ok = runner.invoke(shlex.split(command)).success
            what = "dbt " + command.split()[0]
        print(f"[pdelta] {what}: {'ok' if ok else 'FAILED'} in {time.time() - started:.0f}s", flush=True)
        if not ok:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(run_all(sys.argv[1:]))
