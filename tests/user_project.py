"""A dbt user project that installs pdelta from this repository as a package (packages.yml,
local path), as the parse-only tests write it, `dbt deps` for it, and running its operations."""
from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def write_user_project(d: Path, name: str) -> None:
    """dbt_project.yml (profile `pdelta`) and packages.yml in `d`"""
    d.mkdir(parents=True, exist_ok=True)
    (d / "dbt_project.yml").write_text(f"name: {name}\nversion: '1.0'\nconfig-version: 2\nprofile: pdelta\n")
    (d / "packages.yml").write_text(f"packages:\n  - local: {json.dumps(str(ROOT))}\n")


def dbt_deps(d: Path) -> None:
    from dbt.cli.main import dbtRunner

    res = dbtRunner().invoke(["deps", "--project-dir", str(d), "--profiles-dir", str(ROOT), "--quiet"])
    assert res.success, res.exception


def macro_project(d: Path, name: str, macros: str) -> Path:
    """a user project in `d` whose macros/ holds `macros` (operations over pdelta's macros), its
    dependencies installed"""
    write_user_project(d, name)
    (d / "macros").mkdir()
    (d / "macros" / f"{name}.sql").write_text(macros)
    dbt_deps(d)
    return d


def run_operation(d: Path, macro: str, args: dict, vars_: dict | None = None):
    """`dbt run-operation` in `d` (with project variables `vars_`): the result and every event's
    message (log() output and the operation's error)"""
    from dbt.cli.main import dbtRunner

    logged: list[str] = []
    runner = dbtRunner(callbacks=[lambda ev: logged.append(ev.info.msg)])
    command = ["run-operation", macro, "--args", json.dumps(args), "--project-dir", str(d), "--profiles-dir", str(ROOT)]
    if vars_ is not None:
        command += ["--vars", json.dumps(vars_)]
    res = runner.invoke(command)
    return res, logged
