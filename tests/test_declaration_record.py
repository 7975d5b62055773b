"""What a dimension view's full build keeps of its declaration (macros/engine/declaration_record.sql)
and how a changed declaration is described (declaration_differences.sql): every change of what
defines the view's rows gets another fingerprint and a phrase naming it; a change of technique
alone does not count; a change of predicates and output columns added, dropped, renamed or reordered (on a
Delta view, with SCD2 history or without), leaf relations removed or joined in, and only those, are
adapted instead of rebuilt (declaration_adaptation.sql).
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


# the base of the cases below the root: Nation joined to Addr, whose join column Addr outputs (or not)
BELOW_ROOT = copy.deepcopy(BASE)
BELOW_ROOT["relations"]["a"]["columns"] = ["acity", "anation"]
BELOW_ROOT["relations"]["n"] = {"state": "nation", "changes": "nation_changes", "key": ["nid"],
                                "join": {"to": "a", "on": {"anation": "nid"}}, "columns": ["nname"]}
BELOW_ROOT_UNLOCATED = copy.deepcopy(BELOW_ROOT)
BELOW_ROOT_UNLOCATED["relations"]["a"]["columns"] = ["acity"]
# the cases built from another base than BASE
BASES = {"leaf_replaced_below_root": BELOW_ROOT, "leaf_replaced_below_root_unlocated": BELOW_ROOT_UNLOCATED}
# Addr's replacement: another table and feed, its key and columns named otherwise
REPLACEMENT = {"state": "addr_v2", "changes": "addr_v2_changes", "key": ["address_id"],
               "join": {"to": "c", "on": {"caddr": "address_id"}}, "columns": [{"acity": "city"}],
               "where": "country = 'DE'"}
# the leaf each replacement case replaces
REPLACEMENT_OF = {"relation_replaced": "a", "relation_replaced_state_only": "a",
                  "relation_replaced_join_column_dropped": "a", "leaf_replaced_below_root": "n"}
REPLACED_PHRASES = ["column acity now comes from a.city (was a.acity)",
                    "a: predicate \"acountry = 'DE'\" -> \"country = 'DE'\"",
                    'a: join {"to": "c", "on": [["caddr", "aid"]]} -> {"to": "c", "on": [["caddr", "address_id"]]}',
                    'a: key ["aid"] -> ["address_id"]', 'a: state "addr" -> "addr_v2"']


def variant(change, base=None) -> dict:
    decl = copy.deepcopy(base or BASE)
    change(decl)
    return decl


# case -> (declaration, the phrases declaration_differences gives against BASE)
CASES = {
    "same": (variant(lambda d: None), []),
    "technique_only": (variant(lambda d: d["relations"]["a"].update(technique="log_based")), []),
    "column_added": (variant(lambda d: d["relations"]["a"]["columns"].append("acountry")), ["columns added: acountry"]),
    "column_dropped": (variant(lambda d: d["relations"]["c"]["columns"].remove("cname")), ["columns dropped: cname"]),
    # a name's case alone changed: renamed in place like any other name
    "column_recased": (variant(lambda d: d["relations"]["c"].update(columns=["cid", "CName", "caddr"])),
                       ["column cname renamed CName"]),
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
    # ... from a column of another type (STATES' types of c): the view's column would change its type
    "column_resourced_retyped": (variant(lambda d: d["relations"]["c"].update(columns=["cid", {"cname": "cphone"},
                                                                                       "caddr"])),
                                 ["column cname now comes from c.cphone (was c.cname)"]),
    # ... with its name's case changed too: renamed in place, and its rows recomputed
    "column_resourced_recased": (variant(lambda d: d["relations"]["c"].update(columns=["cid", {"CName": "caddr"},
                                                                                       "caddr"])),
                                 ["column cname renamed CName", "column CName now comes from c.caddr (was c.cname)"]),
    # ... with a predicate changed on the same relation: both recompute the rows they reach, in one batch
    "column_resourced_and_predicate": (variant(lambda d: d["relations"]["c"].update(
        columns=["cid", {"cname": "caddr"}, "caddr"], where="cname is not null")),
        ["column cname now comes from c.caddr (was c.cname)", 'c: predicate none -> "cname is not null"']),
    "columns_reordered": (variant(lambda d: d["relations"]["c"].update(columns=["cid", "caddr", "cname"])),
                          ["column order or the key changed"]),
    "key_renamed": (variant(lambda d: d["relations"]["c"].update(columns=[{"id": "cid"}, "cname", "caddr"])),
                    ["column cid renamed id"]),
    "only_key_left": (variant(lambda d: (d["relations"]["c"].update(columns=["cid"]),
                                         d["relations"]["a"].update(columns=[]))),
                      ["columns dropped: cname, caddr, acity"]),
    "columns_added_dropped_and_renamed": (
        variant(lambda d: (d["relations"]["c"].update(columns=["cid", "caddr", "cphone"]),
                           d["relations"]["a"].update(columns=[{"city": "acity"}]))),
        ["columns added: cphone", "columns dropped: cname", "column acity renamed city"]),
    "predicate_dropped": (variant(lambda d: d["relations"]["a"].pop("where")),
                          ["a: predicate \"acountry = 'DE'\" -> none"]),
    "predicate_added": (variant(lambda d: d["relations"]["c"].update(where="cname is not null")),
                        ['c: predicate none -> "cname is not null"']),
    "feed_replaced": (variant(lambda d: d["relations"]["c"].update(changes="cust_feed_v2")),
                      ['c: change feed "cust_changes" -> "cust_feed_v2"']),
    "predicate_narrowed": (variant(lambda d: d["relations"]["a"].update(where="acountry = 'DE' and acity <> 'X'")),
                           ["a: predicate \"acountry = 'DE'\" -> \"acountry = 'DE' and acity <> 'X'\""]),
    "predicate_and_column": (variant(lambda d: (d["relations"]["a"].pop("where"),
                                                d["relations"]["a"]["columns"].append("acountry"))),
                             ["columns added: acountry", "a: predicate \"acountry = 'DE'\" -> none"]),
    "relation_joined_in": (variant(lambda d: d["relations"].update(n={
        "state": "nation", "changes": "nation_changes", "key": ["nid"], "technique": "log_based",
        "join": {"to": "a", "on": {"anation": "nid"}}, "columns": ["nname"]})),
        ["columns added: nname", "relation n joined in"]),
    "relation_joined_as_filter": (variant(lambda d: d["relations"].update(n={
        "state": "nation", "changes": "nation_changes", "key": ["nid"], "technique": "log_based",
        "join": {"to": "a", "on": {"anation": "nid"}}, "where": "nname <> 'X'"})),
        ["relation n joined in"]),
    "relation_joined_with_predicate": (variant(lambda d: (d["relations"].update(n={
        "state": "nation", "changes": "nation_changes", "key": ["nid"], "technique": "log_based",
        "join": {"to": "a", "on": {"anation": "nid"}}}), d["relations"]["a"].pop("where"))),
        ["relation n joined in", "a: predicate \"acountry = 'DE'\" -> none"]),
    "relations_joined_in_a_chain": (variant(lambda d: d["relations"].update(
        n={"state": "nation", "changes": "nation_changes", "key": ["nid"],
           "join": {"to": "a", "on": {"anation": "nid"}}},
        r={"state": "region", "changes": "region_changes", "key": ["rid"],
           "join": {"to": "n", "on": {"nregion": "rid"}}})),
        ["relation n joined in", "relation r joined in"]),
    "relation_removed": (variant(lambda d: d["relations"].pop("a")), ["columns dropped: acity", "relation a removed"]),
    "relation_removed_and_renamed": (variant(lambda d: (d["relations"].pop("a"), d["relations"]["c"].update(
        columns=["cid", {"name": "cname"}, "caddr"]))),
                                     ["columns dropped: acity", "column cname renamed name", "relation a removed"]),
    # Addr moved to another table, its key and columns renamed there (the view's names kept), its predicate
    # rewritten for them: a leaf replaced, its new rows a subset of the old ones
    "relation_replaced": (variant(lambda d: d["relations"]["a"].update(REPLACEMENT, containment="subset")),
                          REPLACED_PHRASES + ['a: change feed "addr_changes" -> "addr_v2_changes"']),
    # ... its state only (the feed kept: its watermark too), no containment declared
    "relation_replaced_state_only": (variant(lambda d: d["relations"]["a"].update(state="addr_v2")),
                                     ['a: state "addr" -> "addr_v2"']),
    # ... with the parent's join column no longer output: the root's state gives it
    "relation_replaced_join_column_dropped": (
        variant(lambda d: (d["relations"]["a"].update(REPLACEMENT, containment="equal"),
                           d["relations"]["c"]["columns"].remove("caddr"))),
        ["columns dropped: caddr"] + REPLACED_PHRASES + ['a: change feed "addr_changes" -> "addr_v2_changes"']),
    "relation_replaced_with_child": (variant(lambda d: (
        d["relations"]["a"].update(state="addr_v2"),
        d["relations"].update(n={"state": "nation", "changes": "nation_changes", "key": ["nid"],
                                 "join": {"to": "a", "on": {"anation": "nid"}}}))),
        ["relation n joined in", 'a: state "addr" -> "addr_v2"']),
    "relation_replaced_join_changed": (variant(lambda d: d["relations"]["a"].update(
        state="addr_v2", join={"to": "c", "on": {"cname": "aid"}})),
        ['a: join {"to": "c", "on": [["caddr", "aid"]]} -> {"to": "c", "on": [["cname", "aid"]]}',
         'a: state "addr" -> "addr_v2"']),
    "root_replaced": (variant(lambda d: d["relations"]["c"].update(state="cust_v2")), ['c: state "cust" -> "cust_v2"']),
    # below the root: Nation replaced under an Addr that outputs the column it joins Nation on, and one that does not
    "leaf_replaced_below_root": (variant(lambda d: d["relations"]["n"].update(state="nation_v2"), BELOW_ROOT),
                                 ['n: state "nation" -> "nation_v2"']),
    "leaf_replaced_below_root_unlocated": (
        variant(lambda d: d["relations"]["n"].update(state="nation_v2"), BELOW_ROOT_UNLOCATED),
        ['n: state "nation" -> "nation_v2"']),
    "relation_removed_join_changed": (variant(lambda d: (d["relations"].pop("a"), d["relations"].update(b={
        "state": "addr", "changes": "addr_changes", "key": ["aid"], "join": {"to": "c", "on": {"caddr": "aid"}},
        "columns": ["acity"]}))),
        ["column acity now comes from b.acity (was a.acity)", "relation b joined in", "relation a removed"]),
}

# the cases the next refresh adapts instead of rebuilding (declaration_adaptation): alias -> its change
ADAPTED = {"predicate_dropped": {"a": "dropped"}, "predicate_added": {"c": "added"},
           "predicate_and_column": {"a": "dropped"},
           "predicate_narrowed": {"a": "changed"}, "rename_and_predicate": {"a": "changed"},
           "relation_joined_as_filter": {"a": "kept"}, "relation_joined_with_predicate": {"a": "dropped"},
           "relation_joined_in": {"a": "kept"},
           "relation_removed": {"c": "kept"}, "relation_removed_and_renamed": {"c": "kept"},
           "relation_replaced": {"c": "kept"}, "relation_replaced_state_only": {"c": "kept"},
           "relation_replaced_join_column_dropped": {"c": "kept"}, "leaf_replaced_below_root": {"a": "kept"},
           "column_resourced": {"c": "kept"}, "column_resourced_and_predicate": {"c": "added"},
           "column_resourced_recased": {"c": "kept"}}
# ... and the columns it adds, drops or renames in place (an added one: [name, relation, its column,
# the output column before it])
COLUMNS_ADAPTED = {"column_dropped": {"dropped": ["cname"], "renamed": [], "added": []},
                   "column_renamed": {"dropped": [], "renamed": [["acity", "city"]], "added": []},
                   "column_recased": {"dropped": [], "renamed": [], "added": [], "recased": [["cname", "CName"]]},
                   "column_resourced_recased": {"dropped": [], "renamed": [], "added": [],
                                                "recased": [["cname", "CName"]]},
                   "renamed_and_dropped": {"dropped": ["cname"], "renamed": [["acity", "city"]], "added": []},
                   "rename_and_predicate": {"dropped": [], "renamed": [["acity", "city"]], "added": []},
                   "relation_removed": {"dropped": ["acity"], "renamed": [], "added": []},
                   "relation_removed_and_renamed": {"dropped": ["acity"], "renamed": [["cname", "name"]], "added": []},
                   "relation_replaced_join_column_dropped": {"dropped": ["caddr"], "renamed": [], "added": []},
                   "column_added": {"dropped": [], "renamed": [], "added": [["acountry", "a", "acountry", "acity"]]},
                   "predicate_and_column": {"dropped": [], "renamed": [],
                                            "added": [["acountry", "a", "acountry", "acity"]]},
                   "columns_added_dropped_and_renamed": {"dropped": ["cname"], "renamed": [["acity", "city"]],
                                                         "added": [["cphone", "c", "cphone", "caddr"]]},
                   # the columns reordered: moved in the tables' metadata, every output column's place given
                   "columns_reordered": {"dropped": [], "renamed": [], "added": [],
                                         "order": ["cid", "caddr", "cname", "acity"]},
                   # a relation joined in with a column: the column filled from its state, along its join
                   "relation_joined_in": {"dropped": [], "renamed": [], "added": [["nname", "n", "nname", "acity"]]}}
# the leaves each adapted relation lost or gained, and the condition its disagreeing rows meet
LEAVES = {"relation_joined_in": ("a", [], ["n"], "(coalesce((acountry = 'DE'), false)) <> (coalesce((acountry = 'DE'), "
                                 "false) and exists (select 1 from nation_state as l where l.`nid` = x.`anation`))"),
          "relation_joined_as_filter": ("a", [], ["n"], "(coalesce((acountry = 'DE'), false)) <> (coalesce((acountry "
                                        "= 'DE'), false) and exists (select 1 from nation_state as l where l.`nid` = "
                                        "x.`anation` and (nname <> 'X')))"),
          "relation_joined_with_predicate": ("a", [], ["n"], "(coalesce((acountry = 'DE'), false)) <> (true and exists "
                                             "(select 1 from nation_state as l where l.`nid` = x.`anation`))"),
          "relation_removed": ("c", ["a"], [], "(true and exists (select 1 from addr_state as l where l.`aid` = "
                               "x.`caddr` and (acountry = 'DE'))) <> (true) or exists (select 1 from addr_feed as l "
                               "where l.`aid` = x.`caddr` and l.`_pdelta_seq` > 7)")}
# the states of the relations removed, joined in or replaced, as adaptation_states gives them (a replaced
# one's feed and watermark are its old relation's; a relation joined in has neither)
STATES = {"a": {"state": "addr_state", "changes": "addr_feed", "consumed": 7},
          # a relation with a column re-sourced: its state's column types
          "c": {"state": "cust_state", "changes": None, "consumed": 5,
                "types": {"cid": "int", "cname": "string", "caddr": "string", "cphone": "bigint"}},
          "n": {"state": "nation_state", "changes": "nation_feed", "consumed": 3},
          "r": {"state": "region_state", "changes": None, "consumed": None},
          "b": {"state": "addr_state", "changes": None, "consumed": None}}
# tables a column change is adapted on or not: (apply options, the reason given, whether only columns added
# are refused; reason none: adapted as anywhere). A history that holds the added columns from before (dropped
# since) refuses them: a fill in place would overwrite what its current versions held
TABLES = {"parquet": ({"format": "parquet", "history": None}, "on Delta views only", False),
          "history": ({"format": "delta", "history": {"tracked": ["cname"]}}, None, False),
          "history_holding": ({"format": "delta", "history": {"tracked": ["cname"]},
                               "history_columns": ["cid", "cname", "acountry", "cphone", "nname"]},
                              "columns added that the SCD2 history holds from before", True)}

MACROS = """
{% macro declaration_report(base, cases, tables, states, bases, moves, recases) %}
  {%- set without_feed = fromjson(tojson(states)) -%}
  {%- do without_feed['a'].update({'changes': none}) -%}
  {%- do without_feed['n'].update({'changes': none}) -%}
  {%- set out = {} -%}
  {%- for name, decl in cases.items() -%}
    {%- set built = pdelta.declaration_record(pdelta.normalize_declaration(bases.get(name, base), 'v')) -%}
    {%- set now = pdelta.declaration_record(pdelta.normalize_declaration(decl, 'v')) -%}
    {#- the record as the batch log gives it back: through JSON -#}
    {%- do out.update({name: {'same_fingerprint': now['fingerprint'] == built['fingerprint'],
                              'differences': pdelta.declaration_differences(fromjson(tojson(built)), now),
                              'nothing_kept': pdelta.declaration_differences(none, now),
                              'adaptation': pdelta.declaration_adaptation(fromjson(tojson(built)), now, none, states),
                              'adaptation_without_states': pdelta.declaration_adaptation(fromjson(tojson(built)), now),
                              'adaptation_without_feed': pdelta.declaration_adaptation(fromjson(tojson(built)), now,
                                                                                       none, without_feed)}}) -%}
    {%- for table, opts in tables.items() -%}
      {%- set adaptation = pdelta.declaration_adaptation(fromjson(tojson(built)), now, opts, states) -%}
      {%- do out[name].update({'adaptation_' ~ table: adaptation}) -%}
    {%- endfor -%}
  {%- endfor -%}
  {#- the ALTER COLUMN clauses that reorder a table's columns (adapt_view_columns) -#}
  {%- set moved = {} -%}
  {%- for name, case in moves.items() -%}
    {%- do moved.update({name: pdelta._column_moves(case['names'], case['wanted'], case.get('prefix', ''))}) -%}
  {%- endfor -%}
  {%- do out.update({'__moves__': moved}) -%}
  {#- the RENAME COLUMN clauses that change a name's case (adapt_view_columns) -#}
  {%- set recased = {} -%}
  {%- for name, case in recases.items() -%}
    {%- do recased.update({name: pdelta._recase_renames(case['names'], case['name'], case.get('prefix', ''))}) -%}
  {%- endfor -%}
  {%- do out.update({'__recases__': recased}) -%}
  {{ log('DECLARATION_REPORT ' ~ tojson(out), info=true) }}
{% endmacro %}
"""


# a table's columns reordered in place (adapt_view_columns' _column_moves): (the table's columns, lower-cased and in
# its order; the declared order; a struct column's path for its fields) -> the ALTER COLUMN clauses. Columns the
# declaration does not name (a feed's bookkeeping) stay after the others; a column in place is not moved
FEED = ["cid", "cname", "caddr", "acity", "_pdelta_before", "_pdelta_type", "_pdelta_seq"]
MOVES = {"feed_one_column": ({"names": FEED, "wanted": ["cid", "caddr", "cname", "acity"]},
                             ["alter column `caddr` after `cid`"]),
         "feed_in_order": ({"names": FEED, "wanted": ["cid", "cname", "caddr", "acity"]}, []),
         "key_moved_back": ({"names": FEED, "wanted": ["acity", "cid", "caddr", "cname"]},
                            ["alter column `acity` first", "alter column `caddr` after `cid`"]),
         "reversed": ({"names": ["a", "b", "c"], "wanted": ["C", "B", "A"]},
                      ["alter column `C` first", "alter column `B` after `C`"]),
         "before_image": ({"names": ["cname", "caddr", "acity"], "wanted": ["cid", "caddr", "cname", "acity"],
                           "prefix": "`_pdelta_before`."},
                          ["alter column `_pdelta_before`.`caddr` first"])}


# a column's name changed in its case only (adapt_view_columns' _recase_renames): (the table's columns as it names
# them, the new name, a struct column's path) -> the RENAME COLUMN clauses. Spark refuses a rename to the same name
# in another case, so two renames through a transient name; after a stop between them, the second alone
RECASES = {"column": ({"names": ["cid", "cname", "caddr"], "name": "CName"},
                      ["rename column `cname` to `_pdelta_recased_cname`",
                       "rename column `_pdelta_recased_cname` to `CName`"]),
           "stopped_between": ({"names": ["cid", "_pdelta_recased_cname", "caddr"], "name": "CName"},
                               ["rename column `_pdelta_recased_cname` to `CName`"]),
           "done": ({"names": ["cid", "CName", "caddr"], "name": "CName"}, []),
           "before_image": ({"names": ["CNAME", "caddr"], "name": "cname", "prefix": "`_pdelta_before`."},
                            ["rename column `_pdelta_before`.`CNAME` to `_pdelta_recased_cname`",
                             "rename column `_pdelta_before`.`_pdelta_recased_cname` to `cname`"]),
           "not_there": ({"names": ["cid", "caddr"], "name": "CName"}, [])}


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    d = macro_project(tmp_path_factory.mktemp("declaration"), "declaration_it", MACROS)
    res, logged = run_operation(d, "declaration_report", {"base": BASE, "cases": {k: v[0] for k, v in CASES.items()},
                                                          "tables": {k: v[0] for k, v in TABLES.items()},
                                                          "states": STATES, "bases": BASES,
                                                          "moves": {k: v[0] for k, v in MOVES.items()},
                                                          "recases": {k: v[0] for k, v in RECASES.items()}})
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
def test_predicates_and_columns_added_dropped_or_renamed_are_adapted(report, case):
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
def test_columns_change_in_place_on_delta_views_only(report, case, table):
    adaptation = report[case][f"adaptation_{table}"]
    _, reason, only_added = TABLES[table]
    if case in COLUMNS_ADAPTED and reason is not None and (COLUMNS_ADAPTED[case]["added"] or not only_added):
        assert adaptation["adapt"] is None and adaptation["columns"] is None
        assert reason in adaptation["why"]
    else:  # the table does not matter to a change of predicates, nor to one not adapted anyway
        anywhere = report[case]["adaptation"]
        assert (adaptation["adapt"], adaptation["columns"]) == (anywhere["adapt"], anywhere["columns"])
        assert (adaptation["why"] or "").startswith(anywhere["why"] or "")


# the leaves replaced: case -> (parent, containment, sides with the old feed readable, compare, fk_out, the
# disagreement with the old feed readable, `joined`); without the old feed, both sides and no disagreement
ADDR_FEED_CHANGED = "exists (select 1 from addr_feed as l where l.`aid` = x.`caddr` and l.`_pdelta_seq` > 7)"
REPLACED = {"relation_replaced": ("c", "subset", ["delete"], [["acity", "city"]], ["caddr"], ADDR_FEED_CHANGED, ["a"]),
            "relation_replaced_state_only": ("c", None, ["delete", "insert"], [["acity", "acity"]], ["caddr"], None,
                                             []),
            "relation_replaced_join_column_dropped": ("c", "equal", [], [["acity", "city"]], None, ADDR_FEED_CHANGED,
                                                      ["a"]),
            "leaf_replaced_below_root": ("a", None, ["delete", "insert"], [["nname", "nname"]], ["anation"], None, [])}
# replacements the next refresh does not adapt, and why
NOT_REPLACED = {"relation_replaced_with_child": "relation a is replaced with relations joined to it (n)",
                "relation_replaced_join_changed": "this one changes more",
                "root_replaced": "this one changes more",
                "leaf_replaced_below_root_unlocated": "it outputs the columns its parent a joins it on"}


@pytest.mark.parametrize("case", sorted(REPLACED))
def test_a_leaf_replaced_is_found_from_the_view_and_its_replacement(report, case):
    parent, containment, sides, compare, fk_out, disagree, joined = REPLACED[case]
    leaf = REPLACEMENT_OF[case]
    adaptation = report[case]["adaptation"]
    assert adaptation["why"] is None and adaptation["joined"] == joined
    entry = adaptation["adapt"][parent]
    swap, = entry["replaced"]
    assert (swap["leaf"], swap["containment"], swap["sides"], swap["compare"], swap["fk_out"]) == \
        (leaf, containment, sides, compare, fk_out)
    assert entry["disagree"] == disagree and entry["removed"] == entry["joined"] == []
    # the replaced relation's feed gone: both sides, nothing read of it, whatever the containment
    without_feed = report[case]["adaptation_without_feed"]["adapt"][parent]
    assert without_feed["replaced"][0]["sides"] == ["delete", "insert"] and without_feed["disagree"] is None
    # what it replaces not known at all: rebuilt, saying so
    assert f"what relation {leaf} replaces is not known" in report[case]["adaptation_without_states"]["why"]


@pytest.mark.parametrize("case", sorted(NOT_REPLACED))
def test_replacements_the_view_cannot_locate_rebuild(report, case):
    adaptation = report[case]["adaptation"]
    assert adaptation["adapt"] is None and adaptation["columns"] is None
    assert NOT_REPLACED[case] in adaptation["why"]


@pytest.mark.parametrize("case", sorted(set(CASES) - set(REPLACED) - set(NOT_REPLACED)))
def test_leaf_relations_removed_or_joined_in_read_their_states(report, case):
    adaptation = report[case]["adaptation"]
    if case in LEAVES:
        alias, removed, joined, disagree = LEAVES[case]
        got = adaptation["adapt"][alias]
        assert (got["removed"], got["joined"], got["disagree"]) == (removed, joined, disagree)
    if case in ADAPTED:
        assert adaptation["joined"] == [a for a in ("n", "r", "b") if f"relation {a} joined in" in CASES[case][1]]
    # without the state of a relation removed or joined in, the view rebuilds, saying so
    without = report[case]["adaptation_without_states"]
    leaves = any(p.startswith("relation ") for p in CASES[case][1])
    if leaves and (case in ADAPTED or case in COLUMNS_ADAPTED):
        assert without["adapt"] is None and without["columns"] is None
        assert "are not available to read which rows" in without["why"]
    elif case in RESOURCED:
        # a re-sourced column's types unknown: the view rebuilds, saying so
        assert without["adapt"] is None and "the column types of its state are not known" in without["why"]
    else:
        assert (without["adapt"], without["columns"]) == (adaptation["adapt"], adaptation["columns"])
    # a removed relation's feed tells which of its keys changed since the view consumed it: without it, rebuilt
    without_feed = report[case]["adaptation_without_feed"]
    if "relation a removed" in CASES[case][1] and adaptation["adapt"]:
        assert without_feed["adapt"] is None and "state and change feed of relation a" in without_feed["why"]
    else:
        assert (without_feed["adapt"], without_feed["columns"]) == (adaptation["adapt"], adaptation["columns"])


def test_a_relation_joined_in_with_columns_is_a_filter_whose_columns_are_added(report):
    adaptation = report["relation_joined_in"]["adaptation"]
    assert adaptation["why"] is None and adaptation["joined"] == ["n"]
    # without its state neither the filter nor the fill can be read: the view rebuilds, saying so
    assert "are not available to read which rows it adds to" in \
        report["relation_joined_in"]["adaptation_without_states"]["why"]


def test_relations_removed_or_joined_in_with_others_joined_to_them_rebuild(report):
    why = report["relations_joined_in_a_chain"]["adaptation"]["why"]
    assert "with relations joined to it (r): one leaf at a time" in why
    # a relation removed and another joined in its place is a changed join: the view rebuilds
    assert report["relation_removed_join_changed"]["adaptation"]["adapt"] is None


@pytest.mark.parametrize("case", sorted(MOVES))
def test_columns_reordered_by_moving_those_out_of_place(report, case):
    assert report["__moves__"][case] == MOVES[case][1]


@pytest.mark.parametrize("case", sorted(RECASES))
def test_a_names_case_changed_by_two_renames_through_a_transient_name(report, case):
    assert report["__recases__"][case] == RECASES[case][1]


# a column re-sourced within its relation: case -> its relation, [name, old column, new column], the condition on the
# state's rows (x) whose keys the batch recomputes
RESOURCED = {"column_resourced": ("c", [["cname", "cname", "caddr"]], "not (x.`cname` <=> x.`caddr`)"),
             "column_resourced_recased": ("c", [["CName", "cname", "caddr"]], "not (x.`cname` <=> x.`caddr`)"),
             "column_resourced_and_predicate": ("c", [["cname", "cname", "caddr"]],
                                                "(true) <> (coalesce((cname is not null), false)) or "
                                                "not (x.`cname` <=> x.`caddr`)")}


@pytest.mark.parametrize("case", sorted(RESOURCED))
def test_a_column_re_sourced_recomputes_the_rows_whose_two_columns_differ(report, case):
    alias, columns, disagree = RESOURCED[case]
    got = report[case]["adaptation"]
    assert got["why"] is None and got["columns"] == COLUMNS_ADAPTED.get(case)
    assert (got["adapt"][alias]["resourced"], got["adapt"][alias]["disagree"]) == (columns, disagree)


def test_a_column_re_sourced_to_another_type_or_relation_rebuilds(report):
    why = report["column_resourced_retyped"]["adaptation"]["why"]
    assert report["column_resourced_retyped"]["adaptation"]["adapt"] is None
    assert "column cname takes c.cphone (bigint) where it took c.cname (string): a rebuild gives it its type" in why
    assert "columns taken from another relation (acity) change every row" in \
        report["relation_removed_join_changed"]["adaptation"]["why"] + \
        (report["relation_removed_join_changed"]["adaptation_without_states"]["why"] or "")
