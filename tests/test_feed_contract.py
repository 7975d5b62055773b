"""The feed contract (issue #22), property-based: seeded random valid states and feeds, mutated
into each kind of bad input, refreshed through dbt as a user project runs them.

One dbt project holds every case (tests/contract/project.py): per case its own states and feeds
and a two-relation dimension view refreshed with each plan (rules, diff), or a mirror. Three
`dbt run`s: the full build; a valid step plus each case's mutation (tests/contract/
mutations.py); the fix (bad rows deleted, rewritten rows restored, feed schemas restored, the
state's duplicate removed) plus one more valid step. After the mutation run each model must have
  * stopped (pdelta_bad_rows: stop, the default, or a break no quarantine may take): its run
    fails naming the rule and the input (row rules: also `breaks the feed contract` and an
    example row), and the view, its `__pdelta_changes` feed and its `__pdelta_batches` log got
    no Delta commit, nothing was quarantined; or
  * quarantined (pdelta_bad_rows: quarantine): exactly the bad rows are in
    `<model>__pdelta_quarantine` with their rule, and the view equals full recomputation;
  * or applied truthful rows its technique cannot emit (pdelta_unexpected_sets: warn), logged.
Never a silent drop (the fix run must apply every valid row a stopped run left) and never a
duplicate view key. After the fix each model refreshes with a plain `dbt run`, equals full
recomputation, and quarantines nothing again.

Row-level kinds run under stop (in three groups) and under quarantine (all in one case); the
kinds that always stop, one per case, run under quarantine, where stopping is the claim that
matters (under stop they take the same path as any stop). Every case runs with both plans.
Seed: PDELTA_CONTRACT_SEED (default 20261127; `random` draws a fresh one; printed). Work folder: PDELTA_CONTRACT_DIR.
"""
from __future__ import annotations

import os
import random
import re
import shutil
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from contract.mutations import ALIAS, KEY, ROW_KINDS, RULE, STOP_KINDS, Mutation, World
from contract.project import (CHANGES_SCHEMA, PLANS, SCHEMA, STATES_SCHEMA, create_relation_views, feed_name,
                              mirror_model, rel_name, set_feed, view_model, write_project)
from pdelta_env import kernel_rows, use_local_target

ROOT = Path(__file__).resolve().parents[1]
# a fixed default keeps `make test` reproducible; PDELTA_CONTRACT_SEED=random draws a fresh one
_SEED = os.environ.get("PDELTA_CONTRACT_SEED", "20261127")
SEED = random.SystemRandom().randrange(2**31) if _SEED == "random" else int(_SEED)
QUARANTINE_COLUMNS = ["batch_id", "input", "changes", "rule", "reason", "_pdelta_seq", "row"]


@dataclass(frozen=True)
class Case:
    name: str
    kinds: tuple[str, ...]  # "row": a row-level kind of c drawn per seed (the mirror's cases)
    mode: str  # stop | quarantine | warn
    mirror: bool = False
    plans: tuple[str, ...] = PLANS

    @property
    def config(self) -> dict:
        # stop cases leave pdelta_bad_rows unset: stopping is the default
        return {"quarantine": {"pdelta_bad_rows": "quarantine"},
                "warn": {"pdelta_unexpected_sets": "warn"}}.get(self.mode, {})

    @property
    def expect(self) -> str:
        if self.mode == "warn":
            return "warn"
        return "quarantine" if self.mode == "quarantine" and self.kinds[0] not in STOP_KINDS else "stop"

    @property
    def models(self) -> list[str]:
        return [mirror_model(self.name)] if self.mirror else [view_model(self.name, p) for p in self.plans]

    @property
    def rels(self) -> tuple[str, ...]:
        return ("c",) if self.mirror else ("c", "a")


# row-level kinds under stop in three groups (a stop names every rule its rows break), under
# quarantine all in one case
STOP_GROUPS = (("type", "upd_images", "del_image"), ("key_null", "delk_attrs"), ("before_image", "disjoint",
                                                                                 "technique"))
CASES = ([Case("_".join(g) + "_stop", g, "stop") for g in STOP_GROUPS]
         + [Case("rows_quar", tuple(ROW_KINDS), "quarantine")]
         + [Case(f"{k}_quar", (k,), "quarantine") for k in STOP_KINDS]
         + [Case("technique_warn", ("technique_warn",), "warn"),
            Case("mirror_stop", ("row",), "stop", mirror=True),
            Case("mirror_quar", ("row", "row", "row"), "quarantine", mirror=True)])
MODELS = [(case, m) for case in CASES for m in case.models]


META = ("", "__pdelta_changes", "__pdelta_batches", "__pdelta_quarantine")  # a model's tables, by suffix


class Harness:
    def __init__(self, spark, project: Path):
        from dbt.cli.main import dbtRunner

        self.spark, self.project = spark, project
        self.warehouse = Path(spark.conf.get("spark.sql.warehouse.dir").removeprefix("file:")) / f"{SCHEMA}.db"
        self.runner = dbtRunner(callbacks=[self._on_event])
        self.feed_events: list[tuple[str, str]] = []  # (node, message) of log lines naming a feed rule

    def _on_event(self, ev):
        msg = getattr(ev.info, "msg", "") or ""
        if "feed-" in msg:
            node = getattr(getattr(getattr(ev, "data", None), "node_info", None), "node_name", "") or ""
            self.feed_events.append((node, msg))

    def dbt(self, *args: str) -> dict[str, tuple[str, str]]:
        """node name -> (status, message); a run that got no node results raises"""
        res = self.runner.invoke([*args, "--project-dir", str(self.project), "--profiles-dir", str(ROOT)])
        if args[0] != "run":
            assert res.success, f"dbt {args[0]}: {res.exception}"
            return {}
        assert res.result is not None, f"dbt {' '.join(args)}: {res.exception}"
        return {r.node.name: (str(r.status), str(r.message or "")) for r in res.result}

    def write_states(self, rows: list[dict]):
        # the states in parquet (the feeds stay Delta: the fix deletes rows from them): every
        # distinct read of a Delta table costs a Spark job for its file listing, a tenth of this
        # module's CPU, and the relations are views over the table either way
        data = [(r["rel"], r.get("cid"), r.get("name"), r.get("aid"), r.get("city")) for r in rows]
        self.spark.createDataFrame(data, STATES_SCHEMA).write.format("parquet").mode("overwrite") \
            .saveAsTable(f"{SCHEMA}.all_states")

    def append_changes(self, rows: list[dict], mode: str = "append"):
        def tup(r):
            b = r["before"] or {}
            return (r["rel"], r["rid"], r["cid"], r["name"], r["aid"], r["city"], r["before"] is not None,
                    b.get("name"), b.get("aid"), b.get("city"), r["type"], r["seq"], r["bogus"])
        self.spark.createDataFrame([tup(r) for r in rows], CHANGES_SCHEMA).write.format("delta").mode(mode) \
            .saveAsTable(f"{SCHEMA}.all_changes")

    def delete_changes(self, rids: list[str]):
        if rids:
            self.spark.sql(f"delete from {SCHEMA}.all_changes where rid in ({', '.join(map(repr, rids))})")

    def versions(self) -> dict[str, int | None]:
        """each model table's latest Delta version (None: no table), from its _delta_log folder:
        a stopped refresh must commit to none of them (and this costs no Spark job)"""
        out = {}
        for _, m in MODELS:
            for suffix in META:
                log = self.warehouse / f"{m}{suffix}" / "_delta_log"
                commits = [int(p.stem) for p in log.glob("*.json") if p.stem.isdigit()]
                out[m + suffix] = max(commits) if commits else None
        return out

    def rows(self, models: list[tuple[Case, str]]) -> dict[str, list[tuple]]:
        """the rows of the given models, in one query"""
        parts = [f"select '{m}', cid, name, aid, {'null' if case.mirror else 'city'} from {SCHEMA}.{m}"
                 for case, m in models]
        out = {m: [] for _, m in models}
        for r in kernel_rows(self.spark, "\nunion all\n".join(parts)) if parts else []:
            out[r[0]].append(tuple(r[1:4] if r[0] in MIRRORS else r[1:5]))
        return {m: sorted(v) for m, v in out.items()}

    def quarantine(self, versions: dict) -> dict[str, list[dict]]:
        """each model's quarantined rows ([]: none, or no table), in one query"""
        found = [m for _, m in MODELS if versions[f"{m}__pdelta_quarantine"] is not None]
        out = {m: [] for _, m in MODELS}
        cols = ", ".join(f"`{c}`" for c in QUARANTINE_COLUMNS)
        parts = [f"select '{m}', {cols} from {SCHEMA}.{m}__pdelta_quarantine" for m in found]
        for r in kernel_rows(self.spark, "\nunion all\n".join(parts)) if parts else []:
            out[r[0]].append(dict(zip(QUARANTINE_COLUMNS, r[1:])))
        return out


MIRRORS = {m for case, m in MODELS if case.mirror}


@pytest.fixture(scope="module")
def run():
    """Builds, mutates and fixes every case; returns what each phase left."""
    from pdelta.spark import session_from_profile

    print(f"\n[contract] seed {SEED} (rerun with PDELTA_CONTRACT_SEED={SEED})", flush=True)
    t0 = time.time()
    work = Path(os.environ.get("PDELTA_CONTRACT_DIR", ROOT / ".pdelta" / "tests" / "contract"))
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    restore = use_local_target(work / "spark", SCHEMA)
    write_project(work / "project", ROOT, CASES)
    spark = session_from_profile(ROOT)
    spark.sql(f"drop database if exists {SCHEMA} cascade")
    spark.sql(f"create database {SCHEMA}")
    h = Harness(spark, work / "project")
    h.dbt("deps", "--quiet")
    rng = random.Random(SEED)
    worlds = {case.name: World(case.name, random.Random(rng.random())) for case in CASES}
    out = {"results": {}, "versions": {}, "rows": {}, "expected": {}, "quarantine": {}, "mutations": {}}

    def states(extra=()):
        return [dict(r, rel=rel_name(n, r["rel"])) for n, w in worlds.items() for r in w.state_rows()] \
            + [dict(r, rel=rel_name(n, r["rel"])) for n, r in extra]

    def tagged(rows, name):
        return [dict(r, rel=rel_name(name, r["rel"])) for r in rows]

    def dbt_run(phase, read):
        """one `dbt run` of every model; then the tables' versions, the rows of the models in
        `read` and every quarantine"""
        t = time.time()
        out["results"][phase] = h.dbt("run", "--threads", "2")
        took = time.time() - t
        out["versions"][phase] = h.versions()
        out["rows"][phase] = h.rows(read)
        out["quarantine"][phase] = h.quarantine(out["versions"][phase])
        out["expected"][phase] = {m: worlds[c.name].mirror() if c.mirror else worlds[c.name].view()
                                  for c, m in MODELS}
        failed = sorted(n for n, (s, _) in out["results"][phase].items() if s != "success")
        print(f"[contract] {phase}: dbt run {took:.0f} s, reads {time.time() - t - took:.0f} s; "
              f"not successful: {failed}", flush=True)

    # 1: the full build over the initial feeds (the inserts of the initial states)
    h.write_states(states())
    h.append_changes([r for n, w in worlds.items() for r in tagged(w.feed, n)], mode="overwrite")
    create_relation_views(spark, CASES)
    for w in worlds.values():  # what the build consumes: every row so far
        w.consumed = {rel: max(r["seq"] for r in w.feed if r["rel"] == rel) for rel in ("c", "a")}
    dbt_run("build", [])
    # 2: a valid step and each case's mutation
    rows, removed, extra_states, to_fix = [], [], [], []
    for case in CASES:
        w = worlds[case.name]
        step = w.step(force_a="up" if case.mode == "warn" else None)
        if case.mode == "warn":
            w.technique_warn()
        muts, taken = [], set()
        for kind in case.kinds:
            if kind == "row":
                kind = w.rng.choice([k for k, (_, rels) in ROW_KINDS.items() if "c" in rels])
                muts.append(w.mutate(kind, "c", taken))
            elif kind != "technique_warn":
                muts.append(w.mutate(kind, None, taken))
        out["mutations"][case.name] = muts
        rows += tagged(step, case.name)
        for m in muts:
            rows += tagged(m.rows, case.name)
            removed += [r["rid"] for r in m.removed]
            extra_states += [(case.name, r) for r in m.state_rows]
            if m.feed_sql:
                set_feed(spark, case.name, m.rel, m.feed_sql)
            if case.expect == "stop":  # (quarantined rows stay: they are consumed)
                to_fix.append((case.name, m))
    h.write_states(states(extra_states))
    h.delete_changes(removed)
    h.append_changes(rows)
    dbt_run("mutated", MODELS)
    # 3: the fix of what stopped (bad rows deleted, rewritten rows restored, feed schemas and
    # states repaired) and a valid step everywhere
    rows = [r for name, m in to_fix for r in tagged(m.removed, name)]
    for name, m in to_fix:
        if m.feed_sql:
            set_feed(spark, name, m.rel, None)
    for case in CASES:
        rows += tagged(worlds[case.name].step(), case.name)
    h.write_states(states())
    h.delete_changes([r["rid"] for _, m in to_fix for r in m.rows])
    h.append_changes(rows)
    dbt_run("fixed", MODELS)
    out["feed_events"], out["warehouse"] = h.feed_events, h.warehouse
    print(f"[contract] {len(CASES)} cases, {len(MODELS)} models, {time.time() - t0:.0f} s in all", flush=True)
    yield out
    restore()


# --- checks ----------------------------------------------------------------------------------

def where(case: Case, model: str, run) -> str:
    """the model, the seed and what its case's mutation did, for a failure message"""
    muts = "; ".join(f"{m.kind} on {m.rel} ({ALIAS[m.rel]}): {len(m.rows)} row(s) {[shown(r) for r in m.rows]}"
                     + (f", removed {[shown(r) for r in m.removed]}" if m.removed else "")
                     + (f", state rows {m.state_rows}" if m.state_rows else "")
                     + (f", feed schema {m.feed_sql}" if m.feed_sql else "")
                     for m in run["mutations"][case.name])
    return f"{model} [seed {SEED}; {muts or 'no mutation'}]"


def shown(r: dict) -> dict:
    cols = ("cid", "name", "aid", "city", "before", "type", "seq")
    return {k: v for k, v in r.items() if k in cols and v is not None}


def has_word(msg: str, word: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(word)}(?![\w.])", msg) is not None


def names_row(msg: str, rel: str, r: dict) -> bool:
    """the message shows the bad row: its marker, or its sequence and key (NULL keys: none shown)"""
    key = r[KEY[rel]]
    return any(mk in msg for mk in (r["name"], r["city"]) if mk) or (
        has_word(msg, str(r["seq"])) and (key is None or has_word(msg, str(key))))


def assert_view(run, phase, case, model):
    got, want = run["rows"][phase][model], run["expected"][phase][model]
    keys = Counter(r[0] for r in got)
    dup = sorted(k for k, n in keys.items() if n > 1)
    assert not dup, f"{where(case, model, run)}: after {phase}, view key(s) {dup} more than once: {got}"
    missing, extra = sorted(set(want) - set(got)), sorted(set(got) - set(want))
    assert not missing and not extra, (f"{where(case, model, run)}: after {phase}, differs from full recomputation\n"
                                       f"  missing {missing}\n  extra {extra}")


@pytest.mark.spark
@pytest.mark.parametrize("case,model", MODELS, ids=[m for _, m in MODELS])
def test_bad_input_stops_or_is_quarantined(run, case, model):
    status, msg = run["results"]["mutated"].get(model, ("missing", ""))
    muts: list[Mutation] = run["mutations"][case.name]
    ctx = where(case, model, run)
    assert run["results"]["build"].get(model, ("missing",))[0] == "success", f"{ctx}: the build failed"
    # (the stop checks compare Delta versions read from the warehouse folder: it must be the right one)
    assert run["versions"]["build"][model] is not None, f"{ctx}: no Delta log of {model} under {run['warehouse']}"
    quarantined = run["quarantine"]["mutated"][model]
    if case.expect == "stop":
        rules = sorted({m.rule for m in muts})
        if status != "error":
            got = run["rows"]["mutated"][model]
            dup = sorted(k for k, n in Counter(r[0] for r in got).items() if n > 1)
            same = "equals" if got == run["expected"]["mutated"][model] else "differs from"
            pytest.fail(f"{ctx}: expected the refresh to stop on {rules}, got {status}: {msg}\n"
                        f"  the view now {same} recomputation without the bad input; keys twice: {dup}")
        problems = []  # every failed expectation of the stop, reported together
        for m in muts:
            if m.kind.startswith("state_dup"):
                if "duplicate" not in msg or rel_name(case.name, m.rel) not in msg:
                    problems.append(f"the message names not both state {rel_name(case.name, m.rel)} and `duplicate`")
                continue
            if m.rule not in msg:
                problems.append(f"the message does not name rule {m.rule}")
            if not case.mirror and not has_word(msg, ALIAS[m.rel]):
                problems.append(f"the message does not name input {ALIAS[m.rel]}")
            if m.kind in ROW_KINDS:
                if "breaks the feed contract" not in msg:
                    problems.append("no `breaks the feed contract` in the message")
                if not any(names_row(msg, m.rel, r) for r in m.rows):
                    problems.append(f"no example of the {m.rule} rows in the message")
        for suffix in META[:3]:
            v0, v1 = run["versions"]["build"][model + suffix], run["versions"]["mutated"][model + suffix]
            if v0 != v1:
                problems.append(f"the stopped refresh wrote {model + suffix} (Delta version {v0} -> {v1})")
        if quarantined:
            problems.append(f"the stopped refresh quarantined {quarantined}")
        assert not problems, f"{ctx}:\n  " + "\n  ".join(dict.fromkeys(problems)) + f"\n  message: {msg}"
        return
    assert status == "success", f"{ctx}: expected success ({case.expect}), got {status}: {msg}"
    assert_view(run, "mutated", case, model)
    if case.expect == "warn":
        logged = [msg for node, msg in run["feed_events"]
                  if "feed-technique" in msg and (node == model or model in msg)]
        assert logged, f"{ctx}: no warning naming feed-technique was logged for {model}"
        assert not quarantined, f"{ctx}: warn quarantined {quarantined}"
        return
    # quarantine: exactly the injected rows, each once, with its rule and sequence
    want = Counter(q[1:] if case.mirror else q for m in muts for q in m.quarantined)
    markers = {q[-1] for q in want}
    got, unknown = Counter(), []
    for q in quarantined:
        hit = [mk for mk in markers if mk in (q["row"] or "")]
        if len(hit) != 1:
            unknown.append(q)
            continue
        found = (q["rule"], q["_pdelta_seq"], hit[0])
        got[found if case.mirror else (q["input"], *found)] += 1
    assert not unknown, f"{ctx}: quarantined rows that are no injected bad row (a valid row dropped?): {unknown}"
    assert got == want, f"{ctx}: quarantine holds {sorted(got.items())}, expected {sorted(want.items())}"
    for q in quarantined:
        assert q["batch_id"] == 1, f"{ctx}: quarantined with batch {q['batch_id']}, the refresh was batch 1"
        assert q["reason"], f"{ctx}: quarantined row without a reason: {q}"
        if not case.mirror:
            rel = "c" if q["input"] == ALIAS["c"] else "a"
            assert feed_name(case.name, rel) in (q["changes"] or ""), f"{ctx}: `changes` does not name the feed: {q}"


@pytest.mark.spark
@pytest.mark.parametrize("case,model", MODELS, ids=[m for _, m in MODELS])
def test_fixed_input_refreshes_with_a_plain_run(run, case, model):
    status, msg = run["results"]["fixed"].get(model, ("missing", ""))
    ctx = where(case, model, run)
    assert status == "success", f"{ctx}: the run after the fix {status}: {msg}"
    assert_view(run, "fixed", case, model)
    again = run["quarantine"]["fixed"][model]
    assert sorted(map(repr, again)) == sorted(map(repr, run["quarantine"]["mutated"][model])), \
        f"{ctx}: the quarantine changed in the run after the fix: {again}"


def test_every_kind_is_covered_per_plan_and_mode():
    """each row-level kind under stop and under quarantine, each kind that always stops under
    quarantine, all with both plans; each rule of the contract"""
    views = [c for c in CASES if not c.mirror]
    for kind in ROW_KINDS:
        assert {c.mode for c in views if kind in c.kinds} == {"stop", "quarantine"}, kind
    for kind in STOP_KINDS:
        assert "quarantine" in {c.mode for c in views if kind in c.kinds}, kind
    assert set(RULE.values()) == {"feed-type", "feed-key-null", "feed-upd-images", "feed-del-image",
                                  "feed-before-image",
                                  "feed-delk-key-only", "feed-disjoint", "feed-technique", "feed-column-type",
                                  "feed-seq-null", "feed-seq-behind", "feed-rewritten", "state-duplicate-key"}
    assert all(len(c.models) == len(PLANS) for c in views)
