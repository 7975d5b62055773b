"""Fault injection for the apply tests: runs dbt in this process and SIGKILLs the process at
a statement boundary — just before the N-th SQL statement that dbt sends after pdelta's first
statement of the run (the first one naming a `__pdelta_` table). Every statement before it has
completed on the server; none after it is sent. With --kill-at 0 nothing is killed and the
statements are only counted.

    python killer.py --kill-at 7 --log statements.txt -- run --select cust addr dim
"""
from __future__ import annotations

import argparse
import os
import signal
import sys


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--kill-at", type=int, default=0)
    p.add_argument("--log", default=None, help="appends one line per counted statement")
    p.add_argument("dbt_args", nargs=argparse.REMAINDER)
    a = p.parse_args()
    args = a.dbt_args[1:] if a.dbt_args[:1] == ["--"] else a.dbt_args

    from dbt.adapters.sql.connections import SQLConnectionManager
    from dbt.cli.main import dbtRunner

    original = SQLConnectionManager.add_query
    state = {"counting": False, "n": 0}
    log = open(a.log, "a") if a.log else None

    def add_query(self, sql, *args, **kwargs):
        if not state["counting"] and "__pdelta_" in sql:
            state["counting"] = True
        if state["counting"]:
            state["n"] += 1
            if log:
                log.write(f"{state['n']}\t{' '.join(sql.split())[:160]}\n")
                log.flush()
            if state["n"] == a.kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
        return original(self, sql, *args, **kwargs)

    SQLConnectionManager.add_query = add_query
    ok = dbtRunner().invoke(args).success
    print(f"[killer] statements counted: {state['n']}", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
