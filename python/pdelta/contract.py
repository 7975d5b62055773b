"""The feed contract: what every change-feed row a refresh consumes must satisfy
(docs/dimension-views.md, "The feed contract"). One definition, used by `pdelta validate --live`
(python/pdelta/live.py) and, generated into macros/engine/feed_contract.sql by `pdelta
gen-macros`, by every refresh of a dimension view or a mirror (macros/engine/feed_checks.sql).

A row check is a SQL condition on one feed row, written as a template whose placeholders both
languages fill the same way (`fill`):
  {key_null}        one of the relation's key columns is NULL
  {attrs_not_null}  one of the feed's attribute columns (not key, not `_pdelta_*`) is not NULL
  {six_sets}        the six sets, as SQL string literals
  {allowed_sets}    the sets the declared technique can emit, composed per key
  {required_null}   one of the attribute columns the state declares not null (a `not_null` data
                    test or constraint) is NULL; a check using it runs only where there are such
A row matching a check is bad: the refresh stops on it (`pdelta_bad_rows: stop`, the default)
or moves it to `<model>__pdelta_quarantine` with the rule and applies the rest (`quarantine`).
"""
from __future__ import annotations


from . import algebra
from .techniques import TECHNIQUES

# rule -> (condition template, what is wrong with such rows, how to fix it)
ROW_CHECKS: dict[str, tuple[str, str, str]] = {
    "feed-type": (
        "`_pdelta_type` is null or `_pdelta_type` not in ({six_sets})",
        "a `_pdelta_type` that is not one of the six sets (ins, del, upd, up, ups, delk)",
        "every row belongs to one of the six sets (case-sensitive)"),
    "feed-key-null": (
        "{key_null}",
        "a NULL key column",
        "every feed row carries its whole key"),
    "feed-upd-images": (
        "`_pdelta_type` = 'upd' and `_pdelta_before` is null",
        "`upd` without a before-image (`_pdelta_before` NULL)",
        "an update pair carries both images; emit `up` when the before-image is unknown"),
    "feed-before-image": (
        "`_pdelta_type` in ({six_sets}) and `_pdelta_type` <> 'upd' and `_pdelta_before` is not null",
        "a before-image on a row that is not `upd`",
        "only `upd` rows carry a before-image; emit `upd`, or NULL `_pdelta_before`"),
    "feed-delk-key-only": (
        "`_pdelta_type` = 'delk' and ({attrs_not_null})",
        "`delk` with a non-NULL attribute column (a partial delete carries only the key)",
        "emit `del` with the deleted row when it is known, else NULL the attributes"),
    "feed-del-image": (
        "`_pdelta_type` = 'del' and ({required_null})",
        "`del` without the deleted row (NULL in a column the state declares not null)",
        "a `del` carries the deleted row; emit `delk` when only the key is known"),
    "feed-technique": (
        "`_pdelta_type` in ({six_sets}) and `_pdelta_type` not in ({allowed_sets})",
        "a set the relation's declared technique cannot emit, even composed per key",
        "declare the technique that matches the feed (or `any`); `pdelta_unexpected_sets: warn` applies them anyway"),
}

# checks over groups of rows or the feed's schema, and what stops every refresh regardless of
# pdelta_bad_rows: rule -> (what is wrong, how to fix it)
OTHER_CHECKS: dict[str, tuple[str, str]] = {
    "feed-disjoint": (
        "the same key more than once at one `_pdelta_seq` (the six sets of one sequence are disjoint on the key)",
        "emit one change per key and sequence (the net effect), or give later changes higher sequences"),
    "feed-column-type": (
        "a column whose type differs from the state's (or a `_pdelta_before` without a field of the state)",
        "write the feed with the state's column types; a refresh never casts a feed value silently"),
    "feed-seq-null": (
        "a NULL `_pdelta_seq` (no refresh ever reads such rows)",
        "give every row a bigint sequence above the ones already consumed"),
    "feed-seq-behind": (
        "a `_pdelta_seq` at or below one an earlier refresh already consumed (they landed late; no refresh reads them)",
        "give every change a sequence above the ones already consumed"),
    "feed-rewritten": (
        "fewer or different rows at or below the consumed `_pdelta_seq` than when it was consumed: "
        "the feed was rewritten or its sequences restarted",
        "keep consumed rows as they were (retention may delete whole feeds only with a full rebuild); "
        "rebuild with `dbt run --full-refresh`"),
    "state-duplicate-key": (
        "the same primary key in more than one row of the state",
        "fix the state so that its key is unique; the next run then refreshes normally"),
}

# checks a refresh can quarantine row by row (the rest stop it whatever pdelta_bad_rows says)
QUARANTINABLE = (*ROW_CHECKS, "feed-disjoint")
# the settings, each from the model's config or the project var of the same name:
# name -> (values, the first is the default; what each value means, for the error message)
OPTIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "pdelta_bad_rows": (("stop", "quarantine"),
                        "'stop' (a refresh meeting a row that breaks the feed contract writes nothing) or 'quarantine' "
                        "(such rows go to <model>__pdelta_quarantine, the rest is applied)"),
    "pdelta_unexpected_sets": (("stop", "warn"),
                               "'stop' (a row of a set the declared technique cannot emit is a bad row) or 'warn' "
                               "(it is applied and the run log says so)"),
}


def q(name: str) -> str:
    return "`" + str(name).replace("`", "``") + "`"


def sql_sets(sets) -> str:
    return ", ".join(f"'{s}'" for s in sets)  # fixed names from algebra.SIX_SETS


def technique_sets() -> dict[str, list[str]]:
    """Per declared technique, the sets its feed can hold once one key's changes are netted
    (what the flag analysis assumes; a `delk` then an `ins` is an `ups`)."""
    from .flags import technique_sets as sets_of

    return {t: sets_of(t) for t in TECHNIQUES}


def option_errors(cfg) -> list[str]:
    """messages for bad values of OPTIONS in `cfg` (macros/engine/feed_checks.sql gives the same)"""
    out = []
    for name, (values, expected) in OPTIONS.items():
        value = cfg.get(name, values[0])
        if value not in values:
            out.append(f"{name}: expected {expected}, got '{value}'")
    return out


def applies(template: str, required: list[str], allowed: list[str] | None = None) -> bool:
    """whether a row check runs on a feed: the technique check where the technique cannot emit
    every set, checks of declared not-null columns where there are such (feed_row_checks too)"""
    if "{allowed_sets}" in template and (allowed is None or len(allowed) >= len(algebra.SIX_SETS)):
        return False
    return "{required_null}" not in template or bool(required)


def fill(template: str, key: list[str], attrs: list[str], allowed: list[str] | None = None,
         required: list[str] | None = None) -> str:
    """A check's condition for one feed (the Jinja side does the same replacements)."""
    return (template
            .replace("{required_null}", " or ".join(f"{q(a)} is null" for a in required or []) or "false")
            .replace("{key_null}", " or ".join(f"{q(k)} is null" for k in key) or "false")
            .replace("{attrs_not_null}", " or ".join(f"{q(a)} is not null" for a in attrs) or "false")
            .replace("{six_sets}", sql_sets(algebra.SIX_SETS))
            .replace("{allowed_sets}", sql_sets(allowed if allowed is not None else algebra.SIX_SETS)))


def as_dict() -> dict:
    return {
        "row_checks": [{"rule": r, "condition": c, "problem": p, "hint": h} for r, (c, p, h) in ROW_CHECKS.items()],
        "other_checks": [{"rule": r, "problem": p, "hint": h} for r, (p, h) in OTHER_CHECKS.items()],
        "quarantinable": list(QUARANTINABLE),
        "options": {name: {"values": list(values), "expected": expected}
                    for name, (values, expected) in OPTIONS.items()},
        "technique_sets": technique_sets(),
    }


def render_macro() -> str:
    """The text of macros/engine/feed_contract.sql."""
    return algebra.data_macro("feed_contract", "python/pdelta/contract.py",
                              "The feed contract's checks, shared by every refresh (feed_checks.sql) and\n"
                              "    `pdelta validate --live`.", as_dict())
