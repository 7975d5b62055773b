"""Writes the benchmark's dbt project: a user project that installs pdelta as a package and
holds, per workload, the four contenders over the same generated tables (dbt sources):

  <w>_a           (a) full rebuild: a dbt `table` of the view's SELECT
  <w>_b           (b) the expert dbt-spark pattern: an incremental Delta model (merge) whose
                  pre-hooks collect the root keys changed through any input and recompute
                  those view rows, and whose post-hooks delete the keys that disappeared and
                  advance its watermarks
  <w>_c_partial   (c) pdelta dimension_view on the partial feeds (change tracking on the root,
                  upsert feeds on the other relations), incremental always, the diff plan
  <w>_c_rules     (c) the same with the paper's rules term by term (`pdelta_plan: rules`)
  <w>_c_complete  (c) the same on complete (log-based) feeds
  <w>_c_auto      (c) on the partial feeds with the cost-based choice (pdelta_rebuild_ratio)
  <w>_c_complement
                  (c) c_partial keeping its complement (pdelta_complement: true, issue #21): what the
                  complement's tables take beside the view, against the mirrors of (d), and what their
                  upkeep costs a refresh (rebuilt from the states after each batch, the default)
  <w>_c_complement_batch
                  (c) the same with the complement kept from each batch (pdelta_complement_upkeep: batch);
                  not in the default contenders: `--contenders a,c_partial,c_complement,c_complement_batch`
  <w>_c_unpinned  (c) c_partial with its states read as they are (pdelta_pin_states: false): what
                  reading the users' states as of the bound costs (each pinned at its version,
                  the batch's keys compensated from their feed rows; issue #20)
  <w>_c_whole     (c) c_partial reading every row of its feeds each refresh (pdelta_feed_history_rows
                  set past any feed), as pdelta did before it read long feeds through their Delta
                  history; not in the default contenders: `--contenders a,c_partial,c_whole` with a
                  matrix whose first batches age the feeds
  <w>_c_classic   (c) c_partial with every statement through Delta's classic reader
                  (pdelta_delta_reader: classic): what the Kernel reader of its reading statements
                  saves; not in the default contenders: `--contenders a,c_partial,c_classic`
  <w>_<rel>_mirror, <w>_<rel>_cdf, <w>_d
                  (d) mirrors of the partial feeds on Delta with the change data feed on, the
                  feed converted to ins/upd/del (pdelta.cdf_feed), and a dimension_view over
                  the mirrors and those complete feeds
"""
from __future__ import annotations

import json
from pathlib import Path

from .workloads import Workload, declaration

SCHEMA = "pdelta_bench"
CONTENDERS = ["a", "b", "c_partial", "c_rules", "c_complete", "c_auto", "c_unpinned", "c_complement", "d"]
# contenders written into the project but left out of the default run
EXTRA_CONTENDERS = ["c_whole", "c_classic", "c_complement_batch"]
# pdelta_feed_history_rows no feed reaches: every refresh reads and hashes each feed's every row
WHOLE_FEED_ROWS = 10**18


def q(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def t(name: str) -> str:
    return f"{q(SCHEMA)}.{q(name)}"


def source_tables(w: Workload) -> list[str]:
    out = []
    for r in w.rels:
        out += [w.table(r), w.table(r, "__partial"), w.table(r, "__complete")]
    return out


def view_model(decl: dict, config: str) -> str:
    return ("{%- set view = " + json.dumps(decl) + " -%}\n"
            "{{ config(" + config + ", pdelta=view) }}\n"
            "{{ pdelta.dimension_view(view) }}\n")


def b_sql(w: Workload) -> dict[str, str]:
    """the expert pattern's statements (identifiers only; watermarks from its own table)"""
    root = w.root
    name = f"{w.name}_b"
    wm = t(name + "__wm")

    def feed_keys(r):
        return (f"select {q(r.key)} from {t(w.table(r, '__partial'))} where `_pdelta_seq` > "
                f"(select coalesce(max(`hi`), -1) from {wm} where `input` = '{r.name}')")

    parts = []
    for r in w.rels:
        path = w.path(r)
        if len(path) == 1:
            parts.append(f"select {q(root.key)} as k from ({feed_keys(r)})")
            continue
        frm = f"{t(w.table(path[0]))} as {q(path[0].name)}"
        for p in path[1:-1]:
            frm += f" join {t(w.table(p))} as {q(p.name)} on {q(p.parent)}.{q(p.fk)} = {q(p.name)}.{q(p.key)}"
        parent = path[-2]
        parts.append(f"select {q(root.name)}.{q(root.key)} as k from {frm} "
                     f"where {q(parent.name)}.{q(r.fk)} in ({feed_keys(r)})")
    keys = "\nunion\n".join(parts)
    full = full_select(w)
    recomputed = f"select * from ({full}) as v where v.{q(root.key)} in (select k from {t(name + '__keys')})"
    gone = (f"merge into {t(name)} as t using (select k from {t(name + '__keys')} "
            f"left anti join {t(name + '__recomputed')} as r "
            f"on k = r.{q(root.key)}) as g on t.{q(root.key)} = g.k when matched then delete")
    advance = (f"insert into {wm} " + " union all ".join(
        f"select '{r.name}', max(`_pdelta_seq`) from {t(w.table(r, '__partial'))}" for r in w.rels))
    return {
        "keys": f"create or replace table {t(name + '__keys')} using delta as {keys}",
        "recomputed": f"create or replace table {t(name + '__recomputed')} using delta as {recomputed}",
        "gone": gone, "advance": advance,
        "wm_create": f"create table if not exists {wm} (`input` string, `hi` bigint) using delta",
    }


def full_select(w: Workload) -> str:
    cols = ", ".join(f"{q(r.name)}.{q(c)}" for r in w.rels for c in r.outputs)
    frm = f"{t(w.table(w.root))} as {q(w.root.name)}"
    for r in w.rels[1:]:
        frm += f" join {t(w.table(r))} as {q(r.name)} on {q(r.parent)}.{q(r.fk)} = {q(r.name)}.{q(r.key)}"
    return f"select {cols} from {frm}"


def rebuild_ratio_config(rebuild_ratio: float | str) -> float | str:
    """pdelta_rebuild_ratio as the model config gets it, from the command line or a caller: a float, or 'learned'"""
    return rebuild_ratio if rebuild_ratio == "learned" else float(rebuild_ratio)


def write_project(root: Path, repo: Path, workloads: list[Workload], rebuild_ratio: float | str,
                  deletion_vectors: bool = True) -> None:
    models = root / "models"
    models.mkdir(parents=True, exist_ok=True)
    (root / "dbt_project.yml").write_text(
        "name: pdelta_bench\nversion: '1.0'\nconfig-version: 2\nprofile: pdelta\n"
        "models:\n  pdelta_bench:\n    +file_format: delta\n    +materialized: view\n"
        # every contender's Delta tables alike (dbt-spark's config, which pdelta's targets honour too)
        + ("    +tblproperties:\n      delta.enableDeletionVectors: 'true'\n" if deletion_vectors else "")
    )
    (root / "packages.yml").write_text(f"packages:\n  - local: {json.dumps(str(repo))}\n")
    src = ["version: 2", "sources:", "  - name: bench", f"    schema: {SCHEMA}", "    tables:"]
    for w in workloads:
        src += [f"      - name: {n}" for n in source_tables(w)]
    (models / "sources.yml").write_text("\n".join(src) + "\n")
    for w in workloads:
        tag = f"tags=['{w.name}']"
        (models / f"{w.name}_a.sql").write_text(
            "{{ config(materialized='table', " + tag + ") }}\n"
            "{{ pdelta.dimension_view(" + json.dumps(declaration(w, "__partial")) + ") }}\n")
        b = b_sql(w)
        hooks = {"pre_hook": [b["keys"], b["recomputed"]], "post_hook": [b["gone"], b["advance"]]}
        (models / f"{w.name}_b.sql").write_text(
            "{{ config(materialized='incremental', incremental_strategy='merge', file_format='delta', "
            f"unique_key={json.dumps(w.root.key)}, {tag}, pre_hook={json.dumps(hooks['pre_hook'])}, "
            f"post_hook={json.dumps(hooks['post_hook'])}) }}}}\n"
            "{% if is_incremental() %}\n"
            f"select * from {t(w.name + '_b__recomputed')}\n"
            "{% else %}\n"
            f"{full_select(w)}\n"
            "{% endif %}\n")
        off = "pdelta_rebuild_ratio=false"
        (models / f"{w.name}_c_partial.sql").write_text(
            view_model(declaration(w, "__partial"), f"materialized='dimension_view', {tag}, {off}"))
        (models / f"{w.name}_c_rules.sql").write_text(
            view_model(declaration(w, "__partial"), f"materialized='dimension_view', {tag}, {off}, "
                                                    "pdelta_plan='rules'"))
        (models / f"{w.name}_c_whole.sql").write_text(
            view_model(declaration(w, "__partial"),
                       f"materialized='dimension_view', {tag}, {off}, pdelta_feed_history_rows={WHOLE_FEED_ROWS}"))
        (models / f"{w.name}_c_classic.sql").write_text(
            view_model(declaration(w, "__partial"),
                       f"materialized='dimension_view', {tag}, {off}, pdelta_delta_reader='classic'"))
        (models / f"{w.name}_c_unpinned.sql").write_text(
            view_model(declaration(w, "__partial"), f"materialized='dimension_view', {tag}, {off}, "
                                                    "pdelta_pin_states=false"))
        (models / f"{w.name}_c_complement.sql").write_text(
            view_model(declaration(w, "__partial"), f"materialized='dimension_view', {tag}, {off}, "
                                                    "pdelta_complement=true"))
        (models / f"{w.name}_c_complement_batch.sql").write_text(
            view_model(declaration(w, "__partial"), f"materialized='dimension_view', {tag}, {off}, "
                                                    "pdelta_complement=true, pdelta_complement_upkeep='batch'"))
        (models / f"{w.name}_c_complete.sql").write_text(
            view_model(declaration(w, "__complete"), f"materialized='dimension_view', {tag}, {off}"))
        (models / f"{w.name}_c_auto.sql").write_text(
            view_model(declaration(w, "__partial"),
                       f"materialized='dimension_view', {tag}, "
                       f"pdelta_rebuild_ratio={rebuild_ratio_config(rebuild_ratio)!r}"))
        for r in w.rels:
            m = {"changes": ["bench", w.table(r, "__partial")], "key": [r.key], "snapshot": ["bench", w.table(r)]}
            (models / f"{w.table(r)}_mirror.sql").write_text(
                "{%- set m = " + json.dumps(m) + " -%}\n"
                "{{ config(materialized='mirror', " + tag + ", pdelta_mirror=m, "
                "post_hook=\"{{ pdelta.enable_change_data_feed(this) }}\") }}\n"
                "{{ pdelta.mirror(m) }}\n")
            (models / f"{w.table(r)}_cdf.sql").write_text(
                "{{ config(materialized='view', " + tag + ") }}\n"
                "{{ pdelta.cdf_feed(ref(" + json.dumps(w.table(r) + "_mirror") + "), " + json.dumps([r.key]) + ") }}\n")
        (models / f"{w.name}_d.sql").write_text(
            view_model(declaration(w, "@_cdf", "@_mirror"), f"materialized='dimension_view', {tag}, {off}"))


def contender_models(w: Workload, contender: str) -> list[str]:
    """the models one contender's refresh runs (d: the mirrors, then the view)"""
    if contender == "d":
        return [f"{w.table(r)}_mirror" for r in w.rels] + [f"{w.name}_d"]
    return [f"{w.name}_{contender}"]


def contender_tables(w: Workload, contender: str) -> list[str]:
    """the Delta tables a contender's refresh writes (for Delta's operation metrics)"""
    if contender == "a":
        return [f"{w.name}_a"]
    if contender == "b":
        return [f"{w.name}_b", f"{w.name}_b__keys", f"{w.name}_b__recomputed", f"{w.name}_b__wm"]
    views = [f"{w.name}_d"] if contender == "d" else [f"{w.name}_{contender}"]
    out = []
    for v in views:
        out += [v, v + "__pdelta_stage", v + "__pdelta_changes", v + "__pdelta_batches"]
    if contender == "d":
        for r in w.rels:
            m = f"{w.table(r)}_mirror"
            out += [m, m + "__pdelta_stage", m + "__pdelta_batches"]
    return out + complement_tables(w, contender)


COMPLEMENT_CONTENDERS = ("c_complement", "c_complement_batch")


def complement_tables(w: Workload, contender: str) -> list[str]:
    """the Delta table a contender in complement mode keeps beside its view (macros/engine/complement.sql): its
    complement"""
    return [f"{w.name}_{contender}__pdelta_complement"] if contender in COMPLEMENT_CONTENDERS else []


def kept_tables(w: Workload, contender: str) -> list[str]:
    """what a contender keeps beside its view to refresh it: c_complement its complement, d its mirrors"""
    if contender in COMPLEMENT_CONTENDERS:
        return complement_tables(w, contender)
    if contender == "d":
        return [f"{w.table(r)}_mirror" for r in w.rels]
    return []
