"""Run several dbt (and pdelta) commands in one process, so the embedded Spark session (and its
JVM) starts once instead of once per command. Stops at the first failing command. A command
written `! <command>` must fail (a check that a guard refuses what it should), and with
`! <command> :: <text>` its output (dbt's log events, or what a pdelta command prints) must
also say <text>; `<command> :: <text>` must succeed and say <text>; `:: <text> :: <text>`: say
each of them.

    python -m pdelta.runner "seed --target local" "build --target local --vars '{a: 1}'" \
                            "pdelta explain paper_d --target local" \
                            "! pdelta explain paper_d --target local --expect-mode rebuild :: it will be incremental"
"""
from __future__ import annotations

import contextlib
import io
import os
import shlex
import sys
import time
from pathlib import Path

# dbt commands that parse the project and take --target-path
_PARSING = {"build", "compile", "parse", "run", "run-operation", "seed", "show", "snapshot", "test"}


class _Tee(io.TextIOBase):
    def __init__(self, *streams):
        self.streams = streams

    def write(self, text):
        for st in self.streams:
            st.write(text)
        return len(text)

    def flush(self):
        for st in self.streams:
            st.flush()


def _target_per_vars(args: list[str]) -> list[str]:
    """a target folder per distinct (--vars, --target) of the command, the one `pdelta validate` and
    `explain` parse into with them (project.parse_folder), so a list of commands that alternates
    vars re-parses only the files that changed, and a dbt command after `pdelta explain` with the
    same vars nothing. Only with PDELTA_TARGET_PER_VARS=1 (make test's local lane); a command naming
    its --target-path keeps it."""
    import yaml

    from .project import parse_folder

    if os.environ.get("PDELTA_TARGET_PER_VARS") != "1" or not args or args[0] not in _PARSING \
            or any(a.startswith("--target-path") for a in args):
        return args
    given = {flag: args[i + 1] for i, flag in enumerate(args[:-1]) if flag in ("--vars", "--target", "-t")}
    project_vars = yaml.safe_load(given["--vars"]) if given.get("--vars") else {}
    folder = parse_folder(project_vars, given.get("--target", given.get("-t")))
    return [*args, "--target-path", str(folder)]


def run_all(commands: list[str]) -> int:
    from dbt.cli.main import dbtRunner

    from .spark import quiet_pyspark_logging

    quiet_pyspark_logging()
    said: list[str] = []  # what the current command said: dbt's event messages, a pdelta command's output
    runner = dbtRunner(callbacks=[lambda ev: said.append(ev.info.msg)])
    for command in commands:
        started = time.time()
        must_fail = command.startswith("! ")
        command, *expected = (command[2:] if must_fail else command).strip().split(" :: ")
        expected = [text.strip() for text in expected if text.strip()]
        said.clear()
        if command.startswith("pdelta "):
            from .cli import main

            print(f"\n$ {command}", flush=True)
            out = io.StringIO()
            with contextlib.redirect_stdout(_Tee(sys.stdout, out)):
                ok = main(shlex.split(command)[1:]) == 0
            said.append(out.getvalue())
            what = " ".join(command.split()[:2])
        else:
            print(f"\n$ dbt {command}", flush=True)
            res = runner.invoke(_target_per_vars(shlex.split(command)))
            ok = res.success
            said.append(str(res.exception or ""))
            what = "dbt " + command.split()[0]
        unsaid = [text for text in expected if not any(text in m for m in said)]
        if must_fail:
            print(f"[pdelta] {what}: " + ("SUCCEEDED but must fail" if ok else "failed, as it must" if not unsaid
                                           else f"failed, but without saying {unsaid[0]!r}"), flush=True)
            ok = not ok and not unsaid
        elif ok and unsaid:
            print(f"[pdelta] {what}: succeeded, but without saying {unsaid[0]!r}", flush=True)
            ok = False
        print(f"[pdelta] {what}: {'ok' if ok else 'FAILED'} in {time.time() - started:.0f}s", flush=True)
        if not ok:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(run_all(sys.argv[1:]))
