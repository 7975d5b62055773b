"""The dbt project of the apply tests, installing pdelta as a package: two base relations kept
as pdelta mirrors from canonical change feeds (dbt sources), and the same dimension view two
ways — Delta clustered by its key with SCD2 history (`dim`) and plain parquet with key buckets
(`dim_pq`) — plus a one-relation view with history and no pruning (`dim1`) for fault injection, and
one whose declaration changes from run to run (`dim1_adapting`) for fault injection while it adapts,
and a view over `dim`'s change feed with `dim` as its state (`dim_over`), which reads `dim` as of the
batch its bound names while `dim` commits its next one, and `dim`'s declaration in complement mode (`dim_c`)
for kills around its complement's MERGE (tests/test_apply.py)."""
from __future__ import annotations

import json
from pathlib import Path

from .world import ADDR_ATTRS, CUST_ATTRS, EXCLUDED_COUNTRY, SMALL_EXCLUDED_TIER, SMALL_TRACKED, TRACKED

SCHEMA = "pdelta_apply_it"


def declaration() -> dict:
    return {"root": "c", "relations": {
        "c": {"state": "cust", "changes": {"source": ["it", "cust_changes"]}, "key": ["cid"], "technique": "any",
              "columns": ["cid", "name", "tier"]},
        "a": {"state": "addr", "changes": {"source": ["it", "addr_changes"]}, "key": ["aid"], "technique": "any",
              "join": {"to": "c", "on": {"aid": "aid"}}, "columns": ["city", "country"],
              "where": f"country <> '{EXCLUDED_COUNTRY}'"},
    }}


def small_declaration() -> dict:
    """One relation with a selection: the view the fault-injection test refreshes (few statements)."""
    return {"root": "c", "relations": {
        "c": {"state": "cust", "changes": {"source": ["it", "cust_changes"]}, "key": ["cid"], "technique": "any",
              "columns": ["cid", "name", "tier"], "where": f"tier <> '{SMALL_EXCLUDED_TIER}'"}}}


def adapting_declaration() -> str:
    """One relation whose declaration turns with env var PDELTA_ADAPT_TURN (Jinja: rendered by dbt): on odd
    turns `name` is output as `customer_name`, `aid` is output too (as `aid_<turn>`) and the selection leaves out
    silver instead of bronze, so every turn adapts the view (a column renamed, a column added or
    dropped, a predicate changed) instead of rebuilding it. It keeps SCD2 history, which adapts
    with it (renamed and added there too, each `aid_<turn>` kept when dropped)."""
    even = small_declaration()
    odd = json.loads(json.dumps(even))
    # `aid` under a name of the turn's (aid_1, aid_3, ...): each odd turn adds a column its history never held
    odd["relations"]["c"].update(columns=["cid", {"customer_name": "name"}, "tier", {"aid_TURN": "aid"}],
                                 where="tier <> 'silver'")
    # an env var, not a dbt var: dbt re-parses only the files that read a changed env var, and every
    # file (the package's 478 kB of macros) when a var changes: ~2 s of CPU per run, 40 runs
    odd_text = json.dumps(odd).replace('"aid_TURN"', "('aid_' ~ turn)")
    return ("{%- set turn = env_var('PDELTA_ADAPT_TURN', '0') | int -%}\n"
            f"{{%- set view = {odd_text} if turn % 2 else {json.dumps(even)} -%}}\n"
            "{{ config(materialized='dimension_view', pdelta=view, pdelta_history='scd2') }}\n"
            "{{ pdelta.dimension_view(view) }}\n")


ADAPTING = "dim1_adapting"

# dim's declaration in complement mode (issue #21), built and refreshed only by the test of kills around its
# complement's MERGE
COMPLEMENT = "dim_c"

# the view over dim's feed: its state is dim itself (a state pdelta writes, read as of the bound)
OVER = "dim_over"
OVER_ATTRS = ["name", "city"]


def over_declaration() -> dict:
    return {"root": "d", "relations": {
        "d": {"state": "dim", "changes": {"feed_of": "dim"}, "key": ["cid"], "technique": "pdelta_view",
              "columns": ["cid", *OVER_ATTRS]}}}

SMALL = ("dim1", {"pdelta_history": {"type": "scd2", "tracked": SMALL_TRACKED}, "pdelta_apply": {"prune": False}})

VIEWS = {
    # deletion vectors through dbt-spark's own tblproperties config: MERGE marks rows instead of rewriting files
    "dim": {"pdelta_history": {"type": "scd2", "tracked": TRACKED}, "pdelta_apply": {"cluster_by_key": True},
            "tblproperties": {"delta.enableDeletionVectors": "true"}},
    "dim_pq": {"file_format": "parquet", "pdelta_apply": {"buckets": 4}},
}


def write_project(root: Path, repo: Path) -> None:
    models = root / "models"
    models.mkdir(parents=True, exist_ok=True)
    (root / "dbt_project.yml").write_text(
        "name: pdelta_apply_it\nversion: '1.0'\nconfig-version: 2\nprofile: pdelta\n"
        f"models:\n  pdelta_apply_it:\n    +schema: null\n    +file_format: delta\n"
    )
    (root / "packages.yml").write_text(f"packages:\n  - local: {json.dumps(str(repo))}\n")
    (models / "sources.yml").write_text(
        "version: 2\nsources:\n  - name: it\n    schema: " + SCHEMA + "\n    tables:\n"
        + "".join(f"      - name: {t}\n" for t in ("cust_changes", "addr_changes", "cust_initial", "addr_initial"))
        + "models:\n  - name: cust\n    columns: [{name: cid, data_tests: [unique, not_null]}]\n"
        "  - name: addr\n    columns: [{name: aid, data_tests: [unique, not_null]}]\n"
    )
    for rel, key in (("cust", "cid"), ("addr", "aid")):
        m = {"changes": {"source": ["it", f"{rel}_changes"]}, "key": [key],
             "snapshot": {"source": ["it", f"{rel}_initial"]}}
        (models / f"{rel}.sql").write_text(
            "{%- set m = " + json.dumps(m) + " -%}\n"
            "{{ config(materialized='mirror', pdelta_mirror=m) }}\n{{ pdelta.mirror(m) }}\n")
    (models / f"{ADAPTING}.sql").write_text(adapting_declaration())
    kept = {"pdelta_complement": True, "pdelta_complement_upkeep": "batch"}
    for name, cfg, decl in [*((n, c, declaration()) for n, c in VIEWS.items()), (*SMALL, small_declaration()),
                            (OVER, {}, over_declaration()), (COMPLEMENT, kept, declaration())]:
        extra = "".join(f", {k}={json.dumps(v)}" for k, v in cfg.items())
        (models / f"{name}.sql").write_text(
            "{%- set view = " + json.dumps(decl) + " -%}\n"
            "{{ config(materialized='dimension_view', pdelta=view" + extra + ") }}\n"
            "{{ pdelta.dimension_view(view) }}\n")


def feed_ddl(rel: str) -> str:
    key, attrs = ("cid", CUST_ATTRS) if rel == "cust" else ("aid", ADDR_ATTRS)
    types = {"cid": "int", "aid": "int", "name": "string", "tier": "string", "city": "string", "country": "string"}
    cols = ", ".join(f"`{c}` {types[c]}" for c in [key, *attrs])
    before = ", ".join(f"`{c}`: {types[c]}" for c in attrs)
    return (f"create table `{SCHEMA}`.`{rel}_changes` ({cols}, `_pdelta_before` struct<{before}>, "
            f"`_pdelta_type` string, `_pdelta_seq` bigint) using delta")


def initial_ddl(rel: str) -> str:
    key, attrs = ("cid", CUST_ATTRS) if rel == "cust" else ("aid", ADDR_ATTRS)
    types = {"cid": "int", "aid": "int", "name": "string", "tier": "string", "city": "string", "country": "string"}
    cols = ", ".join(f"`{c}` {types[c]}" for c in [key, *attrs])
    return f"create table `{SCHEMA}`.`{rel}_initial` ({cols}) using delta"
