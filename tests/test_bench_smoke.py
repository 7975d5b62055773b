"""The benchmark harness keeps working (`make bench`, python/pdelta/bench/): a tiny run of the
TPC-H-shaped workload with all four contenders — (a) rebuild, (b) the affected-keys MERGE,
(c) pdelta on partial feeds with the cost-based choice and keeping its complement, (d) pdelta over
CDF mirrors — on identical inputs. The harness itself raises when a contender's table differs from the rebuild;
here we check that it ran to the end, wrote its results, and that the cost model chose a
refresh for a small batch and a plain rebuild for a 50 % batch. No timing is asserted: speed is the
benchmark's business, not a test's. The view-adaptation benchmark (`make bench-adapt`) gets the
same: its first two changes of each kind, checked by the harness against rebuilt twins.

Both run in this pytest process, on one embedded session (a Spark JVM compiles its planner anew, and
one warm JVM for both costs less than one each), in a schema of their own; make test runs them after
the cluster lane, in its stream (the shortest).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pdelta_env import KEYS as ENV_KEYS

pytestmark = pytest.mark.spark  # it runs Spark (make test-fast leaves it out)

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def bench_env(monkeypatch):
    """The environment a benchmark harness runs in here"""
    # the harness sets the target, schema and Spark folder it runs under: put back afterwards
    for name in ENV_KEYS:
        monkeypatch.setenv(name, os.environ.get(name, ""))
    monkeypatch.setenv("PDELTA_HOME", str(ROOT))
    # make test's tiny-data settings, when this module starts the session itself (make bench-smoke)
    monkeypatch.setenv("PDELTA_SPARK_ADAPTIVE", "false")
    monkeypatch.setenv("PDELTA_SPARK_CODEGEN", "false")


def test_bench_smoke(tmp_path, bench_env, capsys):
    from pdelta.bench.__main__ import main

    out = tmp_path / "out"
    rc = main(["--matrix", "2000:0.01,0.5", "--workloads", "tpch", "--contenders", "a,b,c_auto,c_complement,d",
               "--rebuild-ratio", "0.3", "--out", str(out), "--work", str(tmp_path / "work"), "--fresh"])
    printed = capsys.readouterr().out
    assert rc == 0, printed[-4000:]
    results = json.loads((out / "results.json").read_text())
    assert (out / "results.csv").read_text().startswith("workload,")
    refresh = [r for r in results if r["phase"] == "refresh"]
    # every contender, every batch, each checked equal to the rebuild before it was recorded
    assert {(r["ratio"], r["contender"]) for r in refresh} == {
        (ratio, c) for ratio in (0.01, 0.5) for c in ("a", "b", "c_auto", "c_complement", "d")}
    assert all(r["equal"] and r["view_rows"] > 1000 for r in refresh)
    mode = {r["ratio"]: r["mode"] for r in refresh if r["contender"] == "c_auto"}
    assert mode == {0.01: "incremental", 0.5: "rebuild"}
    # the forced incremental contender stayed incremental, and every run wrote something
    assert {r["mode"] for r in refresh if r["contender"] in ("c_complement", "d")} == {"incremental"}
    # what c_complement keeps beside its view (its complement, checked by the package's data test after every
    # batch, or the harness raises) and d its mirrors, after the build and after the last batch: every table
    # counted; the complement holds a hidden row per view row and the rest
    kept = {(r["contender"], r["batch"]): r for r in results if r["phase"] == "kept"}
    assert set(kept) == {(c, b) for c in ("c_complement", "d") for b in (0, 2)}, sorted(kept)
    for (c, batch), r in kept.items():
        view = r["tables"][f"tpch_{c}"]
        assert r["view_bytes"] == view["bytes"] > 0 and r["kept_bytes"] > 0, r
        assert r["kept_bytes"] == sum(v["bytes"] for name, v in r["tables"].items() if name != f"tpch_{c}"), r
        if c == "c_complement":
            assert r["tables"]["tpch_c_complement__pdelta_complement"]["rows"] >= view["rows"], r
    assert "What a contender keeps beside its view" in (out / "results.md").read_text()
    assert all(r["statements"] > 0 and r["commits"] > 0 for r in refresh)
    # each refresh's statements are listed with their time and jobs, which add up to the totals
    for r in refresh:
        log = r["statement_log"]
        assert len(log) == r["statements"] and all(s["head"] and s["seconds"] >= 0 for s in log), r
        assert sum(s["jobs"] for s in log) <= r["spark_jobs"] and sum(s["seconds"] for s in log) <= r["seconds"], r
    staged = [s for r in refresh if r["contender"] == "c_auto" and r["ratio"] == 0.01 for s in r["statement_log"]
              if s["head"].startswith("create table") and "__pdelta_stage" in s["head"]]
    assert len(staged) == 1 and staged[0]["jobs"] > 0, staged
    assert "| # | s | jobs | statement |" in (out / "results.md").read_text()
    # the cost-based rebuild is a plain rebuild (pdelta_rebuild_feed: reset): no batch of changes
    # was computed, and it wrote about what the rebuild (a) wrote, not a diff applied on top
    rebuilt = next(r for r in refresh if r["contender"] == "c_auto" and r["ratio"] == 0.5)
    plain = next(r for r in refresh if r["contender"] == "a" and r["ratio"] == 0.5)
    assert rebuilt["view_changes"] == {}
    assert rebuilt["rows_written"] <= plain["rows_written"] * 1.05, (rebuilt, plain)
    assert "c_auto/a=" in printed and "b/a=" in printed and (out / "results.md").exists()


def test_adapt_bench_smoke(tmp_path, bench_env):
    """The view-adaptation benchmark (`make bench-adapt`) keeps working: the first two changes of each
    kind (a predicate added and narrowed, a column dropped and renamed, a relation removed and joined
    in as a filter, a join column added and a relation replaced by an equal one) on a few thousand
    rows. The harness itself raises unless the view's batch was `adapted`, the view downstream
    refreshed incrementally and both equal their rebuilt twins, and unless the cost-model contender
    (`pdelta_rebuild_ratio: learned`, after one small batch to learn from) either adapted with its
    downstream view refreshing or rebuilt with its downstream view rebuilding, both equal to the
    twins too; here every cell is checked to have been recorded so, with its statements counted."""
    from pdelta.bench.adapt import all_changes, main

    out = tmp_path / "out"
    assert main(["--sizes", "2000", "--per-group", "2", "--out", str(out), "--work", str(tmp_path / "work")]) == 0
    results = json.loads((out / "adapt.json").read_text())
    expected = [change[0] for group in all_changes() for change in group[:2]]
    assert [r["change"] for r in results] == expected
    for r in results:
        assert r["view_rows"] > 1000, r["change"]
        for run in ("rebuild_view", "rebuild_down", "pdelta_view", "pdelta_down", "auto_view", "auto_down"):
            assert r[run]["seconds"] > 0 and r[run]["statements"] > 0, (r["change"], run, r[run])
        assert r["auto_mode"] in ("adapted", "rebuild"), r["change"]
    # a relation replaced by an equal one reads no row of the view's change: nothing leaves or comes back
    equal = next(r for r in results if "containment equal" in r["change"])
    assert not equal["view_changes"].get("del") and not equal["view_changes"].get("ins"), equal["view_changes"]
    assert "| root rows | change |" in (out / "adapt.md").read_text()
