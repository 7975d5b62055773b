"""The shared delta model: the paper's tables, and the generated macro kept in step."""
from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import pytest

from pdelta import algebra

ROOT = Path(__file__).resolve().parents[1]


def test_generated_macro_is_in_step_with_python():
    assert (ROOT / "macros" / "algebra" / "delta_model.sql").read_text() == algebra.render_macro()


def test_gen_macros_check_fails_on_drift(tmp_path):
    (tmp_path / "dbt_project.yml").write_text("name: x\n")
    (tmp_path / "macros" / "algebra").mkdir(parents=True)
    (tmp_path / "macros" / "algebra" / "delta_model.sql").write_text("stale")
    r = subprocess.run([sys.executable, "-m", "pdelta.cli", "gen-macros", "--check"], cwd=tmp_path,
                       capture_output=True, text=True)
    assert r.returncode == 1 and "out of date" in r.stderr


def test_fig4_then_fig6_round_trips_every_set():
    for t in algebra.SIX_SETS:
        assert algebra.to_six_sets(*algebra.to_delete_insert(t)) == t


def test_fig6_partial_delete_set_rows_without_insert_are_delk():
    # after a selection, a partial delete's `up` flag becomes `ups`: still a key-only delete
    assert algebra.to_six_sets(False, "ups") == "delk"
    assert algebra.to_six_sets(False, "up") == "delk"
    assert algebra.to_six_sets(False, None) is None


def test_s_turns_only_partial_updates_into_upserts():
    assert [algebra.s(f) for f in algebra.FLAGS] == ["pre", "comp", "ups", "ups"]


def test_j_matches_the_join_matrices():
    # Fig. 9/10 summarised by the paper's j: preserved S rows take T's flag; complete S rows
    # joined to complete T rows stay complete, to partial ones take the partial flag.
    expected = {("pre", t): t for t in algebra.FLAGS}
    expected.update({("comp", "pre"): "comp", ("comp", "comp"): "comp", ("comp", "up"): "up", ("comp", "ups"): "ups"})
    for (fs, ft), want in expected.items():
        assert algebra.j(fs, ft) == want
    with pytest.raises(ValueError):
        algebra.j("ups", "pre")


def _apply(state: dict, change: tuple):
    """Apply one change (type, new image, old image) to a one-key state {None or image}."""
    kind, new, old = change
    before = state.get("row")
    if kind == "ins":
        assert before is None
        state["row"] = new
    elif kind in ("upd", "up"):
        assert before is not None
        state["row"] = new
    elif kind == "ups":
        state["row"] = new
    else:
        state.pop("row", None)


def _valid_sequences(max_len: int):
    """Event sequences for one key that a real source can produce (the row exists exactly
    when the previous event left it existing; first event decides the initial state)."""
    for n in range(1, max_len + 1):
        for seq in itertools.product(algebra.SIX_SETS, repeat=n):
            exists = None  # unknown before the first event
            ok = True
            for t in seq:
                needs = {"ins": False, "del": True, "upd": True, "up": True}.get(t)
                if needs is not None and exists is not None and exists != needs:
                    ok = False
                    break
                exists = algebra.AFTER[t] == "present"
            if ok:
                yield seq


@pytest.mark.parametrize("initially_present", [False, True])
def test_net_effect_equals_applying_events_one_by_one(initially_present):
    checked = 0
    for seq in _valid_sequences(4):
        first_needs = {"ins": False, "del": True, "upd": True, "up": True}.get(seq[0])
        if first_needs is not None and first_needs != initially_present:
            continue
        images = {i: f"img{i}" for i in range(len(seq))}
        start = {"row": "old"} if initially_present else {}
        one_by_one = dict(start)
        for i, t in enumerate(seq):
            _apply(one_by_one, (t, images[i], None))
        net = algebra.net_effect(list(seq))
        batched = dict(start)
        if net is not None:
            last_image = images[len(seq) - 1]
            if net in ("ins", "upd", "up", "ups"):
                if net == "ins":
                    assert not initially_present, seq
                if net in ("upd", "up"):
                    assert initially_present, seq
                batched["row"] = last_image
            else:
                if net == "del":
                    assert initially_present, seq
                batched.pop("row", None)
        assert batched == one_by_one, (seq, net)
        checked += 1
    assert checked > 100


def test_flag_analysis_sees_an_update_that_moves_a_foreign_key():
    """An update pair of S (new image, complete old image) may move its foreign key: its new image
    joins an unchanged T row, its old image a T row deleted by key, and the view row is an `up`
    (the randomized `roles` view emitted one in scenario 5002; the analysis had paired both images
    with one T row and predicted only `upd` and `delk`)."""
    from pdelta.flags import encode, join, rows_to_sets

    assert rows_to_sets(join(encode({"upd"}), encode({"delk"}))) >= {"up", "upd", "delk"}
    # an unchanged or inserted S row keeps its foreign key: one T row for both sides
    assert "up" not in rows_to_sets(join(encode({"ins"}), encode({"delk"})))
