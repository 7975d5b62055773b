"""A user's state read as of the refresh's bound (issue #20, SWEEP's local compensation): the states
are Delta tables a replicating tool writes beside the change feeds, not tables pdelta writes.

freeze_inputs pins each such state at the version it is at before the feed's bound is taken, so a
writer that commits each change to the feed no later than to the state cannot put a change into
what the refresh reads past that bound; the keys the batch reaches read the image of their last
feed row in the batch, so a state that lags its feed (the feed row landed, the state's commit not
yet) reads as the relation after the rows consumed (macros/engine/refresh_inputs.sql).

One dbt project (the feed contract's two-relation view, both plans) on the embedded session, whose
statements the test sees as dbt sends them (dbt's SQLQuery events, before each runs):
  1. the full build, states and feeds in step;
  2. a state that lags: a step's feed rows appended, the states left behind: both views equal the
     recomputation from the feeds (the relation after the rows consumed), and say the state lags
     (a state in step with its feed is read pinned alone: no view says so in 3); `pdelta explain`
     says beforehand which states lag (both in 2, neither before 3); then, the states lagging by the
     next step, a run of the diff plan's view stopped right after its stage leaves the lag check's
     marker rows in it (lag_guard), and the next run computes that batch afresh instead of applying it;
  3. a writer that commits while a refresh runs, feed first: in each view, after its statement that
     freezes the feeds, the writer appends a change of every address and every customer to the
     feeds, then to the states; each view ends equal to its recomputation at its bound, and the
     next refresh takes the change;
  5. a state committed before its feed (state first; the states' change data feed on): an address's
     new city in its state, its feed row not appended yet, while a customer of it changes: with
     `pdelta_state_ahead: stop` each view's run fails and with `wait` it writes nothing (view and
     batch log as before); unchecked (the default), the batch shows the city under the earlier bound
     (the control); once the feed row lands, both views equal their recomputation;
  4. (run after 5) the same two anomalies with `pdelta_pin_states: false` (the states read as they are): the
     racing writer's change shows under the earlier bound (or the rules plan's terms, read at two
     states, give a key twice and the refresh stops), and the lagging state's batch is lost
     for good by the diff plan (the states catch up, the refresh has nothing pending, the view stays
     behind; the rules plan's refresh stops on a key twice): the test can fail.
"""
from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from apply.killer import SESSION_SETTING
from contract.delta_project import RELS, append_feed_rows, create_feeds, parsed_runner, publish_states, write_project
from contract.mutations import CITIES, World
from contract.project import rel_name, view_model, view_sql
from pdelta.cli import explain_next_refresh
from pdelta.statements import statement_text
from pdelta_env import use_local_target

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = "pdelta_state_comp"
CASE = "comp"
VIEWS = {plan: view_model(CASE, plan) for plan in ("rules", "diff")}
UNPINNED = ("--vars", json.dumps({"pdelta_pin_states": False}))


def ahead(mode: str) -> tuple[str, str]:
    return ("--vars", json.dumps({"pdelta_state_ahead": mode}))


def _address_of_two_customers(world: World) -> tuple[int, int]:
    """an address two customers or more live at, shown in the view (its city not Z...), and one of them"""
    for aid, a in sorted(world.a.items()):
        living = sorted(cid for cid, c in world.c.items() if c["aid"] == aid)
        if len(living) >= 2 and not a["city"].startswith("Z"):
            return aid, living[0]
    raise AssertionError("no address with two customers in the view")


def _everything_changed(world: World) -> list[dict]:
    """a change of every address's city (change tracking: `up`, no before-image) and every
    customer's name (log-based `upd`), one sequence each, applied to the world: whatever rows a
    batch recomputes, a state read past its bound shows"""
    rows = []
    for aid in sorted(world.a):
        old = world.a[aid]["city"]
        city = CITIES[(CITIES.index(old) + 1) % 2] if old in CITIES[:2] else CITIES[0]
        world.a[aid] = {"aid": aid, "city": city}
        rows.append(world._row("a", "up", {"aid": aid, "city": city}, seq=world._next_seq()))
    for cid in sorted(world.c):
        old = world.c[cid]
        new = {**old, "name": old["name"] + "+"}
        world.c[cid] = new
        rows.append(world._row("c", "upd", new, before={"name": old["name"], "aid": old["aid"]},
                               seq=world._next_seq()))
    world.feed.extend(rows)
    return rows


@pytest.fixture(scope="module")
def comp(tmp_path_factory):
    from pdelta.spark import session_from_profile

    work = tmp_path_factory.mktemp("state_comp")
    restore = use_local_target(work / "spark", SCHEMA)
    project = work / "project"
    write_project(project, ROOT, "pdelta_state_comp_it", SCHEMA, CASE,
                  {name: view_sql(CASE, plan, {}) for plan, name in VIEWS.items()})
    spark = session_from_profile(ROOT)
    create_feeds(spark, SCHEMA, CASE)
    world = World(CASE, random.Random(20261204))
    # the writer that commits during a refresh: once per view, after the view's feed scan was sent,
    # before its next statement; it keeps the recomputation at that view's bound (the world before)
    race = {"on": False, "scanned": None, "at_bound": {}}

    def append(rows: list[dict]) -> None:
        for rel in RELS:
            append_feed_rows(spark, SCHEMA, CASE, rel, rows)

    def publish() -> None:
        publish_states(spark, SCHEMA, CASE, world)

    # the run stopped by the test: in model `node`, at the first statement after its stage (the stage's summary)
    stop = {"node": None, "staged": False}
    lag_notes: list[str] = []  # pdelta's log lines of the current run saying a state lags its feed
    wait_notes: list[str] = []  # and those saying a view waits for a state's feed rows

    def on_event(msg) -> None:
        if msg.info.name == "JinjaLogInfo" and "lags its feed" in msg.info.msg:
            lag_notes.append(msg.info.msg)
        if msg.info.name == "JinjaLogInfo" and "waiting, nothing written" in msg.info.msg:
            wait_notes.append(msg.info.msg)
        if msg.info.name == "SQLQuery" and stop["node"] == msg.data.node_info.node_name:
            text = statement_text(msg.data.sql).lower()
            if text.startswith("create table") and "__pdelta_stage using" in text:
                stop["staged"] = True
            elif stop["staged"] and not SESSION_SETTING.match(text):
                stop.update(node=None, staged=False)
                raise RuntimeError("stopped by the test after the stage")
        if msg.info.name != "SQLQuery" or not race["on"]:
            return
        node = msg.data.node_info.node_name
        if race["scanned"] == node:  # its scan ran: the writer commits, feed first, before the next statement
            race["scanned"] = None
            race["at_bound"][node] = world.view()
            append(_everything_changed(world))
            publish()
        elif node not in race["at_bound"] and "max(seq_max)" in statement_text(msg.data.sql):
            race["scanned"] = node

    runner = None

    def dbt_run(*args: str, failing_ok: bool = False) -> dict:
        lag_notes.clear()
        wait_notes.clear()
        res = runner.invoke(["run", *args, "--project-dir", str(project), "--profiles-dir", str(ROOT)])
        assert res.result is not None, res.exception
        statuses = {r.node.name: (str(r.status), str(r.message or "")) for r in res.result}
        assert failing_ok or all(s == "success" for s, _ in statuses.values()), statuses
        return statuses

    def rows(plan: str) -> list[tuple]:
        return sorted(tuple(r) for r in spark.sql(f"select cid, name, aid, city from {SCHEMA}.{VIEWS[plan]}").collect())

    def last_batch(plan: str) -> int:
        return spark.sql(f"select max(`batch_id`) from {SCHEMA}.{VIEWS[plan]}__pdelta_batches").collect()[0][0]

    def views() -> dict:
        return {p: (rows(p), world.view()) for p in VIEWS}

    def racing(*args: str, failing_ok: bool = False) -> dict:
        """both views refreshed while, in each, the writer commits a change of everything (feed first)
        after its feeds' bounds were taken: per plan, what the view holds, its recomputation at its
        bound, and how its refresh ended"""
        race.update(on=True, at_bound={})
        statuses = dbt_run(*args, failing_ok=failing_ok)
        race["on"] = False
        assert set(race["at_bound"]) == set(VIEWS.values()), f"the writer ran in {race['at_bound']} only"
        return {p: (rows(p), race["at_bound"][name], statuses[name]) for p, name in VIEWS.items()}

    out = {}
    try:
        runner, manifest = parsed_runner(project, ROOT, [on_event])

        def explained_lags() -> dict:
            """per input of the diff plan's view, whether `pdelta explain` says its state lags its feed"""
            info = explain_next_refresh(project, ROOT, "local", VIEWS["diff"], manifest=manifest)
            return {alias: (rng["user_state"], rng["state_lags"]) for alias, rng in info["inputs"].items()}
        # 1: the full build, states in step with their feeds
        append(world.last_step)
        publish()
        dbt_run()
        out["build"] = views()
        # 2: the feeds ahead of the states (a step's rows appended, the states not yet committed)
        append(world.step(n_c=(3, 4), n_a=(2, 2)))
        out["lagging_explained"] = explained_lags()
        dbt_run()
        out["lagging"] = views()
        out["lagging_notes"] = list(lag_notes)
        # 2b: the states catch up with what was consumed, then lag again by a step more in the feeds; the
        # diff plan's run stopped right after its stage, before anything read it: the stage holds the lag
        # check's marker rows (lag_guard), and the next run drops it and computes its batch afresh, never
        # applying it
        publish()
        append(world.step(n_c=(3, 4), n_a=(2, 2)))
        stop.update(node=VIEWS["diff"], staged=False)
        out["stopped"] = dbt_run(failing_ok=True)[VIEWS["diff"]]
        out["marked_stage"] = spark.sql(f"select count(*) from {SCHEMA}.{VIEWS['diff']}__pdelta_stage "
                                        "where `_pdelta_type` = 'lagging'").collect()[0][0]
        dbt_run()
        out["after_stop"] = views()
        out["after_stop_notes"] = list(lag_notes)
        # 3: the states catch up, a step lands in step; a writer commits while each view refreshes
        publish()
        append(world.step())
        publish()
        out["in_step_explained"] = explained_lags()
        out["race"] = racing()
        out["race_notes"] = list(lag_notes)
        dbt_run()
        out["after_race"] = views()
        out["after_race_notes"] = list(lag_notes)
        # 5: a state committed before its feed: an address's new city in its state, its feed row not
        # appended yet, and a change of a customer of it (feed, then state) that the batch recomputes
        for rel in RELS:
            spark.sql(f"alter table {SCHEMA}.{rel_name(CASE, rel)} set tblproperties "
                      "('delta.enableChangeDataFeed' = 'true')")
        aid, cid = _address_of_two_customers(world)
        new_city = next(c for c in CITIES if c != world.a[aid]["city"] and not c.startswith("Z"))
        spark.sql(f"update {SCHEMA}.{rel_name(CASE, 'a')} set city = '{new_city}' where aid = {aid}")
        old = world.c[cid]
        world.c[cid] = renamed = {**old, "name": old["name"] + "!"}
        row = world._row("c", "upd", renamed, before={"name": old["name"], "aid": old["aid"]}, seq=world._next_seq())
        world.feed.append(row)
        append([row])
        spark.sql(f"update {SCHEMA}.{rel_name(CASE, 'c')} set name = '{renamed['name']}' where cid = {cid}")
        out["ahead_before"] = {p: (rows(p), last_batch(p)) for p in VIEWS}
        out["ahead_explained"] = {mode: explain_next_refresh(project, ROOT, "local", VIEWS["diff"], ahead(mode),
                                                             manifest=manifest) for mode in ("stop", "wait")}
        out["ahead_stop"] = dbt_run(*ahead("stop"), failing_ok=True)
        out["ahead_stopped"] = {p: (rows(p), last_batch(p)) for p in VIEWS}
        out["ahead_wait"] = dbt_run(*ahead("wait"))
        out["ahead_waited"] = {p: (rows(p), last_batch(p)) for p in VIEWS}
        out["ahead_wait_notes"] = list(wait_notes)
        # the negative control: not checked, the batch reads the address's city ahead of its feed
        out["ahead_ignored_status"] = dbt_run(failing_ok=True)
        out["ahead_ignored"] = views()
        # the feed row lands: the next refresh takes it, checked, and every row of the address agrees
        world.a[aid] = {"aid": aid, "city": new_city}
        row = world._row("a", "up", {"aid": aid, "city": new_city}, seq=world._next_seq())
        world.feed.append(row)
        append([row])
        dbt_run(*ahead("stop"))
        out["ahead_caught_up"] = views()
        # 4: the same with the states read as they are (the race first: a refresh after the lagging
        # state's one leaves the view as it is, nothing being pending)
        append(world.step())
        publish()
        out["unpinned_race"] = racing(*UNPINNED, failing_ok=True)
        append(world.step(n_c=(3, 4), n_a=(2, 2)))
        out["unpinned_lagging_status"] = dbt_run(*UNPINNED, failing_ok=True)
        out["unpinned_lagging"] = views()
        publish()
        out["unpinned_caught_up_status"] = dbt_run(*UNPINNED, failing_ok=True)
        out["unpinned_caught_up"] = views()
    finally:
        restore()
        shutil.rmtree(project / "dbt_packages", ignore_errors=True)
    return out


@pytest.mark.spark
def test_states_in_step_build_and_stay_equal(comp):
    for step in ("build", "after_race"):
        for plan, (got, expected) in comp[step].items():
            assert got == expected, f"{step}, {plan} plan"


@pytest.mark.spark
def test_a_state_that_lags_its_feed_reads_as_the_relation_after_the_rows_consumed(comp):
    for plan, (got, expected) in comp["lagging"].items():
        assert got == expected, f"{plan} plan: the view read the lagging state, not the feed's images"
    # the check found the lag (each view: both relations had rows in the step); states in step with
    # their feeds at the pinned version are read pinned alone, no compensation
    assert len(comp["lagging_notes"]) == len(VIEWS), comp["lagging_notes"]
    assert not comp["race_notes"] and not comp["after_race_notes"], (comp["race_notes"], comp["after_race_notes"])
    # `pdelta explain` runs the same check before the run: both users' states lag, then neither does
    assert comp["lagging_explained"] == {alias: (True, True) for alias in comp["lagging_explained"]}, comp
    assert comp["in_step_explained"] == {alias: (True, False) for alias in comp["in_step_explained"]}, comp
    assert len(comp["lagging_explained"]) == 2, comp["lagging_explained"]


@pytest.mark.spark
def test_a_stage_from_a_lagging_state_left_by_a_stopped_run_is_never_applied(comp):
    """the diff plan checks the lag in its stage's own statement (lag_guard): a run stopped right after it
    leaves marker rows there, and the next run computes the batch afresh instead of applying that stage"""
    status, message = comp["stopped"]
    assert status != "success" and "stopped by the test" in message, comp["stopped"]
    assert comp["marked_stage"] > 0, "the stage of a batch read from lagging states holds no marker row"
    for plan, (got, expected) in comp["after_stop"].items():
        assert got == expected, f"{plan} plan, after the stopped run"
    assert [n for n in comp["after_stop_notes"] if "computing it afresh" in n], comp["after_stop_notes"]


@pytest.mark.spark
def test_a_state_committed_during_the_refresh_is_read_as_of_the_bound(comp):
    for plan, (got, at_bound, _) in comp["race"].items():
        assert got == at_bound, f"{plan} plan: the view read the writer's commit past its bound"


@pytest.mark.spark
def test_a_state_ahead_of_its_feed_stops_or_waits_and_nothing_is_written(comp):
    """pdelta_state_ahead: a key the state changed since the last batch with no feed row up to the
    bound stops the run (stop) or leaves it writing nothing (wait): each view and its batch log as
    before; once the feed row lands the refresh takes it and the view equals its recomputation"""
    for plan, name in VIEWS.items():
        status, message = comp["ahead_stop"][name]
        assert status != "success" and "ahead of its feed" in message and "`place`" in message, (plan, status, message)
        assert comp["ahead_stopped"][plan] == comp["ahead_before"][plan], plan
        assert comp["ahead_waited"][plan] == comp["ahead_before"][plan], plan
    assert len(comp["ahead_wait_notes"]) == len(VIEWS), comp["ahead_wait_notes"]
    # `pdelta explain` says so beforehand: a stop under stop, a wait under wait, naming the input
    stop, wait = comp["ahead_explained"]["stop"], comp["ahead_explained"]["wait"]
    assert [s for s in stop["stops"] if "`place` is ahead of its feed on 1 key(s)" in s] and not stop["waits"], stop
    assert [w for w in wait["waits"] if "`place` is ahead of its feed on 1 key(s)" in w] and not wait["stops"], wait
    for plan, (got, expected) in comp["ahead_caught_up"].items():
        assert got == expected, f"{plan} plan, after the feed row landed"
    # the control: not checked (ignore, the default), the batch reads the state ahead of its bound —
    # the customer's row with the new city beside its neighbour's old one — or stops
    for plan, (got, expected) in comp["ahead_ignored"].items():
        assert got != expected or comp["ahead_ignored_status"][VIEWS[plan]][0] != "success", plan


@pytest.mark.spark
def test_unpinned_the_same_anomalies_show(comp):
    """the negative control: each anomaly above, with the states read as they are, leaves a view
    that is not its recomputation (the race's change under the earlier bound, or a batch so mixed
    that the refresh stops on its duplicate keys; the lagging batch lost for good: still missing
    once the states caught up and nothing is pending)"""
    race = comp["unpinned_race"]
    mixed = [p for p, (got, at_bound, status) in race.items() if status[0] == "success" and got != at_bound]
    stopped = [p for p, (_, _, status) in race.items() if status[0] != "success"]
    assert mixed, f"unpinned, no view showed the writer's commit under its bound: {race}"
    assert all("duplicate key" in race[p][2][1] for p in stopped), race
    assert sorted(mixed + stopped) == sorted(VIEWS), race
    # the lagging state: each view is left behind its recomputation, or its refresh stops (the rules
    # plan's terms over a state without the batch give a key twice); the diff plan's loses the batch
    # for good: once the states catch up nothing is pending, and the view stays behind
    for plan, name in VIEWS.items():
        status = comp["unpinned_lagging_status"][name]
        got, expected = comp["unpinned_lagging"][plan]
        assert got != expected or status[0] != "success", (plan, status)
        assert status[0] == "success" or "duplicate key" in status[1], (plan, status)
    lost = [p for p, (got, expected) in comp["unpinned_caught_up"].items()
            if got != expected and comp["unpinned_caught_up_status"][VIEWS[p]][0] == "success"]
    assert "diff" in lost, "unpinned, the diff plan's view did not lose the lagging state's batch: no anomaly"

