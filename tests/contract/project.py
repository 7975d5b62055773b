"""The dbt project of the feed-contract test: pdelta installed as a package (local path); per case
a state and a feed of `c` and `a`, each a plain Spark view over one of two tables the test writes
(all_states, all_changes: every case's rows, told apart by `rel`), declared as dbt sources (views
made by Spark cost no dbt node per run); per case either a dimension view refreshed with each
plan (`<case>__rules`, `<case>__diff`) or a mirror of c's feed (`<case>__mirror`)."""
from __future__ import annotations

import json
from pathlib import Path

from .mutations import ALIAS

SCHEMA = "pdelta_contract_it"
SOURCE = "ct"
PLANS = ("rules", "diff")

STATES_SCHEMA = "rel string, cid int, name string, aid int, city string"
CHANGES_SCHEMA = ("rel string, rid string, cid int, name string, aid int, city string, has_before boolean, "
                  "b_name string, b_aid int, b_city string, _type string, _seq bigint, bogus boolean")


def rel_name(case: str, rel: str) -> str:
    """the state of relation `rel` of a case (a view; also its `rel` value in the two tables)"""
    return f"{case}__{rel}"


def feed_name(case: str, rel: str) -> str:
    return f"{case}__{rel}_feed"


def view_model(case: str, plan: str) -> str:
    return f"{case}__{plan}"


def mirror_model(case: str) -> str:
    return f"{case}__mirror"


def state_sql(case: str, rel: str) -> str:
    cols = "cid, name, aid" if rel == "c" else "aid, city"
    return f"select {cols} from {SCHEMA}.all_states where rel = '{rel_name(case, rel)}'"


def feed_sql(case: str, rel: str, variant: str | None = None) -> str:
    """The canonical feed of one relation; `variant` breaks its schema: key_type (the key as a
    string 'x7' where the state has int), before_struct (a before-image without `aid`)."""
    key = "cid" if rel == "c" else "aid"
    key_expr = f"concat('x', cast({key} as string)) as {key}" if variant == "key_type" else key
    if rel == "c":
        before = "struct(b_name as name)" if variant == "before_struct" else "struct(b_name as name, b_aid as aid)"
        cols = f"{key_expr}, name, aid"
    else:
        before, cols = "struct(b_city as city)", f"{key_expr}, city"
    return (f"select {cols}, case when has_before then {before} end as _pdelta_before, "
            f"_type as _pdelta_type, _seq as _pdelta_seq from {SCHEMA}.all_changes where rel = '{rel_name(case, rel)}'")


def create_relation_views(spark, cases) -> None:
    """the states and feeds of every case, as Spark views (the two tables must exist)"""
    for case in cases:
        for rel in case.rels:
            spark.sql(f"create or replace view {SCHEMA}.{rel_name(case.name, rel)} as {state_sql(case.name, rel)}")
            spark.sql(f"create or replace view {SCHEMA}.{feed_name(case.name, rel)} as {feed_sql(case.name, rel)}")


def set_feed(spark, case: str, rel: str, variant: str | None) -> None:
    spark.sql(f"create or replace view {SCHEMA}.{feed_name(case, rel)} as {feed_sql(case, rel, variant)}")


def declaration(case: str) -> dict:
    def src(name):
        return [SOURCE, name]
    return {"root": ALIAS["c"], "relations": {
        ALIAS["c"]: {"state": src(rel_name(case, "c")), "changes": src(feed_name(case, "c")), "key": ["cid"],
                     "technique": "log_based", "columns": ["cid", "name", "aid"]},
        ALIAS["a"]: {"state": src(rel_name(case, "a")), "changes": src(feed_name(case, "a")), "key": ["aid"],
                     "technique": "change_tracking", "join": {"to": ALIAS["c"], "on": {"aid": "aid"}},
                     "columns": ["city"], "where": "city not like 'Z%'"},
    }}


def _config(config: dict) -> str:
    return "".join(f", {k}={json.dumps(v)}" for k, v in config.items())


def view_sql(case: str, plan: str, config: dict) -> str:
    # the rules plan's view runs with the cost model on at a ratio no batch reaches: it chooses
    # from log counts before any feed row is read, then its one scan checks the rows, so every
    # case goes through the cost model's path too (the diff plan's view: the cost model off)
    cost = ", pdelta_rebuild_ratio=1000000.0" if plan == "rules" else ""
    return ("{%- set view = " + json.dumps(declaration(case)) + " -%}\n"
            f"{{{{ config(materialized='dimension_view', pdelta=view, "
            f"pdelta_plan='{plan}'{cost}{_config(config)}) }}}}\n"
            "{{ pdelta.dimension_view(view) }}\n")


def mirror_sql(case: str, config: dict) -> str:
    m = {"changes": [SOURCE, feed_name(case, "c")], "key": ["cid"], "technique": "log_based"}
    return ("{%- set m = " + json.dumps(m) + " -%}\n"
            f"{{{{ config(materialized='mirror', pdelta_mirror=m{_config(config)}) }}}}\n"
            "{{ pdelta.mirror(m) }}\n")


def write_project(root: Path, repo: Path, cases) -> None:
    """`cases`: objects with .name, .rels, .config (model config: pdelta_bad_rows, ...) and .mirror
    (a mirror of c's feed instead of the two views)"""
    models = root / "models"
    models.mkdir(parents=True, exist_ok=True)
    (root / "dbt_project.yml").write_text(
        "name: pdelta_contract_it\nversion: '1.0'\nconfig-version: 2\nprofile: pdelta\n"
        "models:\n  pdelta_contract_it:\n    +file_format: delta\n")
    (root / "packages.yml").write_text(f"packages:\n  - local: {json.dumps(str(repo))}\n")
    tables = [n for case in cases for rel in case.rels for n in (rel_name(case.name, rel), feed_name(case.name, rel))]
    # c's foreign key is declared not null (in its state, and in a mirror of c): a `del` must carry it
    not_null_aid = "        columns:\n          - name: aid\n            data_tests: [not_null]\n"
    (models / "sources.yml").write_text(
        f"version: 2\nsources:\n  - name: {SOURCE}\n    schema: {SCHEMA}\n    tables:\n"
        + "".join(f"      - name: {t}\n" + (not_null_aid if t.endswith("__c") else "") for t in tables)
        + "models:\n" + "".join(f"  - name: {mirror_model(case.name)}\n    columns:\n      - name: aid\n"
                                 "        data_tests: [not_null]\n" for case in cases if case.mirror))
    for case in cases:
        if case.mirror:
            (models / f"{mirror_model(case.name)}.sql").write_text(mirror_sql(case.name, case.config))
        else:
            for plan in case.plans:
                (models / f"{view_model(case.name, plan)}.sql").write_text(view_sql(case.name, plan, case.config))
