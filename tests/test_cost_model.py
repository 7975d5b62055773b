"""The learned cost model (`pdelta_rebuild_ratio: learned`, macros/engine/cost_model.sql) on the
paper's example, embedded session: every build and refresh of a view is timed into its batch
log's property `pdelta.costs`; a view learns nothing it has not timed (the first refresh after a
first build refreshes); with timings that make a rebuild the faster, the refresh rebuilds; with
timings that make it faster only for the view itself, while the view reading its feed would
rebuild after it, it refreshes; `pdelta explain` predicts both; both views then equal the paper's
figure and their recomputation (the project's data tests)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pdelta.cli import describe_cost_choice, explain_next_refresh
from pdelta.project import target_folder
from pdelta.statements import statement_text
from pdelta_env import READER_SETTING, SWITCH_OFF, SWITCH_ON, integration_deps, use_local_target

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = "pdelta_costs"
VIEWS = ("paper_d", "paper_d_diff")
# timings written by hand before the refresh: paper_d's make a rebuild (0.5 s) faster than a
# refresh (100 s, whatever it reaches); paper_d_diff's make its own rebuild a little faster (1 s
# against 2 s), but paper_d_over_diff, which reads its feed, would then rebuild (50 s) where it
# refreshes in 0.25 s: with it, the refresh is the faster (2.25 s against 51 s)
FAVOUR_REBUILD = {"v": 1, "refresh": [[1, 100.0], [2, 100.0]], "rebuild": [[None, 0.5]]}
LEAN_REBUILD = {"v": 1, "refresh": [[1, 2.0], [2, 2.0]], "rebuild": [[None, 1.0]]}
READER = "paper_d_over_diff"
READER_COSTS = {"v": 1, "refresh": [[1, 0.25], [2, 0.25]], "rebuild": [[None, 50.0]]}
# one refresh size timed: the learned model extrapolates from the rebuild's cost per view row
ONE_REFRESH_SIZE = {"v": 1, "refresh": [[1, 0.5]], "rebuild": [[None, 100.0]]}


@pytest.fixture(scope="module")
def paper(tmp_path_factory):
    from dbt.cli.main import dbtRunner

    from pdelta.spark import session_from_profile

    work = tmp_path_factory.mktemp("costs")
    project = integration_deps()  # the paper's example: the repository's own dbt project
    restore = use_local_target(work / "spark", SCHEMA)
    spark = session_from_profile(ROOT)
    spark.sql(f"drop database if exists {SCHEMA} cascade")
    # every statement dbt sends, with the model it ran for (dbt's SQLQuery events reach callbacks
    # whatever the log level)
    sent: list[tuple[str, str]] = []
    errors: list[str] = []  # dbt's error messages (a failed run-operation has no exception to show)

    def on_event(msg) -> None:
        if msg.info.name == "SQLQuery":
            sent.append((msg.data.node_info.unique_id.split(".")[-1], statement_text(msg.data.sql)))
        elif msg.info.level == "error":
            errors.append(msg.info.msg)

    runner = dbtRunner(callbacks=[on_event])

    # the stage kept in Delta (Databricks' format, a Spark project's choice): refreshed and
    # checked against the paper's figure here, while the other lanes use Spark's parquet stage.
    # Every command of a stage passes the same vars, each set with a target folder of its own
    # (target_folder): dbt parses the project in full whenever the vars differ from its saved
    # manifest's (~15 s here with the other streams running); seven commands alternating four sets
    # did so each time. No --target either: naming the default target also counts as a change
    def stage_args(stage: str) -> list[str]:
        vars_ = json.dumps({"paper_stage": stage, "pdelta_rebuild_ratio": "learned", "pdelta_stage_format": "delta"})
        return ["--vars", vars_, "--target-path", str(target_folder(work / "target", vars_))]

    def dbt(*args: str, stage: str):
        res = runner.invoke([*args, *stage_args(stage), "--project-dir", str(project), "--profiles-dir", str(ROOT),
                             "--quiet"])
        assert res.success, f"dbt {' '.join(args)}: {res.exception}"

    def costs(view: str) -> dict:
        props = {r[0]: r[1] for r in spark.sql(f"show tblproperties {SCHEMA}.{view}__pdelta_batches").collect()}
        return json.loads(props["pdelta.costs"]) if "pdelta.costs" in props else {}

    def last_mode(view: str) -> str:
        return spark.sql(f"select `mode` from {SCHEMA}.{view}__pdelta_batches where `mode` <> 'full-started' "
                         "order by `batch_id` desc limit 1").collect()[0][0]

    out = {}
    try:
        dbt("seed", "--select", "path:seeds/paper", "--full-refresh", stage="old")
        dbt("run", "--full-refresh", "--select", "+paper_d", "+paper_d_diff", READER, "+paper_d_recomputed_reordered",
            stage="old")
        out["after_build"] = {v: costs(v) for v in VIEWS}
        def set_costs(view: str, timings: dict) -> None:
            spark.sql(f"alter table {SCHEMA}.{view}__pdelta_batches set tblproperties "
                      f"('pdelta.costs' = '{json.dumps(timings)}')")

        def explain(view: str) -> dict:
            return explain_next_refresh(project, ROOT, None, view, extra_args=stage_args("new"))

        # the upstream models take the paper's new state; then explain, then refresh the views
        dbt("run", "--select", "+paper_d", "+paper_d_diff", "+paper_d_recomputed", "--exclude", *VIEWS, stage="new")
        set_costs("paper_d_diff", ONE_REFRESH_SIZE)
        out["one_refresh_size"] = explain("paper_d_diff")
        for view, timings in zip((*VIEWS, READER), (FAVOUR_REBUILD, LEAN_REBUILD, READER_COSTS)):
            set_costs(view, timings)
        out["explained"] = {v: explain(v) for v in VIEWS}
        sent.clear()
        out["reader_before"] = spark.conf.get(READER_SETTING, None)
        dbt("run", "--select", *VIEWS, READER, stage="new")
        out["reader_after"] = spark.conf.get(READER_SETTING, None)
        out["refresh_statements"] = {v: [sql for model, sql in sent if model == v] for v in (*VIEWS, READER)}
        out["after_refresh"] = {v: costs(v) for v in VIEWS}
        out["mode"] = {v: last_mode(v) for v in VIEWS}
        props = {r[0]: r[1] for r in spark.sql(f"show tblproperties {SCHEMA}.paper_d_diff__pdelta_batches").collect()}
        out["key_hint"] = json.loads(props["pdelta.key"]) if "pdelta.key" in props else None
        out["checkpoint_interval"] = {
            rel: {r[0]: r[1] for r in spark.sql(f"show tblproperties {SCHEMA}.{rel}").collect()}.get(
                "delta.checkpointInterval")
            for view in VIEWS for rel in (view, f"{view}__pdelta_changes", f"{view}__pdelta_batches")}
        out["refresh_row"] = spark.sql(
            f"select `statements`, (select max(`batch_id`) from {SCHEMA}.paper_d_diff__pdelta_batches "
            f"where `mode` = 'full') from {SCHEMA}.paper_d_diff__pdelta_batches "
            "where `mode` = 'incremental' order by `batch_id` desc limit 1").collect()[0]
        # the lanes' own check of a stage's format (integration_tests/macros/ops/assert_stage_format.sql)
        check = {"model_name": "paper_d_diff", "expected": "delta"}
        out["stage_is_delta"] = runner.invoke([
            "run-operation", "assert_stage_format", "--args", json.dumps(check), *stage_args("new"),
            "--project-dir", str(project), "--profiles-dir", str(ROOT), "--quiet"]).success
        # the feed a full build creates has the view's types, in both forms
        # (integration_tests/macros/ops/assert_view_feed_definition.sql)
        defined = runner.invoke(["run-operation", "assert_view_feed_definition", *stage_args("new"),
                                 "--project-dir", str(project), "--profiles-dir", str(ROOT), "--quiet"])
        out["feed_definition"] = (defined.success, [e for e in errors if "view_feed_definition" in e])
        dbt("test", "--select", *VIEWS, stage="new")  # the paper's figure D and its recomputation
        # two dbt threads on the session method share one SparkSession: no reader switch then
        sent.clear()
        dbt("run", "--threads", "2", "--select", "paper_d_diff", READER, stage="new")
        out["threaded_statements"] = {v: [sql for model, sql in sent if model == v] for v in ("paper_d_diff", READER)}
        out["reader_after_threads"] = spark.conf.get(READER_SETTING, None)
        # a statement that failed while switched leaves the session switched: the next run starts from there
        spark.sql(SWITCH_ON)
        stale = runner.invoke(["run", "--select", "paper_d_diff", *stage_args("new"), "--project-dir", str(project),
                               "--profiles-dir", str(ROOT), "--quiet"])
        out["after_stale_switch"] = (stale.success, str(stale.exception), errors[-3:])
        out["reader_after_stale"] = spark.conf.get(READER_SETTING, None)
    finally:
        spark.sql(SWITCH_OFF)
        restore()
    return out


@pytest.mark.spark
def test_a_first_build_is_timed_as_a_rebuild(paper):
    for view in VIEWS:
        timed = paper["after_build"][view]
        assert timed.get("refresh", []) == [], (view, timed)
        assert len(timed["rebuild"]) == 1 and timed["rebuild"][0][1] > 0, (view, timed)


@pytest.mark.spark
def test_the_faster_path_is_taken_and_timed(paper):
    # paper_d: a rebuild predicted at 0.5 s against refreshes of 100 s: rebuilt (a `full` batch)
    assert paper["mode"]["paper_d"] == "full"
    rebuilds = paper["after_refresh"]["paper_d"]["rebuild"]
    assert rebuilds[:-1] == FAVOUR_REBUILD["rebuild"] and rebuilds[-1][0] == 3 and rebuilds[-1][1] > 0, rebuilds
    assert paper["after_refresh"]["paper_d"]["refresh"] == FAVOUR_REBUILD["refresh"]
    # paper_d_diff: a refresh predicted faster with the view reading its feed: refreshed, and the
    # refresh timed with the rows it reached
    assert paper["mode"]["paper_d_diff"] == "incremental"
    refreshes = paper["after_refresh"]["paper_d_diff"]["refresh"]
    assert refreshes[:-1] == LEAN_REBUILD["refresh"] and refreshes[-1][0] > 0 and refreshes[-1][1] > 0, refreshes


@pytest.mark.spark
def test_explain_predicts_the_choice(paper):
    for view, mode in (("paper_d", "rebuild"), ("paper_d_diff", "refresh")):
        choice = paper["explained"][view]["cost_choice"]
        assert choice["mode"] == mode and choice["ratio"] == "learned", choice
        said = describe_cost_choice(choice)
        assert ("REBUILD" in said) == (mode == "rebuild") and "predicted rebuild" in said, said
    assert paper["explained"]["paper_d"]["cost_choice"]["predicted"]["rebuild"] == pytest.approx(0.5)
    assert paper["explained"]["paper_d"]["cost_choice"]["predicted"]["refresh"] == pytest.approx(100.0)
    # no view reads paper_d's feed: it is priced alone
    assert paper["explained"]["paper_d"]["cost_choice"]["downstream"] == []


@pytest.mark.spark
def test_the_views_reading_the_feed_turn_a_rebuild_into_a_refresh(paper):
    """paper_d_diff alone: a rebuild (1 s) faster than a refresh (2 s). After a plain rebuild
    (pdelta_rebuild_feed reset: a `full` batch) paper_d_over_diff, which reads its feed, rebuilds
    too (50 s), after a refresh it refreshes (0.25 s): the sums, 51 s against 2.25 s, make the
    refresh the choice (the run refreshed: test_the_faster_path_is_taken_and_timed), and explain
    says so with the reader's predictions"""
    choice = paper["explained"]["paper_d_diff"]["cost_choice"]
    assert choice["predicted"]["rebuild"] < choice["predicted"]["refresh"], choice
    assert choice["downstream"] == [{"view": READER, "reached": pytest.approx(choice["downstream"][0]["reached"]),
                                     "rebuild": pytest.approx(50.0), "refresh": pytest.approx(0.25)}], choice
    assert choice["downstream"][0]["reached"] >= 1, choice
    assert choice["predicted_with_downstream"] == {"rebuild": pytest.approx(51.0), "refresh": pytest.approx(2.25)}
    said = describe_cost_choice(choice)
    assert said.startswith("incremental refresh:") and f"reading its feed ({READER} rebuild 50.0 s" in said, said


@pytest.mark.spark
def test_one_timed_refresh_predicts_a_larger_one_from_the_rebuilds_cost_per_row(paper):
    """paper_d_diff with one refresh timed (1 row reached, 0.5 s) and a rebuild (100 s): a refresh
    reaching more rows is predicted as 0.5 s plus 6 times (refresh_cost_per_row_factor) the
    rebuild's cost per view row for each row beyond the one, up to the view's rows, not as 0.5 s
    scaled proportionally; reaching most of the paper's three rows, that is dearer than the rebuild"""
    choice = paper["one_refresh_size"]["cost_choice"]
    beyond = min(choice["reached"], choice["view_rows"]) - 1
    assert beyond > 0, choice
    assert choice["predicted"]["refresh"] == pytest.approx(0.5 + 6 * 100.0 / choice["view_rows"] * beyond), choice
    assert choice["predicted"]["refresh"] > choice["predicted"]["rebuild"] and choice["mode"] == "rebuild", choice
    # paper_d_over_diff reads the feed but has no timed refresh yet (only its build): left out
    assert choice["downstream"] == [] and choice["predicted_with_downstream"] is None, choice


def test_without_timings_the_view_refreshes():
    """the choice before anything was timed, as explain describes it (a run's logic: cost_model.sql)"""
    said = describe_cost_choice({"mode": "refresh", "ratio": "learned", "samples": {},
                                 "reason": "learning: no refresh of this view timed yet"})
    assert said.startswith("incremental refresh (learning: no refresh of this view timed yet; 0 timed")


@pytest.mark.spark
def test_a_build_keeps_the_key_type_so_the_refresh_scans_its_batch_once(paper):
    """A full build keeps the type of the view's first key column in the log's property
    `pdelta.key`, for the build it holds for; the refresh then takes its counts and its key range
    from one scan of the staged batch (declare_batch_summary) instead of a counting query with
    `typeof` followed by the key range's own scan (declare_key_range)."""
    statements, last_full = paper["refresh_row"]
    assert json.loads(statements)[:2] == ["declare_batch_summary", "set_batch_summary"], statements
    assert paper["key_hint"] == {"v": 1, "type": "int", "since_full": last_full}, paper["key_hint"]


@pytest.mark.spark
def test_a_project_may_keep_the_stage_in_delta(paper):
    """`pdelta_stage_format: delta` (stage_format): the refresh staged its batch in a Delta table,
    and the view still equals the paper's figure D and its recomputation (the fixture's dbt test)"""
    assert paper["stage_is_delta"], "the stage of paper_d_diff is not a Delta table (assert_stage_format)"


@pytest.mark.spark
def test_a_refresh_with_unchanged_docs_sends_no_statement_for_them(paper):
    """paper_d_diff persists its docs (persist_docs: relation and columns). Its full build wrote
    them and kept their fingerprint in the batch log, whose properties every run reads once at its
    start: the refresh (docs unchanged) reads no property of the view and writes no comment. That
    the comments are on the table after full builds: make test's dbt lanes (assert_persisted_docs)."""
    sent = paper["refresh_statements"]["paper_d_diff"]
    assert any(sql.startswith("create table") and "__pdelta_stage" in sql for sql in sent), sent  # it refreshed
    reads = [sql.split()[-1] for sql in sent if sql.startswith("show tblproperties")]
    # its own log's, and the log of the view reading its feed (its timings: the cost model's choice)
    assert reads == [f"{SCHEMA}.paper_d_diff__pdelta_batches", f"{SCHEMA}.{READER}__pdelta_batches"], reads
    assert not [sql for sql in sent if sql.startswith("comment on") or " alter column " in sql], sent


@pytest.mark.spark
def test_reading_statements_go_through_the_kernel_reader_and_back(paper):
    """pdelta_delta_reader (macros/engine/delta_reader.sql): paper_d_diff's statements that read Delta
    tables and write none (the feed scan, the stage) each run with the session switched to Delta's
    Kernel reader, switched back right after them; no statement that writes a Delta table or reads
    its history runs switched; the session's setting is what it was after the run. The view reading
    its feed (pdelta_delta_reader: classic) refreshes with no switch at all (kernel_reads_reset's `reset` first,
    as every pdelta model)."""
    sent = paper["refresh_statements"]["paper_d_diff"]
    switched = [i for i, sql in enumerate(sent) if sql == SWITCH_ON]
    assert [sent[i + 2] for i in switched] == [SWITCH_OFF] * len(switched), sent
    read = [sent[i + 1] for i in switched]
    assert any("max(seq_max)" in sql for sql in read), sent  # the feed scan
    assert any(sql.startswith("create table") and "__pdelta_stage" in sql for sql in read), sent  # the stage
    assert all(sql.startswith(("select", "with", "create table")) for sql in read), read  # queries, a CTAS
    assert paper["reader_after"] == paper["reader_before"], (paper["reader_before"], paper["reader_after"])
    classic = paper["refresh_statements"][READER]
    assert any(sql.startswith("create table") and "__pdelta_stage" in sql for sql in classic), classic  # it refreshed
    # kernel_reads_reset only
    assert SWITCH_ON not in classic and classic.count(SWITCH_OFF) == 1 and classic[0] == SWITCH_OFF, classic


@pytest.mark.spark
def test_no_switch_of_the_shared_session_while_other_threads_run(paper):
    """With `--threads 2` on the session method, dbt's threads run on one SparkSession, where the reader
    switch would reach the other thread's writes (its MERGE fails, its `set tblproperties` does nothing):
    paper_d_diff refreshes again (its feed scan runs) and sends no switch (only kernel_reads_reset's `reset`
    at the start of each model); the setting is as before."""
    sent = paper["threaded_statements"]["paper_d_diff"]
    assert any("max(seq_max)" in sql for sql in sent), sent  # it refreshed: the feed scan ran
    switched = [sql for model in paper["threaded_statements"].values() for sql in model
                if sql.startswith(f"set {READER_SETTING}")]
    assert not switched, sent
    assert paper["reader_after_threads"] == paper["reader_before"], paper["reader_after_threads"]


@pytest.mark.spark
def test_a_run_starts_on_the_sessions_own_reader(paper):
    """A statement that fails while switched to the Kernel reader ends its model before the switch back, and
    the session stays switched (here set by hand, as such a failure leaves it, before a dbt invocation in the
    same process): each pdelta model resets the setting before it reads or writes (kernel_reads_reset), so the
    refresh of paper_d_diff runs (under the Kernel reader its `describe history` of a user's state, its DELETE
    and MERGE fail, its `set tblproperties` would change nothing) and leaves the setting as it was at start."""
    ok, exception, errors = paper["after_stale_switch"]
    assert ok, (exception, errors)
    assert paper["reader_after_stale"] == paper["reader_before"], paper["reader_after_stale"]


@pytest.mark.spark
def test_the_diff_plans_affected_keys_are_computed_once_per_stage(paper):
    """shared_cte (macros/engine/shared_cte.sql): paper_d_diff's stage keeps v__affected, which its
    recomputed rows and the view's old rows both read, behind shared_cte's guard, and only batch-sized
    CTEs besides (a large one would go through a shuffle): the root's reached state rows (read by the
    key walk and the recomputed rows) and, with users' states, the lag check's feed rows. Spark then
    computes such a CTE once: a query reading
    one through two different operators (a semi-join and a sum) scans its table once in its final
    plan, the second reader taking the first one's exchange, where the same query with the CTE
    inlined (the guard taken out) scans it twice; the results agree. Fails if Spark inlines the
    guarded CTE."""
    from pdelta.spark import session_from_profile

    guard = " as shared where rand() >= 0"
    stage = [sql for sql in paper["refresh_statements"]["paper_d_diff"]
             if sql.startswith("create table") and "__pdelta_stage" in sql]
    assert len(stage) == 1, paper["refresh_statements"]["paper_d_diff"]
    assert re.search(r"v__affected as \( select \* from \(select [^()]*\)" + re.escape(guard), stage[0]), stage[0]
    # each guard's CTE: the last `name as ( ` before it
    guarded = [re.findall(r"(\w+) as \( ", part)[-1] for part in stage[0].split(guard)[:-1]]
    assert all(name == "v__affected" or name.endswith(("__reached", "__lag_feed")) for name in guarded), guarded
    changes = f"{SCHEMA}.paper_cust_changes"
    shared = (f"with k as (select * from (select `cid` from {changes} where `_pdelta_seq` > 0){guard}) "
              f"select count(*) from {SCHEMA}.paper_cust as c left semi join k on c.`cid` = k.`cid` "
              "union all select sum(`cid`) from k")
    spark = session_from_profile(ROOT)
    runs = {}
    for name, query in (("shared", shared), ("inlined", shared.replace(guard, " as shared"))):
        frame = spark.sql(query)
        rows = sorted(r[0] for r in frame.collect())
        final = frame._jdf.queryExecution().executedPlan().toString().split("== Initial Plan ==")[0]
        scans = [line for line in final.splitlines() if "Scan" in line and "paper_cust_changes" in line]
        runs[name] = (rows, len(scans), final.count("ReusedExchange"))
    assert runs["shared"][0] == runs["inlined"][0] and runs["shared"][0][0] > 0, runs
    assert runs["shared"][1] == 1 and runs["inlined"][1] == 2, runs
    assert runs["shared"][2] > runs["inlined"][2], runs


@pytest.mark.spark
def test_the_choice_comes_first_and_a_rebuild_scans_the_feeds_for_their_bounds_only(paper):
    """Both views choose before any feed row is read: one statement counts the states and each
    feed's pending rows (here every row: the build consumed the feeds empty; past a watermark, a
    feed's count less the rows the batch log recorded at or below it, so no `_pdelta_seq` filter
    either way: a count Delta answers from its log). paper_d's rebuild then scans the feeds once for
    their bounds, without the feed contract's row checks, its (key, sequence) grouping or a hash of
    the rows (a rebuild reads the states, no feed row: feed_scans' hash_rows), and leaves the view's
    feed alone: neither recreated nor described (it keeps its rows; readers go by the `full` batch:
    paper_d_over_rebuilt in the lanes); its CTAS reads the states through the Kernel reader. paper_d_diff's
    refresh scans its feeds once, with the checks."""
    for view, checked in (("paper_d", False), ("paper_d_diff", True)):
        sent = paper["refresh_statements"][view]
        counted = [i for i, sql in enumerate(sent) if " as p, (select count(*) from " in sql]
        scans = [i for i, sql in enumerate(sent) if "max(seq_max)" in sql]
        assert len(counted) == 1 and len(scans) == 1 and counted[0] < scans[0], (view, sent)
        assert "_pdelta_seq" not in sent[counted[0]], sent[counted[0]]
        # the counts read the states' and feeds' new versions through the Kernel reader, switched back after
        assert (sent[counted[0] - 1], sent[counted[0] + 1]) == (SWITCH_ON, SWITCH_OFF), sent
        scan = sent[scans[0]]
        # the refresh's scan checks every row, groups the pending ones by (key, sequence) and hashes
        # them; the rebuild's aggregates each feed's sequences and hashes nothing
        for form in ("count_if(c1)", "group by a, gk, gs", "xxhash64"):
            assert (form in scan) == checked, (view, form, scan)
    sent = paper["refresh_statements"]["paper_d"]
    feed = f"{SCHEMA}.paper_d__pdelta_changes"
    # (the users' states are pinned: `describe history <state> limit 1` for each, no other describe)
    described = [sql for sql in sent if sql.startswith("describe") and not sql.startswith("describe history")]
    assert not [sql for sql in sent if feed in sql] and not described, sent
    rebuilt = [i for i, sql in enumerate(sent) if sql.startswith(f"create or replace table {SCHEMA}.paper_d ")]
    assert len(rebuilt) == 1, sent
    # the rebuild's CTAS reads the states through the Kernel reader (build_in_full's `reads`), switched back after
    assert (sent[rebuilt[0] - 1], sent[rebuilt[0] + 1]) == (SWITCH_ON, SWITCH_OFF), sent[rebuilt[0] - 1:rebuilt[0] + 2]


@pytest.mark.spark
def test_the_empty_feed_has_the_views_types_in_both_forms(paper):
    """view_feed_definition on a scratch view with a string, a decimal and a struct column: the
    column-list form (plain types) and the AS SELECT form (a nested type) both give the feed the
    view's types, `_pdelta_before` included (integration_tests/macros/ops/assert_view_feed_definition.sql)"""
    ok, error = paper["feed_definition"]
    assert ok, error


@pytest.mark.spark
def test_pdelta_tables_checkpoint_every_hundred_commits(paper):
    """The view, its feed and its batch log, after a first build (paper_d_diff) and after a
    cost-based rebuild (paper_d), carry `delta.checkpointInterval` 100 (own_table_properties):
    Delta's default of 10 put a checkpoint inside about every second refresh"""
    assert set(paper["checkpoint_interval"].values()) == {"100"}, paper["checkpoint_interval"]
