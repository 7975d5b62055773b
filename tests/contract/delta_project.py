"""A dbt project over Delta tables the test writes as a replicating tool would: per relation of the
feed contract's two-relation view (`c`, `a`), a state table (overwritten with the world's state)
and a change feed (blind appends), declared as dbt sources. Used by the tests that need a state or
feed with a Delta history (tests/test_feed_history.py, tests/test_state_compensation.py)."""
from __future__ import annotations

import json
from pathlib import Path

from .project import SOURCE, feed_name, rel_name

FEED_COLUMNS = {"c": "cid int, name string, aid int, _pdelta_before struct<name: string, aid: int>, "
                     "_pdelta_type string, _pdelta_seq bigint",
                "a": "aid int, city string, _pdelta_before struct<city: string>, _pdelta_type string, "
                     "_pdelta_seq bigint"}
STATE_COLUMNS = {"c": ("cid", "name", "aid"), "a": ("aid", "city")}
STATE_TYPES = {"c": "cid int, name string, aid int", "a": "aid int, city string"}
RELS = ("c", "a")


def feed_row(rel: str, r: dict) -> tuple:
    """a World feed row (contract.mutations) as a row of the relation's Delta feed"""
    before = r["before"]
    if rel == "c":
        return (r["cid"], r["name"], r["aid"], None if before is None else (before.get("name"), before.get("aid")),
                r["type"], r["seq"])
    return (r["aid"], r["city"], None if before is None else (before.get("city"),), r["type"], r["seq"])


def write_project(root: Path, repo: Path, name: str, schema: str, case: str, models: dict[str, str],
                  variables: dict | None = None) -> None:
    """the project `name` (pdelta installed from `repo`), its sources the case's states and feeds in
    `schema`, and `models` (model name -> SQL)"""
    (root / "models").mkdir(parents=True, exist_ok=True)
    (root / "dbt_project.yml").write_text(
        f"name: {name}\nversion: '1.0'\nconfig-version: 2\nprofile: pdelta\n"
        f"models:\n  {name}:\n    +file_format: delta\n"
        + ("vars:\n" + "".join(f"  {k}: {json.dumps(v)}\n" for k, v in variables.items()) if variables else ""))
    (root / "packages.yml").write_text(f"packages:\n  - local: {json.dumps(str(repo))}\n")
    tables = [n for rel in RELS for n in (rel_name(case, rel), feed_name(case, rel))]
    (root / "models" / "sources.yml").write_text(
        f"version: 2\nsources:\n  - name: {SOURCE}\n    schema: {schema}\n    tables:\n"
        + "".join(f"      - name: {t}\n" for t in tables))
    for model, sql in models.items():
        (root / "models" / f"{model}.sql").write_text(sql)


def create_feeds(spark, schema: str, case: str) -> None:
    """the schema, created anew with the case's two empty Delta feeds"""
    spark.sql(f"drop database if exists {schema} cascade")
    spark.sql(f"create database {schema}")
    for rel in RELS:
        spark.sql(f"create table {schema}.{feed_name(case, rel)} ({FEED_COLUMNS[rel]}) using delta")


def append_feed_rows(spark, schema: str, case: str, rel: str, rows: list[dict]) -> None:
    """a blind append of the relation's rows among `rows`, as a replicating tool writes (it reads
    nothing of the feed)"""
    mine = [feed_row(rel, r) for r in rows if r["rel"] == rel]
    if mine:
        spark.createDataFrame(mine, FEED_COLUMNS[rel]).write.format("delta").mode("append") \
            .saveAsTable(f"{schema}.{feed_name(case, rel)}")


def publish_states(spark, schema: str, case: str, world) -> None:
    """the world's states now, committed to the state tables (one overwrite each)"""
    for rel in RELS:
        state = [tuple(r[c] for c in STATE_COLUMNS[rel]) for r in world.state_rows() if r["rel"] == rel]
        spark.createDataFrame(state, STATE_TYPES[rel]).write.format("delta").mode("overwrite") \
            .saveAsTable(f"{schema}.{rel_name(case, rel)}")


def parsed_runner(project: Path, repo: Path, callbacks: list):
    """dbt's in-process runner over the project, its package installed and its manifest parsed once
    (every run reuses it): (runner, manifest)"""
    from dbt.cli.main import dbtRunner

    dirs = ["--project-dir", str(project), "--profiles-dir", str(repo)]
    assert dbtRunner().invoke(["deps", "--quiet", *dirs]).success
    parsed = dbtRunner().invoke(["parse", "--quiet", *dirs])
    assert parsed.success, parsed.exception
    return dbtRunner(manifest=parsed.result, callbacks=callbacks), parsed.result
