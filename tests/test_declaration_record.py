"""What a dimension view's full build keeps of its declaration (macros/engine/declaration_record.sql)
and how a changed declaration is described (declaration_differences.sql): every change of what
defines the view's rows gets another fingerprint and a phrase naming it; a change of technique
alone does not count; a change of predicates and output columns dropped or renamed (on a Delta
view without history), and only those, are adapted instead of rebuilt (declaration_adaptation.sql).
Jinja through `dbt run-operation`: no Spark. The run that adapts,
rebuilds or stops on such a change is tested in the local lane of make test."""
from __future__ import annotations

import copy
import json

import pytest

from user_project import macro_project, run_operation

BASE = {
    "root": "c",
    "relations": {
        "c": {"state": "cust", "changes": "cust_changes", "key": ["cid"], "technique": "log_based",
              "columns": ["cid", "cname", "caddr"]},
        "a": {"state": "addr", "changes": "addr_changes", "key": ["aid"], "technique": "change_tracking",
              "join": {"to": "c", "on": {"caddr": "aid"}}, "columns": ["acity"], "where": "acountry = 'DE'"},
    },
}


def variant(change) -> dict:
    decl = copy.deepcopy(BASE)
    change(decl)
    return decl


# case -> (declaration, the phrases declaration_differences gives against BASE)
CASES = {
    "same": (variant(lambda d: None), []),
    "technique_only": (variant(lambda d: d["relations"]["a"].update(technique="log_based")), []),
    "column_added": (variant(lambda d: d["relations"]["a"]["columns"].append("acountry")), ["columns added: acountry"]),
    "column_dropped": (variant(lambda d: d["relations"]["c"]["columns"].remove("cname")), ["columns dropped: cname"]),
    "column_renamed": (variant(lambda d: d["relations"]["a"].update(columns=[{"city": "acity"}])),
                       ["column acity renamed city"]),
    "renamed_and_dropped": (variant(lambda d: (d["relations"]["a"].update(columns=[{"city": "acity"}]),
                                               d["relations"]["c"]["columns"].remove("cname"))),
                            ["columns dropped: cname", "column acity renamed city"]),
    "rename_and_predicate": (variant(lambda d: d["relations"]["a"].update(columns=[{"city": "acity"}],
                                                                          where="acountry = 'DE' and acity <> 'X'")),
                             ["column acity renamed city",
                              "a: predicate \"acountry = 'DE'\" -> \"acountry = 'DE' and acity <> 'X'\""]),
    "column_resourced": (variant(lambda d: d["relations"]["c"].update(columns=["cid", {"cname": "caddr"}, "caddr"])),
                         ["column cname now comes from c.caddr (was c.cname)"]),
    "columns_reordered": (variant(lambda d: d["relations"]["c"].update(columns=["cid", "caddr", "cname"])),
                          ["column order or the key changed"]),
    "key_renamed": (variant(lambda d: d["relations"]["c"].update(columns=[{"id": "cid"}, "cname", "caddr"])),
                    ["column cid renamed id"]),
    "only_key_left": (variant(lambda d: (d["relations"]["c"].update(columns=["cid"]),
                                         d["relations"]["a"].update(columns=[]))),
                      ["columns dropped: cname, caddr, acity"]),
    "predicate_dropped": (variant(lambda d: d["relations"]["a"].pop("where")), ["a: predicate \"acountry = 'DE'\" -> none"]),
    "predicate_added": (variant(lambda d: d["relations"]["c"].update(where="cname is not null")),
                        ['c: predicate none -> "cname is not null"']),
    "feed_replaced": (variant(lambda d: d["relations"]["c"].update(changes="cust_feed_v2")),
                      ['c: change feed "cust_changes" -> "cust_feed_v2"']),
    "predicate_narrowed": (variant(lambda d: d["relations"]["a"].update(where="acountry = 'DE' and acity <> 'X'")),
                           ["a: predicate \"acountry = 'DE'\" -> \"acountry = 'DE' and acity <> 'X'\""]),
    "predicate_and_column": (variant(lambda d: (d["relations"]["a"].pop("where"), d["relations"]["a"]["columns"].append("acountry"))),
                             ["columns added: acountry", "a: predicate \"acountry = 'DE'\" -> none"]),
    "relation_joined_in": (variant(lambda d: d["relations"].update(n={
        "state": "nation", "changes": "nation_changes", "key": ["nid"], "technique": "log_based",
        "join": {"to": "a", "on": {"anation": "nid"}}, "columns": ["nname"]})),
        ["columns added: nname", "relation n joined in"]),
}

# the cases the next refresh adapts instead of rebuilding (declaration_adaptation): alias -> its change
ADAPTED = {"predicate_dropped": {"a": "dropped"}, "predicate_added": {"c": "added"},
           "predicate_narrowed": {"a": "changed"}, "rename_and_predicate": {"a": "changed"}}
# ... and the columns it drops or renames in place
COLUMNS_ADAPTED = {"column_dropped": {"dropped": ["cname"], "renamed": []},
                   "column_renamed": {"dropped": [], "renamed": [["acity", "city"]]},
                   "renamed_and_dropped": {"dropped": ["cname"], "renamed": [["acity", "city"]]},
                   "rename_and_predicate": {"dropped": [], "renamed": [["acity", "city"]]}}
# the tables a column change is not adapted on: (apply options, the reason given)
TABLES = {"parquet": ({"format": "parquet", "history": None}, "on Delta views only"),
          "history": ({"format": "delta", "history": {"tracked": ["cname"]}}, "SCD2 history")}

MACROS = """
{% macro declaration_report(base, cases, tables) %}
  {%- set built = pdelta.declaration_record(pdelta.normalize_declaration(base, 'v')) -%}
  {%- set out = {} -%}
  {%- for name, decl in cases.items() -%}
    {%- set now = pdelta.declaration_record(pdelta.normalize_declaration(decl, 'v')) -%}
    {#- the record as the batch log gives it back: through JSON -#}
    {%- do out.update({name: {'same_fingerprint': now['fingerprint'] == built['fingerprint'],
                              'differences': pdelta.declaration_differences(fromjson(tojson(built)), now),
                              'nothing_kept': pdelta.declaration_differences(none, now),
                              'adaptation': pdelta.declaration_adaptation(fromjson(tojson(built)), now)}}) -%}
    {%- for table, opts in tables.items() -%}
      {%- set adaptation = pdelta.declaration_adaptation(fromjson(tojson(built)), now, opts) -%}
      {%- do out[name].update({'adaptation_' ~ table: adaptation}) -%}
    {%- endfor -%}
  {%- endfor -%}
  {{ log('DECLARATION_REPORT ' ~ tojson(out), info=true) }}
{% endmacro %}
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    d = macro_project(tmp_path_factory.mktemp("declaration"), "declaration_it", MACROS)
    res, logged = run_operation(d, "declaration_report", {"base": BASE, "cases": {k: v[0] for k, v in CASES.items()},
                                                          "tables": {k: v[0] for k, v in TABLES.items()}})
    assert res.success, res.exception
    return json.loads(next(m for m in logged if m.startswith("DECLARATION_REPORT ")).split(" ", 1)[1])


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_change_of_the_rows_is_named(report, case):
    _, phrases = CASES[case]
    got = report[case]
    assert got["differences"] == phrases
    # the fingerprint changes exactly when something that defines the rows changed
    assert got["same_fingerprint"] == (not phrases)
    # a view built before its declaration was kept: no change is known
    assert got["nothing_kept"] == []


@pytest.mark.parametrize("case", sorted(CASES))
def test_predicates_and_columns_dropped_or_renamed_are_adapted(report, case):
    _, phrases = CASES[case]
    adaptation = report[case]["adaptation"]
    got = {alias: p["change"] for alias, p in adaptation["adapt"].items()} if adaptation["adapt"] else None
    assert got == ADAPTED.get(case)
    assert adaptation["columns"] == COLUMNS_ADAPTED.get(case)
    adapted = case in ADAPTED or case in COLUMNS_ADAPTED
    # a change that is not adapted says why; no change, or an adapted one, gives no reason
    assert (adaptation["why"] is not None) == (bool(phrases) and not adapted)


@pytest.mark.parametrize("table", sorted(TABLES))
@pytest.mark.parametrize("case", sorted(CASES))
def test_columns_change_in_place_on_delta_views_without_history_only(report, case, table):
    adaptation = report[case][f"adaptation_{table}"]
    if case in COLUMNS_ADAPTED:
        assert adaptation["adapt"] is None and adaptation["columns"] is None
        assert TABLES[table][1] in adaptation["why"]
    else:  # the table does not matter to a change of predicates, nor to one not adapted anyway
        anywhere = report[case]["adaptation"]
        assert (adaptation["adapt"], adaptation["columns"]) == (anywhere["adapt"], anywhere["columns"])
        assert (adaptation["why"] or "").startswith(anywhere["why"] or "")
