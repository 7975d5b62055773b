"""Capture (macros/materializations/capture.sql): raw CDC feeds of every format turned into the
canonical change feed, mirrored and maintained into a dimension view, through dbt, as a project
that installs pdelta as a package runs them (tests/capture/project.py).

One scenario of source operations (tests/capture/feeds.py) is encoded in each format's raw shape
and delivered in two batches; after each `dbt run`:
  * each mirror kept from a capture equals the simulated source table (the truth);
  * each dimension view equals its own SELECT over the final state (full recomputation);
  * each capture's feed is canonical (one change per key and batch, only the sets its format
    can emit).
The quarantine feed (tests/capture/bad.py) has one bad record per reason beside good ones: each
bad record is quarantined with its reason, every good record is applied, nothing else is lost;
its twin with quarantine_max_rows: 0 fails and leaves its batch uncommitted. Then a crash before
the commit is simulated and the rerun neither loses nor duplicates. The composition table is
checked against applying events one by one, in Python (random sequences, every format's sets)
and on Spark (the SQL net effect over the capture of a random feed).
"""
from __future__ import annotations

import json
import os
import random
import shutil
import zlib
from pathlib import Path

import pytest

from capture import bad, feeds
from capture.project import BAD_SHARE, FORMATS, SCHEMA, VIEW_COLUMNS, VIEW_OF, VIEWS, write_project
from pdelta import algebra
from pdelta.techniques import FORMAT_SETS, FORMATS as FORMAT_RECORDS, QUARANTINE_REASONS
from pdelta_env import kernel_rows, use_local_target

ROOT = Path(__file__).resolve().parents[1]
ATTR_COLS = ", ".join(feeds.ATTRS)
IMG = "id int, name string, city string, score int, bio string"
BEFORE = "struct<name: string, city: string, score: int, bio: string>"
RAW_SCHEMAS = {
    "raw_audit_columns": IMG + ", inserted_at bigint, updated_at bigint, deleted boolean",
    "raw_log_based": IMG + f", op string, seq bigint, before {BEFORE}",
    "raw_log_net_effect": IMG + ", op string, seq bigint",
    "raw_change_tracking": "id int, op string, version bigint",
    "raw_sqlserver_change_tracking": "SYS_CHANGE_VERSION bigint, SYS_CHANGE_CREATION_VERSION bigint, "
                                     "SYS_CHANGE_OPERATION string, SYS_CHANGE_COLUMNS string, SYS_CHANGE_CONTEXT "
                                     "string, id int",
    "raw_snapshot_diff": "snapshot_id bigint, " + IMG,
    "raw_debezium_postgres_default": "offset bigint, key string, value string",
    "raw_debezium_postgres_full": "offset bigint, key string, value string",
    "raw_debezium_mysql_minimal": "offset bigint, key string, value string",
    "raw_upsert_feed": "offset bigint, key string, value string",
    "raw_sqlserver_cdc_net": "`__$start_lsn` bigint, `__$operation` int, `__$update_mask` string, " + IMG,
    "raw_bad": "offset bigint, key string, value string",
    "current_rows": IMG,
}


class Harness:
    def __init__(self, spark, project):
        from dbt.cli.main import dbtRunner

        self.spark, self.project, self.runner = spark, project, dbtRunner()
        self.sim = feeds.Sim().run()
        self.results = {}

    def dbt(self, *args):
        return self.runner.invoke([*args, "--project-dir", str(self.project), "--profiles-dir", str(ROOT)])

    def write(self, table, rows, mode):
        """Raw feeds as parquet tables: a capture only reads them, and parquet writes are cheaper
        than Delta commits."""
        from pyspark.sql.types import _parse_datatype_string

        schema = _parse_datatype_string(RAW_SCHEMAS[table])
        data = [tuple(r.get(f.name) for f in schema.fields) for r in rows]
        self.spark.createDataFrame(data, schema).write.format("parquet").mode(mode) \
            .saveAsTable(f"{SCHEMA}.{table}")

    def load_batch(self, b: int):
        sim, mode = self.sim, "overwrite" if b == 0 else "append"
        self.write("raw_audit_columns", feeds.audit_rows(sim, b), "overwrite")
        self.write("raw_log_based", feeds.log_rows(sim, b), mode)
        self.write("raw_log_net_effect", feeds.log_net_rows(sim, b), mode)
        self.write("raw_change_tracking", feeds.change_tracking_rows(sim, b), mode)
        self.write("raw_sqlserver_change_tracking", feeds.sqlserver_ct_rows(sim, b), mode)
        self.write("raw_snapshot_diff", feeds.snapshot_rows(sim, b), mode)
        self.write("current_rows", [feeds.row(k, v) for k, v in sim.truths[b].items()], "overwrite")
        for variant in ("postgres_default", "postgres_full", "mysql_minimal"):
            self.write(f"raw_debezium_{variant}", feeds.debezium_rows(sim, b, variant, 1000 * b), mode)
        self.write("raw_upsert_feed", feeds.upsert_rows(sim, b, 1000 * b), mode)
        self.write("raw_sqlserver_cdc_net", feeds.cdc_net_rows(sim, b), mode)
        self.write("raw_bad", bad.rows(b), mode)
        self.delta_cdf_batch(b)

    def delta_cdf_batch(self, b: int):
        """A real Delta table with the change data feed on, changed by two MERGEs per batch (so a
        key may change in two commits of one batch); raw_delta_cdf is its table_changes()."""
        src = f"{SCHEMA}.cdf_source"
        if b == 0:
            self.spark.sql(f"create or replace table {src} ({IMG}) using delta "
                           "tblproperties (delta.enableChangeDataFeed = true)")
        events = self.sim.events[b]
        state = dict(self.sim.truths[b - 1]) if b > 0 else {}
        for half in (events[: len(events) // 2], events[len(events) // 2:]):
            for e in half:
                if e.op == "del":
                    state.pop(e.id, None)
                else:
                    state[e.id] = e.after
            touched = sorted({e.id for e in half})
            rows = [(k, *(state[k][a] for a in feeds.ATTRS), True) if k in state else (k, None, None, None, None, False)
                    for k in touched]
            self.spark.createDataFrame(rows, IMG + ", present boolean").createOrReplaceTempView("pdelta_cdf_half")
            self.spark.sql(f"""merge into {src} t using pdelta_cdf_half s on t.id = s.id
                when matched and not s.present then delete
                when matched then update set name = s.name, city = s.city, score = s.score, bio = s.bio
                when not matched and s.present then insert (id, name, city, score, bio) """
                           "values (s.id, s.name, s.city, s.score, s.bio)")
        self.spark.sql(f"create or replace table {SCHEMA}.raw_delta_cdf using delta as "
                       f"select * from table_changes('{src}', 0)")

    def rows(self, sql):
        return [tuple(r) for r in self.spark.sql(sql).collect()]

    def rows_of(self, selects: dict[str, str]) -> dict[str, list[tuple]]:
        """The rows of each labelled SELECT (same columns), from one UNION ALL query: one statement
        per kind of table instead of one per table"""
        labels = list(selects)
        sql = "\nunion all\n".join(f"select {i} as part, * from ({q}) as q{i}" for i, q in enumerate(selects.values()))
        out: dict[str, list[tuple]] = {label: [] for label in labels}
        for r in kernel_rows(self.spark, sql):
            out[labels[r[0]]].append(tuple(r[1:]))
        return out

    def snapshot(self, run: int):
        fmts = list(FORMATS) + ["bad"]
        cols = ", ".join(VIEW_COLUMNS)
        mirrors = self.rows_of({f: f"select id, {ATTR_COLS} from {SCHEMA}.{f}_mirror" for f in fmts})
        feeds = self.rows_of({f: f"select id, _pdelta_type, _pdelta_seq from {SCHEMA}.{f}_capture" for f in fmts})
        views = self.rows_of({v: f"select {cols} from {SCHEMA}.{v}" for v in VIEWS})
        recomputed = self.rows_of({v: f"select {cols} from {SCHEMA}.{v}_recomputed" for v in VIEWS})
        self.results[run] = {"mirrors": {f: sorted(rows) for f, rows in mirrors.items()}, "feeds": feeds,
                             "views": {v: sorted(rows, key=repr) for v, rows in views.items()},
                             "recomputed": {v: sorted(rows, key=repr) for v, rows in recomputed.items()}}


def node_status(result):
    return {r.node.name: str(r.status) for r in (result.result or [])}


@pytest.fixture(scope="module")
def h():
    from pdelta.spark import session_from_profile

    work = Path(os.environ.get("PDELTA_CAPTURE_DIR", ROOT / ".pdelta" / "tests" / "capture"))
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    restore = use_local_target(work / "spark", SCHEMA)
    write_project(work / "project", ROOT)
    spark = session_from_profile(ROOT)
    spark.sql(f"create database if not exists {SCHEMA}")
    h = Harness(spark, work / "project")
    assert h.dbt("deps").success
    h.load_batch(0)
    res = h.dbt("run", "--threads", "1")
    h.status1 = node_status(res)
    assert res.success, f"first dbt run failed: {h.status1} {res.exception}"
    h.snapshot(1)
    h.load_batch(1)
    res = h.dbt("run", "--threads", "1")
    h.status2 = node_status(res)
    h.snapshot(2)
    yield h
    restore()


def truth_rows(state: dict) -> list[tuple]:
    return sorted((k, *(v[a] for a in feeds.ATTRS)) for k, v in state.items())


@pytest.mark.spark
@pytest.mark.parametrize("fmt", list(FORMATS))
def test_format_captured_mirrored_and_maintained(h, fmt):
    view = VIEW_OF[fmt]
    for run in (1, 2):
        got = h.results[run]
        assert got["mirrors"][fmt] == truth_rows(h.sim.truths[run - 1]), \
            f"{fmt}: mirror after batch {run} is not the source table"
        assert got["views"][view] == got["recomputed"][view], \
            f"{view} ({fmt}): view after batch {run} differs from its recomputation"
        feed = got["feeds"][fmt]
        assert len({(k, s) for k, _, s in feed}) == len(feed), f"{fmt}: two changes of one key in one batch"
        assert {t for _, t, _ in feed} <= set(FORMAT_SETS[fmt]), f"{fmt}: emitted sets outside its format's"
    assert h.status2[f"{fmt}_capture"] == "success" and h.status2[f"{fmt}_mirror"] == "success"
    # the view really changed between the runs (an incremental refresh, not a no-op)
    assert h.status2[view] == "success"
    assert h.results[1]["views"][view] != h.results[2]["views"][view]
    assert h.results[2]["views"][view], f"{view} is empty: the join and predicates leave nothing to check"


@pytest.mark.spark
def test_every_batch_log_keeps_the_state_its_rows_give(h):
    """Each capture commits like a mirror or a view: its batch log keeps its state in the table
    property `pdelta.state` (its next run, the mirror over its feed and the rebuilt-feed check
    read that instead of scanning the log), and the package's data test finds every kept state
    equal to the one the log's rows give."""
    logs = [r[1] for r in h.spark.sql(f"show tables in {SCHEMA} like '*_capture__pdelta_batches'").collect()]
    assert len(logs) >= len(FORMATS), logs
    for log in logs:
        props = {r[0] for r in h.spark.sql(f"show tblproperties {SCHEMA}.{log}").collect()}
        assert "pdelta.state" in props, f"{log} keeps no state"
    res = h.dbt("test", "--select", "batch_log_state_kept")
    assert res.success and [r.node.name for r in res.result] == ["batch_log_state_kept"], res.exception


def test_formats_are_techniques_the_validator_knows():
    from pdelta.techniques import KNOWN, TECHNIQUES

    for fmt, (tech, records, _) in FORMAT_RECORDS.items():
        assert fmt in KNOWN
        if fmt != tech:  # a format named like a paper technique keeps the technique's sets (docs/capture.md)
            assert TECHNIQUES[fmt] == FORMAT_SETS[fmt]
        # a record is what its technique can give, plus `ups` for Debezium's snapshot reads
        assert set(records) - {"ups"} <= set(TECHNIQUES[tech]), fmt
    # a view relation declared with a format's name is never under-predicted: the flag analysis
    # and the live feed check compose the technique's sets per key, which covers the format's
    from pdelta.flags import technique_sets

    for fmt, sets in FORMAT_SETS.items():
        assert set(sets) <= set(technique_sets(fmt)), fmt
    # composed in one batch: a key-only delete then an insert is an upsert
    assert FORMAT_SETS["change_tracking"] == ("ins", "up", "ups", "delk")
    assert FORMAT_SETS["audit_columns"] == ("ins", "del", "up")  # one row per key and batch
    # the SQL side reads the same table (generated; `pdelta gen-macros --check` keeps it in step)
    assert algebra.as_dict()["capture_formats"]["upsert_feed"] == {
        "technique": "upsert_feed", "records": ["ups", "delk"], "sets": ["ups", "delk"]}


def test_every_format_is_exercised():
    assert set(FORMATS) == set(FORMAT_SETS)
    # every format feeds a dimension view, and the views together receive every one of the six sets
    assert set(VIEW_OF) == set(FORMATS)
    assert set().union(*(FORMAT_SETS[f] for f in VIEW_OF)) == set(algebra.SIX_SETS)


def quarantined(h, model="bad"):
    return h.rows(f"select reason, raw_record, batch_id from {SCHEMA}.{model}_capture__pdelta_quarantine")


@pytest.mark.spark
@pytest.mark.parametrize("reason", list(QUARANTINE_REASONS))
def test_quarantine_reason(h, reason):
    q = quarantined(h)
    expected = [(marker, want) for _, want, marker in bad.BATCH2 if want == reason]
    assert expected, f"no fixture record for {reason}"
    for marker, _ in expected:
        hits = [(rsn, b) for rsn, raw, b in q if marker in (raw or "")]
        assert hits == [(reason, 2)], f"record with {marker!r}: quarantined as {hits}, expected {reason} in batch 2"


@pytest.mark.spark
def test_quarantine_applies_every_good_record_and_loses_nothing_else(h):
    q = quarantined(h)
    assert len(q) == sum(1 for _, want, _ in bad.BATCH2 if want), q
    assert h.results[1]["mirrors"]["bad"] == sorted((k, *v) for k, v in bad.TRUTH1.items())
    assert h.results[2]["mirrors"]["bad"] == sorted((k, *v) for k, v in bad.TRUTH2.items())
    # batch 2's feed: the update of 1 (delivered twice) once, the delete of 2, the insert of 5
    assert sorted((k, t) for k, t, s in h.results[2]["feeds"]["bad"] if s == 2) == [(1, "upd"), (2, "del"), (5, "ins")]


@pytest.mark.spark
def test_quarantine_threshold_fails_the_run_and_leaves_the_batch_uncommitted(h):
    assert h.status1["bad_strict_capture"] == "success"
    assert h.status2["bad_strict_capture"] == "error"
    assert all(s == "success" for n, s in h.status2.items()
               if n not in ("bad_strict_capture", "bad_share_below_capture")), h.status2
    assert h.rows(f"select max(batch_id) from {SCHEMA}.bad_strict_capture__pdelta_batches") == [(1,)]
    assert h.rows(f"select count(*) from {SCHEMA}.bad_strict_capture where _pdelta_seq = 2") == [(0,)]
    assert len(quarantined(h, "bad_strict")) == len(quarantined(h))  # written for inspection


@pytest.mark.spark
def test_quarantine_share_threshold(h):
    """quarantine_max_fraction compares the batch's quarantined share of its records: a threshold
    just below batch 2's share fails the run and leaves the batch uncommitted, one just above
    it commits the batch with its bad records quarantined."""
    assert 0 < BAD_SHARE < 1
    assert h.status1["bad_share_below_capture"] == "success" and h.status1["bad_share_above_capture"] == "success"
    assert h.status2["bad_share_below_capture"] == "error"
    assert h.status2["bad_share_above_capture"] == "success"
    for model, last in (("bad_share_below", 1), ("bad_share_above", 2)):
        assert h.rows(f"select max(batch_id) from {SCHEMA}.{model}_capture__pdelta_batches") == [(last,)], model
        assert len(quarantined(h, model)) == len(quarantined(h)), model
    assert h.rows(f"select count(*) from {SCHEMA}.bad_share_below_capture where _pdelta_seq = 2") == [(0,)]
    assert sorted(h.rows(f"select id, _pdelta_type from {SCHEMA}.bad_share_above_capture where _pdelta_seq = 2")) == \
        [(1, "upd"), (2, "del"), (5, "ins")]


@pytest.mark.spark
def test_rerun_after_a_crash_before_the_commit_neither_loses_nor_duplicates(h):
    feed_sql = f"select * from {SCHEMA}.debezium_postgres_default_capture"
    before = sorted(h.rows(feed_sql), key=repr)
    # the crash: batch 2 written to the feed, its commit (the batch-log row, then the state the log
    # keeps in its table property) never made; without the property the log is read from its rows
    log = f"{SCHEMA}.debezium_postgres_default_capture__pdelta_batches"
    assert "pdelta.state" in {r[0] for r in h.spark.sql(f"show tblproperties {log}").collect()}
    h.spark.sql(f"delete from {log} where batch_id = 2")
    h.spark.sql(f"alter table {log} unset tblproperties ('pdelta.state')")
    res = h.dbt("run", "--select", "debezium_postgres_default_capture")
    assert res.success
    assert sorted(h.rows(feed_sql), key=repr) == before
    assert h.rows(f"select max(batch_id) from {SCHEMA}.debezium_postgres_default_capture__pdelta_batches") == [(2,)]


@pytest.mark.spark
def test_raw_records_behind_the_watermark_stop_the_run_or_are_counted(h):
    """A raw record that lands at a position an earlier batch already consumed is read by no
    batch: late_records: fail (the default) stops the run before writing anything, naming the
    count; late_records: warn commits the next batch and counts it in the batch log, once."""
    log = f"{SCHEMA}.upsert_feed_capture__pdelta_batches"
    before = h.rows(f"select max(batch_id) from {log}")
    late = dict(feeds.upsert_rows(h.sim, 1, 1000)[0], offset=3)   # offset 3 was consumed by batch 1
    new = dict(feeds.upsert_rows(h.sim, 1, 1000)[0], offset=5000)  # and one past the watermark
    h.write("raw_upsert_feed", [late, new], "append")
    res = h.dbt("run", "--select", "upsert_feed_capture", "upsert_late_warn_capture")
    status = node_status(res)
    messages = {r.node.name: str(r.message) for r in res.result}
    assert status["upsert_feed_capture"] == "error", status
    assert ("1 raw record(s)" in messages["upsert_feed_capture"]
            and "--full-refresh" in messages["upsert_feed_capture"]), \
        messages["upsert_feed_capture"]
    assert h.rows(f"select max(batch_id) from {log}") == before   # nothing committed
    assert status["upsert_late_warn_capture"] == "success", status
    counts = h.rows(f"select counts from {SCHEMA}.upsert_late_warn_capture__pdelta_batches "
                    "where `input` = 'raw' order by batch_id")
    assert [json.loads(c[0]).get("behind_watermark") for c in counts] == [0, 0, 1], counts
    # counted once: the next batch finds none behind
    h.write("raw_upsert_feed", [dict(new, offset=5001)], "append")
    assert node_status(h.dbt("run", "--select", "upsert_late_warn_capture"))["upsert_late_warn_capture"] == "success"
    counts = h.rows(f"select counts from {SCHEMA}.upsert_late_warn_capture__pdelta_batches "
                    "where `input` = 'raw' order by batch_id")
    assert json.loads(counts[-1][0])["behind_watermark"] == 0 and len(counts) == 4, counts


# --- the composition table, in Python ----------------------------------------------------------

def apply_one(state, kind, new, old):
    """One canonical change applied to a one-key state (None: absent)."""
    if kind in ("del", "delk"):
        return None
    return new


def compose_events(events):
    """What capture emits for one key's events (kind, new image, old image) of one batch: the
    net type by the shared table, the last new image, the first old image."""
    net = algebra.net_effect([k for k, _, _ in events])
    if net is None:
        return None
    old = next((o for k, _, o in events if k in ("upd", "del")), None) if events[0][0] in ("upd", "del") else None
    return net, events[-1][1], old


def random_events(rng, sets, start_present, n):
    """A truthful event sequence for one key using only `sets` (a format's)."""
    present, row, out = start_present, ("v0" if start_present else None), []
    for i in range(n):
        options = [t for t in sets if {"ins": not present, "del": present, "upd": present, "up": present}.get(t, True)]
        if not options:
            break
        t = rng.choice(options)
        new = None if t in ("del", "delk") else f"v{i + 1}"
        out.append((t, new, row if t in ("upd", "del") else None))
        present, row = new is not None, new
    return out


@pytest.mark.parametrize("fmt", list(FORMAT_SETS))
def test_net_effect_equals_applying_events_one_by_one(fmt):
    rng = random.Random(zlib.crc32(fmt.encode()))
    sets = FORMAT_RECORDS[fmt][1]
    for _ in range(400):
        start_present = rng.random() < 0.5
        events = random_events(rng, sets, start_present, rng.randint(1, 6))
        if not events:
            continue
        state = "v0" if start_present else None
        one_by_one = state
        for kind, new, old in events:
            assert old == one_by_one if kind in ("upd", "del") else True
            one_by_one = apply_one(one_by_one, kind, new, old)
        net = compose_events(events)
        batched = state if net is None else apply_one(state, *net)
        assert batched == one_by_one, (fmt, events, net)
        if net is not None:
            kind, new, old = net
            if not FORMAT_RECORDS[fmt][2]:  # (one record per key and batch: no composition)
                assert kind in FORMAT_SETS[fmt], (fmt, events, kind)
            # the composed change tells the truth about the state before the batch
            if kind == "ins":
                assert state is None
            if kind in ("upd", "del"):
                assert old == state
            if kind in ("up",):
                assert state is not None


def test_composition_table_is_documented():
    doc = (ROOT / "docs" / "capture.md").read_text()
    for first, second, result, ok in algebra.composition_table():
        cell = f"| `{first}` | `{second}` | {('`' + result + '`') if result else 'nothing'} |"
        assert cell in doc, f"docs/capture.md lacks the row {cell}"
