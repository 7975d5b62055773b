"""Live validation (`pdelta.live`) of a dimension view's inputs against data on a Spark Thrift
Server, and once on the embedded SparkSession. Small Delta tables in the schema `pdelta_live_it`;
each rule is shown on data that breaks it, with the count it must report."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytestmark = pytest.mark.spark  # every test here runs Spark (make test-fast leaves them out)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))

from pdelta.declaration import normalize  # noqa: E402
from pdelta.live import InputRelations, LiveReport, check_view_live, connect  # noqa: E402

S = "pdelta_live_it"

BEFORE_C = "struct<cname:string,caddr:int,cbill:int,cdisc:int>"
BEFORE_A = "struct<acity:string,acountry:string>"
C_COLS = "cid, cname, caddr, cbill, cdisc"
C_FEED_COLS = C_COLS + ", `_pdelta_before`, `_pdelta_type`, `_pdelta_seq`"
A_FEED_COLS = "aid, acity, acountry, `_pdelta_before`, `_pdelta_type`, `_pdelta_seq`"
NB_C = f"cast(null as {BEFORE_C})"
NB_A = f"cast(null as {BEFORE_A})"


def cb(name, addr, bill, disc):
    return f"named_struct('cname', '{name}', 'caddr', {addr}, 'cbill', {bill}, 'cdisc', {disc})"


def c_row(cid, name, addr, bill, disc, before, typ, seq):
    lit = lambda v: "null" if v is None else (f"'{v}'" if isinstance(v, str) else str(v))  # noqa: E731
    return (f"({lit(cid)}, {lit(name)}, {lit(addr)}, {lit(bill)}, {lit(disc)}, {before or NB_C}, "
            f"{lit(typ)}, {'cast(null as bigint)' if seq is None else f'{seq}L'})")


TABLES = {
    # states
    "cust": f"select * from values (1, 'Adam', 1, 1, 0), (2, 'Bob', 2, 1, 0), (3, 'Carl', 3, 2, 0), "
            f"(4, 'Dave', 4, 4, 5) as t({C_COLS})",
    "addr": "select * from values (1, 'Aachen', 'DE'), (2, 'Berlin', 'DE'), (3, 'Chur', 'CH'), "
            "(4, 'Dresden', 'DE') as t(aid, acity, acountry)",
    # the same addresses keyed by a string: joining cust.caddr (int) to it mixes type families
    "addr_str": "select * from values ('1', 'Aachen', 'DE') as t(aid, acity, acountry)",
    # NULL keys: 2 rows; duplicate keys: 1 (x3) and 2 (x2) = 2 keys, 5 rows;
    # caddr orphans: 99, 98 (NULL caddr is no orphan) = 2; cbill orphans: 77 = 1
    "cust_bad": "select * from values (null, 'N1', 1, 1, 0), (null, 'N2', 1, 1, 0), (1, 'A', 1, 1, 0), "
                "(1, 'A2', 1, 1, 0), (1, 'A3', 2, 1, 0), (2, 'B', 2, 1, 0), (2, 'B2', 2, 1, 0), "
                "(3, 'C', 99, 1, 0), (4, 'D', 98, 1, 0), (5, 'E', null, 1, 0), (6, 'F', 4, 77, 0) "
                f"as t({C_COLS})",
    # conforming feeds (log_based: ins/upd/del; change_tracking: ins/up/delk)
    "cust_changes": "select * from values " + ", ".join([
        c_row(4, "Dave", 4, 4, 5, None, "ins", 1),
        c_row(1, "Adam", 1, 1, 5, cb("Adam", 1, 1, 0), "upd", 1),
        c_row(5, "Eve", 2, 2, 0, None, "del", 2),
        c_row(4, "Dave", 4, 4, 5, cb("Dave", 4, 4, 0), "upd", 2),
    ]) + f" as t({C_FEED_COLS})",
    "addr_changes": f"select * from values (4, 'Dresden', 'DE', {NB_A}, 'ins', 1L), "
                    f"(1, 'Aachen', 'DE', {NB_A}, 'up', 1L), (5, null, null, {NB_A}, 'delk', 2L) "
                    f"as t({A_FEED_COLS})",
    # one feed breaking every conformity rule, each with its own count
    "cust_changes_bad": "select * from values " + ", ".join([
        # feed-type: 2
        c_row(10, "x", 1, 1, 0, None, "bogus", 1), c_row(11, "x", 1, 1, 0, None, None, 1),
        # feed-key-null: 3
        c_row(None, "x", 1, 1, 0, None, "ins", 1), c_row(None, "x", 1, 1, 0, None, "ins", 2),
        c_row(None, "x", 1, 1, 0, None, "ins", 3),
        # feed-seq-null: 1
        c_row(30, "x", 1, 1, 0, None, "ins", None),
        # feed-disjoint: keys 7 (x2) and 8 (x3) at sequence 5 = 2 groups, 5 rows
        c_row(7, "x", 1, 1, 0, None, "ins", 5), c_row(7, "x", 1, 1, 0, None, "up", 5),
        c_row(8, "x", 1, 1, 0, None, "ups", 5), c_row(8, "x", 1, 1, 0, None, "up", 5),
        c_row(8, "x", 1, 1, 0, None, "ups", 5),
        # feed-upd-images: 4
        *[c_row(k, "x", 1, 1, 0, None, "upd", 6) for k in (40, 41, 42, 43)],
        # feed-before-image: 1
        c_row(50, "x", 1, 1, 0, cb("x", 1, 1, 0), "ins", 6),
        # feed-delk-key-only: 3 (and one conforming delk)
        c_row(60, "x", None, None, None, None, "delk", 7), c_row(61, None, 5, None, None, None, "delk", 7),
        c_row(62, None, None, None, 9, None, "delk", 7), c_row(63, None, None, None, None, None, "delk", 7),
        # feed-del-image: 1 (caddr, declared not null, is NULL; cname is not declared)
        c_row(70, "x", None, 1, 0, None, "del", 8), c_row(71, None, 1, 1, 0, None, "del", 8),
    ]) + f" as t({C_FEED_COLS})",
    # rows at/below the watermark 3 break rules but are not pending; above it: type 1, key-null 1,
    # and a NULL sequence (always pending): 4 pending rows
    "cust_changes_wm": "select * from values " + ", ".join([
        c_row(1, "Adam", 1, 1, 0, None, "bogus", 1), c_row(None, "x", 1, 1, 0, None, "ins", 2),
        c_row(2, "Bob", 2, 1, 0, None, "ins", 3),
        c_row(3, "Carl", 3, 2, 0, None, "bogus", 4), c_row(None, "y", 1, 1, 0, None, "ins", 5),
        c_row(4, "Dave", 4, 4, 5, None, "ins", 6), c_row(9, "Z", 1, 1, 0, None, "ins", None),
    ]) + f" as t({C_FEED_COLS})",
    # batch log of a view over cust_changes_wm (c: consumed up to 3) and addr_changes (a: consumed
    # up to 50, above the feed's max 2: regressed); no row for `b`
    "vwm__pdelta_batches": "select * from values "
        "(0L, 'c', 'x', cast(null as bigint), 2L, cast(null as string), 'full', timestamp'2024-01-01 00:00:00'), "
        "(1L, 'c', 'x', 2L, 3L, '{}', 'incremental', timestamp'2024-01-02 00:00:00'), "
        "(0L, 'a', 'x', cast(null as bigint), 50L, cast(null as string), 'full', timestamp'2024-01-01 00:00:00') "
        "as t(batch_id, input, changes, lo, hi, counts, mode, recorded_at)",
}


def rel(name: str) -> str:
    return f"`{S}`.`{name}`"


def make_view(c_state="cust", c_changes="cust_changes", c_tech="log_based", with_b=False, model="v_live",
              c_not_null=()):
    rels = {
        "c": {"state": c_state, "changes": c_changes, "key": ["cid"], "technique": c_tech,
              "columns": ["cid", "cname", "caddr"]},
        "a": {"state": "addr", "changes": "addr_changes", "key": ["aid"], "technique": "change_tracking",
              "join": {"to": "c", "on": {"caddr": "aid"}}, "columns": ["acity", "acountry"],
              "where": "acountry = 'DE'"},
    }
    if with_b:  # role-playing: the same relation under a second alias, joined on the billing address
        rels["b"] = {"state": "addr", "changes": "addr_changes", "key": ["aid"], "technique": "change_tracking",
                     "join": {"to": "c", "on": {"cbill": "aid"}}, "columns": {"bcity": "acity"}}
    view, errs = normalize({"root": "c", "relations": rels}, model)
    assert view is not None, errs
    inputs = {a: InputRelations(rel(r["state"]), rel(r["changes"]), c_not_null if a == "c" else ())
              for a, r in rels.items()}
    return view, inputs


def only(report: LiveReport, rule: str, alias: str | None = None):
    found = [v for v in report.violations if v.rule == rule and (alias is None or v.alias == alias)]
    assert len(found) == 1, (rule, alias, [v.render() for v in report.violations])
    return found[0]


def rules(report: LiveReport, severity: str | None = None) -> set[tuple[str, str]]:
    return {(v.rule, v.alias) for v in report.violations if severity is None or v.severity == severity}


def examples(message: str) -> list[str]:
    m = re.search(r"e\.g\. (.*)$", message)
    return re.findall(r"\([^()]*\)", m.group(1)) if m else []


# --------------------------------------------------------------------------------------------
# a Thrift Server and the tables

@pytest.fixture(scope="module")
def ex(thrift_port):
    ex = connect(ROOT, "thrift")   # profiles.yml's thrift target, port from PDELTA_THRIFT_PORT
    ex.rows(f"drop schema if exists `{S}` cascade")
    ex.rows(f"create schema `{S}`")

    def create(item):
        name, sql = item
        c = connect(ROOT, "thrift")
        try:
            c.rows(f"create table {rel(name)} using delta as {sql}")
        finally:
            c.close()

    with ThreadPoolExecutor(max_workers=3) as pool:
        list(pool.map(create, TABLES.items()))
    yield ex
    ex.rows(f"drop schema if exists `{S}` cascade")
    ex.close()


class Recorder:
    """An executor that keeps the SQL it ran."""

    def __init__(self, inner):
        self.inner, self.sql = inner, []

    def rows(self, sql):
        self.sql.append(sql)
        return self.inner.rows(sql)


# --------------------------------------------------------------------------------------------
# tests

def test_conforming_inputs_have_no_errors(ex):
    view, inputs = make_view(with_b=True)
    r = check_view_live(view, inputs, None, ex)
    assert r.view == "v_live"
    assert r.violations == [], [v.render() for v in r.violations]
    assert r.stats["sampled"] is False and r.stats["note"] is None
    assert r.stats["batch_log"] == "none"
    assert r.stats["pending"] == {"c": 4, "a": 3, "b": 3}
    assert r.stats["sets"]["c"] == {"ins": 1, "del": 1, "upd": 2, "up": 0, "ups": 0, "delk": 0}
    assert r.stats["sets"]["a"] == {"ins": 1, "del": 0, "upd": 0, "up": 1, "ups": 0, "delk": 1}
    assert r.stats["orphans"] == {"a": 0, "b": 0}
    assert r.stats["state"]["c"] == {"rows": 4, "key_null_rows": 0, "dup_keys": 0, "dup_rows": 0}


@pytest.fixture(scope="module")
def bad(ex):
    """One run over a state and a feed that break every state and feed rule (the role-playing
    aliases a and b share one state and feed)."""
    view, inputs = make_view(c_state="cust_bad", c_changes="cust_changes_bad", c_tech="log_based", with_b=True,
                             c_not_null=("caddr", "cid"))
    rec = Recorder(ex)
    return check_view_live(view, inputs, None, rec), rec.sql


def test_state_keys_and_foreign_key_orphans(bad):
    r, sql = bad
    v = only(r, "live-key-null", "c")
    assert v.severity == "error" and v.message.startswith("state `pdelta_live_it`.`cust_bad`: 2 row(s) with a NULL")
    assert examples(v.message) == ["(cid=NULL)"]
    v = only(r, "live-key-unique", "c")
    assert v.severity == "error" and "2 key value(s) held by 5 row(s)" in v.message and "cust_bad" in v.message
    assert sorted(examples(v.message)) == ["(cid=1, rows=3)", "(cid=2, rows=2)"]
    v = only(r, "live-fk-orphans", "a")
    assert v.severity == "warning" and v.column == "caddr"
    assert v.message.startswith("2 row(s) of state `pdelta_live_it`.`cust_bad`")
    assert "`pdelta_live_it`.`addr`" in v.message
    assert sorted(examples(v.message)) == ["(cid=3, caddr=99)", "(cid=4, caddr=98)"]
    v = only(r, "live-fk-orphans", "b")
    assert v.severity == "warning" and v.message.startswith("1 row(s)") and examples(v.message) == ["(cid=6, cbill=77)"]
    assert r.stats["orphans"] == {"a": 2, "b": 1}
    assert r.stats["state"]["c"] == {"rows": 11, "key_null_rows": 2, "dup_keys": 2, "dup_rows": 5}
    assert r.stats["state"]["a"] == r.stats["state"]["b"] == {"rows": 4, "key_null_rows": 0, "dup_keys": 0,
                                                              "dup_rows": 0}
    # a and b share their state and feed: each is scanned once
    assert sum(1 for s in sql if "from `pdelta_live_it`.`addr` group by" in s) == 1
    assert sum(1 for s in sql if "from `pdelta_live_it`.`addr_changes` where" in s) == 1
    assert not [v for v in r.violations if v.alias in ("a", "b") and v.rule != "live-fk-orphans"]


def test_feed_conformity_rules(bad):
    r, _ = bad
    expect = {"feed-type": 2, "feed-key-null": 3, "feed-seq-null": 1, "feed-upd-images": 4,
              "feed-before-image": 1, "feed-delk-key-only": 3, "feed-del-image": 1}
    for rule, n in expect.items():
        v = only(r, rule, "c")
        assert v.severity == "error"
        assert v.message.startswith(f"change feed `pdelta_live_it`.`cust_changes_bad`: {n} "), v.message
        assert 1 <= len(examples(v.message)) <= 3
    assert sorted(examples(only(r, "feed-type").message)) == [
        "(cid=10, _pdelta_type='bogus', _pdelta_seq=1)", "(cid=11, _pdelta_type=NULL, _pdelta_seq=1)"]
    assert all(e.startswith("(cid=NULL, _pdelta_type='ins'") for e in examples(only(r, "feed-key-null").message))
    assert len(examples(only(r, "feed-upd-images").message)) in (2, 3)   # of 4: at most 3
    assert examples(only(r, "feed-seq-null").message) == ["(cid=30, _pdelta_type='ins', _pdelta_seq=NULL)"]
    assert examples(only(r, "feed-before-image").message) == ["(cid=50, _pdelta_type='ins', _pdelta_seq=6)"]
    assert set(examples(only(r, "feed-delk-key-only").message)) <= {
        f"(cid={k}, _pdelta_type='delk', _pdelta_seq=7)" for k in (60, 61, 62)}
    v = only(r, "feed-disjoint", "c")
    assert v.severity == "error" and "2 (key, _pdelta_seq) value(s) held by 5 pending rows" in v.message
    assert sorted(examples(v.message)) == ["(cid=7, _pdelta_seq=5, rows=2)", "(cid=8, _pdelta_seq=5, rows=3)"]
    # the declared technique (log_based: ins/upd/del) cannot emit up, ups, delk
    v = only(r, "feed-technique", "c")
    assert v.severity == "warning" and "{'up': 2, 'ups': 2, 'delk': 4}" in v.message
    assert r.stats["pending"] == {"c": 22, "a": 3, "b": 3}
    assert r.stats["sets"]["c"] == {"ins": 6, "del": 2, "upd": 4, "up": 2, "ups": 2, "delk": 4}
    assert examples(only(r, "feed-del-image").message) == ["(cid=70, _pdelta_type='del', _pdelta_seq=8)"]
    assert {v.rule for v in r.violations if v.rule.startswith("feed-")} == {*expect, "feed-disjoint", "feed-technique"}


def test_batch_log_watermark_and_regressed_feed(ex):
    view, inputs = make_view(c_changes="cust_changes_wm", with_b=True, model="vwm")
    r = check_view_live(view, inputs, rel("vwm__pdelta_batches"), ex)
    assert r.stats["batch_log"] == "present"
    assert r.stats["watermarks"] == {"c": 3, "a": 50, "b": None}
    # c: rows at or below 3 break rules but are consumed; above: one bad type, one NULL key, and
    # the NULL sequence is always pending
    assert r.stats["pending"]["c"] == 4
    v = only(r, "feed-type", "c")
    assert v.message.startswith("change feed `pdelta_live_it`.`cust_changes_wm`: 1 ")
    assert examples(v.message) == ["(cid=3, _pdelta_type='bogus', _pdelta_seq=4)"]
    v = only(r, "feed-key-null", "c")
    assert v.message.startswith("change feed `pdelta_live_it`.`cust_changes_wm`: 1 ")
    assert examples(v.message) == ["(cid=NULL, _pdelta_type='ins', _pdelta_seq=5)"]
    only(r, "feed-seq-null", "c")
    # a: consumed up to 50 while the feed's highest sequence is 2
    v = only(r, "feed-seq-regressed", "a")
    assert v.severity == "error" and "`pdelta_live_it`.`addr_changes`" in v.message
    assert "highest `_pdelta_seq` 2 is below the consumed watermark 50" in v.message and "3 row(s)" in v.message
    assert r.stats["pending"]["a"] == 0 and r.stats["feed_max_seq"]["a"] == 2
    # b: no row in the batch log: a warning, and all of its feed is pending
    v = only(r, "live-watermark-missing", "b")
    assert v.severity == "warning"
    assert r.stats["pending"]["b"] == 3
    assert rules(r, "error") == {("feed-type", "c"), ("feed-key-null", "c"), ("feed-seq-null", "c"),
                                 ("feed-seq-regressed", "a")}


def test_missing_batch_log_means_everything_pending(ex):
    view, inputs = make_view(c_changes="cust_changes_wm")
    r = check_view_live(view, inputs, rel("no_such_view__pdelta_batches"), ex)
    assert r.stats["batch_log"] == "missing" and r.stats["watermarks"] == {"c": None, "a": None}
    assert r.stats["pending"] == {"c": 7, "a": 3}
    assert only(r, "feed-type", "c").message.startswith("change feed `pdelta_live_it`.`cust_changes_wm`: 2 ")
    assert only(r, "feed-key-null", "c").message.startswith("change feed `pdelta_live_it`.`cust_changes_wm`: 2 ")
    assert not [v for v in r.violations if v.rule in ("feed-seq-regressed", "live-watermark-missing")]


def test_missing_relations_and_columns(ex):
    view, inputs = make_view()
    inputs["a"] = InputRelations(rel("no_such_addr"), rel("cust_changes"))   # wrong feed: no aid column
    r = check_view_live(view, inputs, None, ex)
    v = only(r, "live-relation", "a")
    assert "`pdelta_live_it`.`no_such_addr` does not exist" in v.message
    v = only(r, "feed-columns", "a")
    assert "['aid']" in v.message
    assert not [v for v in r.violations if v.alias == "c"]


def test_sampled_state_scans_and_full_feed(ex, bad):
    full, _ = bad
    view, inputs = make_view(c_state="cust_bad", c_changes="cust_changes_bad", c_tech="log_based", with_b=True,
                             c_not_null=("caddr", "cid"))
    rec = Recorder(ex)
    r = check_view_live(view, inputs, None, rec, sample_pct=50)
    assert r.stats["sampled"] is True and r.stats["sample_pct"] == 50.0
    assert "TABLESAMPLE (50 PERCENT)" in r.stats["note"] and "sample-based" in r.stats["note"]
    assert not [v for v in r.violations if "sampl" in v.rule]      # the note is no violation
    state_sql = [s for s in rec.sql if not s.startswith("describe") and ("`cust_bad`" in s or "`addr`" in s)]
    feed_sql = [s for s in rec.sql if not s.startswith("describe") and "changes" in s]
    assert len(state_sql) == 4 and all("tablesample (50.0 percent)" in s for s in state_sql)
    assert len(feed_sql) == 2 and not any("tablesample" in s for s in feed_sql)
    # the child side of the orphan anti join is looked up in full
    assert sum("left anti join `pdelta_live_it`.`addr` `c`" in s for s in rec.sql) == 2
    # feed checks are exact, state counts at most the full ones
    assert r.stats["pending"] == full.stats["pending"] and r.stats["sets"] == full.stats["sets"]
    feed_rules = lambda rep: sorted(v.message.split(";")[0] for v in rep.violations
                                    if v.rule.startswith("feed-"))  # noqa: E731
    assert feed_rules(r) == feed_rules(full) and len(feed_rules(r)) == 9
    assert r.stats["state"]["c"]["rows"] <= 11 and r.stats["orphans"]["a"] <= 2
    for v in r.violations:
        if v.rule.startswith("live-"):
            assert "in the sample" in v.message
    with pytest.raises(ValueError):
        check_view_live(view, inputs, None, ex, sample_pct=0)


def test_connect_rejects_other_methods(tmp_path):
    (tmp_path / "profiles.yml").write_text(
        "pdelta:\n  target: x\n  outputs:\n    x:\n      type: spark\n      method: http\n      host: h\n")
    with pytest.raises(ValueError, match="method 'http'"):
        connect(tmp_path, "x")


def test_join_column_types_from_the_described_states(ex):
    view, inputs = make_view()
    inputs["a"] = InputRelations(rel("addr_str"), rel("addr_changes"))
    r = check_view_live(view, inputs, None, ex)
    v = only(r, "live-join-types", "a")
    assert v.severity == "error" and "join c.caddr (int) = a.aid (string)" in v.message, v.message
    view, inputs = make_view()
    assert not [v for v in check_view_live(view, inputs, None, ex).violations if v.rule == "live-join-types"]
