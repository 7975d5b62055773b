"""The partial-delta model of Jörg & Dessloch, as data: the one definition of the six delta sets
and the type flags that both the Jinja engine and this package use.

``macros/algebra/delta_model.sql`` is generated from this module (``pdelta gen-macros``); a test
fails when the two drift apart, and another evaluates the SQL flag functions on Spark against
the Python ones below.
"""
from __future__ import annotations

import json
from typing import Literal

# Paper §3: the six sets. Order is the canonical order used in reports.
SIX_SETS: tuple[str, ...] = ("ins", "del", "upd", "up", "ups", "delk")
SET_MEANING = {
    "ins": "inserted row (new image)",
    "del": "deleted row (old image)",
    "upd": "update pair (new image and before-image)",
    "up": "partial update (new image, no before-image)",
    "ups": "upsert: insert or update, unknown which (new image)",
    "delk": "partial delete (key only)",
}

# Paper §5.3: flags of the delete-insert encoding. `pre` marks preserved rows of a
# reconstructed old state (§5.6); the others appear in a delete set.
FLAGS: tuple[str, ...] = ("pre", "comp", "up", "ups")
DELETE_FLAGS: tuple[str, ...] = ("comp", "up", "ups")

# Fig. 4: six sets -> delete-insert model. For each set: does it put its new image in the insert
# set, and which flag does its delete-set row carry (None: no delete-set row). `comp` rows carry
# the old image; `up`/`ups` rows carry the key only (attributes NULL).
ENCODING: dict[str, tuple[bool, str | None]] = {
    "ins": (True, None),
    "del": (False, "comp"),
    "upd": (True, "comp"),
    "up": (True, "up"),
    "ups": (True, "ups"),
    "delk": (False, "up"),
}

Before = Literal["absent", "known", "present_unknown", "unknown"]
After = Literal["absent", "present"]

# What one change says about the row before and after it. Used for the net effect of several
# changes to one key: the first change tells the before-state, the last the after-state.
# `delk` may be ineffective (a view's partial delete of a row it never held), so the row's
# prior existence is `unknown`, as for `ups`.
BEFORE: dict[str, Before] = {
    "ins": "absent",
    "del": "known",
    "upd": "known",
    "up": "present_unknown",
    "ups": "unknown",
    "delk": "unknown",
}
AFTER: dict[str, After] = {
    "ins": "present",
    "del": "absent",
    "upd": "present",
    "up": "present",
    "ups": "present",
    "delk": "absent",
}
# (before-state of the first change, after-state of the last) -> net change, None: no change.
NET: dict[tuple[str, str], str | None] = {
    ("absent", "absent"): None,
    ("absent", "present"): "ins",
    ("known", "absent"): "del",
    ("known", "present"): "upd",
    ("present_unknown", "absent"): "delk",
    ("present_unknown", "present"): "up",
    ("unknown", "absent"): "delk",
    ("unknown", "present"): "ups",
}


def s(flag: str) -> str:
    """Selection flag function (§5.5): a partial update that passes a selection may have been
    outside it before, so it becomes an upsert."""
    return "ups" if flag == "up" else flag


def j(flag_s: str, flag_t: str) -> str:
    """Join flag function (§5.6) for S ⋈ T: S's flag is `pre` or `comp` (partial S rows only
    take the third join term), T's flag is any of pre/comp/up/ups."""
    if flag_s == "pre":
        return flag_t
    if flag_s == "comp":
        return {"pre": "comp", "comp": "comp", "up": "up", "ups": "ups"}[flag_t]
    raise ValueError(f"partial S rows ({flag_s}) do not join; they take the third term")


def to_delete_insert(change: str) -> tuple[bool, str | None]:
    """Fig. 4 for one change type: (has insert-set row, delete-set flag or None)."""
    return ENCODING[change]


def to_six_sets(in_delta: bool, nabla_flag: str | None) -> str | None:
    """Fig. 6 for one key: from presence in ΔR and the flag of its ∇R row (None: absent).
    The flag selections apply to ∇R (DESIGN.md §6 erratum)."""
    if in_delta:
        return {None: "ins", "comp": "upd", "up": "up", "ups": "ups"}[nabla_flag]
    if nabla_flag is None:
        return None
    return "del" if nabla_flag == "comp" else "delk"


def net_effect(changes: list[str]) -> str | None:
    """Net change type of a sequence of changes to one key (ordered by sequence)."""
    if not changes:
        return None
    return NET[(BEFORE[changes[0]], AFTER[changes[-1]])]


def compose(first: str, second: str) -> str | None:
    """Composition of two changes to one key, `first` then `second` (the net table on a pair).
    Images: the result carries the last change's new image and the first change's old image
    (for `upd`/`del`); `None` is no change at all."""
    return net_effect([first, second])


def consistent(first: str, second: str) -> bool:
    """Can a source that tells the truth emit `second` right after `first` for one key? (An
    insert needs the row absent; a delete or an update pair/partial update needs it present.)
    Inconsistent pairs still compose by the table; they mark a feed that lies."""
    needs = {"ins": False, "del": True, "upd": True, "up": True}.get(second)
    return needs is None or needs == (AFTER[first] == "present")


def composition_table() -> list[tuple[str, str, str | None, bool]]:
    """Every pair of the six sets: (first, second, composed set or None, consistent)."""
    return [(a, b, compose(a, b), consistent(a, b)) for a in SIX_SETS for b in SIX_SETS]


def as_dict() -> dict:
    """Everything the SQL side needs, as plain JSON-able data."""
    from .techniques import FORMAT_SETS, FORMATS, QUARANTINE_REASONS

    return {
        "six_sets": list(SIX_SETS),
        "flags": list(FLAGS),
        "delete_flags": list(DELETE_FLAGS),
        "encoding": {k: {"delta": v[0], "nabla_flag": v[1]} for k, v in ENCODING.items()},
        "before": dict(BEFORE),
        "after": dict(AFTER),
        "net": [[b, a, t] for (b, a), t in NET.items()],
        "s": {f: s(f) for f in FLAGS},
        "j": {f"{fs},{ft}": j(fs, ft) for fs in ("pre", "comp") for ft in FLAGS},
        # capture (macros/materializations/capture.sql): format -> technique and sets, and the
        # quarantine reasons
        "capture_formats": {f: {"technique": t, "records": list(records), "sets": list(FORMAT_SETS[f])}
                            for f, (t, records, _) in FORMATS.items()},
        "quarantine_reasons": list(QUARANTINE_REASONS),
    }


def render_macro() -> str:
    """The text of macros/algebra/delta_model.sql."""
    return data_macro("delta_model", "python/pdelta/algebra.py",
                      "The six delta sets, the flags, Fig. 4/6 conversions, the flag functions s and j and\n"
                      "    the net-effect table, shared by the Jinja engine and the Python package.", as_dict())


def data_macro(name: str, source: str, doc: str, data: dict) -> str:
    """A generated macro `name()` returning `data` (what `pdelta gen-macros` writes)."""
    return (
        f"{{#- GENERATED from {source} by `pdelta gen-macros`; do not edit.\n"
        f"    {doc} -#}}\n"
        f"{{% macro {name}() %}}\n"
        "  {{ return(fromjson(" + repr_jinja(json.dumps(data, indent=2)) + ")) }}\n"
        "{% endmacro %}\n"
    )


MACRO_LINE_LIMIT = 120


def repr_jinja(text: str, limit: int = MACRO_LINE_LIMIT) -> str:
    # A single-quoted Jinja string literal: Jinja turns \u0027 back into the quote fromjson reads.
    # A line longer than `limit` is cut at spaces into adjacent literals ('...a ' '...b'), which
    # Jinja joins into one string like Python does: fromjson reads the very same text.
    assert "\\" not in text
    literal = "'" + text.replace("'", "\\u0027") + "'"
    return "\n".join(piece for line in literal.split("\n") for piece in _cut_line(line, limit))


def _cut_line(line: str, limit: int) -> list[str]:
    """`line` of a Jinja literal as lines of at most `limit` characters: each cut (after a space)
    closes the literal and the next line opens an adjacent one, indented like `line`."""
    indent = " " * (len(line) - len(line.lstrip(" ")))
    first = len(indent) + 3  # past a continuation's opening quote
    pieces = []
    while len(line) > limit:
        cut = line.rfind(" ", first, limit - 1) + 1  # the piece and its closing quote fit
        if cut <= first:
            break  # no space to cut at: left long
        pieces.append(line[:cut] + "'")
        line = indent + "  '" + line[cut:]
    return pieces + [line]


def flag_table() -> list[tuple[str, str, str, str]]:
    """The flag functions, Fig. 6 and the net-effect table evaluated on every input, as rows
    (function, argument 1, argument 2, result). Written to a seed by `pdelta gen-macros`; a dbt
    test evaluates the SQL side on Spark over the same inputs and compares."""
    rows = [("s", f, "-", s(f)) for f in FLAGS]
    rows += [("j", fs, ft, j(fs, ft)) for fs in ("pre", "comp") for ft in FLAGS]
    for in_delta in (True, False):
        for flag in (None, *DELETE_FLAGS):
            if in_delta or flag is not None:
                rows.append(("fig6", "delta" if in_delta else "no_delta", flag or "none",
                             to_six_sets(in_delta, flag) or "none"))
    for first in SIX_SETS:
        rows.append(("net", first, "-", net_effect([first]) or "none"))
        for last in SIX_SETS:
            rows.append(("net", first, last, net_effect([first, last]) or "none"))
    return rows


def render_flag_seed() -> str:
    return "fn,arg1,arg2,result\n" + "".join(",".join(r) + "\n" for r in flag_table())
