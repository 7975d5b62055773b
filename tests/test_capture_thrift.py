"""Capture over a Spark Thrift Server, as a user runs it: a dbt project that installs pdelta as a
local package, `dbt deps` and `dbt run --target thrift` (tests/test_capture.py covers every
format on the embedded session; this module covers the same path through HiveServer2).

The raw feeds reach the server as files, never as values spliced into SQL: each batch's records
are written as JSON lines into a folder under this module's work dir, over which the test
creates `<schema>.raw_<name>` (`using json location …`; `refresh table` after batch 2's file
lands). The JSON envelopes are therefore parsed by the server. Formats (the generators of
tests/capture/feeds.py and bad.py):

  * `debezium_postgres_default` (up/delk, snapshot reads as ups) and `upsert_feed` (ups/delk),
    each captured and mirrored; one two-relation dimension view `dim` joins the two mirrors on
    the key (root from the Debezium feed, the upsert feed's relation joined to it, a selection
    on each), with `dim_recomputed` (its own SELECT over the mirrors) to compare with;
  * `debezium_postgres_full` over the quarantine fixture (one or two bad records per reason),
    captured only: its feed replayed from empty gives the state the good records make.

Two batches: load batch 1, `dbt run`; load batch 2, `dbt run`. After each run: each mirror is
the simulated source table, the view equals its recomputation (and the view computed in
Python), each capture feed holds one change per key and batch and only its format's sets; after
batch 2 every bad record is quarantined with its reason and every good record applied.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from capture import bad, feeds
from capture.project import capture_decl, capture_sql, mirror_sql, recomputed_sql, view_sql, write_base
from pdelta.live import connect
from pdelta.techniques import FORMAT_SETS, QUARANTINE_REASONS

pytestmark = pytest.mark.spark  # every test here runs Spark (make test-fast leaves them out)

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = "pdelta_capture_thrift_it"
WORK = Path(os.environ.get("PDELTA_CAPTURE_THRIFT_DIR", ROOT / ".pdelta" / "tests" / "capture_thrift"))
DBT = str(Path(sys.executable).with_name("dbt"))
ATTR_COLS = ", ".join(f"`{a}`" for a in feeds.ATTRS)
# capture name -> (format, raw table); every raw table has the Kafka-like shape below
CAPTURES = {
    "debezium_postgres_default": ("debezium_postgres_default", "raw_debezium_postgres_default"),
    "upsert_feed": ("upsert_feed", "raw_upsert_feed"),
    "bad": ("debezium_postgres_full", "raw_bad"),
}
MIRRORED = ["debezium_postgres_default", "upsert_feed"]
RAW_COLUMNS = "`offset` bigint, `key` string, `value` string"
# the two-relation view: the Debezium feed's relation is the root, the upsert feed's joins it
# on the key; each relation selects (score on the root, a non-NULL bio on the joined one)
DIM = {"root": "r", "relations": {
    "r": {"state": "debezium_postgres_default_mirror", "changes": "debezium_postgres_default_capture", "key": ["id"],
          "technique": "debezium_postgres_default", "columns": ["id", "name", "city"], "where": "score >= 10"},
    "u": {"state": "upsert_feed_mirror", "changes": "upsert_feed_capture", "key": ["id"],
          "technique": "upsert_feed", "join": {"to": "r", "on": {"id": "id"}},
          "columns": {"u_score": "score", "u_bio": "bio"}, "where": "bio is not null"},
}}
DIM_COLUMNS = ["id", "name", "city", "u_score", "u_bio"]
# the quarantine fixture's capture enforces a dbt contract on its feed's columns (with var
# capture_contract_break: `name` declared an int, and a build must stop) and grants select
CONTRACT_YML = """version: 2
models:
  - name: bad_capture
    config:
      contract: {enforced: true}
      grants: {select: [analysts]}
    columns:
      - {name: id, data_type: int}
      - {name: name, data_type: "{{ 'int' if var('capture_contract_break', false) else 'string' }}"}
      - {name: city, data_type: string}
      - {name: score, data_type: int}
      - {name: bio, data_type: string}
      - {name: _pdelta_before, data_type: "struct<name: string, city: string, score: int, bio: string>"}
      - {name: _pdelta_type, data_type: string}
      - {name: _pdelta_seq, data_type: bigint}
"""


def raw_rows(sim: feeds.Sim, name: str, b: int) -> list[dict]:
    """Batch b (0-based) of a capture's raw feed."""
    if name == "bad":
        return bad.rows(b)
    if name == "upsert_feed":
        return feeds.upsert_rows(sim, b, 1000 * b)
    return feeds.debezium_rows(sim, b, "postgres_default", 1000 * b)


def expected_dim(truth: dict) -> list[tuple]:
    """The view recomputed in Python from the source table (both mirrors hold it)."""
    return sorted(((k, v["name"], v["city"], v["score"], v["bio"]) for k, v in truth.items()
                   if v["score"] >= 10 and v["bio"] is not None), key=repr)


def write_project(root: Path) -> None:
    models = write_base(root, ROOT, "pdelta_capture_thrift_it", SCHEMA, sorted({raw for _, raw in CAPTURES.values()}))
    for name, (fmt, raw) in CAPTURES.items():
        (models / f"{name}_capture.sql").write_text(capture_sql(capture_decl(name, {"format": fmt, "raw": raw})))
        if name in MIRRORED:
            (models / f"{name}_mirror.sql").write_text(mirror_sql(name, fmt))
    (models / "dim.sql").write_text(view_sql(DIM))
    (models / "dim_recomputed.sql").write_text(recomputed_sql(DIM))
    (models / "_contracts.yml").write_text(CONTRACT_YML)
    # the catalog stand-in for grants (open-source Spark has no GRANT), as a user project's own macros
    (root / "macros").mkdir(exist_ok=True)
    grants_double = ROOT / "integration_tests" / "macros" / "ops" / "grants_double.sql"
    shutil.copy(grants_double, root / "macros" / "grants_double.sql")


class It:
    def __init__(self, work: Path, port: int):
        self.work, self.project, self.raw = work, work / "project", work / "raw"
        self.sim = feeds.Sim().run()
        self.ex = connect(ROOT, "thrift")
        self.env = {**os.environ, "PDELTA_TARGET": "thrift", "PDELTA_SCHEMA": SCHEMA, "DBT_PROFILES_DIR": str(ROOT),
                    "PDELTA_THRIFT_PORT": str(port)}
        self.results: dict[int, dict] = {}
        self.status: dict[int, str] = {}

    def sql(self, s: str) -> list[tuple]:
        return self.ex.rows(s)

    def dbt(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([DBT, *args], cwd=self.project, env=self.env, capture_output=True, text=True)

    def load_batch(self, b: int) -> None:
        """Batch b's records as one JSON-lines file per raw table, in the table's folder."""
        for name, (_, raw) in CAPTURES.items():
            folder = self.raw / raw
            folder.mkdir(parents=True, exist_ok=True)
            tmp = folder / f".batch{b}.json.tmp"  # hidden from Spark's file listing until renamed
            tmp.write_text("".join(json.dumps(r) + "\n" for r in raw_rows(self.sim, name, b)))
            tmp.rename(folder / f"batch{b}.json")
            if b == 0:
                assert "'" not in str(folder) and "\\" not in str(folder), folder
                self.sql(f"create table `{SCHEMA}`.`{raw}` ({RAW_COLUMNS}) using json location '{folder}'")
            else:
                self.sql(f"refresh table `{SCHEMA}`.`{raw}`")
        got = dict(self.sql(" union all ".join(f"select '{raw}', count(*) from `{SCHEMA}`.`{raw}`"
                                                for _, raw in CAPTURES.values())))
        want = {raw: sum(len(raw_rows(self.sim, name, i)) for i in range(b + 1)) for name, (_, raw) in CAPTURES.items()}
        assert got == want, "records the server reads from the raw folders"

    def run(self, b: int) -> None:
        started = time.time()
        # two threads: the captures (and the mirrors) are independent models, refreshed side by
        # side in two sessions of the server, as a user with threads > 1 runs them
        out = self.dbt("run", "--threads", "2")
        assert out.returncode == 0, f"dbt run after batch {b + 1} failed:\n" + out.stdout[-5000:] + out.stderr[-2000:]
        self.status[b] = f"{time.time() - started:.0f}s"
        self.snapshot(b)

    def snapshot(self, b: int) -> None:
        """What the run left, in few queries (each costs a round trip and a Spark job)."""
        def by_first(sql):
            out = {}
            for r in self.sql(sql):
                out.setdefault(r[0], []).append(tuple(r[1:]))
            return out

        mirrors = by_first(" union all ".join(f"select '{n}', id, {ATTR_COLS} from `{SCHEMA}`.`{n}_mirror`"
                                              for n in MIRRORED))
        feed = by_first(" union all ".join(f"select '{n}', id, `_pdelta_type`, `_pdelta_seq`, {ATTR_COLS} "
                                           f"from `{SCHEMA}`.`{n}_capture`" for n in CAPTURES))
        cols = ", ".join(f"`{c}`" for c in DIM_COLUMNS)
        dims = by_first(f"select 'dim', {cols} from `{SCHEMA}`.`dim` union all "
                        f"select 'dim_recomputed', {cols} from `{SCHEMA}`.`dim_recomputed`")
        self.results[b] = {
            "mirrors": {n: sorted(mirrors.get(n, [])) for n in MIRRORED},
            "feeds": {n: [r[:3] for r in feed.get(n, [])] for n in CAPTURES},
            "feed_rows": {n: feed.get(n, []) for n in CAPTURES},
            **{d: sorted(dims.get(d, []), key=repr) for d in ("dim", "dim_recomputed")},
            "dim_log": self.sql(f"select `batch_id`, `mode` from `{SCHEMA}`.`dim__pdelta_batches`"),
        }

    def quarantined(self) -> list[tuple]:
        return self.sql(f"select `reason`, `raw_record`, `batch_id` from `{SCHEMA}`.`bad_capture__pdelta_quarantine`")


@pytest.fixture(scope="module")
def it(thrift_port):
    started = time.time()
    h = It(WORK, thrift_port)
    h.sql(f"drop schema if exists `{SCHEMA}` cascade")
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    h.sql(f"create schema `{SCHEMA}`")
    write_project(h.project)
    out = h.dbt("deps")
    assert out.returncode == 0, out.stdout + out.stderr
    # a plain view where a capture goes (a model that was a dbt `view`): its first build replaces it
    h.sql(f"create view `{SCHEMA}`.`upsert_feed_capture` as select 1 as `occupied`")
    for b in (0, 1):
        h.load_batch(b)
        h.run(b)
    print(f"\n[capture-thrift] deps, two batches loaded and run over the Thrift Server in {time.time() - started:.0f}s "
          f"(dbt run: {', '.join(h.status.values())})")
    yield h
    h.sql(f"drop schema if exists `{SCHEMA}` cascade")
    h.ex.close()
    print(f"\n[capture-thrift] module: {time.time() - started:.0f}s")


def truth_rows(state: dict) -> list[tuple]:
    return sorted((k, *(v[a] for a in feeds.ATTRS)) for k, v in state.items())


@pytest.mark.parametrize("name", ["debezium_postgres_default", "upsert_feed"])
def test_mirror_of_the_capture_is_the_source_table(it, name):
    for b in (0, 1):
        assert it.results[b]["mirrors"][name] == truth_rows(it.sim.truths[b]), \
            f"{name}: mirror after batch {b + 1} is not the source table"


@pytest.mark.parametrize("name", list(CAPTURES))
def test_capture_feed_is_canonical(it, name):
    fmt = CAPTURES[name][0]
    for b in (0, 1):
        feed = it.results[b]["feeds"][name]
        assert len({(k, s) for k, _, s in feed}) == len(feed), f"{name}: two changes of one key in one batch"
        assert {t for _, t, _ in feed} <= set(FORMAT_SETS[fmt]), f"{name}: emitted sets outside {fmt}'s"
        assert {s for _, _, s in feed} == set(range(1, b + 2)), f"{name}: batches in the feed after batch {b + 1}"
    if name != "bad":
        # batch 2 of the scenario composes to every set the format's feed can hold (Debezium:
        # a delete then a re-insert is an ups, an insert then an update an ins)
        assert {t for _, t, s in it.results[1]["feeds"][name] if s == 2} == set(FORMAT_SETS[fmt]), name


def test_two_relation_view_equals_its_recomputation(it):
    for b in (0, 1):
        got = it.results[b]
        assert got["dim"] == got["dim_recomputed"], f"dim after batch {b + 1} differs from its recomputation"
        assert got["dim"] == expected_dim(it.sim.truths[b]), f"dim after batch {b + 1} differs from the truth"
    # the first run built the view, the second refreshed it incrementally, and it changed
    for b, mode in ((0, "full"), (1, "incremental")):
        log = it.results[b]["dim_log"]
        last = max(i for i, _ in log)
        # (a full build first writes a `full-started` row: docs/apply.md)
        assert {m for i, m in log if i == last} - {"full-started"} == {mode}, \
            f"dim's batch log after batch {b + 1}: {log}"
    assert it.results[0]["dim"] != it.results[1]["dim"]


@pytest.mark.parametrize("reason", list(QUARANTINE_REASONS))
def test_quarantine_reason(it, reason):
    q = it.quarantined()
    expected = [marker for _, want, marker in bad.BATCH2 if want == reason]
    assert expected, f"no fixture record for {reason}"
    for marker in expected:
        hits = [(rsn, b) for rsn, raw, b in q if marker in (raw or "")]
        assert hits == [(reason, 2)], f"record with {marker!r}: quarantined as {hits}, expected {reason} in batch 2"


def replay(feed_rows: list[tuple]) -> dict:
    """A capture's feed (id, type, seq, attributes…) applied batch by batch to an empty table,
    each change checked against the state it meets."""
    state = {}
    for k, t, _, *attrs in sorted(feed_rows, key=lambda r: r[2]):
        if t in ("del", "delk"):
            assert state.pop(k, None) is not None or t == "delk", f"{t} of absent key {k}"
        else:
            assert t in ("up", "ups") or (k in state) == (t == "upd"), f"{t} of key {k} (present: {k in state})"
            state[k] = tuple(attrs)
    return state


def test_quarantine_applies_every_good_record_and_loses_nothing_else(it):
    assert len(it.quarantined()) == sum(1 for _, want, _ in bad.BATCH2 if want)
    assert replay(it.results[0]["feed_rows"]["bad"]) == bad.TRUTH1
    assert replay(it.results[1]["feed_rows"]["bad"]) == bad.TRUTH2
    # batch 2's feed: the update of 1 (delivered twice) once, the delete of 2, the insert of 5
    assert sorted((k, t) for k, t, s in it.results[1]["feeds"]["bad"] if s == 2) == [(1, "upd"), (2, "del"), (5, "ins")]


def test_capture_grants_are_applied_once(it):
    """bad_capture's grants reached the catalog (the stand-in table) with its build and stayed
    exactly those through the incremental run after it"""
    rows = it.sql(f"select `Principal`, `ActionType` from `{SCHEMA}`.`pdelta_grants_double` "
                  "where `relation` like '%bad_capture'")
    assert sorted(rows) == [("analysts", "select")], rows


def test_a_broken_contract_stops_a_capture_build(it):
    """The capture's enforced contract passed in both runs of the fixture (the feed has the declared
    columns); declared otherwise, a full build stops before the quarantine, stage or feed is written."""
    def written():
        return it.sql(f"select (select count(*) from `{SCHEMA}`.`bad_capture`), "
                      f"(select count(*) from `{SCHEMA}`.`bad_capture__pdelta_quarantine`), "
                      f"(select max(`batch_id`) from `{SCHEMA}`.`bad_capture__pdelta_batches`)")

    before = written()
    out = it.dbt("run", "--select", "bad_capture", "--full-refresh", "--vars", "{capture_contract_break: true}")
    said = out.stdout + out.stderr
    assert out.returncode != 0, "a capture whose contract declares `name` an int was built"
    assert "This model has an enforced contract that failed" in said and "name" in said, said[-3000:]
    assert written() == before, "the stopped build wrote the feed, its quarantine or its batch log"


def test_a_retyped_capture_column_rebuilds_the_capture_and_its_mirror(it):
    """Last (it changes the project): the upsert feed's `score` declared bigint instead of int, as a
    user widens a column. on_schema_change: fail stops the capture with nothing written; the
    default reads every raw record again, the mirror, seeing its feed's column retyped, rebuilds,
    and the view over both, finding the feed rebuilt by its capture, rebuilds and equals the truth."""
    decl = capture_decl("upsert_feed", {"format": "upsert_feed", "raw": CAPTURES["upsert_feed"][1]})
    decl["columns"] = {**decl["columns"], "score": "bigint"}
    (it.project / "models" / "upsert_feed_capture.sql").write_text(capture_sql(decl))
    feed = f"`{SCHEMA}`.`upsert_feed_capture`"
    typeof_score = f"select distinct typeof(score) from {feed}"

    out = it.dbt("run", "--select", "upsert_feed_capture", "--vars", "{capture_on_schema_change: fail}")
    said = out.stdout + out.stderr
    assert out.returncode != 0, "on_schema_change: fail let a capture with a retyped column run"
    assert "on_schema_change is fail, so nothing was written" in said and "score" in said, said[-3000:]
    assert it.sql(typeof_score) == [("int",)], "the stopped run changed the feed"

    out = it.dbt("run", "--threads", "2")
    said = out.stdout + out.stderr
    assert out.returncode == 0, "dbt run after retyping score failed:\n" + said[-5000:]
    assert ("upsert_feed_capture: its declaration changed since its feed was built "
            "(column score int -> bigint)") in said, \
        said[-5000:]
    assert "upsert_feed_mirror: its feed changed since the mirror was built (column score int -> bigint)" in said, \
        said[-5000:]
    # the view finds the rows it consumed of that feed rewritten by the capture's rebuild: it
    # rebuilds instead of stopping on the feed contract
    assert "(pdelta_capture_thrift_it.upsert_feed_capture) was rebuilt in full by its capture" in said, said[-5000:]
    assert it.sql(typeof_score) == [("bigint",)]
    assert it.sql(f"select distinct typeof(score) from `{SCHEMA}`.`upsert_feed_mirror`") == [("bigint",)]
    it.snapshot(2)
    assert it.results[2]["mirrors"]["upsert_feed"] == truth_rows(it.sim.truths[1]), \
        "the rebuilt mirror is not the source"
    assert it.results[2]["dim"] == it.results[2]["dim_recomputed"] == expected_dim(it.sim.truths[1])
    log = it.results[2]["dim_log"]
    assert {m for i, m in log if i == max(i for i, _ in log)} - {"full-started"} == {"full"}, log
