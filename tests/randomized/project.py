"""Writes the integration-test dbt project that exercises pdelta as a user would: pdelta is
installed as a package (`packages.yml`, local path), relations are dbt models over two source
tables, and every view is a `dimension_view` model with its declaration in the config."""
from __future__ import annotations

import json
from pathlib import Path

import re

from .scenarios import PREDICATES, Alias, Shape, chained_columns, moved_column, output_name, predicate_sql, view_columns

SCHEMA = "pdelta_it"

# the shapes whose diff twin keeps its complement from each batch (pdelta_complement_upkeep: batch): a star with a
# key of two columns, a view over a view (chained); the others rebuild it from the states, the default. Keeping it
# from the batch costs three statements more per refresh at these sizes, where the rebuild costs one
# (docs/complement-mode.md); session 74 ran all eight shapes with its MERGE and they passed (5 sids).
BATCH_SHAPES = {"star", "chained"}


def rel_model(shape: Shape, rel: str) -> str:
    return f"{shape.name}__{rel}"


def view_model(shape: Shape) -> str:
    return f"{shape.name}__v"


def chained_model(shape: Shape) -> str:
    return f"{shape.name}__w"


def diff_model(model: str) -> str:
    """The twin of a view model refreshed with the diff plan (the rules' views are `…__v`/`…__w`)."""
    return model[:-1] + {"v": "d", "w": "e"}[model[-1]]


def plan_of(model: str) -> str:
    return "rules" if model[-1] in "vw" else "diff"


def moved_model(shape: Shape, alias: Alias) -> str:
    """the view that replaces a replaced alias's relation (replace_leaf), its feed with `__changes`"""
    return f"{rel_model(shape, alias.rel)}__moved_{alias.name}"


def declaration(shape: Shape) -> dict:
    rels = {}
    for a in shape.aliases:
        # a replaced alias reads its replacement, whose columns are named otherwise (replace_leaf)
        name = moved_column if a.replaced else (lambda c: c)
        r = {
            "state": moved_model(shape, a) if a.replaced else rel_model(shape, a.rel),
            "changes": (moved_model(shape, a) if a.replaced else rel_model(shape, a.rel)) + "__changes",
            "key": [name(c) for c in shape.key_cols(a.rel)],
            "technique": "any",
            "columns": {output_name(a, c): name(c) for c in a.outputs},
        }
        if a.predicate is not None:
            where = predicate_sql(a.predicate)
            r["where"] = re.sub(r"\b(v|s)\b", lambda m: name(m.group(1)), where) if a.replaced else where
        if a.moved:
            r["containment"] = a.moved
        if a.parent:
            on = {a.slot: name("k")}
            if shape.composite.get(a.rel):
                on[a.slot + "2"] = name("k2")
            r["join"] = {"to": a.parent, "on": on}
        rels[a.name] = r
    return {"root": shape.aliases[0].name, "relations": rels}


def chained_declaration(shape: Shape) -> dict:
    root = shape.aliases[0]
    vkey = [f"{root.name}_{c}" for c in shape.key_cols(root.rel)]
    on = {"fa": vkey[0]}
    if len(vkey) > 1:
        on["fa2"] = vkey[1]
    return {"root": "z", "relations": {
        "z": {"state": rel_model(shape, "z"), "changes": rel_model(shape, "z") + "__changes", "key": ["k"],
              "technique": "any", "columns": {"z_k": "k", "z_v": "v"}, "where": PREDICATES[1][0]},
        "w": {"state": view_model(shape), "changes": {"feed_of": view_model(shape)}, "key": vkey,
              "technique": "pdelta_view", "join": {"to": "z", "on": on},
              "columns": {f"w_{c}": c for c in vkey}},
    }}


def write_project(root: Path, repo: Path, shapes: list[Shape]) -> None:
    models = root / "models"
    models.mkdir(parents=True, exist_ok=True)
    (root / "dbt_project.yml").write_text(
        "name: pdelta_it\nversion: '1.0'\nconfig-version: 2\nprofile: pdelta\n"
        "models:\n  pdelta_it:\n    +file_format: delta\n    +materialized: view\n"
    )
    (root / "packages.yml").write_text(f"packages:\n  - local: {json.dumps(str(repo))}\n")
    # no data test of its own: the package's (tests/dbt/) run in every project that installs it,
    # this one too: no view holds a key twice, every batch log keeps the state its rows give
    (models / "sources.yml").write_text(
        "version: 2\nsources:\n  - name: it\n    schema: " + SCHEMA + "\n    tables:\n"
        "      - name: all_states\n      - name: all_changes\n"
    )
    # keys declared as dbt users declare them, so `pdelta validate` / `explain` accept the views
    schema = ["version: 2", "models:"]
    for shape in shapes:
        for rel in shape.rels():
            key = shape.key_cols(rel)
            schema.append(f"  - name: {rel_model(shape, rel)}")
            if len(key) == 1:
                schema.append(f"    columns: [{{name: {key[0]}, data_tests: [unique, not_null]}}]")
            else:
                schema.append(f"    constraints: [{{type: primary_key, columns: [{', '.join(key)}]}}]")
        for a in shape.aliases:
            if a.replaced:
                key = [moved_column(c) for c in shape.key_cols(a.rel)]
                schema.append(f"  - name: {moved_model(shape, a)}")
                if len(key) == 1:
                    schema.append(f"    columns: [{{name: {key[0]}, data_tests: [unique, not_null]}}]")
                else:
                    schema.append(f"    constraints: [{{type: primary_key, columns: [{', '.join(key)}]}}]")
    (models / "_keys.yml").write_text("\n".join(schema) + "\n")
    for shape in shapes:
        for rel in shape.rels():
            cols = shape.columns(rel)
            attrs = [c for c in cols if c not in shape.key_cols(rel)]
            name = rel_model(shape, rel)
            (models / f"{name}.sql").write_text(
                f"select {', '.join(cols)} from {{{{ source('it', 'all_states') }}}} where rel = '{name}'\n"
            )
            before = ", ".join(f"_before.{c} as {c}" for c in attrs)
            (models / f"{name}__changes.sql").write_text(
                f"select {', '.join(cols)}, "
                f"case when _before is not null then struct({before}) end as _pdelta_before,\n"
                f"       _type as _pdelta_type, _seq as _pdelta_seq\n"
                f"from {{{{ source('it', 'all_changes') }}}} where rel = '{name}'\n"
            )
        # a replaced alias's replacement: its relation and feed under other names, filtered or not
        for a in shape.aliases:
            if not a.replaced:
                continue
            cols = shape.columns(a.rel)
            attrs = [c for c in cols if c not in shape.key_cols(a.rel)]
            renamed = ", ".join(f"{c} as {moved_column(c)}" for c in cols)
            kept = f" where {PREDICATES[a.moved_filter][0]}" if a.moved_filter is not None else ""
            (models / f"{moved_model(shape, a)}.sql").write_text(
                f"select {renamed} from {{{{ ref('{rel_model(shape, a.rel)}') }}}}{kept}\n")
            before = ", ".join(f"_pdelta_before.{c} as {moved_column(c)}" for c in attrs)
            (models / f"{moved_model(shape, a)}__changes.sql").write_text(
                f"select {renamed}, case when _pdelta_before is not null then struct({before}) end as _pdelta_before,\n"
                f"       _pdelta_type, _pdelta_seq\nfrom {{{{ ref('{rel_model(shape, a.rel)}__changes') }}}}\n")
        # each view twice: refreshed with the paper's rules (`…__v`, and `…__w` over its feed) and
        # with the diff plan (`…__d`, and `…__e` over the diff twin's complete feed)
        views = [(view_model(shape), declaration(shape))]
        if shape.chained:
            views.append((chained_model(shape), chained_declaration(shape)))
        for name, decl in list(views):
            twin = json.loads(json.dumps(decl).replace(f'"{view_model(shape)}"', f'"{diff_model(view_model(shape))}"'))
            views.append((diff_model(name), twin))
        # the diff twins keep their complement (issue #21; the package's data test complements_reconstruct_states):
        # from each batch on the shapes of BATCH_SHAPES, rebuilt from the states after it on the others
        for name, decl in views:
            upkeep = "batch" if shape.name in BATCH_SHAPES else "rebuild"
            complement = (f", pdelta_complement=true, pdelta_complement_upkeep='{upkeep}'" if plan_of(name) == "diff"
                          else "")
            (models / f"{name}.sql").write_text(
                "{%- set view = " + json.dumps(decl) + " -%}\n"
                f"{{{{ config(materialized='dimension_view', tags=['dimension'], pdelta=view, "
                f"pdelta_plan='{plan_of(name)}'{complement}) }}}}\n"
                "{{ pdelta.dimension_view(view) }}\n"
            )


def output_columns(shape: Shape, chained: bool) -> list[str]:
    return [c for c, _, _ in (chained_columns(shape) if chained else view_columns(shape))]
