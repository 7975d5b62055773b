"""Fault injection for the apply tests: runs dbt and SIGKILLs the process running it at a
statement boundary — just before the N-th SQL statement that dbt sends after pdelta's first
statement of the run (the first one naming a `__pdelta_` table). Every statement before it has
completed on the server; none after it is sent. With kill_at 0 nothing is killed and the
statements are only counted. A session setting (`set key = value`, `reset key`: the Kernel reader's
switch around a reading statement) is sent but not counted: it dies with the killed session, so a
kill before it leaves what a kill before the next counted statement leaves; and a concurrent
model's switch would shift the count. `kill_at` may also name a statement by what it says: (a regular
expression, n), SIGKILL before the n-th counted statement after the first that matches (0: before that
one), where counts differ from run to run (a metastore lookup dbt's cache answers in one run, not in
another). With `pause` (a regular expression and a folder), the run stops before the first statement that
matches, writes `paused` into the folder and waits until `resume` is there: the caller runs other work at that
point of the refresh (another model committing, say).

Each run is its own process, forked from a server process that imported dbt once
(`multiprocessing`'s forkserver with dbt preloaded): a killed run dies like a separate dbt
process, without paying dbt's imports (~1.5 s of CPU) anew each time.

    from apply.killer import DbtRunner
    out = DbtRunner().run(["run", "--select", "cust"], cwd=project, env=env, kill_at=7, log=path)
"""
from __future__ import annotations

import multiprocessing
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pdelta.statements import statement_text

# what each run would import first: loaded once in the fork server
PRELOAD = ["dbt.cli.main", "dbt.adapters.sql.connections", "dbt.adapters.spark.impl", "dbt.adapters.spark.connections",
           "dbt.parser.manifest", "dbt.task.run", "pyhive.hive"]


# a Spark session setting, not a SQL variable (`set var`, which runs a query, is counted)
SESSION_SETTING = re.compile(r"^\s*(reset\s|set\s+(?!var\s|variable\s))", re.IGNORECASE)
# a run that has not ended by then is stopped and reported with its output (a hang, not a slow run:
# the longest run here takes a few minutes, a paused one waits at most 900 s for `resume`)
RUN_TIMEOUT_S = 1500


def _wait_at(pause: tuple[str, str]) -> None:
    """tells the caller this run is paused (file `paused`), then waits for its `resume` file"""
    folder = Path(pause[1])
    (folder / "paused").write_text("")
    deadline = time.monotonic() + 900
    while not (folder / "resume").exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"paused run: no `resume` in {folder} after 900 s")
        time.sleep(0.05)


def run_dbt(args: list[str], kill_at: int | tuple[str, int], log: str | None,
            pause: tuple[str, str] | None = None) -> int:
    """In this process: dbt with every statement counted, SIGKILL before statement `kill_at`, a pause
    before the first statement matching `pause[0]` (see the module's doc)."""
    from dbt.adapters.sql.connections import SQLConnectionManager
    from dbt.cli.main import dbtRunner

    original = SQLConnectionManager.add_query
    state = {"counting": False, "n": 0, "paused": False, "matched": None}
    if isinstance(kill_at, (tuple, list)):
        pattern, after = re.compile(kill_at[0], re.IGNORECASE), int(kill_at[1])
        kill_at = -1
    else:
        pattern, after = None, 0
    log_file = open(log, "a") if log else None

    def add_query(self, sql, *args, **kwargs):
        text = statement_text(sql)
        if not state["counting"] and "__pdelta_" in sql:
            state["counting"] = True
        if state["counting"] and not SESSION_SETTING.match(text):
            state["n"] += 1
            if log_file:
                log_file.write(f"{state['n']}\t{text[:160]}\n")
                log_file.flush()
            if pattern and state["matched"] is None and pattern.search(text):
                state["matched"] = state["n"]
            if state["n"] == kill_at or (state["matched"] is not None and state["n"] == state["matched"] + after):
                os.kill(os.getpid(), signal.SIGKILL)
        if pause and not state["paused"] and re.search(pause[0], text):
            state["paused"] = True
            _wait_at(pause)
        return original(self, sql, *args, **kwargs)

    SQLConnectionManager.add_query = add_query
    ok = dbtRunner().invoke(args).success
    print(f"[killer] statements counted: {state['n']}", flush=True)
    return 0 if ok else 1


def _child(args: list[str], cwd: str, env: dict, kill_at: int | tuple[str, int], log: str | None,
           out_path: str, pause: tuple[str, str] | None) -> None:
    """The forked process: the caller's environment, directory and output file, then dbt."""
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    out = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    sys.stdout.flush()
    sys.stderr.flush()
    os.dup2(out, 1)
    os.dup2(out, 2)
    sys.exit(run_dbt(args, kill_at, log, pause))


class DbtRunner:
    """Runs dbt in processes forked from one that imported dbt; returns what subprocess.run
    would: the exit code (-9 when killed) and the output (stdout and stderr together)."""

    def __init__(self) -> None:
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(PRELOAD)

    def run(self, args: list[str], cwd: Path, env: dict, kill_at: int | tuple[str, int] = 0,
            log: Path | None = None, pause: tuple[str, Path] | None = None) -> subprocess.CompletedProcess:
        with tempfile.NamedTemporaryFile(prefix="dbt-", suffix=".log", delete=False) as tmp:
            out_path = tmp.name
        try:
            proc = self.context.Process(target=_child, args=(args, str(cwd), dict(env), kill_at,
                                                             str(log) if log else None, out_path,
                                                             (pause[0], str(pause[1])) if pause else None))
            proc.start()
            proc.join(RUN_TIMEOUT_S)
            output = Path(out_path).read_text(errors="replace")
            if proc.exitcode is None:
                proc.kill()
                proc.join()
                raise TimeoutError(f"dbt {' '.join(args)} did not end in {RUN_TIMEOUT_S} s; its output ends:\n"
                                   + output[-4000:])
        finally:
            os.unlink(out_path)
        return subprocess.CompletedProcess(args, proc.exitcode, output, "")

