"""The integration dbt project for capture tests: pdelta installed as a package (local path),
raw feeds as sources written by the test, per format a capture model and a mirror of it, and
two-relation dimension views over the (mirror, capture) pairs of two formats each, with a
recomputation view (the view's own SELECT over the mirrors) to compare against. The model-writing
helpers (capture_sql, mirror_sql, view_sql, recomputed_sql, write_base) also build the project
of tests/test_capture_thrift.py."""
from __future__ import annotations

import json
from pathlib import Path

from .bad import BATCH2
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
# the quarantine feed (Debezium, REPLICA IDENTITY FULL) and twins with thresholds: zero rows,
# and a share of the batch's records below / above the share batch 2 quarantines (its exact
# duplicate counts once, so the share is 10 of 14 records; 10 of 15 raw rows here)
BAD_SHARE = sum(1 for _, want, _ in BATCH2 if want) / len(BATCH2)
BAD = {"bad": {"raw": "raw_bad", "format": "debezium_postgres_full"},
       "bad_strict": {"raw": "raw_bad", "format": "debezium_postgres_full", "quarantine_max_rows": 0},
       "bad_share_below": {"raw": "raw_bad", "format": "debezium_postgres_full",
                           "quarantine_max_fraction": round(BAD_SHARE - 0.1, 4)},
       "bad_share_above": {"raw": "raw_bad", "format": "debezium_postgres_full",
                           "quarantine_max_fraction": round(BAD_SHARE + 0.1, 4)}}
# the upsert feed again, counting raw records that land behind its watermark instead of failing
LATE = {"upsert_late_warn": {"raw": "raw_upsert_feed", "format": "upsert_feed", "late_records": "warn"}}
CAPTURE_ONLY = {"bad_strict", "bad_share_below", "bad_share_above", *LATE}  # captures without a mirror
# Every format's capture feeds a two-relation dimension view shaped like the paper's (a root
# with a predicate, joined to a second relation with its own predicate): the formats in pairs,
# root from the first format, the joined relation from the second (on id = id). Each view is
# checked against its own SELECT over the mirrors (full recomputation).
VIEWS: dict[str, tuple[str, str]] = {
    "v_audit_log": ("audit_columns", "log_based"),
    "v_lognet_ct": ("log_net_effect", "change_tracking"),
    "v_snap_dbzdefault": ("snapshot_diff", "debezium_postgres_default"),
    "v_dbzfull_mysql": ("debezium_postgres_full", "debezium_mysql_minimal"),
    "v_upsert_cdf": ("upsert_feed", "delta_cdf"),
    "v_sqlserver": ("sqlserver_change_tracking", "sqlserver_cdc_net"),
}
VIEW_OF = {f: v for v, pair in VIEWS.items() for f in pair}
VIEW_COLUMNS = ["id", "name", "city", "bio", "s_name", "s_score"]


def capture_decl(name: str, extra: dict) -> dict:
    raw = extra.pop("raw", f"raw_{name}")
    return {"raw": {"source": ["cap", raw]}, "key": ["id"], "columns": COLUMNS, "format": extra.pop("format", name),
            **extra}


def view_decl(root_fmt: str, joined_fmt: str) -> dict:
    return {"root": "r", "relations": {
        "r": {"state": f"{root_fmt}_mirror", "changes": f"{root_fmt}_capture", "key": ["id"],
              "technique": root_fmt, "columns": ["id", "name", "city", "bio"], "where": "score >= 10"},
        "s": {"state": f"{joined_fmt}_mirror", "changes": f"{joined_fmt}_capture", "key": ["id"],
              "technique": joined_fmt, "join": {"to": "r", "on": {"id": "id"}},
              "columns": [{"s_name": "name"}, {"s_score": "score"}], "where": "score < 60"}}}


def capture_sql(decl: dict) -> str:
    return ("{%- set c = " + json.dumps(decl) + " -%}\n"
            "{{ config(materialized='capture', pdelta_capture=c, "
            "on_schema_change=var('capture_on_schema_change', 'ignore')) }}\n"
            "{{ pdelta.capture(c) }}\n")


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
    entries.update({n: dict(cfg) for n, cfg in {**BAD, **LATE}.items()})
    for name, cfg in entries.items():
        fmt = cfg.get("format", name)
        (models / f"{name}_capture.sql").write_text(capture_sql(capture_decl(name, cfg)))
        if name in CAPTURE_ONLY:
            continue
        (models / f"{name}_mirror.sql").write_text(mirror_sql(name, fmt))
    for name, (root_fmt, joined_fmt) in VIEWS.items():
        view = view_decl(root_fmt, joined_fmt)
        (models / f"{name}.sql").write_text(view_sql(view))
        (models / f"{name}_recomputed.sql").write_text(recomputed_sql(view))
