"""A maintained relation's apply and cost-model config: every bad value gets its own message,
the same from the Jinja engine (which refuses the run) and from `pdelta validate` (which
refuses it before anything runs). The Jinja side runs through `dbt run-operation`: no Spark."""
from __future__ import annotations

import json
import re

import pytest

from pdelta.contract import option_errors as contract_option_errors
from pdelta.options import apply_option_errors, rebuild_option_errors
from user_project import macro_project, run_operation

ATTRS = ["cname", "acity"]

# case -> (config, message fragment; None: valid)
CASES = {
    "valid_everything": ({"pdelta_apply": {"buckets": 8, "prune": False, "cluster_by_key": True, "upsert": "merge"},
                          "pdelta_history": {"type": "scd2", "tracked": ["cname"]},
                          "tblproperties": {"delta.enableDeletionVectors": "true"},
                          "pdelta_rebuild_ratio": 0.2, "pdelta_rebuild_feed": "diff",
                          "pdelta_plan": "diff"}, None),
    "valid_cost_model_off": ({"pdelta_rebuild_ratio": False}, None),
    "valid_cost_model_learned": ({"pdelta_rebuild_ratio": "learned"}, None),
    "valid_shorthands": ({"pdelta_history": "scd2", "pdelta_rebuild_ratio": "0.5", "pdelta_apply": {}}, None),
    "apply_not_a_mapping": ({"pdelta_apply": "merge"}, "pdelta_apply: expected a mapping of options (buckets, "
                                                       "cluster_by_key, prune, upsert), got merge"),
    "apply_unknown_option": ({"pdelta_apply": {"bucket": 8}}, "pdelta_apply: unknown option `bucket`"),
    "buckets_zero": ({"pdelta_apply": {"buckets": 0}}, "buckets must be a positive integer, got 0"),
    "buckets_text": ({"pdelta_apply": {"buckets": "many"}}, "buckets must be a positive integer, got many"),
    "buckets_boolean": ({"pdelta_apply": {"buckets": True}}, "buckets must be a positive integer, got True"),
    "prune_text": ({"pdelta_apply": {"prune": "no"}}, "pdelta_apply: prune must be true or false, got no"),
    "cluster_by_key_number": ({"pdelta_apply": {"cluster_by_key": 1}}, "cluster_by_key must be true or false, got 1"),
    "upsert_unknown": ({"pdelta_apply": {"upsert": "replace"}},
                       "upsert must be 'delete_insert' or 'merge', got 'replace'"),
    "history_type": ({"pdelta_history": "scd1"}, "pdelta_history: type must be 'scd2', got 'scd1'"),
    "history_a_list": ({"pdelta_history": ["cname"]}, "pdelta_history: expected 'scd2' or a mapping"),
    "history_tracks_the_key": ({"pdelta_history": {"tracked": ["cid"]}},
                               "tracked column `cid` is not a non-key output column (cname, acity)"),
    "tblproperties_not_a_mapping": ({"tblproperties": "a=1"},
                                    "tblproperties: expected a mapping of property names to values, got a=1"),
    "tblproperties_quote": ({"tblproperties": {"comment": "it's"}}, "`comment` = `it's` contains a quote or backslash"),
    "ratio_text": ({"pdelta_rebuild_ratio": "often"}, "pdelta_rebuild_ratio: expected a number of at least 0"),
    "ratio_negative": ({"pdelta_rebuild_ratio": -0.1}, "or false, got -0.1"),
    "ratio_true": ({"pdelta_rebuild_ratio": True}, "or false, got True"),
    "rebuild_feed_unknown": ({"pdelta_rebuild_feed": "keep"}, "pdelta_rebuild_feed: expected 'reset'"),
    "valid_plans": ({"pdelta_plan": "rules"}, None),
    "plan_unknown": ({"pdelta_plan": "fast"}, "pdelta_plan: expected 'diff' (recompute the rows the batch reaches"),
    "valid_contract": ({"pdelta_bad_rows": "quarantine", "pdelta_unexpected_sets": "warn"}, None),
    "bad_rows_unknown": ({"pdelta_bad_rows": "skip"}, "pdelta_bad_rows: expected 'stop' (a refresh meeting a row that"),
    "unexpected_sets_unknown": ({"pdelta_unexpected_sets": "ignore"}, "pdelta_unexpected_sets: expected 'stop'"),
    "valid_on_schema_change": ({"on_schema_change": "fail"}, None),
    "on_schema_change_unknown": ({"on_schema_change": "rebuild"},
                                 "on_schema_change: expected 'ignore', 'append_new_columns'"),
    "valid_feed_history_rows": ({"pdelta_feed_history_rows": 0}, None),
    "valid_feed_history_rows_text": ({"pdelta_feed_history_rows": "250000"}, None),
    "feed_history_rows_negative": ({"pdelta_feed_history_rows": -1},
                                   "pdelta_feed_history_rows: expected a whole number"),
    "feed_history_rows_fraction": ({"pdelta_feed_history_rows": 1.5}, "read through its Delta history), got 1.5"),
    "feed_history_rows_text": ({"pdelta_feed_history_rows": "many"}, "read through its Delta history), got many"),
    "feed_history_rows_true": ({"pdelta_feed_history_rows": True}, "read through its Delta history), got True"),
    "valid_pin_states": ({"pdelta_pin_states": False}, None),
    "valid_pin_states_text": ({"pdelta_pin_states": "true"}, None),
    "pin_states_unknown": ({"pdelta_pin_states": "sometimes"}, "pdelta_pin_states: expected true (a state pdelta"),
    "valid_state_ahead": ({"pdelta_state_ahead": "wait"}, None),
    "state_ahead_unknown": ({"pdelta_state_ahead": "retry"}, "pdelta_state_ahead: expected 'ignore' (a user's state"),
    "valid_delta_reader": ({"pdelta_delta_reader": "classic"}, None),
    "delta_reader_unknown": ({"pdelta_delta_reader": "v2"}, "pdelta_delta_reader: expected 'kernel' (a refresh's"),
    # complement mode (issue #21): true or false, and true only for a Delta view
    "valid_complement": ({"pdelta_complement": True, "file_format": "delta"}, None),
    "valid_complement_off_parquet": ({"pdelta_complement": False, "file_format": "parquet"}, None),
    "complement_text": ({"pdelta_complement": "yes"}, "pdelta_complement: expected true (the view keeps its"),
    "valid_complement_upkeep": ({"pdelta_complement": True, "pdelta_complement_upkeep": "batch"}, None),
    "complement_upkeep_unknown": ({"pdelta_complement_upkeep": "always"},
                                  "pdelta_complement_upkeep: expected 'rebuild' (after each batch the complement is"
                                  " rebuilt from the states) or 'batch' (a refresh keeps it from the rows its batch"
                                  " touches), got always"),
    "complement_number": ({"pdelta_complement": 1}, "pdelta_complement: expected true (the view keeps its"),
    "complement_parquet": ({"pdelta_complement": True, "file_format": "Parquet"},
                           "pdelta_complement: true needs a Delta view (its complement is kept in a Delta table), got "
                           "file_format parquet"),
    "several_at_once": ({"pdelta_apply": {"bucket": 8, "upsert": "x"}, "pdelta_rebuild_feed": "keep"},
                        "unknown option `bucket`"),
}


def python_errors(cfg: dict) -> list[str]:
    return apply_option_errors(cfg, ATTRS) + rebuild_option_errors(cfg) + contract_option_errors(cfg)


@pytest.mark.parametrize("case", sorted(CASES))
def test_python_names_each_bad_value(case):
    cfg, fragment = CASES[case]
    errs = python_errors(cfg)
    if fragment is None:
        assert errs == []
    else:
        assert errs and fragment in errs[0], errs
    if case == "several_at_once":
        assert len(errs) == 3, errs


MACROS = """
{% macro options_report(cases, attrs) %}
  {%- set out = {} -%}
  {%- for name, cfg in cases.items() -%}
    {%- do out.update({name: pdelta.apply_option_errors(cfg, attrs) + pdelta.rebuild_option_errors(cfg)
                             + pdelta.contract_option_errors(cfg)}) -%}
  {%- endfor -%}
  {{ log('OPTIONS_REPORT ' ~ tojson(out), info=true) }}
{% endmacro %}
{% macro options_refused(cfg, attrs) %}
  {%- do pdelta.apply_options(cfg, attrs) -%}
  {%- do pdelta.rebuild_options(cfg) -%}
  {%- do pdelta.contract_options(cfg) -%}
{% endmacro %}
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return macro_project(tmp_path_factory.mktemp("options"), "options_it", MACROS)


def test_jinja_gives_python_s_messages(project):
    res, logged = run_operation(project, "options_report", {"cases": {k: v[0] for k, v in CASES.items()},
                                                            "attrs": ATTRS})
    assert res.success, res.exception
    report = json.loads(next(m for m in logged if m.startswith("OPTIONS_REPORT ")).split(" ", 1)[1])
    for case, (cfg, _) in CASES.items():
        assert report[case] == python_errors(cfg), case


@pytest.mark.parametrize("case", ["apply_unknown_option", "ratio_text", "bad_rows_unknown"])
def test_the_engine_refuses_a_bad_value(project, case):
    cfg, fragment = CASES[case]
    res, logged = run_operation(project, "options_refused", {"cfg": cfg, "attrs": ATTRS})
    assert not res.success and any(fragment in m for m in logged), logged
    res, _ = run_operation(project, "options_refused", {"cfg": CASES["valid_everything"][0], "attrs": ATTRS})
    assert res.success, res.exception


KEY_LIST_MACROS = """
{% macro key_list_report() %}
  {%- set summary = pdelta.batch_summary_statements(api.Relation.create(schema='s', identifier='stage'), ['k'],
                                                     'm', 'bigint') -%}
  {{ log('KEY_LIST ' ~ tojson({'limit': pdelta.key_list_limit(), 'lists_keys': summary['lists_keys'],
                              'set': summary['statements'][1]['sql']}), info=true) }}
{% endmacro %}
"""


@pytest.fixture(scope="module")
def key_list_project(tmp_path_factory):
    return macro_project(tmp_path_factory.mktemp("key_list"), "key_list_it", KEY_LIST_MACROS)


def key_list_report(project, limit):
    res, logged = run_operation(project, "key_list_report", {},
                                None if limit is None else {"pdelta_key_list_limit": limit})
    reports = [json.loads(m.split(" ", 1)[1]) for m in logged if m.startswith("KEY_LIST ")]
    return res, reports[0] if reports else None, logged


@pytest.mark.parametrize("limit", [None, 0])
def test_key_list_is_read_in_the_summary_s_one_scan(key_list_project, limit):
    """the summary lists at most limit + 1 keys from its own aggregate (min_by with a count), and
    nothing at limit 0. It counts per key first and has no count(distinct ...): beside one, Spark
    expands each row per aggregate group and keeps a min_by heap per key (14–28 s for a
    150,000-row batch, measured)"""
    res, report, logged = key_list_report(key_list_project, limit)
    assert res.success, logged
    expected = 1000 if limit is None else limit
    assert report["limit"] == expected and report["lists_keys"] == (expected > 0), report
    if expected > 0:
        assert f"'key_list', min_by(`k`, `k`, {expected + 1})" in report["set"], report["set"]
        stage_scans = re.findall(r"from `?s`?\.`?stage`?", report["set"])
        assert len(stage_scans) == 1, "one scan of the stage: " + report["set"]
        assert "count(distinct" not in report["set"] and " group by `k`" in report["set"], report["set"]
    else:
        assert "key_list" not in report["set"], report["set"]


def test_key_list_limit_out_of_range_is_refused(key_list_project):
    """min_by takes a count of at most 100,000; the list holds one key past the limit"""
    res, _, logged = key_list_report(key_list_project, 100000)
    assert not res.success and any("pdelta_key_list_limit must be a whole number from 0 to 99999" in m
                                    for m in logged), logged


STAGE_FORMAT_MACROS = """
{% macro stage_format_report() %}
  {{ log('STAGE_FORMAT ' ~ pdelta.stage_format(), info=true) }}
{% endmacro %}
"""


@pytest.fixture(scope="module")
def stage_format_project(tmp_path_factory):
    return macro_project(tmp_path_factory.mktemp("stage_format"), "stage_format_it", STAGE_FORMAT_MACROS)


@pytest.mark.parametrize("chosen, expected", [(None, "parquet"), ("delta", "delta"), ("parquet", "parquet"),
                                              ("orc", None)])
def test_stage_format(stage_format_project, chosen, expected):
    """the stage is parquet on Spark unless pdelta_stage_format says delta; any other value is refused"""
    res, logged = run_operation(stage_format_project, "stage_format_report", {},
                                None if chosen is None else {"pdelta_stage_format": chosen})
    if expected is None:
        assert not res.success and any("pdelta_stage_format must be 'parquet' or 'delta', not orc" in m
                                        for m in logged), logged
    else:
        assert res.success, logged
        assert [m for m in logged if m.startswith("STAGE_FORMAT ")] == [f"STAGE_FORMAT {expected}"], logged
