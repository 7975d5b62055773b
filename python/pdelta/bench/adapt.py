"""The view-adaptation benchmark (issue #19): the chain workload's dimension view and a view over
its change feed, with the view's predicates and output columns changed between runs — one change
kind after another — brought to the new declaration by pdelta (the view adapts in one batch, the
view downstream refreshes from that batch) and, side by side in the same run, rebuilt as dbt
tables of the same SELECTs (what a changed model costs without adaptation; pdelta itself rebuilt
both before). After each change every pdelta table must equal its rebuilt twin, the view's batch
must be `adapted` and the downstream view's `incremental`, before a time counts.

A third contender is the same pair of pdelta views with the cost model on (`pdelta_rebuild_ratio:
learned`): the first group's builds are followed by one small change batch of the states (0.1 % of
each relation, untimed, every table checked), so that the view has a timed refresh and a timed
rebuild to learn from (its batch log keeps them through the next groups' full builds); then each
change is adapted or, when the model predicts a rebuild faster, rebuilt (a plain rebuild: the view
downstream rebuilds too; it may also rebuild by its own cost model). Its time against the rebuild is
what a user with the cost model on pays; the issue's goal is never more than 1.1x the rebuild.

    python -m pdelta.bench.adapt --sizes 1000000,10000000 [--out docs/bench] [--only columns --name adapt-columns]
    (--only predicates | columns | relations | replacements; each kind starts from the base declaration;
    --per-group N: the first N changes of each kind, as make test's smoke run does)
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import sys
import time
from pathlib import Path

from .project import SCHEMA, q, t
from .run import Dbt as HarnessDbt
from .run import (ROOT, STATEMENTS, apply_batch, count_statements, generate_base, last_batch, log, machine,
                  spark_jobs)
from .workloads import Workload, chain, declaration

# each change kind: its label and the predicates the view then has (alias -> where); they run in
# this order on the same tables, each from the declaration the one before left. Keys are spread
# by the generator's hash, so `pmod(key, 100) = 7` is about 1 % of a relation's rows.
CHANGES = [
    ("root predicate added (1 % of customers leave)", {"customer": "pmod(c_id, 100) <> 7"}),
    ("root predicate narrowed (1 % more leave)", {"customer": "pmod(c_id, 100) <> 7 and pmod(c_id, 100) <> 8"}),
    ("root predicate dropped (2 % come back)", {}),
    ("city predicate added (1 % of cities)", {"city": "pmod(ci_id, 100) <> 7"}),
    ("city predicate replaced (1 % leave, 1 % come back)", {"city": "pmod(ci_id, 100) <> 8"}),
    ("predicates on two relations at once", {"customer": "pmod(c_id, 100) <> 9", "city": "pmod(ci_id, 100) <> 7"}),
]
# output columns dropped or renamed (the tables' metadata only), alone and with a predicate, then
# added back (filled from their relation's state): (label, predicates, columns {drop: [output],
# rename: {output: new name}}). The view downstream reads none of them.
COLUMN_CHANGES = [
    ("column dropped (c_segment)", {}, {"drop": ["c_segment"], "rename": {}}),
    ("column renamed (a_zip to a_postcode)", {}, {"drop": ["c_segment"], "rename": {"a_zip": "a_postcode"}}),
    ("column dropped, root predicate added (1 %)", {"customer": "pmod(c_id, 100) <> 7"},
     {"drop": ["c_segment", "ci_pop"], "rename": {"a_zip": "a_postcode"}}),
    ("column added (c_segment, from the root)", {"customer": "pmod(c_id, 100) <> 7"},
     {"drop": ["ci_pop"], "rename": {"a_zip": "a_postcode"}}),
    ("column added (ci_pop, from city, two joins away)", {"customer": "pmod(c_id, 100) <> 7"},
     {"drop": [], "rename": {"a_zip": "a_postcode"}}),
]
# a leaf relation removed (its columns dropped with it), then joined in again as a filter only:
# (label, predicates, columns, relations {remove: [alias], filter: {alias: where}})
NO_COLUMN_CHANGE = {"drop": [], "rename": {}}
NO_RELATION_CHANGE = {"remove": [], "filter": {}}
WITHOUT_COUNTRY_COLUMNS = {"drop": ["co_name", "co_code"], "rename": {}}
RELATION_CHANGES = [
    ("relation removed (country and its 2 columns)", {}, WITHOUT_COUNTRY_COLUMNS,
     {**NO_RELATION_CHANGE, "remove": ["country"]}),
    ("relation joined in as a filter (1 % of countries: their customers leave)", {}, WITHOUT_COUNTRY_COLUMNS,
     {**NO_RELATION_CHANGE, "filter": {"country": "pmod(co_id, 100) <> 7"}}),
]
# the leaf relation country replaced (the paper's relation replacement): by a view of its table with every
# column renamed (`m_<column>`), then by one without 1 % of the countries, then by the first again with no
# containment declared; city's join column is output first (a column added), so that the view can find the
# rows each replacement reaches (the paper's inclusion assumption). relations: {output: {alias: [column]},
# replace: {alias: {state, containment}}}
WITH_JOIN_COLUMN = {**NO_RELATION_CHANGE, "output": {"city": ["ci_country"]}}
REPLACEMENTS = [
    ("city's join column to country output (ci_country added)", {}, NO_COLUMN_CHANGE, WITH_JOIN_COLUMN),
    ("country replaced by a renamed copy (containment equal)", {}, NO_COLUMN_CHANGE,
     {**WITH_JOIN_COLUMN, "replace": {"country": {"state": "country_moved", "containment": "equal"}}}),
    ("country replaced by one without 1 % of it (containment subset: its customers leave)", {}, NO_COLUMN_CHANGE,
     {**WITH_JOIN_COLUMN, "replace": {"country": {"state": "country_moved_sub", "containment": "subset"}}}),
    ("country replaced by the renamed copy, no containment declared (both sides: they come back)", {},
     NO_COLUMN_CHANGE, {**WITH_JOIN_COLUMN, "replace": {"country": {"state": "country_moved", "containment": None}}}),
]
REPLACEMENT_MODELS = ["country_moved", "country_moved_changes", "country_moved_sub", "country_moved_sub_changes"]
CHANGED_COLUMNS = {"c_segment", "a_zip", "ci_pop", "co_name", "co_code", "ci_country"}
VIEW, DOWN, REBUILT, REBUILT_DOWN = "chain_view", "chain_view_down", "chain_rebuilt", "chain_rebuilt_down"
# the cost-model contender: the view and its downstream view under `pdelta_rebuild_ratio: learned`
AUTO, AUTO_DOWN = "chain_auto", "chain_auto_down"
PDELTA_MODELS = (VIEW, DOWN, AUTO, AUTO_DOWN)
# the change batch each group refreshes before its changes, as a share of each relation's rows (at
# least LEARNING_BATCH_ROWS of the root's, so that a small run has changes to learn from)
LEARNING_BATCH_RATIO, LEARNING_BATCH_ROWS = 0.001, 10


def view_declaration(w: Workload) -> dict:
    return declaration(w, "__partial")


def write_project(root: Path, w: Workload) -> None:
    """the view (its predicates from var `bench_predicates`), a view over its feed, and their
    rebuilt twins as dbt tables"""
    models = root / "models"
    shutil.rmtree(models, ignore_errors=True)
    models.mkdir(parents=True)
    (root / "dbt_project.yml").write_text(
        "name: pdelta_bench_adapt\nversion: '1.0'\nconfig-version: 2\nprofile: pdelta\n"
        "models:\n  pdelta_bench_adapt:\n    +file_format: delta\n    +materialized: view\n"
        "    +tblproperties:\n      delta.enableDeletionVectors: 'true'\n")
    (root / "packages.yml").write_text(f"packages:\n  - local: {json.dumps(str(ROOT))}\n")
    src = ["version: 2", "sources:", "  - name: bench", f"    schema: {SCHEMA}", "    tables:"]
    for r in w.rels:
        src += [f"      - name: {w.table(r)}", f"      - name: {w.table(r, '__partial')}"]
    (models / "sources.yml").write_text("\n".join(src) + "\n")
    with_predicates = ("{%- set view = " + json.dumps(view_declaration(w)) + " -%}\n"
                       "{%- for alias, where in var('bench_predicates', {}).items() -%}\n"
                       "  {%- do view['relations'][alias].update({'where': where}) -%}\n"
                       "{%- endfor -%}\n"
                       "{%- set changed = var('bench_columns', {'drop': [], 'rename': {}}) -%}\n"
                       "{%- for r in view['relations'].values() -%}\n"
                       "  {%- set kept = [] -%}\n"
                       "  {%- for c in r['columns'] if c not in changed['drop'] -%}\n"
                       "    {%- do kept.append({changed['rename'][c]: c} if c in changed['rename'] else c) -%}\n"
                       "  {%- endfor -%}\n"
                       "  {%- do r.update({'columns': kept}) -%}\n"
                       "{%- endfor -%}\n"
                       "{%- set relations = var('bench_relations', {'remove': [], 'filter': {}}) -%}\n"
                       "{%- for alias in relations['remove'] -%}{%- do view['relations'].pop(alias) -%}{%- endfor -%}\n"
                       "{%- for alias, where in relations['filter'].items() -%}\n"
                       "  {%- do view['relations'][alias].update({'columns': [], 'where': where}) -%}\n"
                       "{%- endfor -%}\n"
                       "{%- for alias, added in relations.get('output', {}).items() -%}\n"
                       "  {%- do view['relations'][alias]['columns'].extend(added) -%}\n"
                       "{%- endfor -%}\n"
                       # a replaced relation: its replacement's columns are `m_<column>`, the view's names kept
                       "{%- for alias, swap in relations.get('replace', {}).items() -%}\n"
                       "  {%- set r = view['relations'][alias] -%}\n"
                       "  {%- set renamed = [] -%}\n"
                       "  {%- for c in r['columns'] -%}{%- do renamed.append({c: 'm_' ~ c}) -%}{%- endfor -%}\n"
                       "  {%- set on = {} -%}\n"
                       "  {%- for fk, k in r['join']['on'].items() -%}"
                       "{%- do on.update({fk: 'm_' ~ k}) -%}{%- endfor -%}\n"
                       "  {%- do r.update({'state': swap['state'], 'changes': swap['state'] ~ '_changes',\n"
                       "                   'key': ['m_' ~ r['key'][0]], 'columns': renamed, "
                       "'containment': swap['containment'],\n"
                       "                   'join': {'to': r['join']['to'], 'on': on}}) -%}\n"
                       "{%- endfor -%}\n")
    for name, ratio in ((VIEW, "false"), (AUTO, "'learned'")):
        (models / f"{name}.sql").write_text(
            with_predicates + "{{ config(materialized='dimension_view', pdelta=view, pdelta_rebuild_ratio="
            + ratio + ") }}\n{{ pdelta.dimension_view(view) }}\n")
    (models / f"{REBUILT}.sql").write_text(
        with_predicates + "{{ config(materialized='table') }}\n{{ pdelta.dimension_view(view) }}\n")
    columns = [c for c in w.view_columns() if c not in CHANGED_COLUMNS]
    for name, upstream, ratio in ((DOWN, VIEW, "false"), (AUTO_DOWN, AUTO, "'learned'")):
        down = {"root": "v", "relations": {"v": {"state": upstream, "changes": {"feed_of": upstream},
                                                 "key": [w.root.key], "technique": "pdelta_view", "columns": columns}}}
        (models / f"{name}.sql").write_text(
            "{%- set view = " + json.dumps(down) + " -%}\n"
            "{{ config(materialized='dimension_view', pdelta=view, pdelta_rebuild_ratio=" + ratio + ") }}\n"
            "{{ pdelta.dimension_view(view) }}\n")
    # the replacements of the leaf relation (REPLACEMENTS): views of its table and feed, columns renamed
    leaf = w.rels[-1]
    renamed = ", ".join(f"{q(c)} as {q('m_' + c)}" for c, _ in leaf.columns)
    before = ", ".join(f"m_{c}: {typ}" for c, typ in leaf.columns if c != leaf.key)
    for name, kept in (("country_moved", ""), ("country_moved_sub", f" where pmod({q(leaf.key)}, 100) <> 7")):
        (models / f"{name}.sql").write_text(
            f"select {renamed} from {{{{ source('bench', '{w.table(leaf)}') }}}}{kept}\n")
        (models / f"{name}_changes.sql").write_text(
            f"select {renamed}, cast(null as struct<{before}>) as `_pdelta_before`, `_pdelta_type`, `_pdelta_seq`\n"
            f"from {{{{ source('bench', '{w.table(leaf, '__partial')}') }}}}\n")
    keys = ["version: 2", "models:"] + [f"  - name: {name}\n    columns: [{{name: m_{leaf.key}, data_tests: [unique]}}]"
                                        for name in ("country_moved", "country_moved_sub")]
    (models / "_replacements.yml").write_text("\n".join(keys) + "\n")
    (models / f"{REBUILT_DOWN}.sql").write_text(
        "{{ config(materialized='table') }}\nselect " + ", ".join(q(c) for c in columns)
        + " from {{ ref('" + REBUILT + "') }}\n")


class Dbt(HarnessDbt):
    """the harness's dbt, parsed once per set of vars (the parse is not in the timings)"""
    vars = "{}"

    def with_vars(self, predicates: dict, columns: dict | None = None, relations: dict | None = None) -> None:
        from dbt.cli.main import dbtRunner

        self.vars = json.dumps({"bench_predicates": predicates, "bench_columns": columns or NO_COLUMN_CHANGE,
                                "bench_relations": relations or NO_RELATION_CHANGE})
        self.runner = dbtRunner()  # a runner holding the last manifest would not parse again
        self.parse()

    def __call__(self, *args: str):
        return super().__call__(*args, "--vars", self.vars)


def timed(spark, dbt: Dbt, model: str, full: bool = False) -> dict:
    STATEMENTS.clear()
    jobs, start = spark_jobs(spark), time.perf_counter()
    dbt("run", "-s", model, *(["--full-refresh"] if full else []))
    return {"seconds": round(time.perf_counter() - start, 3), "statements": len(STATEMENTS),
            "spark_jobs": spark_jobs(spark) - jobs}


def assert_equal(spark, left: str, right: str, columns: list[str]) -> int:
    cols = ", ".join(q(c) for c in columns)
    extra, missing, rows = spark.sql(
        f"select (select count(*) from (select {cols} from {t(left)} except all select {cols} from {t(right)})), "
        f"(select count(*) from (select {cols} from {t(right)} except all select {cols} from {t(left)})), "
        f"(select count(*) from {t(right)})").collect()[0]
    if extra or missing:
        raise AssertionError(f"{left} differs from {right}: {extra} rows extra, {missing} missing")
    return rows


def batch_count(spark, view: str) -> int:
    """how many batches the view's log holds"""
    return spark.sql(f"select count(distinct batch_id) from {t(view + '__pdelta_batches')}").collect()[0][0]


def view_columns_after(w: Workload, columns: dict | None) -> list[str]:
    """the view's output columns once `columns` (COLUMN_CHANGES) dropped and renamed some"""
    columns = columns or NO_COLUMN_CHANGE
    return [columns["rename"].get(c, c) for c in w.view_columns() if c not in columns["drop"]]


def run(sizes: list[int], work: Path, seed: int, groups: list[list[tuple]] | None = None) -> list[dict]:
    """each group of changes (all_changes) from the base declaration: the models built in full first
    (and, in the first group, one small change batch refreshed), then each change of the group adapted (and rebuilt)
    from the declaration the one before left"""
    from pdelta.spark import session_from_profile

    os.environ.update({"PDELTA_LOCAL_DIR": str(work / "spark"), "PDELTA_SCHEMA": SCHEMA, "PDELTA_TARGET": "local"})
    spark = session_from_profile(ROOT)
    count_statements()
    results = []
    for size in sizes:
        spark.sql(f"drop database if exists {q(SCHEMA)} cascade")
        spark.sql(f"create database {q(SCHEMA)}")
        w = chain(size)
        project = work / "project-adapt"
        write_project(project, w)
        dbt = Dbt(project)
        if not (project / "dbt_packages").exists():
            dbt("deps")
        log(f"adapt: chain at {size:,} root rows: generating")
        generate_base(spark, w, seed, work)
        next_key = {r.name: r.first_key + r.size for r in w.rels}
        learned = False
        for change in [c for group in groups or all_changes() for c in [None, *group]]:
            if change is None:  # a group starts from the base declaration
                dbt.with_vars({})
                for model in (*PDELTA_MODELS, REBUILT, REBUILT_DOWN):
                    timed(spark, dbt, model, full=True)
                dbt("run", "-s", *REPLACEMENT_MODELS)  # views the replacements read (REPLACEMENTS)
                if not learned:  # the timed runs a view learns from outlive its full builds (its batch log)
                    learning_batch(spark, dbt, w, 1, seed, next_key)
                    learned = True
                continue
            label, predicates, column_change, relations = change
            dbt.with_vars(predicates, column_change, relations)
            cell = {"root_rows": size, "change": label, "predicates": predicates, "columns": column_change,
                    "relations": relations,
                    "machine": machine(), "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d")}
            # the rebuild first, then pdelta, then pdelta with the cost model: each on the same states, each
            # its view then the one downstream
            cell["rebuild_view"] = timed(spark, dbt, REBUILT)
            cell["rebuild_down"] = timed(spark, dbt, REBUILT_DOWN)
            cell["pdelta_view"], cell["pdelta_down"], (mode, down_mode) = timed_pair(spark, dbt, VIEW, DOWN)
            if mode != "adapted" or down_mode != "incremental":
                raise AssertionError(f"{label}: the view's batch was `{mode}` (expected adapted), the downstream "
                                     f"view's `{down_mode}` (expected incremental)")
            cell["auto_view"], cell["auto_down"], (auto_mode, auto_down_mode) = timed_pair(spark, dbt, AUTO, AUTO_DOWN)
            # the cost model adapts (the view downstream refreshes from the batch, or rebuilds when its own cost
            # model says so) or rebuilds (a plain rebuild's `full` batch: the view downstream rebuilds too)
            if (auto_mode, auto_down_mode) not in (("adapted", "incremental"), ("adapted", "rebuild"),
                                                   ("rebuild", "full")):
                raise AssertionError(f"{label}: with the cost model on, the view's batch was `{auto_mode}` and the "
                                     f"downstream view's `{auto_down_mode}` (expected adapted and incremental or "
                                     "rebuild, or rebuild and full)")
            cell["auto_mode"], cell["auto_down_mode"] = auto_mode, auto_down_mode
            columns = view_columns_after(w, column_change) + [
                c for added in (relations or {}).get("output", {}).values() for c in added]
            cell["view_rows"] = assert_equal(spark, VIEW, REBUILT, columns)
            assert_equal(spark, AUTO, REBUILT, columns)
            down_columns = [c for c in w.view_columns() if c not in CHANGED_COLUMNS]
            for downstream in (DOWN, AUTO_DOWN):
                assert_equal(spark, downstream, REBUILT_DOWN, down_columns)
            cell["view_changes"], cell["down_changes"] = last_batch(spark, VIEW)[1], last_batch(spark, DOWN)[1]
            results.append(cell)
            log(f"adapt {size:,} {label}: rebuild {cell['rebuild_view']['seconds']:.1f} + "
                f"{cell['rebuild_down']['seconds']:.1f} s, pdelta {cell['pdelta_view']['seconds']:.1f} + "
                f"{cell['pdelta_down']['seconds']:.1f} s, with the cost model ({auto_mode}, {auto_down_mode}) "
                f"{cell['auto_view']['seconds']:.1f} + {cell['auto_down']['seconds']:.1f} s, "
                f"view changes {cell['view_changes']}")
    return results


def timed_pair(spark, dbt: Dbt, view: str, down: str) -> tuple[dict, dict, tuple[str, str]]:
    """a pdelta view's run and its downstream view's, timed, and the modes of their batches: `rebuild`
    for a plain rebuild the view's cost model chose (a `full` batch), the downstream view's `full` when
    it rebuilt because the view did, `rebuild` when its own cost model chose to, and `incremental` also
    when the view's batch published no row (the downstream view had nothing to refresh)"""
    view_run = timed(spark, dbt, view)
    down_batches = batch_count(spark, down)
    down_run = timed(spark, dbt, down)
    mode, counts = last_batch(spark, view)
    down_mode = last_batch(spark, down)[0]
    if batch_count(spark, down) == down_batches:
        down_mode = "incremental" if not sum(counts.values()) else "none"
    elif down_mode == "full" and mode != "full":
        down_mode = "rebuild"  # its input was not rebuilt: its own cost model chose to
    return view_run, down_run, ("rebuild" if mode == "full" else mode, down_mode)


def learning_batch(spark, dbt: Dbt, w: Workload, batch: int, seed: int, next_key: dict) -> None:
    """one small change batch of the states and feeds, refreshed by every pdelta view and rebuilt by the
    twins (untimed here; the cost-model views time it for themselves), each table checked equal"""
    ratio = max(LEARNING_BATCH_RATIO, LEARNING_BATCH_ROWS / w.root.size)
    changes = apply_batch(spark, w, batch, ratio, seed, next_key)
    batches = {view: batch_count(spark, view) for view in (VIEW, AUTO)}
    dbt("run", "-s", *PDELTA_MODELS, REBUILT, REBUILT_DOWN)
    for view in (VIEW, AUTO):
        mode = last_batch(spark, view)[0] if batch_count(spark, view) > batches[view] else "none"
        # the cost-model view may rebuild it, once it has learned from an earlier group's batch
        if mode != "incremental" and not (view == AUTO and mode == "full"):
            raise AssertionError(f"the learning batch: {view}'s batch was `{mode}` (expected incremental)")
        assert_equal(spark, view, REBUILT, w.view_columns())
    for downstream in (DOWN, AUTO_DOWN):
        assert_equal(spark, downstream, REBUILT_DOWN, [c for c in w.view_columns() if c not in CHANGED_COLUMNS])
    log(f"adapt: learning batch {batch}: {changes} refreshed")


def all_changes(only: str | None = None) -> list[list[tuple]]:
    """the groups of changes that run, each from the base declaration: `predicates`, `columns`,
    `relations`, `replacements`, or all (None); each change (label, predicates, columns, relations)"""
    groups = {"predicates": [(label, predicates, NO_COLUMN_CHANGE, None) for label, predicates in CHANGES],
              "columns": [(label, predicates, columns, None) for label, predicates, columns in COLUMN_CHANGES],
              "relations": RELATION_CHANGES, "replacements": REPLACEMENTS}
    return [changes for kind, changes in groups.items() if only in (None, kind)]


def table(results: list[dict]) -> str:
    def cell(m: dict) -> str:
        return f"{m['seconds']:.1f} ({m['statements']} / {m['spark_jobs']})"

    first = results[0]["machine"]
    lines = [f"Measured {results[0]['date']} on {first['cores']} cores, {first['memory_gib']} GiB (Spark local, driver "
             f"memory {first['driver_memory']}, {first['shuffle_partitions']} shuffle partitions); seconds per dbt "
             "invocation (parse excluded), in brackets the statements sent to Spark / the Spark jobs they ran.", "",
             "| root rows | change | view rows changed | rebuild: view | rebuild: downstream | pdelta adapts: view "
             "| pdelta: downstream refresh | view: rebuild ÷ pdelta | both: rebuild ÷ pdelta "
             "| cost model: choice | cost model: view | cost model: downstream | both: rebuild ÷ cost model |",
             "|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|"]
    for r in results:
        rb = r["rebuild_view"]["seconds"] + r["rebuild_down"]["seconds"]
        pd = r["pdelta_view"]["seconds"] + r["pdelta_down"]["seconds"]
        auto = r["auto_view"]["seconds"] + r["auto_down"]["seconds"]
        changed = sum(r["view_changes"].values())
        lines.append(f"| {r['root_rows']:,} | {r['change']} | {changed:,} | {cell(r['rebuild_view'])} "
                     f"| {cell(r['rebuild_down'])} | {cell(r['pdelta_view'])} | {cell(r['pdelta_down'])} "
                     f"| {r['rebuild_view']['seconds'] / r['pdelta_view']['seconds']:.2f} | {rb / pd:.2f} "
                     f"| {r['auto_mode']}, downstream {r['auto_down_mode']} | {cell(r['auto_view'])} "
                     f"| {cell(r['auto_down'])} | {rb / auto:.2f} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m pdelta.bench.adapt", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", default="1000000,10000000", help="root rows, comma-separated")
    p.add_argument("--out", default=str(ROOT / "docs" / "bench"), help="adapt.md and adapt.json go here")
    p.add_argument("--work", default=os.environ.get("PDELTA_BENCH_DIR", str(ROOT / ".pdelta" / "bench")))
    p.add_argument("--seed", type=int, default=20261126)
    p.add_argument("--only", choices=["predicates", "columns", "relations", "replacements"],
                   help="run only these change kinds")
    p.add_argument("--name", default="adapt", help="the results' file names (<name>.md, <name>.json)")
    p.add_argument("--per-group", type=int, default=0, metavar="N",
                   help="only the first N changes of each kind (each builds on the one before it); 0: all")
    a = p.parse_args(argv)
    work, out = Path(a.work), Path(a.out)
    work.mkdir(parents=True, exist_ok=True)
    out.mkdir(parents=True, exist_ok=True)
    groups = [group[:a.per_group] if a.per_group > 0 else group for group in all_changes(a.only)]
    results = run([int(float(s)) for s in a.sizes.split(",") if s], work, a.seed, groups)
    (out / f"{a.name}.json").write_text(json.dumps(results, indent=1) + "\n")
    (out / f"{a.name}.md").write_text(table(results))
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
