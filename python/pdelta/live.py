"""Live validation of a dimension view's inputs against the data.

`pdelta validate` checks declarations statically; this module runs queries over a Spark Thrift
Server (PyHive) or the embedded SparkSession and checks that each input's state and change feed
honour the contract of `docs/dimension-views.md`. Every finding is a `Violation` whose message
names the relation, says how many rows and shows up to 3 example keys.

What is checked, per input alias (rule ids in brackets):

State (the keyed table; scanned in full, or with ``TABLESAMPLE (n PERCENT)`` when `sample_pct`
is given, which makes these counts sample-based — ``stats['sampled']`` and ``stats['note']`` say
so, no violation is raised for it):

* ``live-key-null`` (error): rows of the state with a NULL declared key column.
* ``live-key-unique`` (error): key values (all key columns non-NULL) held by more than one row;
  the message gives both the number of keys and of rows. Under sampling a duplicate is found
  only when two of its rows fall into the sample.
* ``live-join-types`` (error, non-root aliases): a join column and the key column it equates
  have types of different families in the described states (e.g. string = bigint).
* ``live-fk-orphans`` (warning, non-root aliases): rows of the parent's state whose join
  columns are all non-NULL but match no row of this alias's state: the view's inner join drops
  them. The parent scan is sampled, the child's state is always looked up in full. Neither
  side's ``where`` is applied. Counts go to ``stats['orphans']``.

Change feed, pending rows only: rows with ``_pdelta_seq`` greater than the input's consumed
watermark (``max(hi)`` of the view's batch log for the alias) or NULL (a NULL sequence is never
consumed); every row when there is no watermark (no batch log given, the batch log does not
exist, or it has no non-NULL ``hi`` for the alias). Pending rows are always checked in full:
they are delta-sized.

* ``feed-type``: ``_pdelta_type`` NULL or not one of the six sets (case-sensitive).
* ``feed-key-null``: a NULL key column.
* ``feed-seq-null``: a NULL ``_pdelta_seq``.
* ``feed-disjoint``: more than one row for one (key, ``_pdelta_seq``): the six sets of one
  sequence value must be pairwise disjoint on the key. Counts both groups and rows (rows with a
  NULL key column or sequence are left to their own rules).
* ``feed-upd-images``: an ``upd`` row with a NULL ``_pdelta_before``.
* ``feed-del-image``: a ``del`` row with NULL in an attribute column the state declares not null.
* ``feed-before-image``: a row of another of the six sets with a non-NULL ``_pdelta_before``.
* ``feed-delk-key-only``: a ``delk`` row with a non-NULL attribute column (attribute columns =
  the feed's columns minus the key and the three ``_pdelta_*`` columns).
* ``feed-technique`` (warning): pending rows of a set the declared ``technique`` cannot emit, even
  composed per key (a `delk` then an `ins` of one key netted to an `ups` is allowed)
  (the static flag analysis assumed it never comes).

Sequences. Rows appended behind the watermark (a late row with a sequence at or below it) are
skipped by every later refresh, but they cannot be told from rows that were consumed: the batch
log records only the range (``lo``, ``hi``] and, in ``counts``, the *view's* output change counts,
not how many feed rows the range held. So what is checked is the detectable case:

* ``feed-seq-regressed`` (error): the input has a consumed watermark and the feed's
  ``max(_pdelta_seq)`` is *below* it: the feed was rewritten or truncated behind the view, and
  the rows it now holds at or below the watermark will never be consumed. An empty feed is not
  flagged (consumed rows may legitimately be deleted by retention).

Structure (checked first; when they fail the checks that need the relation are skipped):

* ``live-relation`` (error): the state or feed relation does not exist.
* ``live-state-columns`` (error): the state lacks a key column or a join column a child uses.
* ``feed-columns`` (error): the feed lacks a key column, a non-key column of the state, or one of
  ``_pdelta_before``/``_pdelta_type``/``_pdelta_seq`` (a refresh selects all of them).
* ``live-watermark-missing`` (warning): the batch log exists but has no row for the alias: the
  next refresh refuses to run until ``--full-refresh``; every feed row is treated as pending.

Cost: one aggregate query per distinct state (NULL keys, duplicates and their examples in one
pass), one per parent-child join, one per distinct (feed, watermark) over the pending rows (all
feed rules and the per-set counts in one pass), plus ``describe`` per relation and one batch-log
query; role-playing aliases (same state/feed) share the scans. Examples are picked with
``min``/``max``/``first`` over the violating rows, so memory stays bounded however many there are.

SQL: identifiers are quoted with backticks; the only values spliced into SQL are integers this
module read back and ``int()``-cast (watermarks), the sampling percentage (``float()``-cast) and
the six set names of `algebra.SIX_SETS`. Columns are found with ``describe``, which both
executors answer with (col_name, data_type, comment) rows.
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Protocol

from . import contract
from .algebra import SIX_SETS
from .declaration import View, Violation
from .flags import technique_sets
from .spark import profile_target, session_from_profile
from .techniques import TECHNIQUES

FEED_META = ("_pdelta_before", "_pdelta_type", "_pdelta_seq")
MAX_EXAMPLES = 3


class Executor(Protocol):
    def rows(self, sql: str) -> list[tuple]: ...


class ThriftExecutor:
    """A HiveServer2 connection (PyHive) to a Spark Thrift Server."""

    def __init__(self, conn):
        self.conn = conn

    def rows(self, sql: str) -> list[tuple]:
        cur = self.conn.cursor()
        try:
            cur.execute(sql)
            if cur.description is None:
                return []
            return [tuple(r) for r in cur.fetchall()]
        finally:
            cur.close()

    def close(self) -> None:
        # Every statement has already answered; a server that fails to close the session
        # (seen once with Spark 4.2's Thrift Server: NoClassDefFoundError for Hive's LlapSigner,
        # whose jar pyspark does not ship) leaves nothing undone, so say so instead of failing.
        try:
            self.conn.close()
        except Exception as e:  # noqa: BLE001 - PyHive raises its own OperationalError here
            print(f"pdelta: warning: the Thrift Server failed to close the session: {str(e)[:300]}", file=sys.stderr)


class SessionExecutor:
    """The embedded SparkSession."""

    def __init__(self, spark):
        self.spark = spark

    def rows(self, sql: str) -> list[tuple]:
        return [tuple(r) for r in self.spark.sql(sql).collect()]

    def close(self) -> None:  # the session is the process's; stopping it is the caller's call
        pass


def connect(profiles_dir: Path, target: str, profile: str = "pdelta") -> Executor:
    """An executor for a target of `profile`: `method: thrift` -> PyHive, `method: session` -> the
    embedded SparkSession configured by the profile."""
    out = profile_target(Path(profiles_dir), profile=profile, target=target)
    method = str(out.get("method", "")).lower()
    if method == "thrift":
        from pyhive import hive

        port = out.get("port") or 10000
        return ThriftExecutor(hive.connect(host=str(out.get("host") or "127.0.0.1"), port=int(port),
                                           username=out.get("user") or None))
    if method == "session":
        return SessionExecutor(session_from_profile(Path(profiles_dir), target=target, profile=profile))
    raise ValueError(f"profile target {target!r} uses method {method or None!r}: live validation runs over "
                     "`method: thrift` (a Spark Thrift Server) or `method: session` (embedded Spark) only")


@dataclass
class InputRelations:
    state: str     # already-quoted relation names, e.g. "`pdelta`.`paper_cust`"
    changes: str
    not_null: tuple[str, ...] = ()  # the state's columns declared not null (tests, constraints), lower case


@dataclass
class LiveReport:
    view: str
    violations: list[Violation]
    stats: dict = field(default_factory=dict)

    @property
    def errors(self) -> list[Violation]:
        return [v for v in self.violations if v.severity == "error"]

    @property
    def warnings(self) -> list[Violation]:
        return [v for v in self.violations if v.severity == "warning"]


# --------------------------------------------------------------------------------------------
# SQL helpers

def q(name: str) -> str:
    return "`" + str(name).replace("`", "``") + "`"


def _any_null(cols: list[str], prefix: str = "") -> str:
    return " or ".join(f"{prefix}{q(c)} is null" for c in cols) or "false"


def _all_not_null(cols: list[str], prefix: str = "") -> str:
    return " and ".join(f"{prefix}{q(c)} is not null" for c in cols) or "true"


def _fmt_value(v: Any) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, str):
        return repr(v)
    return str(v)


def _fmt_examples(names: list[str], rows: list[tuple]) -> str:
    ex = list(dict.fromkeys("(" + ", ".join(f"{n}={_fmt_value(v)}" for n, v in zip(names, r)) + ")" for r in rows))
    return "; e.g. " + ", ".join(ex[:MAX_EXAMPLES]) if ex else ""


def _example_aggs(cond: str, cols: list[str]) -> list[str]:
    """Three aggregates picking (up to 3 different) rows that satisfy `cond`, as JSON strings
    (both executors return them alike): the least, the greatest and one more. Bounded memory:
    no collect_list over rows that may be many."""
    s = f"case when {cond} then struct({', '.join(cols)}) end"
    opts = "map('ignoreNullFields', 'false')"
    return [f"to_json(min({s}), {opts})", f"to_json(max({s}), {opts})", f"to_json(first({s}, true), {opts})"]


def _parse_examples(values) -> list[tuple]:
    out = []
    for v in values:
        if v is not None:
            out.append(tuple(json.loads(v).values()))
    return out


_NOT_FOUND = ("TABLE_OR_VIEW_NOT_FOUND", "SCHEMA_NOT_FOUND", "Table or view not found", "cannot be found",
              "does not exist", "doesn't exist", "NoSuchTableException")


def _is_not_found(exc: BaseException) -> bool:
    text = str(exc)
    return any(m.lower() in text.lower() for m in _NOT_FOUND)


def describe_columns(ex: Executor, relation: str) -> list[tuple[str, str]]:
    """(name, type) of a table or view, from `describe` (column rows come first; a blank or
    `#` row starts the partitioning/detail sections)."""
    cols = []
    for r in ex.rows(f"describe {relation}"):
        name = (r[0] or "").strip()
        if not name or name.startswith("#"):
            break
        cols.append((name, str(r[1]) if len(r) > 1 else ""))
    return cols


def _int(v) -> int:
    return 0 if v is None else int(v)


# --------------------------------------------------------------------------------------------
# the checks

class _Check:
    def __init__(self, view: View, inputs: dict[str, InputRelations], ex: Executor, sample_pct: float | None):
        self.view = view
        self.inputs = inputs
        self.ex = ex
        self.violations: list[Violation] = []
        self.sample = None
        if sample_pct is not None:
            pct = float(sample_pct)
            if not 0 < pct <= 100:
                raise ValueError(f"sample_pct must be in (0, 100], got {sample_pct!r}")
            self.sample = pct if pct < 100 else None
        self.columns: dict[str, list[str] | None] = {}     # relation -> lower-cased column names
        self.col_case: dict[str, dict[str, str]] = {}
        self.types: dict[str, dict[str, str]] = {}          # relation -> lower-cased column -> type
        self._state_cache: dict[tuple, dict] = {}
        self._feed_cache: dict[tuple, dict] = {}
        self.stats: dict[str, Any] = {
            "sampled": self.sample is not None,
            "sample_pct": self.sample,
            "note": (f"state checks (live-key-null, live-key-unique, live-fk-orphans) ran on a "
                     f"TABLESAMPLE ({self.sample:g} PERCENT) of each state: their counts are sample-based "
                     "(a duplicate key is seen only if two of its rows are sampled); pending change-feed "
                     "rows were checked in full") if self.sample is not None else None,
            "batch_log": None,
            "watermarks": {},
            "pending": {},
            "sets": {},
            "state": {},
            "orphans": {},
            "feed_max_seq": {},
        }

    def add(self, rule, message, alias=None, column=None, hint=None, severity="error"):
        self.violations.append(Violation(self.view.model, rule, message, alias, column, hint, severity))

    def tablesample(self) -> str:
        return f" tablesample ({float(self.sample)!r} percent)" if self.sample is not None else ""

    def cols(self, alias: str, relation: str, kind: str) -> list[str] | None:
        if relation not in self.columns:
            try:
                described = describe_columns(self.ex, relation)
            except Exception as e:  # noqa: BLE001 - reported as a violation when it is "not found"
                if not _is_not_found(e):
                    raise
                described = None
            self.columns[relation] = None if described is None else [n.lower() for n, _ in described]
            self.types[relation] = {} if described is None else {n.lower(): t for n, t in described}
            self.col_case[relation] = {} if described is None else {n.lower(): n for n, _ in described}
        if self.columns[relation] is None:
            self.add("live-relation", f"{kind} {relation} does not exist", alias,
                     hint="build the input first (dbt run), or fix the declaration's relation")
        return self.columns[relation]

    # ---- batch log ----

    def watermarks(self, batches: str | None) -> dict[str, int | None]:
        if batches is None:
            self.stats["batch_log"] = "none"
            return {}
        try:
            rows = self.ex.rows(f"select `input`, max(`hi`) from {batches} group by `input`")
        except Exception as e:  # noqa: BLE001
            if not _is_not_found(e):
                raise
            self.stats["batch_log"] = "missing"
            return {}
        self.stats["batch_log"] = "present"
        return {str(r[0]): (None if r[1] is None else int(r[1])) for r in rows}

    # ---- state ----

    def check_state(self, alias: str) -> None:
        rel = self.view.relations[alias]
        state = self.inputs[alias].state
        cols = self.cols(alias, state, "state")
        if cols is None:
            return
        needed = list(rel.key) + [p for child in self.view.children(alias)
                                  for p, _ in self.view.relations[child].join_on]
        missing = [c for c in dict.fromkeys(needed) if c.lower() not in cols]
        if missing:
            self.add("live-state-columns", f"state {state} lacks the column(s) {missing} "
                     f"(key {rel.key} or join columns)", alias, missing[0])
            return
        key = list(rel.key)
        ck = (state, tuple(k.lower() for k in key))
        if ck not in self._state_cache:
            self._state_cache[ck] = self._state_counts(state, key)
        s = self._state_cache[ck]
        self.stats["state"][alias] = {k: v for k, v in s.items() if not k.startswith("_")}
        if s["key_null_rows"]:
            self.add("live-key-null", f"state {state}: {s['key_null_rows']} row(s){self._sampled()} with a NULL "
                     f"key column {key}{s['_null_examples']}", alias, key[0],
                     hint="every row of a state needs its whole primary key")
        if s["dup_keys"]:
            self.add("live-key-unique", f"state {state}: {s['dup_keys']} key value(s) held by "
                     f"{s['dup_rows']} row(s){self._sampled()}: the key {key} is not unique{s['_dup_examples']}",
                     alias, key[0], hint="a state holds one row per primary key; deduplicate it or fix the "
                                         "declared `key`")

    def _sampled(self) -> str:
        return " in the sample" if self.sample is not None else ""

    def _state_counts(self, state: str, key: list[str]) -> dict:
        kq = ", ".join(q(k) for k in key)
        grouped = f"select {kq}, count(*) as `_pdelta_n` from {state}{self.tablesample()} group by {kq}"
        knull = _any_null(key)
        dup = f"not ({knull}) and `_pdelta_n` > 1"
        row, = self.ex.rows(
            f"select sum(`_pdelta_n`), sum(case when {knull} then `_pdelta_n` else 0 end), count_if({dup}), "
            f"sum(case when {dup} then `_pdelta_n` else 0 end), "
            + ", ".join(_example_aggs(knull, [q(k) for k in key]) + _example_aggs(dup, [kq, "`_pdelta_n`"]))
            + f" from ({grouped}) `g`")
        return {"rows": _int(row[0]), "key_null_rows": _int(row[1]), "dup_keys": _int(row[2]),
                "dup_rows": _int(row[3]),
                "_null_examples": _fmt_examples(key, _parse_examples(row[4:7])),
                "_dup_examples": _fmt_examples(key + ["rows"], _parse_examples(row[7:10]))}

    # ---- foreign keys ----

    def check_join_types(self, alias: str) -> None:
        """``live-join-types`` (error): join columns whose described types differ in family
        (what the static check cannot see when a model's column types are not declared)."""
        from .project import type_family

        r = self.view.relations[alias]
        parent, child = self.inputs[r.join_to].state, self.inputs[alias].state
        if self.columns.get(parent) is None or self.columns.get(child) is None:
            return  # described by check_state; a missing state is reported there once
        for pc, kc in r.join_on:
            tp, tc = self.types[parent].get(pc.lower()), self.types[child].get(kc.lower())
            if tp and tc and type_family(tp) != type_family(tc):
                self.add("live-join-types", f"join {r.join_to}.{pc} ({tp}) = {alias}.{kc} ({tc}) compares different "
                         f"types in {parent} and {child}", alias, pc, hint="cast one side in its state model")

    def check_orphans(self, alias: str) -> None:
        rel = self.view.relations[alias]
        parent = rel.join_to
        pstate, cstate = self.inputs[parent].state, self.inputs[alias].state
        pcols, ccols = self.columns.get(pstate), self.columns.get(cstate)
        if pcols is None or ccols is None:
            return
        pj = [p for p, _ in rel.join_on]
        ck = [k for _, k in rel.join_on]
        if any(c.lower() not in pcols for c in pj) or any(c.lower() not in ccols for c in ck):
            return  # reported by live-state-columns
        on = " and ".join(f"`p`.{q(p)} = `c`.{q(k)}" for p, k in rel.join_on)
        show = list(dict.fromkeys(list(self.view.relations[parent].key) + pj))
        row, = self.ex.rows(
            "select count(*), " + ", ".join(_example_aggs("true", [f"`p`.{q(c)}" for c in show]))
            + f" from (select * from {pstate}{self.tablesample()} where {_all_not_null(pj)}) `p` "
            f"left anti join {cstate} `c` on {on}")
        n = _int(row[0])
        self.stats["orphans"][alias] = n
        if n:
            self.add("live-fk-orphans", f"{n} row(s){self._sampled()} of state {pstate} (`{parent}`) have a "
                     f"non-NULL {pj} that matches no {ck} of state {cstate}: the view's inner join drops them"
                     f"{_fmt_examples(show, _parse_examples(row[1:4]))}", alias, pj[0],
                     hint=f"add the missing rows to {cstate} (or a default row), or fix the foreign key in {pstate}",
                     severity="warning")

    # ---- change feed ----

    def check_feed(self, alias: str, wm: int | None) -> None:
        rel = self.view.relations[alias]
        feed = self.inputs[alias].changes
        fcols = self.cols(alias, feed, "change feed")
        if fcols is None:
            return
        state = self.inputs[alias].state
        key = list(rel.key)
        keyl = {k.lower() for k in key}
        state_attrs = [c for c in (self.columns.get(state) or []) if c not in keyl]
        missing = [c for c in [*key, *FEED_META] if c.lower() not in fcols] + \
                  [self.col_case[state][c] for c in state_attrs if c not in fcols]
        if missing:
            self.add("feed-columns", f"change feed {feed} lacks the column(s) {missing} of the canonical shape",
                     alias, missing[0], hint="key columns, every non-key column of the state, _pdelta_before, "
                     "_pdelta_type, _pdelta_seq (docs/dimension-views.md)")
            return
        attrs = [self.col_case[feed][c] for c in fcols if c not in keyl and c not in FEED_META]
        required = [a for a in attrs if a.lower() in self.inputs[alias].not_null]
        ck = (feed, tuple(k.lower() for k in key), wm, tuple(required))
        if ck not in self._feed_cache:   # role-playing aliases share a feed
            self._feed_cache[ck] = self._feed_counts(feed, key, attrs, wm, required)
        f = self._feed_cache[ck]
        self.stats["pending"][alias] = f["pending"]
        self.stats["sets"][alias] = f["sets"]
        show = key + ["_pdelta_type", "_pdelta_seq"]
        # the row checks every refresh runs (python/pdelta/contract.py), and the NULL sequence
        column_of = {"feed-type": "_pdelta_type", "feed-key-null": key[0],
                     "feed-delk-key-only": attrs[0] if attrs else None}
        what = {rule: (f"pending row(s) with {problem}", column_of.get(rule, "_pdelta_before"), hint)
                for rule, (_, problem, hint) in contract.ROW_CHECKS.items() if rule != "feed-technique"}
        what["feed-seq-null"] = ("pending row(s) with " + contract.OTHER_CHECKS["feed-seq-null"][0], "_pdelta_seq",
                                 contract.OTHER_CHECKS["feed-seq-null"][1])
        for rule, (msg, column, hint) in what.items():
            if rule not in f["rules"]:  # a check that does not apply to this feed
                continue
            n, ex = f["rules"][rule]
            if n:
                self.add(rule, f"change feed {feed}: {n} {msg}{_fmt_examples(show, ex)}", alias, column, hint=hint)
        groups, rows, ex = f["disjoint"]
        if groups:
            self.add("feed-disjoint", f"change feed {feed}: {groups} (key, _pdelta_seq) value(s) held by {rows} "
                     f"pending rows: the six sets of one sequence must be disjoint on the key"
                     f"{_fmt_examples(key + ['_pdelta_seq', 'rows'], ex)}", alias, key[0],
                     hint="emit one change per key and sequence (the net effect), or give later changes higher "
                          "sequences")

        # what the declared technique can emit, composed per key as the flag analysis assumes
        # (a capture or any producer that nets a batch turns a `delk` then an `ins` into an `ups`)
        if (rel.technique or "") in TECHNIQUES:
            allowed = technique_sets(rel.technique)
            extra = {s: n for s, n in f["sets"].items() if n and s not in allowed}
            if extra:
                self.add("feed-technique", f"change feed {feed}: pending rows of set(s) {extra} which technique "
                         f"`{rel.technique}` cannot emit, even composed per key ({allowed}); the flag analysis assumed "
                         "they never come",
                         alias, "_pdelta_type", hint="declare the technique that matches the feed (or `any`)",
                         severity="warning")

        # sequences: the feed must not have been rewritten behind the consumed watermark
        if wm is not None:
            fmax, n_below = f["max_seq"], None
            if fmax is None or fmax <= wm:   # nothing pending above the watermark: look at the whole feed
                (fmax, n_below), = self.ex.rows(
                    f"select max(`_pdelta_seq`), count_if(`_pdelta_seq` <= {int(wm)}) from {feed}")
                fmax = None if fmax is None else int(fmax)
            self.stats["feed_max_seq"][alias] = fmax
            if fmax is not None and fmax < int(wm):
                self.add("feed-seq-regressed", f"change feed {feed}: its highest `_pdelta_seq` {fmax} is below "
                         f"the consumed watermark {int(wm)} of the batch log: the feed was rewritten or truncated "
                         f"behind the view, and its {_int(n_below)} row(s) at or below the watermark will never "
                         "be consumed", alias, "_pdelta_seq",
                         hint="sequences must keep increasing across rewrites; rebuild the view with --full-refresh")

    def _feed_counts(self, feed: str, key: list[str], attrs: list[str], wm: int | None,
                     required: list[str]) -> dict:
        """One pass over the pending rows: counts per set and per rule, with examples."""
        pending = "true" if wm is None else f"(`_pdelta_seq` > {int(wm)} or `_pdelta_seq` is null)"
        kq = ", ".join(q(k) for k in key)
        # rows per (key, sequence), for disjointness; `_pdelta_rk` = 1 marks one row per group
        src = (f"select *, count(*) over (partition by {kq}, `_pdelta_seq`) as `_pdelta_n`, "
               f"row_number() over (partition by {kq}, `_pdelta_seq` order by `_pdelta_type`) as `_pdelta_rk` "
               f"from {feed} where {pending}")
        rules = {rule: contract.fill(cond, key, attrs, required=required)  # rule -> condition on a pending row
                 for rule, (cond, _, _) in contract.ROW_CHECKS.items() if contract.applies(cond, required, SIX_SETS)}
        rules["feed-seq-null"] = "`_pdelta_seq` is null"
        dup = f"{_all_not_null(key)} and `_pdelta_seq` is not null and `_pdelta_n` > 1"
        show = [q(c) for c in key + ["_pdelta_type", "_pdelta_seq"]]
        aggs = ["count(*)", "max(`_pdelta_seq`)", *(f"count_if(`_pdelta_type` = '{s}')" for s in SIX_SETS)]
        for cond in rules.values():
            aggs += [f"count_if({cond})", *_example_aggs(f"({cond})", show)]
        aggs += [f"count_if({dup} and `_pdelta_rk` = 1)", f"count_if({dup})",
                 *_example_aggs(f"{dup} and `_pdelta_rk` = 1", [kq, "`_pdelta_seq`", "`_pdelta_n`"])]
        row, = self.ex.rows(f"select {', '.join(aggs)} from ({src}) `f`")
        out = {"pending": _int(row[0]), "max_seq": None if row[1] is None else int(row[1]),
               "sets": dict(zip(SIX_SETS, (_int(v) for v in row[2:2 + len(SIX_SETS)]))), "rules": {}}
        i = 2 + len(SIX_SETS)
        for rule in rules:
            out["rules"][rule] = (_int(row[i]), _parse_examples(row[i + 1:i + 4]))
            i += 4
        out["disjoint"] = (_int(row[i]), _int(row[i + 1]), _parse_examples(row[i + 2:i + 5]))
        return out


def check_view_live(view: View, inputs: dict[str, InputRelations], batches: str | None, ex: Executor,
                    sample_pct: float | None = None, progress: Callable[[str], None] | None = None) -> LiveReport:
    """Check the states and pending change-feed rows of `view`'s inputs (see the module doc).

    inputs:     alias -> quoted state and change-feed relation names
    batches:    the view's batch log `<view>__pdelta_batches` (quoted), or None if never built
    sample_pct: sample each state scan with TABLESAMPLE (n PERCENT); pending feed rows are
                always checked in full
    progress:   called with a line naming each step (its queries) as it starts
    """
    missing = [a for a in view.order if a not in inputs]
    if missing:
        raise ValueError(f"check_view_live({view.model}): no relations given for alias(es) {missing}")
    say = progress or (lambda _step: None)
    c = _Check(view, inputs, ex, sample_pct)
    if batches is not None:
        say(f"the watermarks in the batch log {batches}")
    consumed = c.watermarks(batches)
    for alias in view.order:
        say(f"`{alias}`: the key of state {inputs[alias].state} (unique, not null)")
        c.check_state(alias)
    for alias in view.order:
        if view.relations[alias].join_to is not None:
            say(f"`{alias}`: join types and foreign-key orphans of {view.relations[alias].join_to} -> {alias}")
            c.check_join_types(alias)
            c.check_orphans(alias)
    for alias in view.order:
        say(f"`{alias}`: the pending rows of change feed {inputs[alias].changes} (the feed contract)")
        wm = consumed.get(alias)
        if c.stats["batch_log"] == "present" and alias not in consumed:
            c.add("live-watermark-missing", f"batch log {batches} has no row for input `{alias}`: the next "
                  "refresh stops until the view is rebuilt with --full-refresh; every row of its feed "
                  f"{inputs[alias].changes} is treated as pending", alias, severity="warning",
                  hint="run the view with --full-refresh after adding a relation")
        c.stats["watermarks"][alias] = wm
        c.check_feed(alias, wm)
    return LiveReport(view.model, c.violations, c.stats)


def report_json(report: LiveReport) -> str:
    return json.dumps({"view": report.view, "violations": [v.as_dict() for v in report.violations],
                       "stats": report.stats}, indent=2, default=str)
