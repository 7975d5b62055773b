"""A declaration that is not a dimension view fails when dbt parses the project, with a message
naming the model and the offending part (paper Def. 2; DESIGN.md §2)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from user_project import ROOT, write_user_project

GOOD_C = {"state": "s_c", "changes": "s_c", "key": ["cid"], "columns": ["cid", "name"]}
GOOD_A = {"state": "s_a", "changes": "s_a", "key": ["aid", "part"], "columns": ["city"],
          "join": {"to": "c", "on": {"addr": "aid", "addr_part": "part"}}}

CASES = {
    "partial_key_join": (
        {"root": "c", "relations": {"c": GOOD_C, "a": {**GOOD_A, "join": {"to": "c", "on": {"addr": "aid"}}}}},
        "relation `a`: join c -> a on ['aid'] must equate the whole primary key ['aid', 'part']"),
    "missing_join": (
        {"root": "c", "relations": {"c": GOOD_C, "a": {k: v for k, v in GOOD_A.items() if k != "join"}}},
        "relation `a`: every relation but the root needs a `join`"),
    "unknown_parent": (
        {"root": "c", "relations": {"c": GOOD_C,
                                    "a": {**GOOD_A, "join": {"to": "x", "on": {"addr": "aid", "p": "part"}}}}},
        "relation `a`: joins to unknown alias `x`"),
    "cycle": (
        {"root": "c", "relations": {"c": GOOD_C,
                                    "a": {**GOOD_A, "join": {"to": "b", "on": {"f": "aid", "g": "part"}}},
                                    "b": {"state": "s_a", "changes": "s_a", "key": ["bid"],
                                          "join": {"to": "a", "on": {"h": "bid"}}}}},
        "its joins form a cycle that never reaches the root `c`"),
    "root_key_dropped": (
        {"root": "c", "relations": {"c": {**GOOD_C, "columns": ["name"]}, "a": GOOD_A}},
        "the root key column `c.cid` must be an output column"),
    "duplicate_output": (
        {"root": "c", "relations": {"c": GOOD_C, "a": {**GOOD_A, "columns": {"name": "city"}}}},
        "output column `name` is declared twice"),
    "unknown_entry": (
        {"root": "c", "relations": {"c": {**GOOD_C, "group_by": ["name"]}, "a": GOOD_A}},
        "relation `c`: unknown entry `group_by`"),
    "bad_containment": (
        {"root": "c", "relations": {"c": GOOD_C, "a": {**GOOD_A, "containment": "most"}}},
        "relation `a`: `containment` is one of equal, subset, superset"),
    "unknown_root": (
        {"root": "z", "relations": {"c": GOOD_C}},
        "root `z` is not one of the declared relations"),
}


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    d = tmp_path_factory.mktemp("decl")
    write_user_project(d, "decl_it")
    (d / "models").mkdir()
    for rel in ("s_c", "s_a"):
        (d / "models" / f"{rel}.sql").write_text("select 1 as x\n")
    run(d, "deps")
    return d


def write_view(project: Path, name: str, decl: dict) -> Path:
    model = project / "models" / f"{name}.sql"
    model.write_text("{%- set v = " + json.dumps(decl) + " -%}\n"
                     "{{ config(materialized='dimension_view', pdelta=v) }}\n{{ pdelta.dimension_view(v) }}\n")
    return model


def run(d: Path, *args: str):
    from dbt.cli.main import dbtRunner

    return dbtRunner().invoke([*args, "--project-dir", str(d), "--profiles-dir", str(ROOT), "--no-partial-parse"])


@pytest.mark.parametrize("case", sorted(CASES))
def test_invalid_declaration_fails_at_parse(project, case):
    decl, message = CASES[case]
    model = write_view(project, f"bad_{case}", decl)
    try:
        result = run(project, "parse")
    finally:
        model.unlink()
    assert not result.success
    text = str(result.exception)
    assert f"dimension_view 'bad_{case}'" in text, text
    assert message in text, text


def test_valid_declaration_parses_and_lands_in_the_manifest(project):
    decl = {"root": "c", "relations": {"c": GOOD_C, "a": GOOD_A}}
    model = write_view(project, "good_view", decl)
    try:
        result = run(project, "parse")
    finally:
        model.unlink()
    assert result.success, result.exception
    node = result.result.nodes["model.decl_it.good_view"]
    assert node.config._extra["pdelta"] == decl
    assert sorted(n.split(".")[-1] for n in node.depends_on.nodes) == ["s_a", "s_c"]
