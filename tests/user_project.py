"""A dbt user project that installs pdelta from this repository as a package (packages.yml,
local path), as the parse-only tests write it, and `dbt deps` for it."""
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
