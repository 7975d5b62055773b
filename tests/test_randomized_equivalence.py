"""Randomized equivalence of the dimension-view engine against full recomputation.

For every shape (join depth 0-4, chains, a star, a snowflake, role-playing joins, composite
keys, a view chained on a view, predicates on every level) many scenarios, each with its own
data and a CDC technique drawn per relation (audit columns, log-based, log net-effect, change
tracking, snapshot differential, upsert feed), go through one initial build and then
consecutive refreshes, through dbt, as a user project that installs pdelta runs them. After
each refresh:
  * the view equals its full recomputation by a Python oracle (tests/randomized/scenarios.py);
  * the change feed the view published for that refresh, replayed onto the view as it was
    before, gives the new view, and every change is labelled truthfully (an `ins` key was
    absent, `upd`/`del` carry the exact old row, `up` keys were present).

Every view exists twice: refreshed with the paper's rules (`pdelta_plan: rules`, partial
labels) and with the diff plan (the default: complete labels); both are checked as above.
Default: 8 shapes x 25 scenarios (225 with the chained view), 2 consecutive refreshes, 5 for
the two-relation view and the view chained on a view (75 scenarios).
PDELTA_DEEP=1: 14 shapes x 150 scenarios (2,000+), 5 refreshes each.
PDELTA_RANDOM_SHAPES=chain4,...: only those shapes (make test's cluster lane runs one);
PDELTA_RANDOM_TARGET: the profile's session target to run on (default `local`; `cluster` is the
embedded session as the driver of a Spark standalone cluster).
PDELTA_RANDOM_INPUT_FORMAT: the format of the tables that hold the relations' states and feeds
(`parquet`, the default, or `delta`; the cluster lane uses `delta`). Every relation and feed is a
dbt view over them, so the engine reads views either way; parquet because each distinct read of
a Delta table costs a Spark job for Delta's file listing, 15 % of this test's CPU. The views,
their change feeds and batch logs pdelta writes are Delta whatever this says, and the paper lane,
the capture, feed-contract and Thrift tests read Delta sources.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import time
from collections import Counter
from pathlib import Path

import pytest

from pdelta.declaration import normalize
from pdelta.flags import analyze
from pdelta_env import kernel_rows
from randomized.project import (SCHEMA, chained_declaration, chained_model, declaration, diff_model, moved_model,
                                output_columns, plan_of, view_model, write_project)
from randomized.scenarios import (KEY_BASE, World, declare_containments, make_shapes, recompute, recompute_chained,
                                  redraw_columns, redraw_predicates, remove_leaf, replace_leaf)

pytestmark = pytest.mark.spark  # every test here runs Spark (make test-fast leaves them out)

ROOT = Path(__file__).resolve().parents[1]
DEEP = os.environ.get("PDELTA_DEEP") == "1"
SIDS = int(os.environ.get("PDELTA_RANDOM_SIDS", 150 if DEEP else 25))
SEED = int(os.environ.get("PDELTA_SEED", "20261125"))
ONLY_SHAPES = [n for n in os.environ.get("PDELTA_RANDOM_SHAPES", "").split(",") if n]
TARGET = os.environ.get("PDELTA_RANDOM_TARGET", "local")
INPUT_FORMAT = os.environ.get("PDELTA_RANDOM_INPUT_FORMAT", "parquet")
if INPUT_FORMAT not in ("parquet", "delta"):
    raise ValueError(f"PDELTA_RANDOM_INPUT_FORMAT must be parquet or delta, not {INPUT_FORMAT!r}")

# the package's data test of complement mode (tests/dbt/ of the package; issue #21)
COMPLEMENTS = "complements_reconstruct_states"
STATE_COLS = ["k", "k2", "v", "s", "fa", "fa2", "fb", "fb2", "fc", "fc2"]
STATE_SCHEMA = ("rel string, k bigint, k2 bigint, v int, s string, fa bigint, fa2 bigint, fb bigint, fb2 bigint, "
                "fc bigint, fc2 bigint")
BEFORE_TYPE = "struct<v: int, s: string, fa: bigint, fa2: bigint, fb: bigint, fb2: bigint, fc: bigint, fc2: bigint>"
CHANGE_SCHEMA = STATE_SCHEMA + f", _before {BEFORE_TYPE}, _type string, _seq bigint"


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    from pdelta.spark import session_from_profile

    work = Path(os.environ.get("PDELTA_RANDOM_DIR", ROOT / ".pdelta" / "tests" / "randomized"))
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    os.environ["PDELTA_LOCAL_DIR"] = str(work / "spark")
    os.environ["PDELTA_SCHEMA"] = SCHEMA
    os.environ["PDELTA_TARGET"] = TARGET
    project = work / "project"
    rng = random.Random(SEED)
    shapes = make_shapes(rng, DEEP)
    if ONLY_SHAPES:
        unknown = set(ONLY_SHAPES) - {s.name for s in shapes}
        assert not unknown, \
            f"PDELTA_RANDOM_SHAPES names no shape {sorted(unknown)} (shapes: {[s.name for s in shapes]})"
        shapes = [s for s in shapes if s.name in ONLY_SHAPES]
    write_project(project, ROOT, shapes)
    spark = session_from_profile(ROOT, target=TARGET)
    if TARGET == "cluster":  # executors in other JVMs than this driver, or the lane proves nothing
        executors = []
        for _ in range(120):  # they register with the driver shortly after it starts
            executors = [e.host() for e in spark.sparkContext._jsc.sc().statusTracker().getExecutorInfos()][1:]
            if len(executors) >= 2:
                break
            time.sleep(1)
        assert spark.sparkContext.master.startswith("spark://") and len(executors) >= 2, \
            (spark.sparkContext.master, executors)
    spark.sql(f"create database if not exists {SCHEMA}")
    worlds = {}
    for n, shape in enumerate(shapes):
        worlds[shape.name] = World(shape, [n * 1000 + i for i in range(1, SIDS + 1)], rng)
    h = Harness(spark, project, shapes, worlds)
    h.dbt("deps")
    return h


class Harness:
    def __init__(self, spark, project, shapes, worlds):
        from dbt.cli.main import dbtRunner

        self.spark, self.project, self.shapes, self.worlds = spark, project, shapes, worlds
        self.runner = dbtRunner()
        self.first_changes = True

    def dbt(self, *args: str):
        result = self.runner.invoke([*args, "--project-dir", str(self.project), "--profiles-dir", str(ROOT)])
        assert result.success, f"dbt {' '.join(args)} failed: {result.exception}"
        return result

    def write_states(self):
        rows = []
        for shape in self.shapes:
            for sc in self.worlds[shape.name].scenarios:
                for rel, state in sc.state.items():
                    for r in state.values():
                        rows.append((f"{shape.name}__{rel}", *[r.get(c) for c in STATE_COLS]))
        df = self.spark.createDataFrame(rows, STATE_SCHEMA)
        df.write.format(INPUT_FORMAT).mode("overwrite").saveAsTable(f"{SCHEMA}.all_states")

    def append_changes(self, feeds: dict[str, list[dict]]):
        rows = []
        for shape_name, feed in feeds.items():
            for f in feed:
                rel = f["_rel"]
                before = None if f["_before"] is None else tuple(f["_before"].get(c) for c in STATE_COLS[2:])
                rows.append((f"{shape_name}__{rel}", *[f.get(c) for c in STATE_COLS], before, f["_type"], f["_seq"]))
        df = self.spark.createDataFrame(rows, CHANGE_SCHEMA)
        mode = "overwrite" if self.first_changes else "append"
        df.write.format(INPUT_FORMAT).mode(mode).saveAsTable(f"{SCHEMA}.all_changes")
        self.first_changes = False

    def _json_rows(self, parts: list[str]) -> list[list[dict]]:
        """Each part's rows, from one query: part i selects (i, to_json of a struct of its columns).
        One statement for all views instead of one per view (their columns differ, hence JSON);
        JSON keeps the difference between a number, a string and NULL that the checks compare."""
        out: list[list[dict]] = [[] for _ in parts]
        for part, row in kernel_rows(self.spark, "\nunion all\n".join(parts)) if parts else []:
            out[part].append(json.loads(row))
        return out

    def rows(self, views: list[tuple[str, list[str]]]) -> dict[str, list[tuple]]:
        """The rows of each (model, columns), as tuples in the columns' order, in one query."""
        parts = [f"select {i} as part, to_json(struct({', '.join(cols)}), map('ignoreNullFields', 'false')) as row "
                 f"from {SCHEMA}.{model}" for i, (model, cols) in enumerate(views)]
        found = self._json_rows(parts)
        return {model: [tuple(r[c] for c in cols) for r in found[i]] for i, (model, cols) in enumerate(views)}

    def feeds(self, views: list[tuple[str, list[str]]], batch: int | dict[str, int]) -> dict[str, list[dict]]:
        """The changes each view published in batch `batch` (its `_pdelta_seq`; per model when a
        dict), in one query."""
        def batch_of(model: str) -> int:
            return int(batch[model] if isinstance(batch, dict) else batch)
        parts = [f"select {i} as part, to_json(struct({', '.join(cols)}, _pdelta_before, _pdelta_type), "
                 f"map('ignoreNullFields', 'false')) as row from {SCHEMA}.{model}__pdelta_changes "
                 f"where _pdelta_seq = {batch_of(model)}" for i, (model, cols) in enumerate(views)]
        found = self._json_rows(parts)
        return {model: found[i] for i, (model, _) in enumerate(views)}

    def last_batches(self, models: list[str]) -> dict[str, tuple[int, str]]:
        """Each view's last batch in its batch log: (batch id, mode), in one query."""
        parts = [f"select distinct {i} as part, to_json(struct(batch_id, mode)) as row "
                 f"from {SCHEMA}.{model}__pdelta_batches "
                 f"where batch_id = (select max(batch_id) from {SCHEMA}.{model}__pdelta_batches)"
                 for i, model in enumerate(models)]
        found = self._json_rows(parts)
        out = {}
        for i, model in enumerate(models):
            assert len(found[i]) == 1, (model, found[i])
            out[model] = (found[i][0]["batch_id"], found[i][0]["mode"])
        return out


def views_of(h: Harness):
    """every view with its output columns and oracle: the rules plan's, then the diff plan's twin"""
    for shape in h.shapes:
        world = h.worlds[shape.name]
        base = lambda s=shape, w=world: recompute(s, w.scenarios)
        yield shape, view_model(shape), output_columns(shape, False), base
        yield shape, diff_model(view_model(shape)), output_columns(shape, False), base
        if shape.chained:
            chained = lambda s=shape, w=world: recompute_chained(s, w.scenarios)
            yield shape, chained_model(shape), output_columns(shape, True), chained
            yield shape, diff_model(chained_model(shape)), output_columns(shape, True), chained


def key_len(model: str, h: Harness) -> int:
    for shape in h.shapes:
        if model in (view_model(shape), diff_model(view_model(shape))):
            return len(shape.key_cols(shape.aliases[0].rel))
        if model in (chained_model(shape), diff_model(chained_model(shape))):
            return 1
    raise KeyError(model)


def by_sid(rows, klen):
    out = {}
    for r in rows:
        out.setdefault(r[0] // KEY_BASE, Counter())[r] += 1
    return out


def assert_equal_to_recompute(model, cols, got, want):
    g, w = Counter(got), Counter(want)
    if g != w:
        missing, extra = w - g, g - w
        sid = sorted({r[0] // KEY_BASE for r in list(missing) + list(extra)})[0]
        pytest.fail(f"{model}: differs from full recomputation in scenario {sid}\n  columns {cols}\n"
                    f"  missing: {sorted([r for r in missing if r[0] // KEY_BASE == sid], key=repr)}\n"
                    f"  extra:   {sorted([r for r in extra if r[0] // KEY_BASE == sid], key=repr)}")


def replay(model, cols, klen, before_rows, feed, after_rows):
    """Apply the published six-set changes to the previous view; check each label's promise."""
    view = {r[:klen]: r for r in before_rows}
    seen = set()
    for ch in feed:
        row = tuple(ch[c] for c in cols)
        key, kind = row[:klen], ch["_pdelta_type"]
        assert key not in seen, f"{model}: two changes for key {key} in one batch"
        seen.add(key)
        old = view.get(key)
        if kind == "ins":
            assert old is None, f"{model}: `ins` for key {key} already in the view ({old})"
        if kind in ("upd", "del", "up"):
            assert old is not None, f"{model}: `{kind}` for key {key} not in the view"
        if kind == "upd":
            before = ch["_pdelta_before"]
            assert tuple(before[c] for c in cols[klen:]) == old[klen:], \
                f"{model}: `upd` before-image of {key} is not the old row"
        if kind == "del":
            assert row == old, f"{model}: `del` of {key} does not carry the old row"
        if kind in ("del", "delk"):
            view.pop(key, None)
        else:
            view[key] = row
    assert Counter(view.values()) == Counter(after_rows), \
        f"{model}: replaying the change feed does not give the new view"
    return Counter(ch["_pdelta_type"] for ch in feed)


def predicted_sets(h: Harness, adapting: bool = False) -> dict[str, dict[int, set[str]]]:
    """Static flag analysis per view and scenario, from the scenario's techniques. adapting: for the
    batch that adapts each first view to its changed predicates (what its feed can hold)."""
    out: dict[str, dict[int, set[str]]] = {}
    for shape in h.shapes:
        for plan in ("rules", "diff"):
            def name(model: str) -> str:
                return model if plan == "rules" else diff_model(model)
            base, errs = normalize(declaration(shape), name(view_model(shape)))
            assert not errs, errs
            base.plan = plan
            chained = normalize(chained_declaration(shape), name(chained_model(shape)))[0] if shape.chained else None
            for sc in h.worlds[shape.name].scenarios:
                a = analyze(base, {al.name: sc.technique[al.rel] for al in shape.aliases})
                out.setdefault(name(view_model(shape)), {})[sc.sid] = a.feed if adapting else a.output
                if chained is not None:
                    chained.plan = plan
                    # the chained view reads its own plan's twin: the feed_of names the same model
                    w = analyze(chained, {"z": sc.technique["z"]}, upstream={view_model(shape): a.feed})
                    out.setdefault(name(chained_model(shape)), {})[sc.sid] = w.output
    return out


def check_flag_analysis(model, predicted, feed, cols, tally):
    observed: dict[int, set[str]] = {}
    for ch in feed:
        observed.setdefault(ch[cols[0]] // KEY_BASE, set()).add(ch["_pdelta_type"])
    for sid, sets in observed.items():
        assert sets <= predicted[model][sid], (
            f"{model}, scenario {sid}: emitted {sorted(sets)}, flag analysis predicted "
            f"only {sorted(predicted[model][sid])}")
        tally[model].update(sets)


def test_randomized_equivalence(harness):
    h = harness
    h.write_states()
    h.append_changes({})
    h.dbt("run", "--threads", "2")  # relation views + initial full builds
    # the diff twins keep their complement (issue #21), built with them: the package's data test
    # complements_reconstruct_states checks each after every refresh below, one query over all of them
    kept = [m for _, m, _, _ in views_of(h) if plan_of(m) == "diff"]
    missing = [m for m in kept if not h.spark.catalog.tableExists(f"{SCHEMA}.{m}__pdelta_complement")]
    assert kept and not missing, f"no complement kept beside {missing}"
    assert [r.node.name for r in h.dbt("test", "--select", COMPLEMENTS).result] == [COMPLEMENTS]
    # each view's rows as the last check read them: the next refresh's "before" (no other writer)
    current = h.rows([(model, cols) for _, model, cols, _ in views_of(h)])
    for shape, model, cols, oracle in views_of(h):
        assert_equal_to_recompute(model, cols, current[model], oracle())
    scenarios = sum(len(h.worlds[s.name].scenarios) * (2 if s.chained else 1) for s in h.shapes)
    if "PDELTA_RANDOM_SIDS" not in os.environ and not ONLY_SHAPES:
        assert scenarios >= (2000 if DEEP else 200)
    seen_types = Counter()
    seen_by_plan = {"rules": set(), "diff": set()}
    predicted = predicted_sets(h)
    tally = {m: set() for m in predicted}
    steps = int(os.environ.get("PDELTA_RANDOM_STEPS", max(s.steps for s in h.shapes)))
    for step in range(1, steps + 1):
        active = [s for s in h.shapes if s.steps >= step]
        names = {s.name for s in active}
        before = {m: current[m] for s, m, c, _ in views_of(h) if s.name in names}
        feeds = {s.name: h.worlds[s.name].step() for s in active}
        h.write_states()
        h.append_changes(feeds)
        if step == 1:  # `pdelta explain` predicts the refresh with a dry run of each plan; compared below
            from pdelta.cli import explain_next_refresh
            explained = {}
            for m in (view_model(h.shapes[0]), diff_model(view_model(h.shapes[0]))):
                # no --target: PDELTA_TARGET already selects it, and dbt parses the project in full
                # when a command names the target its saved manifest was parsed without
                explained[m] = explain_next_refresh(h.project, ROOT, None, m)
                assert explained[m] is not None and explained[m]["built"], explained[m]
        t_run = time.time()
        h.dbt("run", "--threads", "2", "--select", *[m for s, m, _, _ in views_of(h) if s.name in names])
        t_run = time.time() - t_run
        t_check = time.time()
        # the package's data tests, as they run in this project: every batch log's kept state is its
        # rows', after every refresh; no view holds a key twice (one query over all views), after the
        # last (after every refresh, each view equals its recomputation as a multiset, which implies it)
        data_tests = ["batch_log_state_kept"] + (["dimension_view_keys_unique"] if step == steps else [])
        # and each diff twin's complement gives back every relation as its state holds it (issue #21)
        data_tests.append(COMPLEMENTS)
        tested = h.dbt("test", "--select", *data_tests)
        assert sorted(r.node.name for r in tested.result) == sorted(data_tests)
        checked = [(model, cols) for shape, model, cols, _ in views_of(h) if shape.name in names]
        rows_after, feeds = h.rows(checked), h.feeds(checked, step)
        for shape, model, cols, oracle in views_of(h):
            if shape.name not in names:
                continue
            after = current[model] = rows_after[model]
            assert_equal_to_recompute(model, cols, after, oracle())
            feed = feeds[model]
            kinds = replay(model, cols, key_len(model, h), before[model], feed, after)
            seen_types += kinds
            seen_by_plan["rules" if model[-1] in "vw" else "diff"].update(kinds)
            check_flag_analysis(model, predicted, feed, cols, tally)
            if step == 1 and model in explained:
                dry = explained[model]
                assert dry["pending_counts"] == dict(Counter(ch["_pdelta_type"] for ch in feed)), \
                    (dry["pending_counts"], model)
        n = sum(len(h.worlds[s.name].scenarios) * (2 if s.chained else 1) for s in active)
        print(f"[randomized] refresh {step}/{steps}: {n} scenarios equal to recomputation; "
              f"view changes so far {dict(seen_types)}; dbt run {t_run:.0f} s, checks {time.time() - t_check:.0f} s",
              flush=True)
    print("[randomized] flag analysis: every emitted set was predicted; per view predicted/seen: "
          + ", ".join(f"{m} {len(set().union(*predicted[m].values()))}/{len(tally[m])}" for m in sorted(predicted)),
          flush=True)
    # the diff plan labels every change completely; the whole suite (not one shape of it, as in
    # the cluster lane) must exercise every kind of view change
    assert seen_by_plan["diff"] <= {"ins", "del", "upd"}, seen_by_plan
    if not ONLY_SHAPES:
        assert seen_by_plan["rules"] >= {"ins", "del", "upd", "ups", "delk"}, seen_by_plan
        assert seen_by_plan["diff"] == {"ins", "del", "upd"}, seen_by_plan
    check_adaptation(h, current, tally)


def check_adaptation(h: Harness, current: dict, tally: dict) -> None:
    """View adaptation (issue #19): every shape's predicates redrawn (dropped, added, narrowed,
    widened, replaced; at least one per shape) and its output columns changed (one dropped and
    another added, one renamed, or one renamed and one dropped, by turns; every third shape also
    loses a leaf relation, where one can go, and the others have one replaced by a renamed view of
    its relation, maybe filtered, declaring a containment that holds or none, where one qualifies),
    with a batch of changes pending too. Each first view
    adapts in its next refresh (its batch log says `adapted`: not rebuilt), has exactly the new
    columns, and equals recomputation under the new declaration (an added column's values
    included); the batch replayed onto the old view (its columns dropped and renamed) gives the
    new one on the columns both have, and holds only what its feed can (the flag analysis); each
    view over its feed refreshes incrementally from it."""
    adapt_rng = random.Random(SEED + 19)
    old_cols = {model: cols for _, model, cols, _ in views_of(h)}
    redrawn, renamed_from = {}, {}
    for turn, shape in enumerate(h.shapes):
        kind = ("both", "drop", "rename")[turn % 3]
        columns_changed, renamed_from[shape.name] = redraw_columns(shape, adapt_rng, kind)
        # every third shape also loses a leaf relation, and the others have one replaced by another relation
        # (the paper's relation replacement), where one qualifies, before its predicates are redrawn
        removed = remove_leaf(shape, adapt_rng) if kind == "rename" else []
        replaced = replace_leaf(shape, adapt_rng) if kind != "rename" else []
        redrawn[shape.name] = (redraw_predicates(shape, adapt_rng) + columns_changed + removed + replaced
                               + declare_containments(shape, adapt_rng))
    write_project(h.project, ROOT, h.shapes)
    # the rows the views held, as the new declarations name and keep their columns (an added column,
    # filled in place and published by no change, is left out of the replay)
    before, replayed = {}, {}
    for shape, model, cols, _ in views_of(h):
        added = {p.split()[1] for p in redrawn[shape.name] if p.endswith(" added")}
        replayed[model] = [c for c in cols if c not in added]
        at = [old_cols[model].index(renamed_from[shape.name].get(c, c)) for c in replayed[model]]
        before[model] = [tuple(row[i] for i in at) for row in current[model]]
    feeds_in = {s.name: h.worlds[s.name].step() for s in h.shapes}
    h.write_states()
    h.append_changes(feeds_in)
    # the views, and the replacements the replaced relations' views read (dbt views over their relations)
    replacements = [moved_model(s, a) + suffix for s in h.shapes for a in s.aliases if a.replaced
                    for suffix in ("", "__changes")]
    h.dbt("run", "--threads", "2", "--select", *[m for _, m, _, _ in views_of(h)], *replacements)
    data_tests = ["batch_log_state_kept", COMPLEMENTS, "dimension_view_keys_unique"]
    assert sorted(r.node.name for r in h.dbt("test", "--select", *data_tests).result) == data_tests
    checked = [(model, cols) for _, model, cols, _ in views_of(h)]
    last = h.last_batches([m for m, _ in checked])
    rows_after, feeds = h.rows(checked), h.feeds(checked, {m: b for m, (b, _) in last.items()})
    predicted = predicted_sets(h, adapting=True)
    kinds = Counter()
    for shape, model, cols, oracle in views_of(h):
        changed = "; ".join(redrawn[shape.name])
        chained = model in (chained_model(shape), diff_model(chained_model(shape)))
        want = "incremental" if chained else "adapted"
        assert last[model][1] == want, \
            f"{model}: its batch after the declaration changed ({changed}) was `{last[model][1]}`, not `{want}`"
        held = [f.name for f in h.spark.table(f"{SCHEMA}.{model}").schema.fields]
        feed_schema = h.spark.table(f"{SCHEMA}.{model}__pdelta_changes").schema
        held_by_feed = [f.name for f in feed_schema.fields if not f.name.startswith("_pdelta_")]
        before_fields = [f.name for f in feed_schema["_pdelta_before"].dataType.fields]
        assert held == held_by_feed == cols and before_fields == (cols[key_len(model, h):] or ["_"]), \
            f"{model}: after the declaration changed ({changed}) it has columns {held}, its feed {held_by_feed} " \
            f"and before-images {before_fields}, not {cols}"
        assert_equal_to_recompute(model, cols, rows_after[model], oracle())
        at = [cols.index(c) for c in replayed[model]]
        kinds += replay(model, replayed[model], key_len(model, h), before[model], feeds[model],
                        [tuple(row[i] for i in at) for row in rows_after[model]])
        check_flag_analysis(model, predicted, feeds[model], cols, tally)
    print(f"[randomized] adaptation: declarations changed in {len(redrawn)} shapes "
          f"({sum(len(c) for c in redrawn.values())} predicates and columns), every view adapted or refreshed from "
          f"an adapted view's feed, equal to recomputation; view changes {dict(kinds)}; "
          + "; ".join(f"{name}: {', '.join(changed)}" for name, changed in redrawn.items()), flush=True)
    # columns were dropped and renamed, in place (the first views' column checks above)
    phrases = [p for c in redrawn.values() for p in c]
    assert any(p.endswith(" dropped") for p in phrases) and any(" renamed " in p for p in phrases), phrases
    if not ONLY_SHAPES:  # columns added, leaf relations removed (the rows their join left out coming in)
        assert any(p.endswith(" added") for p in phrases), phrases
        assert any(p.startswith("relation ") and p.endswith(" removed") for p in phrases), phrases
        assert any(" replaced by " in p for p in phrases), phrases
    # the redrawn predicates admit and drop rows: both must have happened
    assert {"ins", "del"} <= set(kinds), kinds
