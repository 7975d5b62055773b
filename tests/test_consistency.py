"""The consistency level `pdelta explain` names for each dimension view (python/pdelta/consistency.py,
issue #20), on a user project parsed by dbt (no Spark): a view over states pdelta does not write
converges only; one over a Delta mirror of its one feed is strong, and a view over that view's feed
too; two mirrored inputs are each cut at their own bound (strong only if no source transaction spans
their feeds); a view reading a view that only converges converges; `pdelta_pin_states: false` and a
parquet mirror (no version to read it at) leave the state unpinned. That the pinned reads happen, and
that unpinned ones show a mixed state: tests/test_apply.py (test_states_read_as_of_the_bound_...)."""
from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path

import pytest

from pdelta import consistency
from pdelta.cli import main as pdelta_main
from pdelta.project import Project, parse_manifest
from pdelta.validate import validate
from user_project import ROOT, dbt_deps, run_operation, write_user_project

FEED_COLS = ("cast(null as struct<x: int>) as _pdelta_before, cast(null as string) as _pdelta_type, "
             "cast(null as bigint) as _pdelta_seq")
SEEDS = {"cust": "cid,cname,caddr\n1,Ann,1\n", "addr": "aid,acity\n1,Aachen\n",
         "cust_raw": "seq,op,cid,cname,caddr,ts\n1,I,1,Ann,1,1\n"}
# a capture of the raw customer log cut by source time with source `shop` (macros/capture/capture_source_time.sql),
# and a mirror of its feed, which stands at the cut of the capture's batches it consumed
CAPTURE_CUT = {"raw": "cust_raw", "format": "log_based", "key": ["cid"],
               "columns": {"cid": "int", "cname": "string", "caddr": "int"}, "source_time": "ts", "source": "shop"}
SCHEMA_YML = """version: 2
seeds:
  - name: cust
    columns: [{name: cid, data_tests: [unique, not_null]}]
  - name: addr
    columns: [{name: aid, data_tests: [unique, not_null]}]
models:
  - name: cust_mirror
    columns: [{name: cid, data_tests: [unique, not_null]}]
  - name: cust_mirror_pq
    columns: [{name: cid, data_tests: [unique, not_null]}]
  - name: addr_mirror
    columns: [{name: aid, data_tests: [unique, not_null]}]
  - name: cust_mirror_cut
    columns: [{name: cid, data_tests: [unique, not_null]}]
  - name: addr_mirror_cut
    columns: [{name: aid, data_tests: [unique, not_null]}]
  - name: addr_mirror_other_cut
    columns: [{name: aid, data_tests: [unique, not_null]}]
  - name: cust_mirror_of_capture
    columns: [{name: cid, data_tests: [unique, not_null]}]
"""
C = {"key": ["cid"], "technique": "log_based", "columns": ["cid", "cname", "caddr"]}
A = {"key": ["aid"], "technique": "log_based", "join": {"to": "c", "on": {"caddr": "aid"}}, "columns": ["acity"]}


def one(state: str) -> dict:
    return {"root": "c", "relations": {"c": {**C, "state": state, "changes": "cust_changes"}}}


def over(upstream: str) -> dict:
    return {"root": "d", "relations": {"d": {"state": upstream, "changes": {"feed_of": upstream}, "key": ["cid"],
                                             "technique": "pdelta_view", "columns": ["cid", "cname"]}}}


VIEWS = {
    # model -> (declaration, extra config)
    "v_tables": ({"root": "c", "relations": {"c": {**C, "state": "cust", "changes": "cust_changes"},
                                             "a": {**A, "state": "addr", "changes": "addr_changes"}}}, {}),
    "v_mirror": (one("cust_mirror"), {}),
    "v_mirrors": ({"root": "c", "relations": {"c": {**C, "state": "cust_mirror", "changes": "cust_changes"},
                                              "a": {**A, "state": "addr_mirror", "changes": "addr_changes"}}}, {}),
    "v_over_mirror": (over("v_mirror"), {}),
    "v_over_mirrors": (over("v_mirrors"), {}),
    "v_unpinned": (one("cust_mirror"), {"pdelta_pin_states": False}),
    "v_parquet_mirror": (one("cust_mirror_pq"), {}),
    # mirrors cut by source time (macros/engine/cut_sources.sql): one source's cut for both, or two sources'
    "v_mirrors_cut": ({"root": "c", "relations": {"c": {**C, "state": "cust_mirror_cut", "changes": "cust_changes"},
                                                  "a": {**A, "state": "addr_mirror_cut", "changes": "addr_changes"}}},
                      {}),
    "v_mirrors_two_cuts": ({"root": "c", "relations": {
        "c": {**C, "state": "cust_mirror_cut", "changes": "cust_changes"},
        "a": {**A, "state": "addr_mirror_other_cut", "changes": "addr_changes"}}}, {}),
    "v_mirrors_one_cut": ({"root": "c", "relations": {
        "c": {**C, "state": "cust_mirror_cut", "changes": "cust_changes"},
        "a": {**A, "state": "addr_mirror", "changes": "addr_changes"}}}, {}),
    # a mirror of a capture cut with source `shop`, and a mirror cut with it: one cut
    "v_capture_cut": ({"root": "c", "relations": {
        "c": {**C, "state": "cust_mirror_of_capture", "changes": "cust_capture_cut"},
        "a": {**A, "state": "addr_mirror_cut", "changes": "addr_changes"}}}, {}),
}
# mirror -> (relation, key, file format, source_time and source)
MIRRORS = {"cust_mirror": ("cust", "cid", "delta", {}), "addr_mirror": ("addr", "aid", "delta", {}),
           "cust_mirror_pq": ("cust", "cid", "parquet", {}),
           "cust_mirror_cut": ("cust", "cid", "delta", {"source_time": "ts", "source": "shop"}),
           "addr_mirror_cut": ("addr", "aid", "delta", {"source_time": "ts", "source": "shop"}),
           "addr_mirror_other_cut": ("addr", "aid", "delta", {"source_time": "ts", "source": "warehouse"})}


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    d = tmp_path_factory.mktemp("consistency") / "project"
    write_user_project(d, "consistency_it")
    (d / "models").mkdir()
    (d / "seeds").mkdir()
    for name, text in SEEDS.items():
        (d / "seeds" / f"{name}.csv").write_text(text)
    m = d / "models"
    m.joinpath("_schema.yml").write_text(SCHEMA_YML)
    for rel, cols in (("cust", "cid, cname, caddr"), ("addr", "aid, acity")):
        m.joinpath(f"{rel}_changes.sql").write_text(f"select {cols}, {FEED_COLS} from {{{{ ref('{rel}') }}}}\n")
    for name, (rel, key, fmt, cut) in MIRRORS.items():
        decl = {"changes": f"{rel}_changes", "key": [key], **cut}
        m.joinpath(f"{name}.sql").write_text(
            "{%- set m = " + json.dumps(decl) + " -%}\n"
            f"{{{{ config(materialized='mirror', pdelta_mirror=m, file_format='{fmt}') }}}}\n"
            "{{ pdelta.mirror(m) }}\n")
    m.joinpath("cust_capture_cut.sql").write_text(
        "{%- set c = " + json.dumps(CAPTURE_CUT) + " -%}\n"
        "{{ config(materialized='capture', pdelta_capture=c) }}\n{{ pdelta.capture(c) }}\n")
    m.joinpath("cust_mirror_of_capture.sql").write_text(
        "{%- set m = " + json.dumps({"changes": "cust_capture_cut", "key": ["cid"], "technique": "log_based"})
        + " -%}\n{{ config(materialized='mirror', pdelta_mirror=m) }}\n{{ pdelta.mirror(m) }}\n")
    for name, (decl, extra) in VIEWS.items():
        cfg = "".join(f", {k}={json.dumps(v).replace('false', 'False')}" for k, v in extra.items())
        m.joinpath(f"{name}.sql").write_text(
            "{%- set v = " + json.dumps(decl) + " -%}\n"
            "{{ config(materialized='dimension_view', pdelta=v" + cfg + ") }}\n{{ pdelta.dimension_view(v) }}\n")
    dbt_deps(d)
    parsed = Project(parse_manifest(d, ROOT), d)
    views, errors = validate(parsed)
    # the project has no on-run-start hook to cut its mirrors' and capture's source: validate says so for each of
    # them (not for the mirror of the capture: its capture is cut)
    hookless = sorted(e.model for e in errors if e.rule == "source-time-hook")
    assert hookless == sorted(["cust_capture_cut"] + [m for m, spec in MIRRORS.items() if spec[3]]), \
        [e.render() for e in errors]
    assert not [e for e in errors if e.is_error and e.rule != "source-time-hook"], [e.render() for e in errors]
    return d, parsed, views


def test_validate_accepts_cut_mirrors_with_the_hook(project):
    d, _, _ = project
    hooked = d.parent / "hooked"
    shutil.copytree(d, hooked, symlinks=True)
    with (hooked / "dbt_project.yml").open("a") as f:
        f.write('on-run-start: ["{{ pdelta.cut_sources() }}"]\n')
    _, errors = validate(Project(parse_manifest(hooked, ROOT), hooked))
    assert not [e for e in errors if e.is_error], [e.render() for e in errors]


@pytest.mark.parametrize("model, level, pinned, why", [
    ("v_tables", "convergence", [False, False], "input `c`: a state pdelta does not write"),
    ("v_mirror", "strong", [True], "one input, its state read as of its feed's bound"),
    ("v_mirrors", "convergence", [True, True], "2 inputs, each state read as of its own feed's bound"),
    ("v_over_mirror", "strong", [True], "one input"),
    ("v_over_mirrors", "convergence", [True], "it reads view v_mirrors, which gets convergence"),
    ("v_unpinned", "convergence", [False], "pdelta_pin_states is false"),
    ("v_parquet_mirror", "convergence", [False], "kept as parquet"),
    ("v_mirrors_cut", "strong", [True, True], "every one a mirror of a feed of source `shop` cut by source time"),
    ("v_mirrors_two_cuts", "convergence", [True, True], "2 inputs, each state read as of its own feed's bound"),
    ("v_mirrors_one_cut", "convergence", [True, True], "2 inputs, each state read as of its own feed's bound"),
    ("v_capture_cut", "strong", [True, True], "every one a mirror of a feed of source `shop` cut by source time"),
])
def test_each_view_gets_its_level(project, model, level, pinned, why):
    _, parsed, views = project
    found = consistency.view_level(parsed, views[model], views)
    assert found.level == level, found
    assert [r.pinned for r in found.inputs] == pinned, found
    assert why in found.why, found.why
    # a multi-input view of pinned states says when it is strong, and so does a view of users' tables
    # (read pinned and compensated: strong when their writers commit to the feed first)
    assert (found.strong_if is not None) == (model in ("v_mirrors", "v_over_mirrors", "v_tables", "v_mirrors_two_cuts",
                                                       "v_mirrors_one_cut")), found
    if model == "v_tables":
        assert "no later than to the state" in found.strong_if and "spans two feeds" in found.strong_if, found


def test_captures_raw_relations_are_cut_at_positions(project):
    """explain says `through position N` for the raw relation of a capture cut by source time, and `through
    sequence N` for mirrors' feeds: position_feed_names (the Jinja side, which explained_cuts reads) names the raw
    relations of captures that declare source_time, as pdelta_cuts names feeds, and no mirror's feed"""
    d, parsed, _ = project
    (d / "macros").mkdir(exist_ok=True)
    (d / "macros" / "report_position_feeds.sql").write_text(
        "{% macro report_position_feeds() %}"
        "{{ log('POSITION_FEEDS ' ~ tojson(pdelta.position_feed_names()), info=true) }}{% endmacro %}\n")
    res, logged = run_operation(d, "report_position_feeds", {})
    assert res.success, res.exception
    found = [json.loads(m[len("POSITION_FEEDS "):]) for m in logged if str(m).startswith("POSITION_FEEDS ")]
    raw = parsed.model_node("cust_raw")
    assert found == [[".".join(part.strip("`") for part in raw.relation_name.split(".")).lower()]], found


def test_pin_states_var_turns_every_view_to_convergence(project):
    _, parsed, views = project
    for model in VIEWS:
        found = consistency.view_level(parsed, views[model], views, {"pdelta_pin_states": False})
        assert found.level == "convergence" and not any(r.pinned for r in found.inputs), (model, found)


def test_explain_names_the_level(project):
    d, _, _ = project
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = pdelta_main(["explain", "v_mirror", "--static", "--format", "json", "--project-dir", str(d),
                          "--profiles-dir", str(ROOT)])
    assert rc == 0
    doc = json.loads(out.getvalue())
    assert doc["consistency"]["level"] == "strong" and doc["consistency"]["inputs"][0]["kind"] == "mirror", doc


def test_state_ahead_check_lifts_the_writer_order_condition(project):
    """with pdelta_state_ahead set, a view of users' tables is strong for writers in either order (a
    state ahead of its feed stops or holds the refresh); ignore keeps the feed-first condition"""
    _, parsed, views = project
    for setting, either_order in (("stop", True), ("wait", True), ("ignore", False)):
        found = consistency.view_level(parsed, views["v_tables"], views, {"pdelta_state_ahead": setting})
        assert found.level == "convergence", found
        assert ("in either order" in found.strong_if) == either_order, (setting, found.strong_if)
        assert "no later than to the state" in found.strong_if, found.strong_if


def test_explain_says_how_far_a_cut_trails_and_which_feed_holds_it():
    """pdelta explain's lines for a source's last cut (explained_cuts): the lag and the feed that holds the cut
    back, each feed's newest source time, bound and how the hook read it; a source with a feed without rows"""
    lines = consistency.source_cut_lines("shop", {
        "t": "5", "lag": 2.0, "held_by": "s.feed_a",
        "feeds": {"s.feed_c": {"w": "7", "bound": 9, "read": "past the bound"},
                  "s.feed_a": {"w": "5", "bound": None, "read": "full"}}})
    assert lines == ["source `shop`: the last run's cut is at source time 5, 2 behind the newest source time of its "
                     "feeds (seconds for timestamps), held back by feed s.feed_a",
                     "  feed s.feed_a: newest source time 5, no row at or below the cut; the hook read every row",
                     "  feed s.feed_c: newest source time 7, through sequence 9; the hook read only its rows past the "
                     "last cut's bound"]
    # a capture's raw relation is cut at a position of its raw records, not at a feed's sequence
    raw = consistency.source_cut_lines("shop", {"t": "5", "lag": 0.0, "held_by": "s.raw_c",
                                                "feeds": {"s.raw_c": {"w": "5", "bound": 12, "read": "full",
                                                                      "unit": "position"}}})
    assert raw[1] == "  feed s.raw_c: newest source time 5, through position 12; the hook read every row", raw
    level = consistency.source_cut_lines("shop", {"t": "7", "lag": 0.0, "held_by": "s.feed_c", "feeds": {}})
    assert level == ["source `shop`: the last run's cut is at source time 7, at the newest source time of its feeds"]
    none_yet = consistency.source_cut_lines("shop", {"t": None, "lag": None, "held_by": "s.feed_x", "feeds": {}})
    assert none_yet == ["source `shop`: the last run took no cut (a feed has no row yet: s.feed_x)"]
