"""A consistent cut across the feeds of one source (issue #20, item 2; macros/engine/cut_sources.sql).

One transactional source (a shop's database) with two tables, customers and addresses, each
replicated into a Delta change feed that carries each row's source commit time; the address feed
lags the customer feed. Two mirrors per table and a dimension view over each pair (customer joined
to its address), in one dbt project on the embedded session:
  - `m_c`, `m_a`, `v`: the mirrors declare `source_time` (one source, `shop`), so each run cuts both
    feeds at the smallest of their newest source times (the project's on-run-start hook);
  - `p_c`, `p_a`, `v_plain`: the same without it, each feed consumed to its end (the control).
Steps: a build; a transaction that moves a customer to a new address, whose address row has not
arrived: `v` still shows the source before the transaction, `v_plain` shows the customer joined to
nothing (gone: a state the source was never in); the address row arrives with a later change of
another customer: `v` shows the source at the transaction; a run that refreshes only one mirror and
the view: the view waits (its mirrors were cut at two times), writing nothing; a full run catches up;
the quiet address feed holds the cut back (`pdelta explain` says by how much; past pdelta_max_cut_lag the
mirrors stop, naming it) until its sink writes a heartbeat; a feed joining the source with older rows moves
the cut back below what the mirrors consumed, and they stop; feed rows whose sequence and source time disagree
in order stop their mirror.
After every run each view is compared with the recomputation from the source's history at the
cut. The project sets pdelta_feed_history_rows to 0, so that the tiny feeds are cut as a large feed is: from the
third run on, each cut reads only the rows past its feed's last bound (the first reads every row, the second
every row as of a Delta commit it keeps); a feed joining the group, or a consumed feed row rewritten (its source
time taken away: only a cut that reads every row sees it), makes the next cut read every row again."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from contract.delta_project import parsed_runner
from pdelta.cli import explain_next_refresh
from pdelta_env import use_local_target
from user_project import write_user_project

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = "pdelta_source_cut"
SOURCE = "shop"
FEED_TYPES = {"c": "cid int, name string, aid int, _pdelta_before struct<name: string, aid: int>, "
                   "_pdelta_type string, _pdelta_seq bigint, _pdelta_source_time bigint",
              "a": "aid int, city string, _pdelta_before struct<city: string>, _pdelta_type string, "
                   "_pdelta_seq bigint, _pdelta_source_time bigint"}
KEY = {"c": "cid", "a": "aid"}
ATTRS = {"c": ("name", "aid"), "a": ("city",)}


class Source:
    """the source database: its tables, the history of its states by commit time, and the feed rows
    each commit produced, which reach their feeds when the test delivers them"""

    def __init__(self) -> None:
        self.tables: dict[str, dict[int, dict]] = {"c": {}, "a": {}}
        self.history: list[tuple[int, dict, dict]] = [(0, {}, {})]
        self.time = 0
        self.seq = {"c": 0, "a": 0}
        self.undelivered: dict[str, list[dict]] = {"c": [], "a": []}

    def commit(self, *changes: tuple[str, dict]) -> int:
        """one source transaction: each change (table, full row) inserts or updates that row, or deletes it when
        the row says `_deleted`"""
        self.time += 1
        for rel, row in changes:
            key = row[KEY[rel]]
            before = self.tables[rel].get(key)
            deleted = row.pop("_deleted", False)  # a delete (only the Debezium topics carry them)
            if deleted:
                del self.tables[rel][key]
            else:
                self.tables[rel][key] = dict(row)
            self.undelivered[rel].append({"row": dict(row), "type": "del" if deleted else "ins" if before is None
                                          else "upd",
                                          "before": None if before is None else {a: before[a] for a in ATTRS[rel]},
                                          "time": self.time})
        self.history.append((self.time, {k: dict(v) for k, v in self.tables["c"].items()},
                             {k: dict(v) for k, v in self.tables["a"].items()}))
        return self.time

    def deliver(self, spark, rel: str) -> None:
        """the table's undelivered feed rows, appended to its feed in commit order (a blind append)"""
        rows = []
        for change in self.undelivered[rel]:
            self.seq[rel] += 1
            row, before = change["row"], change["before"]
            image = tuple(row[c] for c in (KEY[rel], *ATTRS[rel]))
            rows.append(image + (None if before is None else tuple(before[a] for a in ATTRS[rel]),
                                 change["type"], self.seq[rel], change["time"]))
        self.undelivered[rel] = []
        if rows:
            spark.createDataFrame(rows, FEED_TYPES[rel]).write.format("delta").mode("append") \
                .saveAsTable(f"{SCHEMA}.feed_{rel}")

    def view_at(self, time: int) -> list[tuple]:
        """the view of the source's state at commit time `time`: each customer joined to its address"""
        _, customers, addresses = [h for h in self.history if h[0] <= time][-1]
        return sorted((c["cid"], c["name"], c["aid"], addresses[c["aid"]]["city"])
                      for c in customers.values() if c["aid"] in addresses)

    def views(self) -> list[list[tuple]]:
        return [self.view_at(h[0]) for h in self.history]


def mirror_sql(rel: str, cut: bool) -> str:
    declared = {"changes": ["sc", f"feed_{rel}"], "key": [KEY[rel]], "technique": "log_based",
                **({"source_time": "_pdelta_source_time", "source": SOURCE} if cut else {}),
                # the address feed's sink writes heartbeats: it holds every row up to their source time
                **({"heartbeats": ["sc", "heartbeats_a"]} if cut and rel == "a" else {})}
    return mirror_model(declared)


def mirror_model(declared: dict) -> str:
    """a mirror model's SQL file for its declaration"""
    return ("{%- set m = " + json.dumps(declared) + " -%}\n"
            "{{ config(materialized='mirror', pdelta_mirror=m) }}\n{{ pdelta.mirror(m) }}\n")


def view_sql(c_state: str, a_state: str) -> str:
    declared = {"root": "c", "relations": {
        "c": {"state": c_state, "changes": ["sc", "feed_c"], "key": ["cid"], "technique": "log_based",
              "columns": ["cid", "name", "aid"]},
        "a": {"state": a_state, "changes": ["sc", "feed_a"], "key": ["aid"], "technique": "log_based",
              "join": {"to": "c", "on": {"aid": "aid"}}, "columns": ["city"]}}}
    return ("{%- set v = " + json.dumps(declared) + " -%}\n"
            "{{ config(materialized='dimension_view', pdelta=v) }}\n{{ pdelta.dimension_view(v) }}\n")


def cut_project(root: Path, name: str) -> Path:
    """a user project `name` with the cut hook, whose cuts read only what is new however small the feeds, and Delta
    models; returns its models folder"""
    write_user_project(root, name)
    with (root / "dbt_project.yml").open("a") as f:
        f.write("on-run-start: [\"{{ pdelta.cut_sources() }}\"]\n"
                "vars:\n  pdelta_feed_history_rows: 0\n"
                f"models:\n  {name}:\n    +file_format: delta\n")
    models = root / "models"
    models.mkdir()
    return models


def write_project(root: Path) -> None:
    models = cut_project(root, "pdelta_source_cut_it")
    keys = "".join(f"  - name: {name}\n    columns: [{{name: {key}, data_tests: [unique, not_null]}}]\n"
                   for name, key in (("m_c", "cid"), ("m_a", "aid"), ("p_c", "cid"), ("p_a", "aid")))
    (models / "schema.yml").write_text(
        f"version: 2\nsources:\n  - name: sc\n    schema: {SCHEMA}\n    tables:\n"
        "      - name: feed_c\n      - name: feed_a\n      - name: heartbeats_a\n      - name: feed_x\n"
        "models:\n" + keys)
    for rel in ("c", "a"):
        (models / f"m_{rel}.sql").write_text(mirror_sql(rel, cut=True))
        (models / f"p_{rel}.sql").write_text(mirror_sql(rel, cut=False))
    (models / "v.sql").write_text(view_sql("m_c", "m_a"))
    (models / "v_plain.sql").write_text(view_sql("p_c", "p_a"))


@pytest.mark.spark
def test_feeds_of_one_source_cut_at_one_source_time(tmp_path):
    from pdelta.spark import session_from_profile

    restore = use_local_target(tmp_path / "spark", SCHEMA)
    project = tmp_path / "project"
    write_project(project)
    spark = session_from_profile(ROOT)
    spark.sql(f"drop database if exists {SCHEMA} cascade")
    spark.sql(f"create database {SCHEMA}")
    for rel in ("c", "a"):
        spark.sql(f"create table {SCHEMA}.feed_{rel} ({FEED_TYPES[rel]}) using delta")
    spark.sql(f"create table {SCHEMA}.heartbeats_a (_pdelta_source_time bigint) using delta")
    # the cuts table as an earlier pdelta made it, without the columns the next run's cut starts from: the hook
    # adds them
    spark.sql(f"create table {SCHEMA}.pdelta_cuts (invocation_id string, source string, feed string, w string, "
              "t string, bound bigint, null_time bigint, disorder bigint, lag double, held_by string, "
              "cut_at timestamp) using delta")
    notes: list[str] = []

    def on_event(msg) -> None:
        if msg.info.name == "JinjaLogInfo":
            notes.append(msg.info.msg)

    def dbt_run(*select: str, variables: dict | None = None) -> dict[str, tuple[str, str]]:
        notes.clear()
        args = ["run", "--project-dir", str(project), "--profiles-dir", str(ROOT)]
        args += ["--vars", json.dumps(variables)] if variables else []
        res = runner.invoke(args + (["--select", *select] if select else []))
        assert res.result is not None, res.exception
        return {r.node.name: (str(r.status), str(r.message or "")) for r in res.result}

    def rows(model: str) -> list[tuple]:
        return sorted(tuple(r) for r in spark.sql(f"select cid, name, aid, city from {SCHEMA}.{model}").collect())

    def batches(model: str) -> int:
        return spark.sql(f"select count(distinct batch_id) from {SCHEMA}.{model}__pdelta_batches").collect()[0][0]

    def cut_of_last_run() -> int:
        found = spark.sql(f"select t from {SCHEMA}.pdelta_cuts order by cut_at desc limit 1").collect()
        return int(found[0][0])

    def reads_of_last_run() -> set[str]:
        """how the last run's cut read the group's feeds: `full`, or `past the bound` (its rows past the last cut)"""
        return {r[0] for r in spark.sql(f"select feed_read from {SCHEMA}.pdelta_cuts where cut_at = "
                                        f"(select max(cut_at) from {SCHEMA}.pdelta_cuts)").collect()}

    try:
        runner, manifest = parsed_runner(project, ROOT, [on_event])
        shop = Source()
        names = ["Ann", "Bob", "Cem", "Dan"]
        shop.commit(*[("a", {"aid": aid, "city": city}) for aid, city in ((1, "Aachen"), (2, "Berlin"), (3, "Celle"))],
                    *[("c", {"cid": i + 1, "name": n, "aid": (1, 1, 2, 3)[i]}) for i, n in enumerate(names)])
        for rel in ("c", "a"):
            shop.deliver(spark, rel)
        statuses = dbt_run()
        assert all(s == "success" for s, _ in statuses.values()), statuses
        assert cut_of_last_run() == 1 and reads_of_last_run() == {"full"}
        # the hook added the columns to the earlier table, and Delta compacts its small files as it grows
        properties = dict(tuple(r) for r in spark.sql(f"show tblproperties {SCHEMA}.pdelta_cuts").collect())
        assert properties.get("delta.autoOptimize.autoCompact") == "true", properties
        assert rows("v") == rows("v_plain") == shop.view_at(1)

        # Ann moves to a new address in one transaction; the customer feed has it, the address feed not yet
        moved = shop.commit(("a", {"aid": 7, "city": "Bonn"}), ("c", {"cid": 1, "name": "Ann", "aid": 7}))
        shop.deliver(spark, "c")
        statuses = dbt_run()
        assert all(s == "success" for s, _ in statuses.values()), statuses
        assert cut_of_last_run() == moved - 1  # the address feed holds rows up to the build's time only
        assert reads_of_last_run() == {"full"}  # the first cut kept no Delta commit to read the history from
        assert rows("v") == shop.view_at(moved - 1), "the cut view shows the source before the transaction"
        # the control consumed Ann's move without her address: she is gone, a state the source was never in
        assert rows("v_plain") not in shop.views() and 1 not in {r[0] for r in rows("v_plain")}, rows("v_plain")

        # the address row arrives, with a later change of Bob in the customer feed: cut at the move
        renamed = shop.commit(("c", {"cid": 2, "name": "Bob+", "aid": 1}))
        for rel in ("c", "a"):
            shop.deliver(spark, rel)
        statuses = dbt_run()
        assert all(s == "success" for s, _ in statuses.values()), statuses
        assert cut_of_last_run() == moved and reads_of_last_run() == {"past the bound"}
        assert rows("v") == shop.view_at(moved), "Ann in Bonn, Bob's rename (past the cut) not yet"
        assert rows("v_plain") == shop.view_at(renamed)

        # an address changes; a run refreshes one mirror and the view: the view's mirrors stand at two cuts
        later = shop.commit(("a", {"aid": 2, "city": "Bremen"}))
        shop.deliver(spark, "a")
        before = batches("v")
        statuses = dbt_run("m_a", "v")
        assert statuses["v"][0] == "success", statuses
        assert cut_of_last_run() == renamed
        assert any("waiting, nothing written" in n and "cut at different source times" in n for n in notes), notes
        assert batches("v") == before and rows("v") == shop.view_at(moved)
        # `pdelta explain` says so beforehand, with the cut each mirror stands at
        info = explain_next_refresh(project, ROOT, "local", "v", manifest=manifest)
        assert any("cut at different source times" in w for w in info["waits"]), info["waits"]
        assert {a: (r["cut"] or {}).get("t") for a, r in info["inputs"].items()} == {"c": str(moved),
                                                                                     "a": str(renamed)}, info
        # a run of everything cuts both at the rename (the customer feed's newest) and catches up
        statuses = dbt_run()
        assert all(s == "success" for s, _ in statuses.values()), statuses
        assert cut_of_last_run() == renamed
        assert rows("v") == shop.view_at(renamed) and batches("v") == before + 1
        assert rows("v_plain") == shop.view_at(later)

        # Cem is renamed; the address feed stays quiet: it holds the cut at Bremen's time ...
        quiet = shop.commit(("c", {"cid": 3, "name": "Cem+", "aid": 2}))
        shop.deliver(spark, "c")
        statuses = dbt_run()
        assert all(s == "success" for s, _ in statuses.values()), statuses
        assert cut_of_last_run() == later and rows("v") == shop.view_at(later)
        # `pdelta explain` says how far the cut trails and which feed holds it back
        cuts = explain_next_refresh(project, ROOT, "local", "v", manifest=manifest)["source_cuts"]
        assert cuts == {SOURCE: {"t": str(later), "lag": quiet - later, "held_by": f"{SCHEMA}.feed_a", "feeds": {
            f"{SCHEMA}.feed_a": {"w": str(later), "bound": shop.seq["a"], "read": "past the bound", "unit": "sequence"},
            f"{SCHEMA}.feed_c": {"w": str(quiet), "bound": shop.seq["c"] - 1, "read": "past the bound",
                                 "unit": "sequence"}}}}, cuts
        # a cut that trails the newest source time (the rename's) by more than pdelta_max_cut_lag stops the
        # mirrors, naming the feed that holds it back; a lag within it does not
        statuses = dbt_run("m_c", "m_a", variables={"pdelta_max_cut_lag": 0.5})
        assert all(statuses[m][0] == "error" and f"feed {SCHEMA}.feed_a holds it back" in statuses[m][1]
                   for m in ("m_c", "m_a")), statuses
        statuses = dbt_run("m_c", "m_a", variables={"pdelta_max_cut_lag": quiet - later})
        assert all(s == "success" for s, _ in statuses.values()), statuses
        # ... until its sink writes a heartbeat: it holds every address row up to the rename's time
        spark.createDataFrame([(quiet,)], "_pdelta_source_time bigint").write.format("delta").mode("append") \
            .saveAsTable(f"{SCHEMA}.heartbeats_a")
        statuses = dbt_run()
        assert all(s == "success" for s, _ in statuses.values()), statuses
        assert cut_of_last_run() == quiet and rows("v") == shop.view_at(quiet) == rows("v_plain")
        assert reads_of_last_run() == {"past the bound"}  # the heartbeat moved the cut; the feeds were appended to

        # a feed joins the source group with a row older than the cut the mirrors stand at: the group's cut moves
        # back below what m_c and m_a consumed, and they stop rather than record that they stand at it
        spark.sql(f"create table {SCHEMA}.feed_x (xid int, note string, _pdelta_before struct<note: string>, "
                  "_pdelta_type string, _pdelta_seq bigint, _pdelta_source_time bigint) using delta")
        spark.sql(f"insert into {SCHEMA}.feed_x values (1, 'x', null, 'ins', 1, 1)")
        joined = {"changes": ["sc", "feed_x"], "key": ["xid"], "technique": "log_based",
                  "source_time": "_pdelta_source_time", "source": SOURCE}
        (project / "models" / "m_x.sql").write_text(mirror_model(joined))
        runner, manifest = parsed_runner(project, ROOT, [on_event])
        consumed = {m: batches(m) for m in ("m_c", "m_a")}
        statuses = dbt_run("m_c", "m_a", "m_x")
        assert cut_of_last_run() == 1 and statuses["m_x"][0] == "success", statuses
        assert reads_of_last_run() == {"full"}  # another group of feeds than the last cut's
        assert all(statuses[m][0] == "error" and "the cut moved back" in statuses[m][1]
                   and batches(m) == consumed[m] for m in ("m_c", "m_a")), statuses
        # without it the cut is where it was, and every model runs
        (project / "models" / "m_x.sql").unlink()
        runner, manifest = parsed_runner(project, ROOT, [on_event])
        statuses = dbt_run()
        assert all(s == "success" for s, _ in statuses.values()), statuses
        assert cut_of_last_run() == quiet and rows("v") == shop.view_at(quiet) and reads_of_last_run() == {"full"}

        # a consumed customer row loses its source time (a rewrite, not an append): the cut after it reads every
        # row and sees it, so m_c stops; once it is back, every model runs, and the cut after that reads only what
        # is past the bounds again
        spark.sql(f"update {SCHEMA}.feed_c set _pdelta_source_time = null where _pdelta_seq = 1")
        statuses = dbt_run("m_c")
        assert statuses["m_c"][0] == "error" and "feed-source-time-null: 1 row(s)" in statuses["m_c"][1], statuses
        assert reads_of_last_run() == {"full"}
        spark.sql(f"update {SCHEMA}.feed_c set _pdelta_source_time = 1 where _pdelta_seq = 1")
        statuses = dbt_run()
        assert all(s == "success" for s, _ in statuses.values()), statuses
        assert cut_of_last_run() == quiet and rows("v") == shop.view_at(quiet) and reads_of_last_run() == {"full"}

        # two address rows whose feed order disagrees with the source's (the first committed after the
        # second, and after the customer feed's newest): the cut falls between them, so its mirror stops
        # and nothing of it is consumed
        rows_out_of_order = []
        for aid, city, before, time in ((3, "Cottbus", "Celle", quiet + 2), (1, "Aix", "Aachen", quiet)):
            shop.seq["a"] += 1
            rows_out_of_order.append((aid, city, (before,), "upd", shop.seq["a"], time))
        spark.createDataFrame(rows_out_of_order, FEED_TYPES["a"]).write.format("delta").mode("append") \
            .saveAsTable(f"{SCHEMA}.feed_a")
        consumed = batches("m_a")
        statuses = dbt_run("m_a")
        assert statuses["m_a"][0] == "error" and "feed-source-time-order: 1 row(s)" in statuses["m_a"][1], statuses
        assert reads_of_last_run() == {"past the bound"}
        assert batches("m_a") == consumed
    finally:
        restore()


# --- captures cut by source time --------------------------------------------------------------------------------

CAPTURE_SCHEMA = "pdelta_capture_cut"
CAPTURE_COLUMNS = {"c": {"cid": "int", "name": "string", "aid": "int"}, "a": {"aid": "int", "city": "string"}}


def debezium_events(shop: Source, rel: str, offset: int) -> list[tuple]:
    """the table's undelivered changes as Debezium events (PostgreSQL, REPLICA IDENTITY FULL) on its topic, from
    Kafka offset `offset` on: `source.ts_ms` is the source commit time (`source.lsn`, which orders a batch's events,
    grows with it), every other event is wrapped in {schema,
    payload}, and a delete is followed by its tombstone (a record without a value)"""
    rows = []
    for i, change in enumerate(shop.undelivered[rel]):
        row, before = change["row"], change["before"]
        op = {"ins": "c", "upd": "u", "del": "d"}[change["type"]]
        old = None if before is None else {KEY[rel]: row[KEY[rel]], **before}
        payload = {"before": old, "after": None if op == "d" else row, "op": op, "ts_ms": change["time"] * 1000 + 7,
                   "source": {"connector": "postgresql", "name": "shop", "ts_ms": change["time"], "table": rel,
                              "lsn": 1000 * change["time"] + i}}
        value = json.dumps({"schema": {"type": "struct"}, "payload": payload} if i % 2 else payload)
        rows.append((offset, json.dumps({KEY[rel]: row[KEY[rel]]}), value))
        offset += 1
        if op == "d":
            rows.append((offset, json.dumps({KEY[rel]: row[KEY[rel]]}), None))
            offset += 1
    shop.undelivered[rel] = []
    return rows


def capture_project(root: Path) -> None:
    """captures `cap_c`, `cap_a` of the two topics, cut by Debezium's source.ts_ms at one source time (source `shop`);
    mirrors `mc_c`, `mc_a` of their feeds; the view `vc` over the mirrors"""
    models = cut_project(root, "pdelta_capture_cut_it")
    (models / "schema.yml").write_text(
        f"version: 2\nsources:\n  - name: topics\n    schema: {CAPTURE_SCHEMA}\n    tables:\n"
        "      - name: raw_c\n      - name: raw_a\n      - name: heartbeats_a\n")
    for rel in ("c", "a"):
        captured = {"raw": ["topics", f"raw_{rel}"], "format": "debezium_postgres_full", "key": [KEY[rel]],
                    "columns": CAPTURE_COLUMNS[rel], "source_time": "$.source.ts_ms", "source": SOURCE,
                    # the address topic's connector writes heartbeat messages ({"ts_ms": ...}) to a topic of their own
                    **({"heartbeats": ["topics", "heartbeats_a"]} if rel == "a" else {})}
        (models / f"cap_{rel}.sql").write_text(
            "{%- set c = " + json.dumps(captured) + " -%}\n"
            "{{ config(materialized='capture', pdelta_capture=c) }}\n{{ pdelta.capture(c) }}\n")
        (models / f"mc_{rel}.sql").write_text(mirror_model({"changes": f"cap_{rel}", "key": [KEY[rel]],
                                                            "technique": "debezium_postgres_full"}))
    declared = {"root": "c", "relations": {
        "c": {"state": "mc_c", "changes": "cap_c", "key": ["cid"], "technique": "debezium_postgres_full",
              "columns": ["cid", "name", "aid"]},
        "a": {"state": "mc_a", "changes": "cap_a", "key": ["aid"], "technique": "debezium_postgres_full",
              "join": {"to": "c", "on": {"aid": "aid"}}, "columns": ["city"]}}}
    (models / "vc.sql").write_text("{%- set v = " + json.dumps(declared) + " -%}\n"
                                   "{{ config(materialized='dimension_view', pdelta=v) }}\n"
                                   "{{ pdelta.dimension_view(v) }}\n")


@pytest.mark.spark
def test_captures_of_one_source_cut_at_one_source_time(tmp_path):
    """Debezium topics of one source, captured by pdelta with `source_time: $.source.ts_ms`: each run's hook cuts the
    raw topics at one source time, each capture's batch ends at it, the mirrors of the capture feeds stand at it, and
    the view over them shows a state the source was in; the quiet address topic holds the cut back until a
    heartbeat message moves it. Without the cut (each capture reading its topic to the end)
    the view would show Ann, whose new address has not arrived, as gone, which the first comparison catches."""
    from pdelta.spark import session_from_profile

    restore = use_local_target(tmp_path / "spark", CAPTURE_SCHEMA)
    project = tmp_path / "project"
    capture_project(project)
    spark = session_from_profile(ROOT)
    spark.sql(f"drop database if exists {CAPTURE_SCHEMA} cascade")
    spark.sql(f"create database {CAPTURE_SCHEMA}")
    for topic in ("raw_c", "raw_a", "heartbeats_a"):
        spark.sql(f"create table {CAPTURE_SCHEMA}.{topic} (offset bigint, key string, value string) using delta")
    notes: list[str] = []
    offsets = {"c": 0, "a": 0}

    def on_event(msg) -> None:
        if msg.info.name == "JinjaLogInfo":
            notes.append(msg.info.msg)

    def deliver(rel: str) -> None:
        rows = debezium_events(shop, rel, offsets[rel])
        offsets[rel] += len(rows)
        spark.createDataFrame(rows, "offset bigint, key string, value string").write.format("delta") \
            .mode("append").saveAsTable(f"{CAPTURE_SCHEMA}.raw_{rel}")

    def dbt_run(*select: str) -> dict[str, tuple[str, str]]:
        notes.clear()
        res = runner.invoke(["run", "--project-dir", str(project), "--profiles-dir", str(ROOT)]
                            + (["--select", *select] if select else []))
        assert res.result is not None, res.exception
        return {r.node.name: (str(r.status), str(r.message or "")) for r in res.result}

    def view_rows() -> list[tuple]:
        return sorted(tuple(r) for r in spark.sql(f"select cid, name, aid, city from {CAPTURE_SCHEMA}.vc").collect())

    def last_cut() -> tuple[int, dict[str, str]]:
        """the last run's cut T and how it read each topic"""
        found = spark.sql(f"select t, feed, feed_read from {CAPTURE_SCHEMA}.pdelta_cuts where cut_at = "
                          f"(select max(cut_at) from {CAPTURE_SCHEMA}.pdelta_cuts)").collect()
        assert len({r[0] for r in found}) == 1, found
        return int(found[0][0]), {r[1]: r[2] for r in found}

    def captured(rel: str) -> list[tuple]:
        return sorted(tuple(r) for r in spark.sql(f"select * from {CAPTURE_SCHEMA}.cap_{rel}").collect())

    def succeeded(statuses: dict) -> bool:
        return all(s == "success" for s, _ in statuses.values())

    try:
        runner, _ = parsed_runner(project, ROOT, [on_event])
        shop = Source()
        shop.commit(*[("a", {"aid": aid, "city": city}) for aid, city in ((1, "Aachen"), (2, "Berlin"), (3, "Celle"))],
                    *[("c", {"cid": i + 1, "name": n, "aid": (1, 1, 2, 3)[i]})
                      for i, n in enumerate(["Ann", "Bob", "Cem", "Dan"])])
        deliver("c")
        deliver("a")
        statuses = dbt_run()
        assert succeeded(statuses), statuses
        topics = {f"{CAPTURE_SCHEMA}.raw_c", f"{CAPTURE_SCHEMA}.raw_a"}
        assert last_cut() == (1, {t: "full" for t in topics})
        assert view_rows() == shop.view_at(1)
        # `pdelta explain` names what the topics were cut at: a position of their raw records, not a sequence
        cuts = explain_next_refresh(project, ROOT, "local", "vc")["source_cuts"]
        units = {feed: seen["unit"] for feed, seen in cuts[SOURCE]["feeds"].items()}
        assert units == {t: "position" for t in topics}, cuts

        # Ann moves to a new address in one transaction; the customer topic has it, the address topic not yet: the
        # customer capture's batch ends before it (its raw record is there to read), and the view shows the source
        # before the transaction
        moved = shop.commit(("a", {"aid": 7, "city": "Bonn"}), ("c", {"cid": 1, "name": "Ann", "aid": 7}))
        deliver("c")
        feed_before = captured("c")
        statuses = dbt_run()
        assert succeeded(statuses), statuses
        assert last_cut()[0] == moved - 1
        assert view_rows() == shop.view_at(moved - 1), "the cut view shows the source before the transaction"
        assert captured("c") == feed_before, "the customer capture read past the cut"
        assert any("cap_c: its raw records cut at source time 1" in n for n in notes), notes

        # the address arrives; Bob is renamed and Dan deleted after it (a delete and its tombstone): cut at the move
        renamed = shop.commit(("c", {"cid": 2, "name": "Bob+", "aid": 1}))
        deleted = shop.commit(("c", {"cid": 4, "name": "Dan", "aid": 3, "_deleted": True}))
        deliver("c")
        deliver("a")
        statuses = dbt_run()
        assert succeeded(statuses), statuses
        assert last_cut() == (moved, {t: "past the bound" for t in topics})
        assert view_rows() == shop.view_at(moved), "Ann in Bonn; Bob's rename and Dan's delete past the cut"

        # an address changes after the delete: the customer topic's newest (the delete) is the cut
        later = shop.commit(("a", {"aid": 2, "city": "Bremen"}))
        deliver("a")
        statuses = dbt_run()
        assert succeeded(statuses), statuses
        assert last_cut()[0] == deleted > renamed and view_rows() == shop.view_at(deleted)

        # a run of the address capture, its mirror and the view: the mirrors stand at two cuts, so the view waits
        # and writes nothing; a run of everything catches up
        quiet = shop.commit(("c", {"cid": 3, "name": "Cem+", "aid": 2}))
        deliver("c")
        statuses = dbt_run("cap_a", "mc_a", "vc")
        assert succeeded(statuses) and last_cut()[0] == later, statuses
        assert any("waiting, nothing written" in n and "cut at different source times" in n for n in notes), notes
        assert view_rows() == shop.view_at(deleted)
        statuses = dbt_run()
        assert succeeded(statuses), statuses
        assert last_cut()[0] == later < quiet and view_rows() == shop.view_at(later)

        # the quiet address topic holds the cut at Bremen's time until its connector's heartbeat (a bare message and
        # one wrapped in {schema, payload}) says it holds every change up to Cem's rename
        beats = [(0, '{"serverName": "shop"}', json.dumps({"ts_ms": later})),
                 (1, '{"serverName": "shop"}', json.dumps({"schema": {"type": "struct"}, "payload": {"ts_ms": quiet}}))]
        spark.createDataFrame(beats, "offset bigint, key string, value string").write.format("delta") \
            .mode("append").saveAsTable(f"{CAPTURE_SCHEMA}.heartbeats_a")
        statuses = dbt_run()
        assert succeeded(statuses), statuses
        assert last_cut()[0] == quiet and view_rows() == shop.view_at(quiet)
    finally:
        restore()
