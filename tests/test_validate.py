"""`pdelta validate` / `pdelta run` on a user project that installs pdelta: a catalogue of models
that are not dimension views, each reported with its own rule and message, and valid models
passing. The project is parsed by dbt itself (no Spark needed)."""
from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest

from capture.project import capture_sql
from pdelta.declaration import normalize
from pdelta.project import Project, parse_manifest
from pdelta.validate import validate
from user_project import ROOT, dbt_deps, write_user_project

C = {"state": "cust", "changes": "cust_changes", "key": ["cid"], "technique": "log_based",
     "columns": ["cid", "cname", "caddr"]}
A = {"state": "addr", "changes": "addr_changes", "key": ["aid"], "technique": "change_tracking",
     "join": {"to": "c", "on": {"caddr": "aid"}}, "columns": ["acity", "acountry"], "where": "acountry = 'DE'"}
A2 = {"state": "addr2", "changes": "addr2_changes", "key": ["aid", "part"], "technique": "upsert_feed",
      "join": {"to": "c", "on": {"caddr": "aid", "cpart": "part"}}, "columns": ["acity"]}
GOOD = {"root": "c", "relations": {"c": C, "a": A}}


def view(**rels):
    return {"root": "c", "relations": {"c": C, **rels}}


def body(sql):
    """A dimension_view model whose body is hand-written SQL instead of the declaration's."""
    return ("{%- set v = " + json.dumps(GOOD) + " -%}\n{{ config(materialized='dimension_view', pdelta=v) }}\n"
            + sql + "\n")


# model -> (declaration or hand-written body, rule, alias, message fragment)
CATALOGUE = {
    "bad_join_non_key": (view(a={**A, "join": {"to": "c", "on": {"caddr": "acity"}}}), "join-on-key", "a",
                         "equates `c.caddr` with `a.acity`, which is not in the primary key ['aid']"),
    "bad_join_part_of_composite_key": (view(a2={**A2, "join": {"to": "c", "on": {"caddr": "aid"}}}), "join-whole-key",
                                       "a2", "must equate the whole primary key ['aid', 'part']"),
    "bad_root_key_dropped": ({"root": "c", "relations": {"c": {**C, "columns": ["cname"]}, "a": A}}, "root-key", "c",
                             "the root key column `c.cid` must be an output column"),
    "bad_aggregate": (body("select caddr, count(*) as n from {{ ref('cust') }} group by caddr"), "aggregate", None,
                      "it aggregates (GROUP BY or an aggregate function)"),
    "bad_distinct": (body("select distinct caddr from {{ ref('cust') }}"), "distinct", None, "SELECT DISTINCT"),
    "bad_outer_join_sql": (body("select c.cid, a.acity from {{ ref('cust') }} c "
                                "left join {{ ref('addr') }} a on c.caddr = a.aid"),
                           "outer-join", None, "LEFT JOIN: a dimension view joins with inner joins only"),
    "bad_outer_join_declared": (view(a={**A, "join": {"to": "c", "on": {"caddr": "aid"}, "type": "left"}}),
                                "outer-join", "a", "join c -> a is a left join"),
    "bad_union": (body("select cid from {{ ref('cust') }} union select aid from {{ ref('addr') }}"), "set-operation",
                  None, "UNION combines two queries"),
    "bad_rand_predicate": (view(a={**A, "where": "rand() < 0.5"}), "deterministic", "a",
                           "calls `RAND()`, which is not deterministic"),
    "bad_current_timestamp_predicate": (view(a={**A, "where": "valid_to > current_timestamp()"}), "deterministic", "a",
                                        "calls `CURRENT_TIMESTAMP()`, which is not deterministic"),
    "bad_missing_change_feed": (view(a={k: v for k, v in A.items() if k != "changes"}), "change-feed", "a",
                                "`changes` is required: every input needs a change feed"),
    "bad_change_feed_not_found": (view(a={**A, "changes": "addr_feed_nowhere"}), "change-feed", "a",
                                  "change feed 'addr_feed_nowhere' is not a model"),
    "bad_change_feed_shape": (view(a={**A, "changes": "addr_changes_no_seq"}), "change-feed", "a",
                              "lacks the column(s) ['_pdelta_seq']"),
    "bad_capture_technique": (view(a={**A, "changes": "addr_capture", "technique": "log_based"}), "technique", "a",
                              "is a capture of format `upsert_feed`, which emits ['ups', 'delk']; technique "
                              "`log_based` cannot"),
    "bad_join_type_mismatch": (view(a={**A, "join": {"to": "c", "on": {"cname": "aid"}}}), "join-types", "a",
                               "join c.cname (string) = a.aid (bigint) compares different types"),
    "bad_no_technique": (view(a={k: v for k, v in A.items() if k != "technique"}), "technique", "a",
                         "no `technique` declared"),
    "bad_unknown_technique": (view(a={**A, "technique": "telepathy"}), "technique", "a",
                              "unknown technique `telepathy`"),
    "bad_predicate_on_other_relation": (view(a={**A, "where": "c.cname = 'Bob'"}), "predicate-columns", "a",
                                        "references `c.cname`; a relation's predicate reads only its own columns"),
    "bad_predicate_subquery": (view(a={**A, "where": "aid in (select cid from cust)"}), "predicate-subquery", "a",
                               "has a subquery"),
    "bad_predicate_unknown_column": (view(a={**A, "where": "population > 5"}), "predicate-columns", "a",
                                     "references `population`, not a column of `addr`"),
    "bad_join_cycle": ({"root": "c", "relations": {"c": C, "a": {**A, "join": {"to": "b", "on": {"fk": "aid"}}},
                                                   "b": {**A, "columns": ["acity2"],
                                                         "join": {"to": "a", "on": {"fk2": "aid"}}}}},
                       "join-cycle", "a", "its joins form a cycle that never reaches the root `c`"),
    "bad_key_not_declared": (view(a={**A, "state": "addr_untested"}), "key-declared", "a",
                             "primary key ['aid'] is not declared on model `addr_untested`"),
    "bad_unknown_column": (view(a={**A, "columns": ["acity", "zip"]}), "column", "a",
                           "`zip` is not a column of `addr`"),
    "bad_expression_column": (view(a={**A, "columns": {"n": "count(acity)"}}), "aggregate", "a",
                              "output `n` is the expression `count(acity)`"),
    "bad_window_predicate": (view(a={**A, "where": "row_number() over (order by aid) = 1"}), "window", "a",
                             "uses a window function"),
    "bad_containment": (view(a={**A, "containment": "most"}), "declaration", "a",
                        "`containment` is one of equal, subset, superset"),
    "bad_state_not_found": (view(a={**A, "state": "addr_nowhere"}), "state", "a",
                            "state 'addr_nowhere' is not a model, seed or source"),
    "bad_duplicate_output": (view(a={**A, "columns": {"cname": "acity"}}), "output-unique", "a",
                             "output column `cname` is declared twice"),
    "bad_hand_written_spj": (body("select c.cid, c.cname from {{ ref('cust') }} c"), "body", None,
                             "its body is not {{ pdelta.dimension_view(<declaration>) }}"),
    # the materialization refuses SQL around the call (refreshes would not compute it)
    "bad_sql_after_call": (body("{{ pdelta.dimension_view(v) }}\nwhere cid > 0"), "body", None,
                           "its body has more than {{ pdelta.dimension_view(...) }}: `where cid > 0`"),
    "bad_trailing_comment": (body("{{ pdelta.dimension_view(v) }} -- not on a line of its own"), "body", None,
                             "`-- not on a line of its own`"),
    # config the materialization refuses (python/pdelta/options.py, tests/test_options.py)
    "bad_apply_config": ("{%- set v = " + json.dumps(GOOD) + " -%}\n{{ config(materialized='dimension_view', pdelta=v, "
                         "pdelta_apply={'bucket': 8}) }}\n{{ pdelta.dimension_view(v) }}\n", "config", None,
                         "pdelta_apply: unknown option `bucket`"),
    "bad_rebuild_ratio": ("{%- set v = " + json.dumps(GOOD) + " -%}\n"
                          "{{ config(materialized='dimension_view', pdelta=v, "
                          "pdelta_rebuild_ratio='often') }}\n{{ pdelta.dimension_view(v) }}\n", "config", None,
                          "pdelta_rebuild_ratio: expected a number of at least 0"),
    "bad_plan": ("{%- set v = " + json.dumps(GOOD) + " -%}\n{{ config(materialized='dimension_view', pdelta=v, "
                 "pdelta_plan='fast') }}\n{{ pdelta.dimension_view(v) }}\n", "config", None,
                 "pdelta_plan: expected 'diff'"),
    # python/pdelta/maintainability.py: a joined view cannot insert from itself alone
    "bad_self_maintainable_claim": ("{%- set v = " + json.dumps(GOOD) + " -%}\n"
                                    "{{ config(materialized='dimension_view', "
                                    "pdelta=v, pdelta_self_maintainable=true) }}\n{{ pdelta.dimension_view(v) }}\n",
                                    "self-maintainable", None, "declared pdelta_self_maintainable but `c` ins: needs "
                                    "complement (a: its rows and columns the view does not hold)"),
    "bad_self_maintainable_value": ("{%- set v = " + json.dumps(GOOD) + " -%}\n"
                                    "{{ config(materialized='dimension_view', "
                                    "pdelta=v, pdelta_self_maintainable='yes') }}\n{{ pdelta.dimension_view(v) }}\n",
                                    "config", None, "pdelta_self_maintainable: expected true or false, got yes"),
    # complement mode (issue #21): kept in Delta tables
    "bad_complement_value": ("{%- set v = " + json.dumps(GOOD) + " -%}\n"
                             "{{ config(materialized='dimension_view', pdelta=v, pdelta_complement='yes') }}\n"
                             "{{ pdelta.dimension_view(v) }}\n", "config", None,
                             "pdelta_complement: expected true (the view keeps its complement beside it"),
    "bad_complement_format": ("{%- set v = " + json.dumps(GOOD) + " -%}\n"
                              "{{ config(materialized='dimension_view', pdelta=v, pdelta_complement=true, "
                              "file_format='parquet') }}\n{{ pdelta.dimension_view(v) }}\n", "config", None,
                              "pdelta_complement: true needs a Delta view (its complement is kept in a Delta table), "
                              "got file_format parquet"),
    "bad_two_calls": (body("{{ pdelta.dimension_view(v) }}\nunion all\n{{ pdelta.dimension_view(v) }}"), "body", None,
                      "`union all {{ pdelta.dimension_view(v) }}`"),
}

VALID = {
    "good_view": GOOD,
    "good_complement": ("{%- set v = " + json.dumps(GOOD) + " -%}\n{{ config(materialized='dimension_view', pdelta=v, "
                        "pdelta_complement=true) }}\n{{ pdelta.dimension_view(v) }}\n"),
    "good_rules_plan": ("{%- set v = " + json.dumps(GOOD) + " -%}\n{{ config(materialized='dimension_view', pdelta=v, "
                        "pdelta_plan='rules') }}\n{{ pdelta.dimension_view(v) }}\n"),
    "good_composite_join": view(a2=A2),
    "good_containment": view(a={**A, "containment": "subset"}),
    # an SP view: every change of a log-based feed applies from the view alone
    "good_self_maintainable": ("{%- set v = " + json.dumps({"root": "c", "relations": {"c": C}}) + " -%}\n"
                               "{{ config(materialized='dimension_view', pdelta=v, pdelta_self_maintainable=true) }}\n"
                               "{{ pdelta.dimension_view(v) }}\n"),
    "good_capture_feed": view(a={**A, "changes": "addr_capture", "technique": "upsert_feed"}),
    # comments the materialization strips: whole lines of `--`, /* */ anywhere
    "good_commented": body("-- the customers' dimension\n"
                           "/* built by pdelta */ {{ pdelta.dimension_view(v) }} /* end */\n  -- done"),
    "good_chained": {"root": "z", "relations": {
        "z": {"state": "zone", "changes": "zone_changes", "key": ["zid"], "technique": "snapshot_diff",
              "columns": ["zid", "zname"]},
        "g": {"state": "good_view", "changes": {"feed_of": "good_view"}, "key": ["cid"],
              "join": {"to": "z", "on": {"zcust": "cid"}}, "columns": ["cid", "acity"]}}},
}

FEED_COLS = ("cast(null as struct<x: int>) as _pdelta_before, cast(null as string) as _pdelta_type, "
             "cast(null as bigint) as _pdelta_seq")
SEEDS = {
    "cust": "cid,cname,caddr,cpart,cdiscount\n1,Ann,1,1,0\n",
    "addr": "aid,acity,acountry,valid_to\n1,Aachen,DE,2030-01-01\n",
    "zone": "zid,zname,zcust\n1,north,1\n",
}
SCHEMA_YML = """version: 2
seeds:
  - name: cust
    config: {column_types: {cid: bigint, cname: string, caddr: bigint, cpart: int, cdiscount: int}}
    columns:
      - {name: cid, data_tests: [unique, not_null]}
      - {name: caddr, data_tests: [{relationships: {arguments: {to: "ref('addr')", field: aid}}}]}
  - name: addr
    config: {column_types: {aid: bigint, acity: string, acountry: string, valid_to: timestamp}}
    columns: [{name: aid, data_tests: [unique, not_null]}]
  - name: zone
    columns: [{name: zid, data_tests: [unique, not_null]}]
models:
  - name: addr2
    constraints: [{type: primary_key, columns: [aid, part]}]
"""


def write_project(d: Path, models: dict[str, object]) -> None:
    write_user_project(d, "validate_it")
    (d / "models").mkdir()
    (d / "seeds").mkdir()
    for name, text in SEEDS.items():
        (d / "seeds" / f"{name}.csv").write_text(text)
    (d / "models" / "_schema.yml").write_text(SCHEMA_YML)
    m = d / "models"
    m.joinpath("addr2.sql").write_text("select cast(1 as bigint) as aid, 1 as part, 'x' as acity\n")
    m.joinpath("addr_untested.sql").write_text("select aid, acity, acountry, valid_to from {{ ref('addr') }}\n")
    for rel, cols in (("cust", "cid, cname, caddr, cpart, cdiscount"), ("addr", "aid, acity, acountry, valid_to"),
                      ("addr2", "aid, part, acity"), ("zone", "zid, zname, zcust")):
        m.joinpath(f"{rel}_changes.sql").write_text(f"select {cols}, {FEED_COLS} from {{{{ ref('{rel}') }}}}\n")
    capture = {"raw": "addr", "format": "upsert_feed", "key": ["aid"], "columns": {"aid": "bigint", "acity": "string"},
               "position": "aid", "value": "acity", "key_json": "acity"}
    m.joinpath("addr_capture.sql").write_text(capture_sql(capture))
    m.joinpath("addr_changes_no_seq.sql").write_text("select aid, acity, cast(null as string) as _pdelta_type "
                                                     "from {{ ref('addr') }}\n")
    for name, decl in models.items():
        text = decl if isinstance(decl, str) else (
            "{%- set v = " + json.dumps(decl) + " -%}\n"
            "{{ config(materialized='dimension_view', pdelta=v) }}\n{{ pdelta.dimension_view(v) }}\n")
        m.joinpath(f"{name}.sql").write_text(text)


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory):
    d = tmp_path_factory.mktemp("validate") / "project"
    write_project(d, {**{k: v[0] for k, v in CATALOGUE.items()}, **VALID})
    dbt_deps(d)
    project = Project(parse_manifest(d, ROOT), d)
    views, errors = validate(project)
    return d, project, views, errors


def test_catalogue_is_large_enough():
    assert len(CATALOGUE) >= 15


@pytest.mark.parametrize("model", sorted(CATALOGUE))
def test_each_invalid_model_gets_its_own_message(catalogue, model):
    _, _, _, errors = catalogue
    _, rule, alias, fragment = CATALOGUE[model]
    mine = [e for e in errors if e.model == model and e.severity == "error"]
    assert mine, f"{model}: no error reported"
    hits = [e for e in mine if e.rule == rule and fragment in e.message and (alias is None or e.alias == alias)]
    assert hits, f"{model}: expected [{rule}] `{fragment}` on {alias}; got:\n" + "\n".join(e.render() for e in mine)
    assert f"dimension_view '{model}'" in hits[0].render()


def test_valid_models_pass(catalogue):
    _, _, views, errors = catalogue
    for name in VALID:
        assert name in views
        assert not [e.render() for e in errors if e.model == name], name


def test_cli_json_and_exit_code(catalogue):
    from pdelta.cli import main

    d = catalogue[0]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(["validate", "--project-dir", str(d), "--profiles-dir", str(ROOT), "--format", "json"])
    assert rc == 1
    report = json.loads(out.getvalue())
    assert not report["ok"]
    assert {e["model"] for e in report["errors"]} == set(CATALOGUE)
    # the default diff plan labels every change completely; the rules publish the partial sets
    assert report["views"]["good_view"]["valid"] and report["views"]["good_view"]["emits"] == ["ins", "del", "upd"]
    assert report["views"]["good_self_maintainable"]["self_maintainable"] is True
    assert report["views"]["good_view"]["self_maintainable"] is False
    assert report["views"]["good_rules_plan"]["emits"] == ["ins", "del", "upd", "ups", "delk"]
    # the chained view receives what good_view can emit
    assert report["views"]["good_chained"]["inputs"]["g"] == report["views"]["good_view"]["emits"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(["validate", "--project-dir", str(d), "--profiles-dir", str(ROOT), "--select", "good_view",
                   "good_chained"])
    assert rc == 0, out.getvalue()
    assert "ok good_view: emits {ins, del, upd}" in out.getvalue()
    assert "; self-maintainable: no (pdelta explain says why)" in out.getvalue()


def test_explain_json_and_version(catalogue):
    """`pdelta explain --format json`: one object with the declaration's analysis (static here:
    no warehouse), an invalid model's errors; `pdelta --version` says the package's version."""
    from pdelta import __version__
    from pdelta.cli import main

    d = catalogue[0]
    common = ["--project-dir", str(d), "--profiles-dir", str(ROOT), "--static", "--format", "json"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(["explain", "good_chained", *common])
    assert rc == 0
    doc = json.loads(out.getvalue())
    assert doc["valid"] and doc["key"] and doc["order"] == list(doc["relations"]) and "next_refresh" not in doc
    assert doc["relations"]["g"]["feed_can_hold"] == ["ins", "del", "upd"]  # what good_view emits
    assert doc["independence_hints"] == [
        "`g`: if every z.zcust names a row of g, a dbt relationships test saying so (z.zcust to g.cid) would make "
        "its ins apply from the view alone"]
    # a new g row may join zone rows the inner join dropped: not self-maintainable
    assert doc["self_maintainable"] is False
    verdicts = {(v["relation"], v["change_set"]): v for v in doc["verdicts"]}
    assert verdicts["g", "ins"]["reads"] == "complement" and verdicts["g", "del"]["reads"] == "view"
    assert verdicts["z", "del"]["reads"] == "view" and verdicts["z", "ins"]["reads"] == "complement"
    # a relationships test from cust.caddr to addr.aid: no customer names a new or deleted address
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["explain", "good_view", *common]) == 0
    verdicts = {(v["relation"], v["change_set"]): v for v in json.loads(out.getvalue())["verdicts"]}
    assert verdicts["a", "ins"]["reads"] == verdicts["a", "delk"]["reads"] == "view"
    assert "the inclusion dependency c.caddr -> a.aid" in verdicts["a", "ins"]["why"]
    assert verdicts["a", "up"]["reads"] == "complement"  # through a's predicate
    bad = sorted(CATALOGUE)[0]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(["explain", bad, *common])
    assert rc == 1 and json.loads(out.getvalue())["errors"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0 and out.getvalue().strip() == f"pdelta {__version__}"
    pyproject = (ROOT / "python" / "pyproject.toml").read_text()
    assert f'version = "{__version__}"' in pyproject


@pytest.mark.spark
def test_live_validation_uses_the_projects_profile(tmp_path, monkeypatch):
    """a user project whose profile is not named `pdelta`: `validate --live` connects with the
    profile its dbt_project.yml names (it looked up `pdelta` and failed)"""
    from pdelta.cli import main
    from pdelta.spark import rendered_profiles

    # an embedded session of its own unless this process has one already (Derby: one process per metastore)
    monkeypatch.setenv("PDELTA_LOCAL_DIR", os.environ.get("PDELTA_LOCAL_DIR", str(tmp_path / "spark")))
    d = tmp_path / "shop"
    d.mkdir()
    (d / "dbt_project.yml").write_text("name: shop\nversion: '1.0'\nconfig-version: 2\nprofile: shop\n")
    local = rendered_profiles(ROOT)["pdelta"]["outputs"]["local"]
    (d / "profiles.yml").write_text(json.dumps({"shop": {"target": "dev", "outputs": {"dev": local}}}))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(["validate", "--live", "--project-dir", str(d), "--profiles-dir", str(d)])
    assert rc == 0 and "0 dimension view(s), 0 error(s)" in out.getvalue(), out.getvalue()


def test_pdelta_run_refuses_invalid_and_runs_valid(catalogue, tmp_path):
    from pdelta.cli import main

    bad = catalogue[0]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(["run", "parse", "--project-dir", str(bad), "--profiles-dir", str(ROOT)])
    assert rc == 1 and "dbt was not run" in out.getvalue()
    # dbt parse takes no selection: every view is validated
    every = len(CATALOGUE) + len(VALID)
    assert f"{every} of {every} dimension view(s) validated" in out.getvalue()
    good = tmp_path / "good"
    write_project(good, VALID)
    dbt_deps(good)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(["run", "parse", "--project-dir", str(good), "--profiles-dir", str(ROOT)])
    assert rc == 0, out.getvalue()
    assert f"{len(VALID)} of {len(VALID)} dimension view(s) validated" in out.getvalue()
    assert "dbt parse succeeded" in out.getvalue()


def test_python_and_jinja_refuse_the_same_declarations():
    """Every declaration the Jinja engine refuses at parse time (test_declaration_errors) the
    Python validator refuses with the same message."""
    from test_declaration_errors import CASES

    for case, (decl, message) in CASES.items():
        view_, errs = normalize(decl, f"bad_{case}")
        assert view_ is None and any(message in e.render() for e in errs), (case, [e.render() for e in errs])


def figure_sets(fig: str, key: str) -> set[str]:
    """The six sets a figure's ΔR/∇R seeds amount to (Fig. 6 per key)."""
    import csv

    base = ROOT / "integration_tests" / "seeds" / "paper"
    with (base / f"{fig}_delta.csv").open() as f:
        delta = {r[key] for r in csv.DictReader(f)}
    with (base / f"{fig}_nabla.csv").open() as f:
        nabla = {r[key]: r["flag"] for r in csv.DictReader(f)}
    from pdelta import algebra

    return {algebra.to_six_sets(k in delta, nabla.get(k)) for k in delta | set(nabla)}


def test_flag_analysis_on_the_papers_figures():
    """Per relation the analysis predicts exactly the sets of Fig. 7 and Fig. 8; for the view it
    predicts a superset of Fig. 11's: `del` too, which the paper's data happens not to produce
    (its one deleted customer lost its address in the same batch). `pdelta explain`'s dry run
    predicts Fig. 11 exactly (make test, both dbt lanes)."""
    from pdelta.flags import analyze

    decl = {"root": "c", "relations": {
        "c": {"state": "paper_cust", "changes": "paper_cust_changes", "key": ["cid"], "technique": "log_based",
              "columns": ["cid", "cname", "caddr"]},
        "a": {"state": "paper_addr", "changes": "paper_addr_changes", "key": ["aid"], "technique": "change_tracking",
              "join": {"to": "c", "on": {"caddr": "aid"}}, "columns": ["acity", "acountry"],
              "where": "acountry = 'DE'"}}}
    view_, errs = normalize(decl, "paper_d")
    assert not errs
    view_.plan = "rules"
    a = analyze(view_)
    assert a.relations["c"] == figure_sets("paper_fig7_cust", "cid") == {"ins", "upd", "del"}
    assert a.relations["a"] == figure_sets("paper_fig8_addr", "aid") == {"ins", "ups", "delk"}
    fig11 = figure_sets("paper_fig11_d", "cid")
    assert fig11 == {"ins", "upd", "ups", "delk"} and fig11 <= a.output and a.output - fig11 == {"del"}
    # the diff plan labels the same keys completely: the upsert of 1 is an insert or an update,
    # the key-only delete of 3 a delete with its old row
    view_.plan = "diff"
    assert analyze(view_).output == {"ins", "upd", "del"}


def test_apply_prediction_names_the_strategy_the_materialization_picks():
    """`pdelta validate`/`explain` predict the apply from the view's sets; the names are those of
    macros/apply/choose_apply_strategy.sql, and the insert side is exactly Fig. 4's sets with a
    new image."""
    from pdelta.algebra import ENCODING
    from pdelta.flags import apply_statements

    assert apply_statements(set()) == ["nothing to apply"]
    assert apply_statements({"ins"})[0].startswith("append:")
    # the rules plan derives `ins` from feed rows, so an insert-only batch deletes its keys first
    assert apply_statements({"ins"}, ins_checked=False)[0].startswith("delete_insert:")
    assert apply_statements({"del", "delk"})[0].startswith("delete_by_key:")
    for sets in ({"ins", "upd", "ups", "delk"}, {"up"}, {"upd", "del"}):
        got = apply_statements(sets)[0]
        assert got.startswith("delete_insert:"), got
        images = sorted(t for t in sets if ENCODING[t][0])
        assert got.endswith("new images of " + ", ".join(images)), got
        assert apply_statements(sets, upsert="merge")[0].startswith("merge: MERGE WHEN"), sets
