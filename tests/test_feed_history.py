"""A user's Delta feed read through its history (macros/engine/feed_history.sql, feed_scans): when
every commit since the version the last refresh read only appended rows, the scan that freezes
the feeds reads the pending rows in full and only the sequences of the rows consumed before,
taking their count and hash sum from the batch log, so a refresh no longer costs the feed's age.

One dbt project (the feed contract's two-relation view, diff plan, and a mirror of c's feed) over
Delta feeds the test appends to as a replicating tool would (blind appends), with
`pdelta_feed_history_rows: 0` so that the tiny feeds take the path a 100,000-row feed takes:
  1. the full build, then a valid step: refreshed through the history (the scan reads the feed
     at the version `describe history` gave and only the pending rows in full), as `pdelta
     explain` said beforehand; both models equal full recomputation;
  2. a row appended below the consumed sequence (blind, so still through the history): every
     model stops on feed-seq-behind and commits nothing; the row deleted (not an append): the
     scan reads the whole feed again, and the refresh applies the next step;
  3. the feed dropped and created again with one consumed row changed, appended to until its
     versions pass the recorded one: the recorded commit's time differs, so the scan reads the
     whole feed and every model stops on feed-rewritten (blind appends alone would have hidden it).
Between 2 and 3, a rebuild the cost model chose (it hashes no feed row; its position says which
rows it left unhashed), refreshes after it, a row only it covered edited in place (the view
refreshes, the mirror stops) and a row a refresh applied after it edited in place (both stop).
"""
from __future__ import annotations

import json
import random
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from contract.delta_project import (FEED_COLUMNS, RELS, append_feed_rows, create_feeds, parsed_runner, publish_states,
                                    write_project)
from contract.mutations import World
from contract.project import feed_name, mirror_model, mirror_sql, view_model, view_sql
from pdelta.cli import explain_next_refresh
from pdelta.statements import statement_text
from pdelta_env import use_local_target

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = "pdelta_feed_history"
CASE = "hist"
VIEW, MIRROR = view_model(CASE, "diff"), mirror_model(CASE)
MODELS = (VIEW, MIRROR)
@dataclass
class Run:
    results: dict  # model -> (status, message)
    scans: dict  # model -> the statement that froze its feeds
    versions: dict  # model -> its table's latest Delta version after the run


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    from pdelta.spark import session_from_profile

    work = tmp_path_factory.mktemp("feed_history")
    restore = use_local_target(work / "spark", SCHEMA)
    project = work / "project"
    write_project(project, ROOT, "pdelta_feed_history_it", SCHEMA, CASE,
                  {VIEW: view_sql(CASE, "diff", {}), MIRROR: mirror_sql(CASE, {})},
                  variables={"pdelta_feed_history_rows": 0})
    spark = session_from_profile(ROOT)
    create_feeds(spark, SCHEMA, CASE)
    world = World(CASE, random.Random(20261130))
    sent: list[tuple[str, str]] = []

    def on_event(msg) -> None:
        if msg.info.name == "SQLQuery":
            sent.append((msg.data.node_info.node_name, statement_text(msg.data.sql)))

    runner = manifest = None

    def append(rel: str, rows: list[dict]) -> None:
        append_feed_rows(spark, SCHEMA, CASE, rel, rows)

    def publish(rows: list[dict]) -> None:
        """the world's states now, and its new feed rows appended"""
        publish_states(spark, SCHEMA, CASE, world)
        for rel in RELS:
            append(rel, rows)

    def version(table: str) -> int:
        return spark.sql(f"describe history {SCHEMA}.{table} limit 1").collect()[0]["version"]

    def dbt_run(*args: str) -> Run:
        sent.clear()
        res = runner.invoke(["run", *args, "--project-dir", str(project), "--profiles-dir", str(ROOT)])
        assert res.result is not None, res.exception
        scans = {m: [sql for node, sql in sent if node == m and "max(seq_max)" in sql] for m in MODELS}
        return Run({r.node.name: (str(r.status), str(r.message or "")) for r in res.result},
                   {m: s[0] if len(s) == 1 else s for m, s in scans.items()}, {m: version(m) for m in MODELS})

    def rows() -> dict:
        view = sorted(tuple(r) for r in spark.sql(f"select cid, name, aid, city from {SCHEMA}.{VIEW}").collect())
        mirror = sorted(tuple(r) for r in spark.sql(f"select cid, name, aid from {SCHEMA}.{MIRROR}").collect())
        return {VIEW: view, MIRROR: mirror}

    def expected() -> dict:
        return {VIEW: world.view(), MIRROR: world.mirror()}

    def position(alias: str) -> dict:
        """the feed position the view's batch log recorded last for `alias`"""
        return json.loads(spark.sql(f"select `feed_position` from {SCHEMA}.{VIEW}__pdelta_batches "
                                    f"where `input` = '{alias}' order by `batch_id` desc limit 1").collect()[0][0])

    def consumed(alias: str) -> int:
        return spark.sql(f"select max(`hi`) from {SCHEMA}.{VIEW}__pdelta_batches where `input` = '{alias}'"
                         ).collect()[0][0]

    out = {}
    try:
        # parsed once: the runs and explain reuse the manifest
        runner, manifest = parsed_runner(project, ROOT, [on_event])
        publish(world.last_step)
        out["build"] = dbt_run()
        publish(world.step())
        out["explained"] = explain_next_refresh(project, ROOT, "local", VIEW, manifest=manifest)
        out["step"] = dbt_run()
        out["step_rows"], out["step_expected"] = rows(), expected()
        # 2: a row below the consumed sequence, appended blindly, then deleted
        behind = {"rel": "c", "cid": 900, "name": "late", "aid": 1, "city": None, "before": None, "type": "ins",
                  "seq": 1}
        append("c", [behind])
        out["behind"] = dbt_run()
        spark.sql(f"delete from {SCHEMA}.{feed_name(CASE, 'c')} where cid = 900")
        publish(world.step())
        out["after_delete"] = dbt_run()
        out["after_delete_rows"], out["after_delete_expected"] = rows(), expected()
        # 4: a rebuild the cost model chose (ratio 0: whatever is pending), which hashes no feed
        # row, then refreshes whose scans leave the rows it covered out of the hash sums
        publish(world.step())
        out["rebuilt"] = dbt_run("--vars", json.dumps({"pdelta_rebuild_ratio": 0}))
        out["rebuilt_rows"], out["rebuilt_expected"] = rows(), expected()
        out["rebuilt_position"] = position("buyer")
        out["rebuilt_log"] = [tuple(r) for r in spark.sql(
            f"select `batch_id`, `mode` from {SCHEMA}.{VIEW}__pdelta_batches where `mode` <> 'full-started' "
            "order by `batch_id`").collect()]
        publish(world.step())
        out["after_rebuild"] = dbt_run()
        out["after_rebuild_rows"], out["after_rebuild_expected"] = rows(), expected()
        out["after_rebuild_position"] = position("buyer")
        # a row only the rebuild covered, edited in place (a commit that is no append: the whole
        # feed is read): the view refreshes, the mirror (whose state came from that row) stops
        unhashed = out["rebuilt_position"]["unhashed"]
        feed = f"{SCHEMA}.{feed_name(CASE, 'c')}"

        def edit(lo: int, hi: int) -> None:
            """one row with a sequence in (lo, hi] gets another name, in place (an UPDATE commit)"""
            seq = spark.sql(f"select min(`_pdelta_seq`) from {feed} where name is not null "
                            f"and `_pdelta_seq` > {int(lo)} and `_pdelta_seq` <= {int(hi)}").collect()[0][0]
            assert seq is not None, (lo, hi)
            spark.sql(f"update {feed} set name = concat(name, '~') where name is not null and `_pdelta_seq` = {seq}")

        restore_edit = f"update {feed} set name = left(name, length(name) - 1) where name like '%~'"
        publish(world.step())
        edit(unhashed["after"], unhashed["through"])
        out["covered_edited"] = dbt_run()
        out["covered_edited_rows"], out["covered_edited_expected"] = rows(), expected()
        spark.sql(restore_edit)
        # a row a refresh applied after the rebuild, edited in place: every model stops
        edit(unhashed["through"], consumed("buyer"))
        out["applied_edited"] = dbt_run()
        spark.sql(restore_edit)
        # 3: the feed dropped and created again with a consumed row changed, then appended to
        # until its versions pass the one the batch log recorded
        recorded = version(feed_name(CASE, "c"))
        kept = spark.sql(f"select * from {feed}").collect()
        spark.sql(f"drop table {feed}")
        spark.sql(f"create table {feed} ({FEED_COLUMNS['c']}) using delta")
        changed = [tuple(r) for r in kept]
        first = min(range(len(changed)), key=lambda i: changed[i][5])
        changed[first] = (changed[first][0], "renamed") + changed[first][2:]
        spark.createDataFrame(changed, FEED_COLUMNS["c"]).write.format("delta").mode("append").saveAsTable(feed)
        while version(feed_name(CASE, "c")) <= recorded:
            publish(world.step(n_a=(0, 0)))
        out["recreated"] = dbt_run()
    finally:
        restore()
        shutil.rmtree(project / "dbt_packages", ignore_errors=True)
    return out


def _parts(scan: str) -> dict[str, str]:
    """the scan's part per input alias (its SQL on one line: statement_text)"""
    starts = [(m.start(), m.group(1)) for m in re.finditer(r"select '(\w+)' as a,", scan)]
    return {alias: scan[at:(starts[i + 1][0] if i + 1 < len(starts) else len(scan))]
            for i, (at, alias) in enumerate(starts)}


def _read(scan: str) -> dict[str, str]:
    """per input: `history` (the feed at a version; of the consumed rows only their sequences),
    `whole` (the feed at a version, every row in full) or `plain` (no history read)"""
    out = {}
    for alias, part in _parts(scan).items():
        pinned = " version as of " in part
        out[alias] = "history" if pinned and " where not (" in part else "whole" if pinned else "plain"
    return out


def _assert_stopped(run: Run, rule: str, before: Run) -> None:
    """every model stopped on `rule` and committed nothing after the run `before`"""
    for model in MODELS:
        status, message = run.results[model]
        assert status == "error" and rule in message, (model, status, message)
        assert run.versions[model] == before.versions[model], (model, "a stopped refresh committed")


@pytest.mark.spark
def test_a_feed_only_appended_to_is_read_from_its_pending_rows(history):
    for run in ("build", "step"):
        assert all(status == "success" for status, _ in history[run].results.values()), history[run].results
    # the build had nothing consumed: it read every row, and recorded the version it read
    assert _read(history["build"].scans[VIEW]) == {"buyer": "whole", "place": "whole"}, history["build"].scans[VIEW]
    assert _read(history["build"].scans[MIRROR]) == {"changes": "whole"}, history["build"].scans[MIRROR]
    assert _read(history["step"].scans[VIEW]) == {"buyer": "history", "place": "history"}, history["step"].scans[VIEW]
    assert _read(history["step"].scans[MIRROR]) == {"changes": "history"}, history["step"].scans[MIRROR]
    assert history["step_rows"] == history["step_expected"]


@pytest.mark.spark
def test_explain_says_how_each_feed_will_be_read(history):
    read = {alias: info.get("read") for alias, info in history["explained"]["inputs"].items()}
    assert set(read) == {"buyer", "place"}, read
    for alias, how in read.items():
        assert how and how["appended_only"] and how["version"] is not None, (alias, how)


@pytest.mark.spark
def test_a_row_appended_below_the_watermark_still_stops_the_refresh(history):
    run = history["behind"]
    _assert_stopped(run, "feed-seq-behind", history["step"])
    assert _read(run.scans[VIEW])["buyer"] == "history" and _read(run.scans[MIRROR]) == {"changes": "history"}


@pytest.mark.spark
def test_a_commit_that_is_no_append_makes_the_scan_read_the_whole_feed(history):
    run = history["after_delete"]
    assert all(status == "success" for status, _ in run.results.values()), run.results
    # c's feed had a DELETE since the last refresh; a's only appends
    assert _read(run.scans[VIEW]) == {"buyer": "whole", "place": "history"}, run.scans[VIEW]
    assert _read(run.scans[MIRROR]) == {"changes": "whole"}, run.scans[MIRROR]
    assert history["after_delete_rows"] == history["after_delete_expected"]


@pytest.mark.spark
def test_a_rebuild_the_cost_model_chose_hashes_no_feed_row(history):
    """The rebuild's scan reads the feeds' sequences only (no row hashed, no row check) and its
    position records the rows it covered as unhashed, from the watermark before it to its bound;
    the next refresh (through the history) and the one after a commit that is no append (the
    whole feed read, those rows left out of the sum) apply their batches: no false stop, and the
    view equals recomputation after each"""
    run = history["rebuilt"]
    assert all(status == "success" for status, _ in run.results.values()), run.results
    assert history["rebuilt_log"][-1][1] == "full", history["rebuilt_log"]
    scan = run.scans[VIEW]
    assert "xxhash64" not in scan and "count_if(c1)" not in scan, scan
    assert "xxhash64" in run.scans[MIRROR], run.scans[MIRROR]  # the mirror refreshed, checks and all
    position, after = history["rebuilt_position"], history["after_rebuild_position"]
    unhashed = position["unhashed"]
    assert unhashed["after"] < unhashed["through"] and position["sum"] == unhashed["sum"], position
    assert after["unhashed"] == unhashed and after["rows"] > position["rows"], (position, after)
    assert after["sum"] != position["sum"], "the rows the refresh applied are in the hash sum"
    for step in ("rebuilt", "after_rebuild", "covered_edited"):
        assert history[f"{step}_rows"][VIEW] == history[f"{step}_expected"][VIEW], step
    assert _read(history["after_rebuild"].scans[VIEW]) == {"buyer": "history", "place": "history"}
    assert "xxhash64" in history["after_rebuild"].scans[VIEW]


@pytest.mark.spark
def test_after_a_rebuild_a_row_it_covered_is_counted_and_a_row_a_refresh_applied_is_hashed(history):
    """A row only the rebuild covered, edited in place: the view (which took nothing from it)
    refreshes, reading the whole feed; the mirror, whose state came from it, stops on
    feed-rewritten. A row a refresh applied after the rebuild, edited in place: both stop."""
    run = history["covered_edited"]
    assert run.results[VIEW][0] == "success", run.results
    assert _read(run.scans[VIEW])["buyer"] == "whole", run.scans[VIEW]
    status, message = run.results[MIRROR]
    assert status == "error" and "feed-rewritten" in message, run.results
    _assert_stopped(history["applied_edited"], "feed-rewritten", run)


@pytest.mark.spark
def test_a_feed_created_again_is_not_taken_for_the_recorded_one(history):
    run = history["recreated"]
    _assert_stopped(run, "feed-rewritten", history["covered_edited"])
    assert _read(run.scans[VIEW]) == {"buyer": "whole", "place": "history"}, run.scans[VIEW]
    assert _read(run.scans[MIRROR]) == {"changes": "whole"}, run.scans[MIRROR]
