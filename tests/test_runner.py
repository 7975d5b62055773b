"""pdelta.runner: commands run in order in one process, the first failure stops the run, and a
command written `! <command>` must fail (how `make test` checks that a guard refuses), and one
written `<command> :: <text>` must succeed and say <text> (each text, when several)."""
from __future__ import annotations

import shlex

from pdelta.project import parse_folder
from pdelta.runner import _target_per_vars, run_all


def test_a_command_that_must_fail_passes_only_when_it_fails(capsys):
    assert run_all(["! no-such-command"]) == 0
    assert "failed, as it must" in capsys.readouterr().out
    assert run_all(["! --version"]) == 1
    assert "SUCCEEDED but must fail" in capsys.readouterr().out


def test_the_first_failure_stops_the_run(capsys):
    assert run_all(["--version", "no-such-command", "--version"]) == 1
    out = capsys.readouterr().out
    assert out.count("$ dbt --version") == 1 and "dbt no-such-command: FAILED" in out


def test_a_command_that_must_fail_must_also_say_why(capsys):
    assert run_all(["! no-such-command :: No such command"]) == 0
    assert run_all(["! no-such-command :: something else entirely"]) == 1
    assert "failed, but without saying 'something else entirely'" in capsys.readouterr().out


def test_a_command_that_must_say_something_passes_only_when_it_succeeds_and_says_it(capsys):
    assert run_all(["pdelta gen-macros --check :: is up to date"]) == 0
    assert run_all(["pdelta gen-macros --check :: something else entirely"]) == 1
    assert "succeeded, but without saying 'something else entirely'" in capsys.readouterr().out
    # failing while saying it is no pass without the `!`
    assert run_all(["no-such-command :: No such command"]) == 1


def test_a_command_with_several_texts_must_say_each(capsys):
    assert run_all(["pdelta gen-macros --check :: delta_model.sql is up to date :: feed_contract.sql"]) == 0
    assert run_all(["pdelta gen-macros --check :: delta_model.sql is up to date :: something else entirely"]) == 1
    assert "succeeded, but without saying 'something else entirely'" in capsys.readouterr().out
    assert run_all(["! no-such-command :: No such command :: something else entirely"]) == 1


def test_each_vars_and_target_pair_keeps_its_own_target_folder(monkeypatch):
    def folder(command):
        args = _target_per_vars(shlex.split(command))
        return args[args.index("--target-path") + 1] if "--target-path" in args else None

    assert folder("run --target local --vars '{a: 1}'") is None  # off unless asked for
    monkeypatch.setenv("PDELTA_TARGET_PER_VARS", "1")
    first = folder("run --target local --vars '{a: 1}'")
    assert first.startswith("target/pdelta/")
    # the folder pdelta validate / explain parse into with the same vars and target, however written
    assert first == str(parse_folder({"a": 1}, "local")) == folder("run --target local --vars '{\"a\": 1}'")
    assert folder("test --target local --vars '{a: 1}' --select x") == first
    assert folder("run --target local --vars '{a: 2}'") not in (None, first)
    assert folder("run --target thrift --vars '{a: 1}'") not in (None, first)
    assert folder("run-operation m --target local --args '{a: 1}'") == folder("run --target local")
    assert folder("run --target-path mine") == "mine" and folder("deps") is None
