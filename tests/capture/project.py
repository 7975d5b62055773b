"""The integration dbt project for capture tests: pdelta installed as a package (local path),
raw feeds as sources written by the test, and per format a capture model, a mirror of it and a
one-relation dimension view over the pair (state = mirror, changes = capture) with a
recomputation view (the view's own SELECT over the mirror) to compare against. The model-writing
helpers (capture_sql, mirror_sql, view_sql, recomputed_sql, write_base) also build the project
of tests/test_capture_thrift.py."""
from __future__ import annotations

import json
import os
from pathlib import Path

from .feeds import COLUMNS

SCHEMA = "pdelta_capture_it"

# format -> extra capture config (raw source table is raw_<format>)
FORMATS: dict[str, dict] = {
    "audit_columns": {"deleted": "deleted"},
    "log_based": {},
    "log_net_effect": {},
    "change_tracking": {"current": {"source": ["cap", "current_rows"]}},
    "snapshot_diff": {},
    "debezium_postgres_default": {},
    "debezium_postgres_full": {},
    "debezium_mysql_minimal": {},
    "upsert_feed": {},
    "delta_cdf": {},
    "sqlserver_change_tracking": {"current": {"source": ["cap", "current_rows"]}},
    "sqlserver_cdc_net": {},
}
# the quarantine feed (Debezium, REPLICA IDENTITY FULL) and a twin with a zero threshold
BAD = {"bad": {"raw": "raw_bad", "format": "debezium_postgres_full"},
       "bad_strict": {"raw": "raw_bad", "format": "debezium_postgres_full", "quarantine_max_rows": 0}}
# Formats whose capture also feeds a dimension view: by default four whose feeds together hold
# all six sets (the view engine sees only the canonical feed; tests/test_randomized_equivalence.py
# covers it per technique), every format with PDELTA_CAPTURE_ALL_VIEWS=1. Every format is
# captured and mirrored either way.
VIEW_FORMATS = list(FORMATS) if os.environ.get("PDELTA_CAPTURE_ALL_VIEWS") == "1" else [
    "audit_columns", "debezium_postgres_default", "debezium_postgres_full", "upsert_feed"]
VIEW_WHERE = "score >= 10"
VIEW_COLUMNS = ["id", "name", "city", "bio"]


def capture_decl(name: str, extra: dict) -> dict:
    raw = extra.pop("raw", f"raw_{name}")
    return {"raw": {"source": ["cap", raw]}, "key": ["id"], "columns": COLUMNS, "format": extra.pop("format", name), **extra}


def view_decl(name: str, fmt: str) -> dict:
    return {"root": "r", "relations": {"r": {"state": f"{name}_mirror", "changes": f"{name}_capture", "key": ["id"],
                                             "technique": fmt, "columns": VIEW_COLUMNS, "where": VIEW_WHERE}}}


def capture_sql(decl: dict) -> str:
    return ("{%- set c = " + json.dumps(decl) + " -%}\n"
            "{{ config(materialized='capture', pdelta_capture=c) }}\n{{ pdelta.capture(c) }}\n")


def mirror_sql(name: str, fmt: str) -> str:
    """The mirror of capture `<name>_capture` (format `fmt`)."""
    m = {"changes": f"{name}_capture", "key": ["id"], "technique": fmt}
    return ("{%- set m = " + json.dumps(m) + " -%}\n"
            "{{ config(materialized='mirror', pdelta_mirror=m) }}\n{{ pdelta.mirror(m) }}\n")


def view_sql(view: dict) -> str:
    return ("{%- set view = " + json.dumps(view) + " -%}\n"
            "{{ config(materialized='dimension_view', pdelta=view) }}\n{{ pdelta.dimension_view(view) }}\n")


def recomputed_sql(view: dict) -> str:
    """A plain dbt view: the dimension view's own SELECT over the current states."""
    return "{{ config(materialized='view') }}\n{{ pdelta.dimension_view(" + json.dumps(view) + ") }}\n"


def write_base(root: Path, repo: Path, name: str, schema: str, tables: list[str]) -> Path:
    """dbt_project.yml, packages.yml (pdelta from `repo`) and the raw tables as source `cap`;
    returns the models folder."""
    models = root / "models"
    models.mkdir(parents=True, exist_ok=True)
    (root / "dbt_project.yml").write_text(
        f"name: {name}\nversion: '1.0'\nconfig-version: 2\nprofile: pdelta\n"
        f"models:\n  {name}:\n    +file_format: delta\n    +materialized: view\n")
    (root / "packages.yml").write_text(f"packages:\n  - local: {json.dumps(str(repo))}\n")
    (models / "sources.yml").write_text(
        "version: 2\nsources:\n  - name: cap\n    schema: " + schema + "\n    tables:\n"
        + "".join(f"      - name: {t}\n" for t in tables))
    return models


def write_project(root: Path, repo: Path) -> None:
    tables = [f"raw_{f}" for f in FORMATS] + ["raw_bad", "current_rows"]
    models = write_base(root, repo, "pdelta_capture_it", SCHEMA, tables)
    entries = {f: dict(cfg) for f, cfg in FORMATS.items()}
    entries.update({n: dict(cfg) for n, cfg in BAD.items()})
    for name, cfg in entries.items():
        fmt = cfg.get("format", name)
        (models / f"{name}_capture.sql").write_text(capture_sql(capture_decl(name, cfg)))
        if name == "bad_strict":
            continue
        (models / f"{name}_mirror.sql").write_text(mirror_sql(name, fmt))
        if name in VIEW_FORMATS:
            view = view_decl(name, fmt)
            (models / f"{name}_view.sql").write_text(view_sql(view))
            (models / f"{name}_view_recomputed.sql").write_text(recomputed_sql(view))
