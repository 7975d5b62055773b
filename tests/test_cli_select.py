"""`pdelta validate --select` and `pdelta run` select dimension views with dbt's own selectors,
resolved by `dbt ls` (a real one: its parse starts no Spark); `pdelta run` validates only the
views the dbt command will run. Long steps (`validate --live`, explain's dry run) print progress
on stderr while stdout keeps the report. No test here starts Spark: dbt's own build, seed and run
are stubbed, the warehouse is a fake executor, and explain's first query is refused."""
from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from test_validate import CATALOGUE, GOOD, VALID, write_project
from user_project import ROOT, dbt_deps

TAGGED = ("{%- set v = " + json.dumps(GOOD) + " -%}\n"
          "{{ config(materialized='dimension_view', pdelta=v, tags=['nightly']) }}\n{{ pdelta.dimension_view(v) }}\n")
# invalid (join-types), but dbt parses it: only pdelta's validation refuses it
BAD = "bad_types"
SELECTORS = "selectors:\n  - name: nightly_views\n    definition: 'tag:nightly'\n"


def _model_text(decl) -> str:
    return ("{%- set v = " + json.dumps(decl) + " -%}\n"
            "{{ config(materialized='dimension_view', pdelta=v) }}\n{{ pdelta.dimension_view(v) }}\n")


@pytest.fixture(scope="module")
def projects(tmp_path_factory):
    """`shop`: good_view (tag nightly), good_chained (reads good_view's feed) and models/broken/bad_types;
    `unparsable`: the same and a view the Jinja engine refuses when dbt parses it (dbt cannot list it)"""
    os.environ["PDELTA_EXAMPLES"] = "false"
    base = tmp_path_factory.mktemp("select")
    shop = base / "shop"
    write_project(shop, {"good_view": TAGGED, "good_chained": VALID["good_chained"]})
    (shop / "models" / "broken").mkdir()
    (shop / "models" / "broken" / f"{BAD}.sql").write_text(_model_text(CATALOGUE["bad_join_type_mismatch"][0]))
    (shop / "selectors.yml").write_text(SELECTORS)
    dbt_deps(shop)
    unparsable = base / "unparsable"
    shutil.copytree(shop, unparsable, symlinks=True, ignore=shutil.ignore_patterns("target", "logs"))
    (unparsable / "models" / "bad_join_non_key.sql").write_text(_model_text(CATALOGUE["bad_join_non_key"][0]))
    return shop, unparsable


def _main(capsys, *argv):
    """(exit code, stdout, stderr) of `pdelta <argv>`"""
    from pdelta.cli import main

    said = ""
    try:
        rc = main(list(argv))
    except SystemExit as e:  # SystemExit("message") exits 1, the message on stderr
        rc, said = (1, str(e.code)) if isinstance(e.code, str) else (e.code, "")
    out, err = capsys.readouterr()
    return rc, out, err + said


def _validate(capsys, project: Path, *args):
    rc, out, err = _main(capsys, "validate", "--project-dir", str(project), "--profiles-dir", str(ROOT),
                         "--format", "json", *args)
    return rc, (json.loads(out) if out.strip() else None), err


@pytest.mark.parametrize("selection, views, ok", [
    (["--select", "tag:nightly"], {"good_view"}, True),
    (["--select", "good_chained"], {"good_chained"}, True),               # a plain model name
    (["--select", "+good_chained"], {"good_chained", "good_view"}, True),  # its upstream view, through dbt's graph
    (["--select", "tag:nightly", "path:models/broken"], {"good_view", BAD}, False),
    (["--select", "cust_changes+", "--exclude", "path:models/broken"], {"good_view", "good_chained"}, True),
    (["--selector", "nightly_views"], {"good_view"}, True),
], ids=["tag", "name", "upstream", "two-selectors", "downstream-exclude", "selectors.yml"])
def test_validate_selects_views_with_dbt_selectors(projects, capsys, selection, views, ok):
    rc, report, _ = _validate(capsys, projects[0], *selection)
    assert set(report["views"]) == views
    assert report["ok"] is ok and rc == (0 if ok else 1)
    assert report["selection"] == {"args": selection, "views": len(views), "of": 3}
    assert {e["model"] for e in report["errors"]} == ({BAD} if not ok else set())


def test_a_selection_without_dimension_views_is_an_error(projects, capsys):
    rc, report, err = _validate(capsys, projects[0], "--select", "tag:nothing")
    assert rc == 1 and report["ok"] is False and report["views"] == {}
    assert "`--select tag:nothing` selects no dimension view of the project (dbt selects no model)" in err
    # a model that is not a dimension view: named, in the text report too
    rc, out, err = _main(capsys, "validate", "--project-dir", str(projects[0]), "--profiles-dir", str(ROOT),
                         "--select", "addr2")
    assert rc == 1 and out == ""
    assert "selects no dimension view of the project (dbt selects the model(s) addr2, none a dimension_view)" in err


def test_validate_reads_names_when_dbt_cannot_list_the_project(projects, capsys):
    """a view the Jinja engine refuses breaks dbt's own parse: plain view names still select,
    other selectors say that dbt cannot resolve them"""
    rc, report, err = _validate(capsys, projects[1], "--select", "good_view")
    assert rc == 0 and set(report["views"]) == {"good_view"}, err
    assert "--select is read as dimension-view names" in err
    rc, report, err = _validate(capsys, projects[1], "--select", "tag:nightly")
    assert rc == 1 and report is None
    assert "pdelta validate: dbt cannot resolve `--select tag:nightly`: Compilation Error" in err


@pytest.fixture
def dbt_commands(monkeypatch):
    """dbt's commands that would run against the warehouse are recorded instead; parse, deps and
    ls (the selection) run for real"""
    from dbt.cli.main import dbtRunner, dbtRunnerResult

    ran: list[list[str]] = []
    real = dbtRunner.invoke

    def invoke(self, args, **kwargs):
        if args and args[0] in ("parse", "deps", "ls", "list"):
            return real(self, args, **kwargs)
        ran.append(list(args))
        return dbtRunnerResult(success=True)

    monkeypatch.setattr(dbtRunner, "invoke", invoke)
    return ran


@pytest.mark.parametrize("command, validated, runs", [
    (["build", "--select", "good_view"], 1, True),            # the invalid view elsewhere does not stop it
    (["run", "-s", "+good_chained"], 2, True),
    (["build", "--exclude", BAD], 2, True),
    (["build", "--selector", "nightly_views"], 1, True),
    (["seed"], 0, True),                                      # runs no model
    (["build", "--select", "path:models/broken"], 1, False),  # the invalid view will run: refused
    (["build"], 3, False),
    (["run", "--select", "good_view", "cust_changes+"], 3, False),
], ids=["other-view", "upstream", "exclude", "selector", "seed", "the-invalid-one", "everything", "downstream"])
def test_pdelta_run_validates_the_views_dbt_will_run(projects, capsys, dbt_commands, command, validated, runs):
    shop = projects[0]
    argv = [*command, "--project-dir", str(shop), "--profiles-dir", str(ROOT)]
    rc, out, err = _main(capsys, "run", *argv)
    assert f"{validated} of 3 dimension view(s) validated" in out, out + err
    if runs:
        assert rc == 0 and dbt_commands == [argv], out + err
        assert "all valid" in out and f"dbt {command[0]} succeeded" in out
    else:
        assert rc == 1 and dbt_commands == [] and "dbt was not run" in out
        assert f"dimension_view '{BAD}'" in out and "[join-types]" in out


def test_pdelta_run_validates_every_view_when_dbt_cannot_resolve_the_selection(projects, capsys, dbt_commands):
    rc, out, err = _main(capsys, "run", "build", "--select", "good_view", "--project-dir", str(projects[1]),
                         "--profiles-dir", str(ROOT))
    assert rc == 1 and dbt_commands == [] and "dbt was not run" in out
    assert "4 of 4 dimension view(s) validated (the selection unresolved: every view)" in out
    assert "dbt cannot resolve the selection" in err


STEP = re.compile(r"^pdelta validate --live \[ *\d+\.\ds\] (.*)$")


class _NoTables:
    """a warehouse where nothing is built yet: each query answers `not found`, and says on stderr that it ran"""

    def rows(self, sql):
        import sys

        print(f"QUERY {sql.split()[0]}", file=sys.stderr, flush=True)
        raise RuntimeError("[TABLE_OR_VIEW_NOT_FOUND] not built")


def test_live_validation_prints_each_step_as_it_starts(projects, capsys, monkeypatch):
    import pdelta.live

    monkeypatch.setattr(pdelta.live, "connect", lambda *a, **k: _NoTables())
    rc, report, err = _validate(capsys, projects[0], "--live", "--select", "+good_chained")
    assert rc == 1 and {e["rule"] for e in report["errors"]} == {"live-relation"}  # stdout: the JSON alone
    lines = err.splitlines()
    steps = [m.group(1) for m in map(STEP.match, lines) if m]
    assert steps[:2] == ["connecting to target local", "view 1/2: good_chained"]
    assert "view 2/2: good_view" in steps
    assert any(s.startswith("good_view: `a`: join types and foreign-key orphans of c -> a") for s in steps)
    # every query runs after the step that names it: a step line, then its queries
    first_state = next(i for i, ln in enumerate(lines) if "good_view: `c`: the key of state" in ln)
    assert lines[first_state + 1] == "QUERY describe"
    feed = next(i for i, ln in enumerate(lines) if "good_view: `c`: the pending rows of change feed" in ln)
    assert lines[feed + 1] == "QUERY describe"
    assert all(STEP.match(ln) or ln.startswith("QUERY") for ln in lines), err


def test_explain_prints_the_dry_runs_steps_as_they_start(projects, capsys, monkeypatch):
    """the macro's first step is logged before its first query; that query is refused here (no
    Spark), so explain fails after it, its JSON alone on stdout"""
    from pyspark.sql import SparkSession

    def no_spark(*_a, **_k):
        raise RuntimeError("no Spark in this test")

    monkeypatch.setattr(SparkSession.Builder, "getOrCreate", no_spark)
    # the profile's default target (local: the embedded session) and the manifest validate saved
    rc, out, err = _main(capsys, "explain", "good_view", "--project-dir", str(projects[0]), "--profiles-dir", str(ROOT),
                         "--format", "json")
    assert rc == 1 and json.loads(out)["model"] == "good_view"
    steps = [ln for ln in err.splitlines() if ln.startswith("pdelta explain [")]
    assert re.match(r"pdelta explain \[ *\d+\.\ds\] good_view: dbt run-operation pdelta.explain_refresh", steps[0])
    assert re.match(r"pdelta explain \[ *\d+\.\ds\] good_view: reading the batch log \S+good_view__pdelta_batches$",
                    steps[1]), err
    assert "pdelta explain: dbt run-operation failed: Encountered an error while running operation" in err
    assert "no Spark in this test" in err
