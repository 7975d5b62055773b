"""A maintained relation's configuration besides its declaration: how it is applied
(`pdelta_apply`, `pdelta_history`, `tblproperties`), when a refresh rebuilds instead
(`pdelta_rebuild_ratio`, `pdelta_rebuild_feed`) and how a refresh computes its batch
(`pdelta_plan`). The materialization refuses a bad value at run time (macros/apply/apply_option_errors.sql,
macros/engine/rebuild_options.sql);
`pdelta validate` refuses it before anything runs, with the same message.
tests/test_options.py runs the same cases through both."""
from __future__ import annotations

import re
from typing import Any, Mapping

APPLY_OPTIONS = ("buckets", "cluster_by_key", "prune", "upsert")
UPSERTS = ("delete_insert", "merge")
REBUILD_FEEDS = ("reset", "diff")
PLANS = ("diff", "rules")
# dbt's values; for a dimension view all but `fail` rebuild it when its declaration changed
ON_SCHEMA_CHANGE = ("ignore", "fail", "append_new_columns", "sync_all_columns")
DEFAULT_PLAN = "diff"


def _s(v: Any) -> str:
    """a value as Jinja's `~` prints it"""
    return str(v)


def apply_option_errors(cfg: Mapping[str, Any], attrs: list[str]) -> list[str]:
    """messages for `pdelta_apply`, `pdelta_history` and `tblproperties` (`attrs`: the
    relation's non-key columns, which history may track)"""
    out: list[str] = []
    a = cfg.get("pdelta_apply")
    if a is not None and not isinstance(a, Mapping):
        out.append(f"pdelta_apply: expected a mapping of options ({', '.join(APPLY_OPTIONS)}), got {_s(a)}")
        a = {}
    for k in sorted(a or {}):
        if k not in APPLY_OPTIONS:
            out.append(f"pdelta_apply: unknown option `{k}` (known: {', '.join(APPLY_OPTIONS)})")
    if a and "buckets" in a:
        b = a["buckets"]
        if isinstance(b, bool) or not isinstance(b, int) or b < 1:
            out.append(f"pdelta_apply: buckets must be a positive integer, got {_s(b)}")
    for k in ("prune", "cluster_by_key"):
        if a and k in a and not isinstance(a[k], bool):
            out.append(f"pdelta_apply: {k} must be true or false, got {_s(a[k])}")
    if a and "upsert" in a and a["upsert"] not in UPSERTS:
        out.append(f"pdelta_apply: upsert must be 'delete_insert' or 'merge', got '{_s(a['upsert'])}'")
    h = cfg.get("pdelta_history")
    if h:
        if isinstance(h, str):
            h = {"type": h}
        if not isinstance(h, Mapping):
            out.append(f"pdelta_history: expected 'scd2' or a mapping {{type: scd2, tracked: [columns]}}, got {_s(h)}")
        else:
            if (h.get("type") or "scd2") != "scd2":
                out.append(f"pdelta_history: type must be 'scd2', got '{_s(h.get('type'))}'")
            for c in h.get("tracked") or []:
                if c not in attrs:
                    out.append(f"pdelta_history: tracked column `{c}` is not a non-key output column "
                               f"({', '.join(attrs)})")
    props = cfg.get("tblproperties") or {}
    if not isinstance(props, Mapping):
        out.append(f"tblproperties: expected a mapping of property names to values, got {_s(props)}")
    else:
        for k, v in props.items():
            # rendered as SQL string literals: refuse what would break out of one
            if any(ch in _s(x) for x in (k, v) for ch in ("'", "\\")):
                out.append(f"tblproperties: `{k}` = `{_s(v)}` contains a quote or backslash, which a table property "
                           "cannot carry here")
    return out


STATE_AHEAD = ("ignore", "stop", "wait")
DELTA_READERS = ("kernel", "classic")
COMPLEMENT_UPKEEP = ("rebuild", "batch")
_NUMBER = re.compile(r"^[0-9]+(\.[0-9]+)?$")


def rebuild_option_errors(cfg: Mapping[str, Any]) -> list[str]:
    """messages for the cost model's `pdelta_rebuild_ratio` and `pdelta_rebuild_feed`, `pdelta_plan`,
    `on_schema_change` (what a run does when the view's declaration changed), the settings of its reads and
    `pdelta_complement` (with dbt's `file_format`: complement mode needs a Delta view) and
    `pdelta_complement_upkeep`"""
    out: list[str] = []
    r = cfg.get("pdelta_rebuild_ratio")
    off = r is None or r is False or r == "false"
    number = ((isinstance(r, (int, float)) and not isinstance(r, bool) and r >= 0)
              or (isinstance(r, str) and _NUMBER.match(r)))
    if not off and not number and r != "learned":
        out.append("pdelta_rebuild_ratio: expected a number of at least 0 (the share of the view a batch may reach "
                   "before the refresh rebuilds instead), 'learned' (rebuild when the view's own timed refreshes and "
                   f"rebuilds predict a rebuild is faster) or false, got {_s(r)}")
    feed = cfg.get("pdelta_rebuild_feed", "reset")
    if feed not in REBUILD_FEEDS:
        out.append("pdelta_rebuild_feed: expected 'reset' (a plain rebuild, readers of the view's feed rebuild too) or "
                   f"'diff' (the feed gets the rebuild's exact difference), got '{_s(feed)}'")
    plan = cfg.get("pdelta_plan", DEFAULT_PLAN)
    if plan not in PLANS:
        out.append("pdelta_plan: expected 'diff' (recompute the rows the batch reaches and compare them with the view; "
                   "complete changes) or 'rules' (the paper's delta rules term by term; partial changes), "
                   f"got '{_s(plan)}'")
    change = cfg.get("on_schema_change") or "ignore"
    if change not in ON_SCHEMA_CHANGE:
        out.append("on_schema_change: expected 'ignore', 'append_new_columns' or 'sync_all_columns' "
                   "(a dimension view whose "
                   f"declaration changed is rebuilt) or 'fail' (the run stops), got '{_s(change)}'")
    rows = cfg.get("pdelta_feed_history_rows", 100000)
    whole = (isinstance(rows, (int, float)) and not isinstance(rows, bool) and rows >= 0 and rows == int(rows)) \
        or (isinstance(rows, str) and re.fullmatch(r"[0-9]+", rows) is not None)
    if not whole:
        out.append("pdelta_feed_history_rows: expected a whole number of at least 0 (the consumed rows from which a "
                   f"user's Delta feed is read through its Delta history), got {_s(rows)}")
    pin = cfg.get("pdelta_pin_states", True)
    if pin not in (True, False, "true", "false"):
        out.append("pdelta_pin_states: expected true (a state pdelta writes is read as of the batch the refresh's "
                   f"bound names) or false (as it is when read), got {_s(pin)}")
    ahead = cfg.get("pdelta_state_ahead", "ignore")
    if ahead not in STATE_AHEAD:
        out.append("pdelta_state_ahead: expected 'ignore' (a user's state ahead of its feed is not checked), 'stop' "
                   "(the run fails, writing nothing) or 'wait' (the run writes nothing; the next one tries again), "
                   f"got {_s(ahead)}")
    reader = cfg.get("pdelta_delta_reader", "kernel")
    if reader not in DELTA_READERS:
        out.append("pdelta_delta_reader: expected 'kernel' (a refresh's reading statements read Delta tables through "
                   f"Delta's Kernel reader) or 'classic' (through Delta's classic reader), got {_s(reader)}")
    complement = cfg.get("pdelta_complement", False)
    file_format = _s(cfg.get("file_format") or "delta").lower()
    if complement is not True and complement is not False:
        out.append("pdelta_complement: expected true (the view keeps its complement beside it, docs/complement-mode.md)"
                   f" or false, got {_s(complement)}")
    elif complement and file_format != "delta":
        out.append("pdelta_complement: true needs a Delta view (its complement is kept in a Delta table), got "
                   f"file_format {file_format}")
    upkeep = cfg.get("pdelta_complement_upkeep", "rebuild")
    if upkeep not in COMPLEMENT_UPKEEP:
        out.append("pdelta_complement_upkeep: expected 'rebuild' (after each batch the complement is rebuilt from the "
                   "states) or 'batch' (a refresh keeps it from the rows its batch touches), "
                   f"got {_s(upkeep)}")
    return out
