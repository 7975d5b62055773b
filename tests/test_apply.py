"""Apply strategies, crash safety, concurrency and SCD2 history, on a Spark Thrift Server with
a dbt project that installs pdelta as a package (tests/apply/project.py): mirrors `cust` and
`addr` kept from canonical change feeds, and the dimension view over them two ways — Delta
clustered by key with SCD2 history and deletion vectors (`dim`) and parquet with key buckets
(`dim_pq`) — plus a one-relation view with history (`dim1`) for fault injection. The true states
live in Python (tests/apply/world.py); after every refresh each view must equal the view
recomputed from them, its change feed replayed from the
first build must reproduce it with every change consistent, and the history must equal the
history recomputed from the sequence of the view's states.

PDELTA_DEEP=1: 100 fault-injection points instead of 20."""
from __future__ import annotations

import json
import os
import re
import subprocess
import threading
import time
from pathlib import Path

import pytest

from apply.killer import DbtRunner
from apply.project import (ADAPTING, COMPLEMENT, OVER, OVER_ATTRS, SCHEMA, SMALL, VIEWS, feed_ddl, initial_ddl,
                           write_project)
from apply.world import (ADDR_ATTRS, CUST_ATTRS, NAMES, SMALL_ATTRS, SMALL_TRACKED, VIEW_ATTRS, World, replay_feed,
                         scd2, sql_value)
from pdelta.live import connect

pytestmark = pytest.mark.spark  # every test here runs Spark (make test-fast leaves them out)

ROOT = Path(__file__).resolve().parents[1]
DBT = DbtRunner()  # each dbt run a process forked from one that imported dbt once
DEEP = os.environ.get("PDELTA_DEEP") == "1"
FAULT_POINTS = int(os.environ.get("PDELTA_FAULT_POINTS", "100" if DEEP else "20"))
# PDELTA_FAULT_SAMPLE=N: only N kill points spread over the statement boundaries (make test's
# cluster lane kills one refresh; this module's own run covers every boundary)
FAULT_SAMPLE = int(os.environ.get("PDELTA_FAULT_SAMPLE", "0"))
SEED = int(os.environ.get("PDELTA_SEED", "20261126"))


def attrs_of(model: str) -> list[str]:
    return SMALL_ATTRS if model == SMALL[0] else VIEW_ATTRS


class It:
    def __init__(self, project: Path, port: int):
        self.project, self.port = project, port
        self.ex = connect(ROOT, "thrift")
        self.world = World.initial(SEED)
        # per view with history: its (batch id, state) after each batch
        self.states: dict[str, list[tuple[int, dict]]] = {"dim": [], SMALL[0]: []}
        self.initial: dict[str, dict] = {}               # each view's state at its full build
        self.env = {**os.environ, "PDELTA_TARGET": "thrift", "PDELTA_SCHEMA": SCHEMA,
                    "DBT_PROFILES_DIR": str(ROOT), "PDELTA_THRIFT_PORT": str(port)}

    def sql(self, s: str) -> list[tuple]:
        return self.ex.rows(s)

    def append(self, rows: list[dict], ex=None) -> None:
        for rel, key, attrs in (("cust", "cid", CUST_ATTRS), ("addr", "aid", ADDR_ATTRS)):
            mine = [r for r in rows if r["rel"] == rel]
            if not mine:
                continue
            values = []
            for r in mine:
                b = r["_before"]
                before = ("null" if b is None
                          else "named_struct(" + ", ".join(f"'{a}', {sql_value(b[a])}" for a in attrs) + ")")
                values.append("(" + ", ".join([sql_value(r[key]), *(sql_value(r[a]) for a in attrs), before,
                                               sql_value(r["_type"]), str(r["_seq"])]) + ")")
            (ex or self.ex).rows(f"insert into `{SCHEMA}`.`{rel}_changes` values " + ", ".join(values))

    def dbt(self, *args: str, kill_at: int | tuple[str, int] = 0, log: Path | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
        """dbt in a process of its own (SIGKILLed before statement `kill_at`, if given), with `env`
        on top of the module's environment"""
        return DBT.run(list(args), cwd=self.project, env={**self.env, **(env or {})}, kill_at=kill_at, log=log)

    def run(self, select: str | None = "cust addr dim dim_pq", log: Path | None = None,
            models=("dim", SMALL[0])) -> None:
        out = self.dbt("run", "--select", *(select or " ".join(["cust", "addr", *VIEWS, SMALL[0]])).split(), log=log)
        assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
        self.record_state(models)

    def record_state(self, models=("dim", SMALL[0])) -> None:
        for m in models:
            b = self.last_batch(m)
            if not self.states[m] or self.states[m][-1][0] != b:
                self.states[m].append((b, self.view_rows(m)))

    # ------------------------------------------------------------ reading what pdelta wrote
    def view_rows(self, model: str) -> dict[int, tuple]:
        if VIEWS.get(model, {}).get("file_format") == "parquet":
            # another session wrote it: Spark caches a plain table's file listing per session
            self.sql(f"refresh table `{SCHEMA}`.`{model}`")
        rows = self.sql(f"select cid, {', '.join(attrs_of(model))} from `{SCHEMA}`.`{model}`")
        out = {r[0]: tuple(r[1:]) for r in rows}
        assert len(out) == len(rows), f"{model}: duplicate keys"
        return out

    def rel_rows(self, rel: str) -> dict[int, dict]:
        key, attrs = ("cid", CUST_ATTRS) if rel == "cust" else ("aid", ADDR_ATTRS)
        rows = self.sql(f"select {key}, {', '.join(attrs)} from `{SCHEMA}`.`{rel}`")
        out = {r[0]: dict(zip(attrs, r[1:])) for r in rows}
        assert len(out) == len(rows), f"mirror {rel}: duplicate keys"
        return out

    def feed(self, model: str) -> list[dict]:
        cols = ["cid", *attrs_of(model), "_pdelta_before", "_pdelta_type", "_pdelta_seq"]
        rows = self.sql(f"select {', '.join(cols)} from `{SCHEMA}`.`{model}__pdelta_changes`")
        out = [dict(zip(cols, r)) for r in rows]
        for r in out:
            if isinstance(r["_pdelta_before"], str):
                r["_pdelta_before"] = json.loads(r["_pdelta_before"])
        return out

    def batch_log(self, model: str) -> list[dict]:
        cols = ["batch_id", "input", "lo", "hi", "counts", "mode", "strategy", "statements", "rows_written", "retried"]
        return [dict(zip(cols, r)) for r in self.sql(f"select {', '.join(f'`{c}`' for c in cols)} "
                                                     f"from `{SCHEMA}`.`{model}__pdelta_batches` "
                                                     "order by batch_id, `input`")]

    def last_batch(self, model: str) -> int:
        return max(r["batch_id"] for r in self.batch_log(model) if r["mode"] in ("full", "incremental"))

    def last_strategy(self, model: str) -> str:
        log = [r for r in self.batch_log(model) if r["mode"] in ("full", "incremental")]
        return log[-1]["strategy"]

    def history(self, model: str = "dim") -> set[tuple]:
        rows = self.sql(f"select cid, {', '.join(attrs_of(model))}, `_pdelta_valid_from`, `_pdelta_valid_to`, "
                        "`_pdelta_is_current` "
                        f"from `{SCHEMA}`.`{model}__pdelta_history`")
        for r in rows:
            assert (r[-2] is None) == bool(r[-1]), f"history row {r}: is_current disagrees with valid_to"
        return {tuple(r[:-1]) for r in rows}

    # ------------------------------------------------------------ the checks
    def check(self, models=tuple(VIEWS)) -> None:
        """Everything pdelta keeps equals its recomputation from the true states."""
        want = self.world.view()
        for rel in ("cust", "addr"):
            assert self.rel_rows(rel) == getattr(self.world, rel).rows, f"mirror {rel} differs from the true state"
        for model in models:
            got = self.view_rows(model)
            assert got == want, f"{model} differs from recomputation: missing {sorted(set(want) - set(got))[:5]}, " \
                                f"extra {sorted(set(got) - set(want))[:5]}, " \
                                f"wrong {[k for k in set(got) & set(want) if got[k] != want[k]][:5]}"
            replayed, problems = replay_feed(self.initial[model], self.feed(model))
            assert not problems, f"{model}'s change feed: {problems[:5]}"
            assert replayed == got, f"{model}'s change feed replayed from its first build does not give the view"
        assert self.history() == scd2(self.states["dim"]), \
            "SCD2 history differs from the history recomputed from the view's states"


def _only_kill_points(request) -> bool:
    """Whether the kill-point test is this module's only test in the run (make test's cluster lane
    selects it alone): the fixture then builds the two models it refreshes, not all five."""
    mine = [item for item in request.session.items if item.module is request.module]
    return bool(mine) and all(item.name.startswith("test_sigkill") for item in mine)


@pytest.fixture(scope="module")
def it(thrift_port, tmp_path_factory, request):
    project = tmp_path_factory.mktemp("apply_it")
    write_project(project, ROOT)
    h = It(project, thrift_port)
    h.sql(f"drop schema if exists `{SCHEMA}` cascade")
    h.sql(f"create schema `{SCHEMA}`")
    for rel in ("cust", "addr"):
        h.sql(feed_ddl(rel))
        h.sql(initial_ddl(rel))
        key, attrs = ("cid", CUST_ATTRS) if rel == "cust" else ("aid", ADDR_ATTRS)
        rows = getattr(h.world, rel).rows
        h.sql(f"insert into `{SCHEMA}`.`{rel}_initial` values "
              + ", ".join("(" + ", ".join([str(k), *(sql_value(v[a]) for a in attrs)]) + ")"
                          for k, v in sorted(rows.items())))
    out = h.dbt("deps")
    assert out.returncode == 0, out.stdout + out.stderr
    if _only_kill_points(request):
        h.run(f"cust {SMALL[0]}", models=(SMALL[0],))
        h.initial[SMALL[0]] = h.view_rows(SMALL[0])
        assert h.rel_rows("cust") == h.world.cust.rows, "mirror cust differs from the true state"
        assert h.initial[SMALL[0]] == h.world.small_view(), f"{SMALL[0]} differs from recomputation"
    else:
        h.run(None)
        for model in [*VIEWS, SMALL[0]]:
            h.initial[model] = h.view_rows(model)
        h.check()
    yield h
    h.sql(f"drop schema if exists `{SCHEMA}` cascade")
    h.ex.close()


def test_strategy_per_batch(it, tmp_path):
    w = it.world
    # insert-only: new customers at visible addresses -> the view gets only `ins`
    it.append([w.insert("cust", w.cust_image(aid), "ins") for aid in w.live_addrs()[:4]])
    it.run()
    assert {m: it.last_strategy(m) for m in ("cust", *VIEWS)} == {"cust": "append", "dim": "append", "dim_pq": "append"}
    it.check()
    # key-only deletes of customers in the view -> `delk` only
    gone = sorted(w.view())[:3]
    it.append([w.delete("cust", cid, "delk") for cid in gone])
    sent = tmp_path / "statements.log"
    it.run(log=sent)
    # each model's stage from the refresh before was there (dropped before the new one was written),
    # and its batch id came from dbt-spark's listing of the schema (staged_batch), not a statement
    sent = [line.split("\t", 1)[1] for line in sent.read_text().splitlines()]
    for model in ("cust", *VIEWS):  # the models this batch reaches (addr has no change)
        assert f"drop table if exists {SCHEMA}.{model}__pdelta_stage" in sent, (model, sent)
    assert not [s for s in sent if s.startswith("show tblproperties") and "__pdelta_stage" in s], sent
    assert {m: it.last_strategy(m) for m in ("cust", *VIEWS)} == {"cust": "delete_by_key", "dim": "delete_by_key",
                                                                  "dim_pq": "bucket_overwrite"}
    it.check()
    # partial updates of addresses fan out to view rows (city: tracked); an update pair of a
    # customer's tier (tracked: a new version); a partial update of another's name (untracked:
    # overwritten in the current version)
    aid = max(w.live_addrs(), key=lambda a: sum(c["aid"] == a for c in w.cust.rows.values()))
    # ... and, in the same batch, every view row of one bucket of dim_pq deleted (complete
    # deletes): the emptied bucket must be dropped
    bucket = it.sql(f"select `pdelta_bucket`, count(*) from `{SCHEMA}`.`dim_pq` group by 1 order by 2 limit 1")[0][0]
    emptied = [r[0] for r in it.sql(f"select cid from `{SCHEMA}`.`dim_pq` where `pdelta_bucket` = {int(bucket)}")]
    c_tier, c_name = [c for c in sorted(w.view()) if w.cust.rows[c]["aid"] != aid and c not in emptied][:2]
    versions_before = {c: len([r for r in it.history() if r[0] == c]) for c in (c_tier, c_name)}
    it.append([w.update("addr", aid, {"city": "bern" if w.addr.rows[aid]["city"] != "bern" else "oslo"}, "up"),
               w.update("cust", c_tier, {"tier": "gold" if w.cust.rows[c_tier]["tier"] != "gold" else "silver"}, "upd"),
               w.update("cust", c_name, {"name": "zed"}, "up"),
               *(w.delete("cust", c, "del") for c in emptied)])
    it.run()
    assert {m: it.last_strategy(m) for m in VIEWS} == {"dim": "delete_insert", "dim_pq": "bucket_overwrite"}
    log = [r for r in it.batch_log("dim") if r["mode"] == "incremental"][-1]
    # one scan of the stage gave the counts and set the key range the delete reads (staged_summary)
    assert json.loads(log["statements"])[:4] == ["declare_batch_summary", "set_batch_summary", "delete_keys", "main"], \
        log["statements"]
    written = json.loads(log["rows_written"])
    # every key of the batch deleted (the deleted customers and the replaced rows), the new
    # images of the (at least two) updated rows appended; nothing updated in place
    assert written.get("inserted", 0) >= 2 and written.get("deleted", 0) >= written["inserted"] + 1, written
    assert written.get("updated", 0) == 0, written
    # dim's tblproperties turned deletion vectors on: the batch's few keys (one-column key, at most
    # key_list_limit) went by a plain DELETE reading them from the summary variable, which marked
    # the rows it removed instead of rewriting files; the images were appended after it
    props = {r[0]: r[1] for r in it.sql(f"show tblproperties `{SCHEMA}`.`dim`")}
    assert props.get("delta.enableDeletionVectors") == "true", props
    ops = it.sql(f"describe history `{SCHEMA}`.`dim`")
    assert [ops[1][4], ops[0][4]] == ["DELETE", "WRITE"], [r[4] for r in ops[:3]]
    metrics = ops[1][12]
    metrics = json.loads(metrics) if isinstance(metrics, str) else metrics
    assert int(metrics.get("numDeletionVectorsAdded", 0)) > 0 and int(metrics.get("numCopiedRows", 0)) == 0, metrics
    assert int(metrics.get("numDeletedRows", 0)) == written["deleted"], (metrics, written)
    pq_log = [r for r in it.batch_log("dim_pq") if r["mode"] == "incremental"][-1]
    assert "drop_empty_bucket" in json.loads(pq_log["statements"]), pq_log
    it.check()
    history = it.history()
    assert len([r for r in history if r[0] == c_tier]) == versions_before[c_tier] + 1, \
        "a tracked change opens a version"
    assert len([r for r in history if r[0] == c_name]) == versions_before[c_name], "an untracked change does not"
    assert [r for r in history if r[0] == c_name and r[-1] is None][0][1] == "zed"
    assert all(r[-1] is not None for r in history if r[0] in emptied), "deletes close the current version"
    detail = it.sql(f"describe detail `{SCHEMA}`.`dim`")[0]
    assert any(str(v).replace(" ", "") in ('["cid"]', "['cid']", "[cid]") for v in detail), \
        f"dim is clustered by its key: {detail}"


def test_concurrent_appends_land_exactly_once(it):
    """Feed rows appended while a refresh runs are applied by that refresh or the next, once."""
    w = it.world
    stop = threading.Event()
    appended = []

    def appender():
        ex = connect(ROOT, "thrift")
        try:
            while not stop.is_set():
                rows = w.change(2)
                it.append(rows, ex)
                appended.append(max(r["_seq"] for r in rows))
                time.sleep(0.3)
        finally:
            ex.close()

    t = threading.Thread(target=appender)
    t.start()
    try:
        it.run("cust addr dim")
    finally:
        stop.set()
        t.join()
    cust_hi, addr_hi = (max((r["hi"] for r in it.batch_log(m) if r["mode"] in ("full", "incremental")
                             and r["hi"] is not None),
                            default=None) for m in ("cust", "addr"))
    assert appended and max(appended) > min(cust_hi or 0, addr_hi or 0), \
        "no feed row landed after a mirror froze its range"
    # the view read each mirror up to the position its state reflects, not the feed's end
    dim_in = {r["input"]: r["hi"] for r in it.batch_log("dim") if r["batch_id"] == it.last_batch("dim")}
    assert dim_in == {"c": cust_hi, "a": addr_hi}, dim_in
    assert it.view_rows("dim") == w.view(w.rows_at("cust", cust_hi), w.rows_at("addr", addr_hi))
    it.run("cust addr dim")
    it.check(models=("dim",))


def _stage_of(model: str) -> str:
    """the statement that computes a refresh's batch (create_stage): a run paused before it has frozen
    its bounds and read no state yet"""
    return rf"^create (or replace )?table {SCHEMA}\.{model}__pdelta_stage\b"


def _race(it, model: str, during: str, folder: Path, pin: bool = True) -> None:
    """`dbt run --select model`, paused before its stage statement while `dbt run --select during`
    commits (both on the Thrift Server, each in a process of its own)"""
    folder.mkdir()
    args = ["run", "--select", model, *([] if pin else ["--vars", "{pdelta_pin_states: false}"])]
    result = {}
    paused = threading.Thread(target=lambda: result.update(
        out=DBT.run(args, cwd=it.project, env=it.env, pause=(_stage_of(model), folder))))
    paused.start()
    try:
        deadline = time.monotonic() + 600
        while not (folder / "paused").exists():
            assert paused.is_alive() and time.monotonic() < deadline, result.get("out")
            time.sleep(0.1)
        out = it.dbt("run", "--select", *during.split())
        assert out.returncode == 0, out.stdout[-4000:]
    finally:
        (folder / "resume").write_text("")
        paused.join()
    assert result["out"].returncode == 0, result["out"].stdout[-4000:]


def test_states_read_as_of_the_bound_while_they_commit(it, tmp_path):
    """A state pdelta writes is read as of the batch the refresh's bound names, even when it commits
    its next batch while the refresh runs (issue #20): `dim` paused before its stage statement while
    the mirrors `cust` and `addr` commit a batch that changes the same customers again, then
    `dim_over` (a view over dim's feed, dim its state) paused while `dim` commits. Each ends equal to
    its recomputation at its recorded bound, not a mix of two states; with `pdelta_pin_states: false`
    the same race leaves `dim` with the later batch's values for the keys its bound's batch reached
    (the test can fail). Last, every view catches up and equals the true states."""
    w = it.world
    it.run("cust addr dim", models=("dim",))
    out = it.dbt("run", "--select", OVER)
    assert out.returncode == 0, out.stdout[-4000:]

    def over_rows() -> dict[int, tuple]:
        rows = it.sql(f"select cid, {', '.join(OVER_ATTRS)} from `{SCHEMA}`.`{OVER}`")
        return {r[0]: tuple(r[1:]) for r in rows}

    def projected(view_rows: dict[int, tuple]) -> dict[int, tuple]:
        return {k: (v[0], v[2]) for k, v in view_rows.items()}  # VIEW_ATTRS name, tier, city, country

    def mirror_hi(model: str) -> int | None:
        return max((r["hi"] for r in it.batch_log(model) if r["mode"] in ("full", "incremental")
                    and r["hi"] is not None), default=None)

    assert over_rows() == projected(it.view_rows("dim"))
    reached = sorted(w.view())[:4]

    def rename(round_: str) -> None:  # the same customers renamed again each round, partial images
        it.append([w.update("cust", c, {"name": f"{round_}{c}"}, "up") for c in reached])

    # the mirrors take round a; then round b lands in the feeds, and the mirrors commit it while dim,
    # bounded at round a, waits before its stage
    rename("a")
    it.run("cust addr", models=())
    bound = {"cust": mirror_hi("cust"), "addr": mirror_hi("addr")}
    at_bound = w.view(w.rows_at("cust", bound["cust"]), w.rows_at("addr", bound["addr"]))
    rename("b")
    _race(it, "dim", "cust addr", tmp_path / "dim")
    it.record_state(("dim",))
    dim_in = {r["input"]: r["hi"] for r in it.batch_log("dim") if r["batch_id"] == it.last_batch("dim")}
    assert dim_in == {"c": bound["cust"], "a": bound["addr"]}, (dim_in, bound)
    assert it.view_rows("dim") == at_bound, "dim read a mirror past its bound"
    assert all(it.view_rows("dim")[c][0] == f"a{c}" for c in reached if c in at_bound)
    dim_at_bound, dim_batch = it.view_rows("dim"), it.last_batch("dim")
    # the views' logs keep their table's version with each batch: dim's is the one its rows are at
    props = {r[0]: r[1] for r in it.sql(f"show tblproperties `{SCHEMA}`.`dim__pdelta_batches`")}
    kept = json.loads(props["pdelta.version"])
    latest = it.sql(f"describe history `{SCHEMA}`.`dim` limit 1")[0][0]
    assert kept["batch"] == dim_batch and kept["table_version"] <= latest, (kept, latest)
    # dim_over, bounded at dim's batch, waits while dim commits round b
    _race(it, OVER, "dim", tmp_path / "over")
    it.record_state(("dim",))
    assert it.last_batch("dim") > dim_batch
    over_in = [r["hi"] for r in it.batch_log(OVER) if r["batch_id"] == it.last_batch(OVER)]
    assert over_in == [dim_batch], over_in
    assert over_rows() == projected(dim_at_bound), "dim_over read dim past its bound"
    assert over_rows() != projected(it.view_rows("dim")), "round b reached none of dim_over's rows"
    # the same race with the states read as they are: dim shows round d's names with round c's bound
    rename("c")
    it.run("cust addr", models=())
    bound = {"cust": mirror_hi("cust"), "addr": mirror_hi("addr")}
    at_bound = w.view(w.rows_at("cust", bound["cust"]), w.rows_at("addr", bound["addr"]))
    rename("d")
    _race(it, "dim", "cust addr", tmp_path / "unpinned", pin=False)
    it.record_state(("dim",))
    mixed = it.view_rows("dim")
    assert mixed != at_bound and any(mixed[c][0] == f"d{c}" for c in reached if c in mixed), \
        "unpinned, dim still read the mirrors as of its bound: the race did not happen"
    # every view catches up
    it.run("cust addr dim", models=("dim",))
    out = it.dbt("run", "--select", OVER)
    assert out.returncode == 0, out.stdout[-4000:]
    it.check(models=("dim",))
    assert over_rows() == projected(it.view_rows("dim"))


def _fault_points(n: int, fresh: int) -> list[int]:
    """n kill points over the statement boundaries 1..fresh: each boundary once before any twice."""
    step = next(p for p in (7, 5, 3, 1) if fresh % p or p == 1)
    return [1 + (i * step) % fresh for i in range(n)]


def test_sigkill_at_statement_boundaries_then_rerun(it, tmp_path):
    """SIGKILL the dbt process before a statement of a refresh (mirror `cust`, then the
    one-relation view `dim1` with history), rerun: the mirror and the view equal their
    recomputation, no key twice, the view's change feed holds each change once, the history
    equals the one recomputed from the view's states. Every third point also stops the rerun."""
    w = it.world
    view = SMALL[0]
    select = ["--select", "cust", view]

    def check(k, last, full):
        """The view against recomputation after every rerun; the mirror, the feed replay and the
        history (cumulative: a fault anywhere earlier still shows) every fifth point and last."""
        at = f"kill before statement {k} ({last})"
        got = it.states[view][-1][1]
        assert got == w.small_view(), f"{at}: {view} differs from recomputation"
        if full:
            assert it.rel_rows("cust") == w.cust.rows, f"{at}: mirror cust differs from the true state"
            replayed, problems = replay_feed(it.initial[view], it.feed(view), SMALL_ATTRS)
            assert not problems and replayed == got, f"{at}: change feed {problems[:3]}"
            assert it.history(view) == scd2(it.states[view], SMALL_ATTRS, SMALL_TRACKED), f"{at}: history"

    # the statements of an uninterrupted refresh, to spread the kill points over
    it.append(w.change(5, rels=("cust",)))
    count_log = tmp_path / "statements.txt"
    out = it.dbt("run", *select, log=count_log)
    assert out.returncode == 0, out.stdout[-3000:]
    it.record_state([view])
    check(0, "no kill", True)
    fresh = len(count_log.read_text().splitlines())
    if FAULT_SAMPLE:  # N boundaries, evenly spread, the first in the middle of the refresh
        points = sorted({1 + (fresh // 2 + i * fresh // FAULT_SAMPLE) % fresh for i in range(FAULT_SAMPLE)})
    else:  # at least FAULT_POINTS kills, and every statement boundary of the refresh at least once
        points = _fault_points(max(FAULT_POINTS, fresh), fresh)
    killed, started = 0, time.time()
    for i, k in enumerate(points):
        it.append(w.change(4, rels=("cust",)))
        log = tmp_path / f"kill_{i}.txt"
        out = it.dbt("run", *select, kill_at=k, log=log)
        if out.returncode == -9:
            killed += 1
            last = log.read_text().splitlines()[-1].split("\t", 1)[1][:100]
            if i % 3 == 2:   # stopped again while retrying
                out2 = it.dbt("run", *select, kill_at=max(1, k // 2))
                assert out2.returncode in (-9, 0), out2.stdout[-3000:]
        else:
            assert out.returncode == 0, out.stdout[-3000:]
            last = "the refresh had fewer statements"
        out = it.dbt("run", *select)
        assert out.returncode == 0, f"rerun after a kill before statement {k} ({last}) failed:\n" + out.stdout[-3000:]
        it.record_state([view])
        check(k, last, i % 5 == 4 or i == len(points) - 1)
    print(f"\n[faults] {killed} runs killed at {len(set(points))} distinct statement boundaries "
          f"(of {fresh} in a refresh of cust + {view}), each rerun checked; {time.time() - started:.0f}s")
    assert killed >= 0.9 * len(points), f"only {killed} of {len(points)} runs were stopped"
    if not FAULT_SAMPLE:
        assert set(points) == set(range(1, fresh + 1))


def test_kill_around_the_complement_batch_then_rerun(it, tmp_path):
    """Complement mode (issue #21): a refresh of `dim_c` keeps its complement from its batch before the view's rows
    change: the rows it touches staged, deleted (with the old batch marker) and inserted (with the new one).
    SIGKILL the refresh before the DELETE, between the DELETE and the INSERT (the complement has no marker) and
    just after the INSERT (the view not yet written); rerun (the staged batch applied again), run once more: the
    view equals its recomputation and the complement gives back both mirrors (the package's data test). A refresh
    after a kill before the INSERT leaves the complement behind, and the next run rebuilds it; after a kill past
    it, the complement's marker names the view's batch, and the next refresh keeps it from its batch again."""
    w = it.world

    def dbt_ok(*args: str, **kw) -> str:
        out = it.dbt(*args, **kw)
        assert out.returncode == 0, out.stdout[-4000:]
        return out.stdout

    def check(at: str) -> None:
        assert it.view_rows(COMPLEMENT) == w.view(), f"{at}: {COMPLEMENT} differs from recomputation"
        out = it.dbt("test", "--select", "complements_reconstruct_states")
        assert out.returncode == 0, f"{at}: the complement does not give back the mirrors:\n" + out.stdout[-3000:]

    def refresh_mirrors() -> None:
        it.append(w.change(4))
        dbt_ok("run", "--select", "cust", "addr")

    dbt_ok("run", "--select", "cust", "addr", COMPLEMENT)
    check("built")
    refresh_mirrors()
    out = dbt_ok("run", "--select", COMPLEMENT)
    assert "its complement kept from the batch" in out, out[-3000:]
    check("refreshed")
    # by what the statement says: the counts before it differ from run to run (dbt's relation cache)
    delete, insert = r"^delete from \S+__pdelta_complement ", r"^insert into \S+__pdelta_complement "
    for i, k in enumerate(((delete, 0), (insert, 0), (insert, 1))):
        refresh_mirrors()
        log = tmp_path / f"kill_{i}.txt"
        out = it.dbt("run", "--select", COMPLEMENT, kill_at=k, log=log)
        assert out.returncode == -9, f"the run before statement {k} was not stopped:\n" + out.stdout[-3000:]
        last = log.read_text().splitlines()[-1].split("\t", 1)[1][:100]
        assert bool(re.search(k[0], last, re.IGNORECASE)) == (k[1] == 0), \
            f"kill before statement {k}: {last}"
        dbt_ok("run", "--select", COMPLEMENT)   # the staged batch, applied again
        # nothing new: the complement is rebuilt only when the kill came before its INSERT
        out = dbt_ok("run", "--select", COMPLEMENT)
        rebuilt = "its complement rebuilt from the states" in out
        assert rebuilt == (i < 2), f"kill before {k}: " + out[-3000:]
        check(f"kill before statement {k} ({last})")
        refresh_mirrors()
        out = dbt_ok("run", "--select", COMPLEMENT)
        assert "its complement kept from the batch" in out, f"after a kill before statement {k}: " + out[-3000:]
        check(f"the refresh after a kill before statement {k} ({last})")


def test_kill_while_adapting_then_rerun(it, tmp_path):
    """A view whose declaration changes before each run (a column renamed back and forth, a column
    added and dropped, its selection switched: dim1_adapting) adapts in its batch; SIGKILL the run
    before a statement — the columns' ALTERs, the added column's fill, the stage, the apply, the
    commit — then rerun under the same declaration: the view equals its recomputation under the new
    one with the new columns (the added one's values too), its last batch is `adapted` (not a
    rebuild), its change feed, read under the new names, replays from the view as it was before
    the run to the view after it (on the columns both have), and its SCD2 history, renamed with it,
    keeps every version it held, its current ones the view's rows."""
    w = it.world
    select = ["--select", "cust", ADAPTING]

    def expected(turn: int) -> dict[int, tuple]:
        excluded = "silver" if turn % 2 else "bronze"
        return {cid: (c["name"], c["tier"]) + ((c["aid"],) if turn % 2 else ())
                for cid, c in w.cust.rows.items() if c["tier"] != excluded}

    def held(turn: int) -> tuple[list[str], dict[int, tuple], list[dict]]:
        name = "customer_name" if turn % 2 else "name"
        columns = [r[0] for r in it.sql(f"describe `{SCHEMA}`.`{ADAPTING}`") if r[0] and not r[0].startswith("#")]
        rows = {r[0]: tuple(r[1:]) for r in it.sql(f"select cid, `{name}`, tier{f', aid_{turn}' if turn % 2 else ''} "
                                                    f"from `{SCHEMA}`.`{ADAPTING}`")}
        cols = ["cid", name, "tier", "_pdelta_before", "_pdelta_type", "_pdelta_seq"]
        feed = [dict(zip(cols, r)) for r in it.sql(f"select {', '.join(f'`{c}`' for c in cols)} "
                                                   f"from `{SCHEMA}`.`{ADAPTING}__pdelta_changes`")]
        for r in feed:
            if isinstance(r["_pdelta_before"], str):
                r["_pdelta_before"] = json.loads(r["_pdelta_before"])
            r["name"] = r.pop(name)
            if r["_pdelta_before"] is not None and name in r["_pdelta_before"]:
                r["_pdelta_before"]["name"] = r["_pdelta_before"].pop(name)
        return columns, rows, feed

    # (cid, valid_from) -> (name, tier, valid_to) of every history version seen after a run
    versions: dict[tuple[int, int], tuple] = {}

    def check_history(turn: int, rows: dict[int, tuple], at: str) -> None:
        """the history under the turn's names: current versions = the view's rows, no key's versions
        overlapping, and every version seen before still there, its values kept (`aid` aside: the
        current versions take the view's `aid_<turn>`) and closed at most once"""
        name = "customer_name" if turn % 2 else "name"
        history = it.sql(f"select cid, `{name}`, tier, {f'aid_{turn}' if turn % 2 else 'null'}, `_pdelta_valid_from`, "
                         f"`_pdelta_valid_to`, `_pdelta_is_current` from `{SCHEMA}`.`{ADAPTING}__pdelta_history`")
        current = {r[0]: r[1:3] + (r[3:4] if turn % 2 else ()) for r in history if r[6]}
        assert len(current) == sum(r[6] for r in history), f"{at}: a key with two current versions"
        assert current == rows, f"{at}: the history's current versions differ from the view"
        by_key: dict[int, list[tuple]] = {}
        for r in history:
            assert (r[5] is None) == r[6], f"{at}: version {r}: is_current disagrees with valid_to"
            by_key.setdefault(r[0], []).append((r[4], r[5]))
        for cid, spans in by_key.items():
            spans.sort(key=lambda span: span[0])
            assert all(a[1] is not None and a[1] <= b[0] for a, b in zip(spans, spans[1:])), \
                f"{at}: versions of {cid} overlap: {spans}"
        now = {(r[0], r[4]): (r[1], r[2], r[5]) for r in history}
        for version, (was_name, was_tier, was_to) in versions.items():
            got = now.get(version)
            assert got is not None and got[:2] == (was_name, was_tier) and was_to in (None, got[2]), \
                f"{at}: history version {version} {(was_name, was_tier, was_to)} lost or changed: {got}"
        versions.update(now)

    def run(turn: int, kill_at: int = 0, log: Path | None = None):
        return it.dbt("run", *select, kill_at=kill_at, log=log, env={"PDELTA_ADAPT_TURN": str(turn)})

    def steady_change() -> list[dict]:
        """one insert, one update and one delete of `gold` customers (kept under every turn's selection): each
        run then sends the statements the counted runs sent, so a kill point names the same statement in
        every run (a random batch with no insert sent one statement fewer, which moved every later point by
        one and left the last one past the run's end)"""
        gold = sorted(cid for cid, c in w.cust.rows.items() if c["tier"] == "gold")
        assert len(gold) >= 2, f"too few gold customers left to change: {gold}"
        updated = w.rng.choice(gold)
        deleted = w.rng.choice([cid for cid in gold if cid != updated])
        name = w.rng.choice([n for n in NAMES if n != w.cust.rows[updated]["name"]])
        return [w.insert("cust", {**w.cust_image(), "tier": "gold"}, "ins"),
                w.update("cust", updated, {"name": name}, "upd"), w.delete("cust", deleted, "del")]

    out = run(0)
    assert out.returncode == 0, out.stdout[-3000:]
    _, rows, _ = held(0)
    assert rows == expected(0)
    check_history(0, rows, "first build")
    # three uninterrupted adapting runs: the first turns column mapping on, the second's statements are
    # the ones every later even run sends, the third's every later odd one's (those add `aid` and fill it)
    sent_by_turn = {}
    for turn in (1, 2, 3):
        it.append(steady_change())
        count_log = tmp_path / f"adapting_{turn}.txt"
        assert run(turn, log=count_log).returncode == 0
        sent = sent_by_turn[turn] = [line.split("\t", 1)[1] for line in count_log.read_text().splitlines()]
        assert held(turn)[1] == expected(turn)
        check_history(turn, held(turn)[1], f"uninterrupted turn {turn}")
        if turn == 1:  # the view, its feed and its history
            assert sum("columnmapping.mode" in text.lower() for text in sent) == 3, sent
    sent, sent_odd = sent_by_turn[2], sent_by_turn[3]
    renames = [i + 1 for i, text in enumerate(sent) if text.startswith("alter table") and "rename column" in text]
    assert len(renames) == 4, sent  # the view's column, the feed's, the feed's before-image field, the history's
    def marked_and_committed(statements: list[str]) -> tuple[int, int]:
        return (next(i + 1 for i, text in enumerate(statements) if "pdelta.adapting" in text),
                next(i + 1 for i, text in enumerate(statements)
                     if text.startswith(f"insert into {SCHEMA}.{ADAPTING}__pdelta_batches")))

    marked, committed = marked_and_committed(sent)
    # before the log's mark, the ALTERs and after them, at the stage, the apply and the commit: the
    # statements spread over the run, the ALTERs' neighbourhood each (as later runs send them) ...
    spread = sorted({marked, marked + 1, *renames, renames[-1] + 1, *(1 + i * len(sent) // 5 for i in range(5)),
                     len(sent)})
    # ... and on the first two runs that add `aid` (odd turns), at its fill and after it. The run of
    # iteration i is killed under turn 4 + i less the changes back before it (every third)
    fill = next(i + 1 for i, text in enumerate(sent_odd) if text.startswith(f"insert overwrite table {SCHEMA}"))
    fills, points = [fill, fill + 1], []
    for i in range(len(spread) + len(fills)):
        odd = (4 + i - i // 3) % 2 == 1
        points.append(fills.pop(0) if odd and fills else spread[len(points) - (2 - len(fills))])
    killed_at_fill = 0
    killed, turn = 0, 3
    for i, k in enumerate(points):
        turn += 1
        before_rows = held(turn - 1)[1]
        logged = len(it.batch_log(ADAPTING))
        it.append(steady_change())
        log = tmp_path / f"adapt_kill_{turn}.txt"
        out = run(turn, kill_at=k, log=log)
        killed += out.returncode == -9
        assert out.returncode in (-9, 0), out.stdout[-3000:]
        last = log.read_text().splitlines()[-1].split("\t", 1)[1][:100] if log.exists() else "?"
        killed_at_fill += out.returncode == -9 and last.startswith("insert overwrite")
        # every third time the declaration is changed back before the rerun: the rows and columns the
        # stopped run left must not stay (the view adapts back, or rebuilds when its columns changed)
        revert = i % 3 == 2
        if revert:
            turn -= 1
            # explain says what the run will do: rebuild, when the stopped run marked the log and did not commit
            out = it.dbt("run-operation", "pdelta.explain_refresh", "--args", f"{{model_name: {ADAPTING}}}",
                         env={"PDELTA_ADAPT_TURN": str(turn)})
            assert out.returncode == 0, out.stdout[-3000:]
            said = "a run that stopped had changed its columns for another declaration" in out.stdout
            # the stopped run's turn (this one's plus one) sent the statements its parity sends
            mark, commit = marked_and_committed(sent_odd if (turn + 1) % 2 else sent)
            assert said == (mark < k <= commit), f"explain after a kill before statement {k}: {said}"
        at = f"killed before statement {k} ({last}), rerun under turn {turn}" + (", changed back" if revert else "")
        for _ in range(2 if revert else 1):  # changed back: a retry of the stopped batch, then the adaptation back
            out = run(turn)
            assert out.returncode == 0, f"{at}: the rerun failed:\n" + out.stdout[-3000:]
        columns, rows, feed = held(turn)
        assert columns == (["cid", "customer_name" if turn % 2 else "name", "tier"]
                           + ([f"aid_{turn}"] if turn % 2 else [])), \
            f"{at}: columns {columns}"
        assert rows == expected(turn), f"{at}: the view differs from its recomputation"
        check_history(turn, rows, at)
        modes = [r["mode"] for r in it.batch_log(ADAPTING)][logged:]
        if not revert:  # adapted, never rebuilt
            assert modes and modes[-1] == "adapted" and "full" not in modes, f"{at}: batches {modes}"
            batch = [r for r in feed if r["_pdelta_seq"] == max(x["_pdelta_seq"] for x in feed)]
            replayed, problems = replay_feed({cid: row[:2] for cid, row in before_rows.items()},
                                             sorted(batch, key=lambda r: r["cid"]), SMALL_ATTRS)
            assert not problems and replayed == {cid: row[:2] for cid, row in rows.items()}, \
                f"{at}: the adapting batch does not replay: {problems[:3]}"
    print(f"\n[faults] adapting runs: {killed} of {len(points)} killed (statements {points} of {len(sent)}), "
          "each rerun adapted and equal to recomputation")
    assert killed == len(points), f"only {killed} of {len(points)} adapting runs were stopped"
    assert killed_at_fill >= 1, "no run was stopped at the fill of a column it added"
