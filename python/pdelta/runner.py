"""Run several dbt (and pdelta) commands in one process, so the embedded Spark session (and its
JVM) starts once instead of once per command. Stops at the first failing command. A command
written `! <command>` must fail (a check that a guard refuses what it should).

    python -m pdelta.runner "seed --target local" "build --target local --vars '{a: 1}'" \
                            "pdelta explain paper_d --target local" \
                            "! pdelta explain paper_d --target local --expect-mode rebuild"
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
        must_fail = command.startswith("! ")
        command = command[2:].lstrip() if must_fail else command
        if command.startswith("pdelta "):
            from .cli import main

            print(f"\n$ {command}", flush=True)
            ok = main(shlex.split(command)[1:]) == 0
            what = " ".join(command.split()[:2])
        else:
            print(f"\n$ dbt {command}", flush=True)
            ok = runner.invoke(shlex.split(command)).success
            what = "dbt " + command.split()[0]
        if must_fail:
            print(f"[pdelta] {what}: {'failed, as it must' if not ok else 'SUCCEEDED but must fail'}", flush=True)
            ok = not ok
        print(f"[pdelta] {what}: {'ok' if ok else 'FAILED'} in {time.time() - started:.0f}s", flush=True)
        if not ok:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(run_all(sys.argv[1:]))
