"""Run several dbt commands in one process, so the embedded Spark session (and its JVM) starts
once instead of once per command. Stops at the first failing command.

    python -m pdelta.runner "seed --target local" "build --target local --vars '{a: 1}'"
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
        print(f"\n$ dbt {command}", flush=True)
        started = time.time()
        result = runner.invoke(shlex.split(command))
        print(f"[pdelta] dbt {command.split()[0]}: {'ok' if result.success else 'FAILED'} in {time.time() - started:.0f}s", flush=True)
        if not result.success:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(run_all(sys.argv[1:]))
