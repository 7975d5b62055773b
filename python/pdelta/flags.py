"""Static flag analysis: which of the six sets a dimension view's refresh can emit, given the sets
each input's technique can deliver — the generalized delta rules (DESIGN.md §3) run on
abstract rows instead of data.

An abstract row is what one key of a (derived) relation can look like in a refresh:
(in_delta, nabla_flag, present) — whether the key has an insert-set row, the flag of its
delete-set row (None: none), and for unchanged keys (False, None) whether a row exists at all.
Every rule maps a set of abstract rows to the set of rows it can produce, so the result is a
superset of what the engine emits for any data (tested against the randomized scenarios)."""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product

from . import algebra
from .declaration import View
from .techniques import TECHNIQUES, VIEW_FEED

Row = tuple[bool, str | None, bool]
UNCHANGED: Row = (False, None, True)
ABSENT: Row = (False, None, False)


def possible_net(sets: set[str]) -> set[str]:
    """Net effects of any sequence of changes drawn from `sets` (first and last decide)."""
    out = set(sets)
    for a, b in product(sets, repeat=2):
        n = algebra.net_effect([a, b])
        if n:
            out.add(n)
    return out


def technique_sets(technique: str) -> list[str]:
    """The sets a feed declared with `technique` can hold once changes of one key are netted
    (what the analysis below assumes; a `delk` then an `ins` is an `ups`), in SIX_SETS order."""
    allowed = possible_net(set(TECHNIQUES[technique]))
    return [t for t in algebra.SIX_SETS if t in allowed]


def encode(sets: set[str]) -> set[Row]:
    """Fig. 4 on abstract rows, plus the keys a refresh does not touch."""
    rows = {UNCHANGED, ABSENT}
    for t in sets:
        d, f = algebra.to_delete_insert(t)
        rows.add((d, f, False))
    return rows


def selection(rows: set[Row]) -> set[Row]:
    """Δσ = σ_p(Δ); ∇σ = σ_{p ∨ flag≠comp}(π_{s(flag)} ∇): an image may pass or fail p."""
    out: set[Row] = set()
    for d, f, present in rows:
        if (d, f) == (False, None):
            out |= {UNCHANGED, ABSENT} if present else {ABSENT}
            continue
        for d2 in ({True, False} if d else {False}):
            for f2 in ({"comp", None} if f == "comp" else {algebra.s(f)} if f else {None}):
                out.add(_norm(d2, f2))
    return out


def projection(rows: set[Row]) -> set[Row]:
    """The effectiveness test may cancel a complete pair that changes no projected column."""
    out = set(rows)
    for d, f, _ in rows:
        if d and f == "comp":
            out.add(UNCHANGED)
    return out


def join(s_rows: set[Row], t_rows: set[Row]) -> set[Row]:
    """S ⋈_{S.a=T.pk} T for one key of S and the T rows its foreign key names (DESIGN.md §3):
    Δ = S_new ⋈ ΔT ∪ ΔS ⋈ T_new; ∇ = j(S_old ⋈ ∇T) ∪ j(∇S ⋈ T_old) ∪ s(partial ∇S).
    An update pair of S (new image and complete old image) may move its foreign key: its new
    image then joins one T row and its old image another, each changed or not on its own (an
    order moved from a customer deleted by key to an unchanged one emits `up`)."""
    out: set[Row] = set()
    for ds, fs, ps in s_rows:
        s_new = ds or (fs is None and ps)
        s_old = "comp" if fs == "comp" else ("pre" if (not ds and ps) else None)
        moves = ds and fs == "comp"
        pairs = product(t_rows, repeat=2) if moves else ((t_row, t_row) for t_row in t_rows)
        for (dt, ft, pt), (dt_old, ft_old, pt_old) in pairs:
            t_new = dt or (ft is None and pt)
            d = s_new and t_new and (ds or dt)
            if fs in ("up", "ups"):
                f = algebra.s(fs)                 # third term: partial S rows join nothing
            else:
                t_old = ft_old if ft_old else ("pre" if (not dt_old and pt_old) else None)
                unchanged = s_old is None or t_old is None or (s_old, t_old) == ("pre", "pre")
                f = None if unchanged else algebra.j(s_old, t_old)
            present = (not ds and fs is None and ps) and (not dt and ft is None and pt)
            out.add((d, f, present) if (d, f) == (False, None) else (d, f, False))
    return out


def _norm(d: bool, f: str | None) -> Row:
    return (d, f, False) if (d, f) != (False, None) else ABSENT


@dataclass
class Analysis:
    view: str
    inputs: dict[str, set[str]]                   # alias -> sets its feed can deliver
    relations: dict[str, set[str]] = field(default_factory=dict)  # alias -> sets after σ/π
    output: set[str] = field(default_factory=set)
    plan: str = "diff"

    def statements(self) -> list[str]:
        return apply_statements(self.output, ins_checked=self.plan != "rules")

    @property
    def feed(self) -> set[str]:
        """What the view's change feed can hold: its refreshes' sets, and those of a batch that adapts
        it to a changed declaration (macros/engine/declaration_adaptation.sql), which runs the diff plan
        whatever the view's plan: its refresh's sets labelled completely, and rows added or removed"""
        return self.output | complete_sets(self.output) | ADAPTATION_SETS


# the sets of a batch that adapts a view to a changed predicate (the diff plan's labels): a row the
# new predicate admits is `ins`, one it drops `del`
ADAPTATION_SETS = frozenset({"ins", "del"})


def rows_to_sets(rows: set[Row]) -> set[str]:
    return {t for d, f, _ in rows if (t := algebra.to_six_sets(d, f))}


def analyze(view: View, techniques: dict[str, str] | None = None,
            upstream: dict[str, set[str]] | None = None) -> Analysis:
    """Sets a refresh of `view` can emit with its plan (`view.plan`: the rules' partial sets, or
    their complete counterparts for the diff plan). `techniques` overrides the declared
    technique per alias; a {feed_of: v} input takes `upstream[v]` (default: all six sets)."""
    inputs: dict[str, set[str]] = {}
    for alias in view.order:
        r = view.relations[alias]
        tech = (techniques or {}).get(alias, r.technique)
        if isinstance(r.changes, dict) and "feed_of" in r.changes or tech == VIEW_FEED:
            src = r.changes.get("feed_of") if isinstance(r.changes, dict) else None
            inputs[alias] = set((upstream or {}).get(src, algebra.SIX_SETS))
        else:
            inputs[alias] = set(TECHNIQUES.get(tech or "any", algebra.SIX_SETS))
    result = Analysis(view.model, inputs, plan=view.plan)
    derived: dict[str, set[Row]] = {}
    for alias in view.order:
        rows = encode(possible_net(inputs[alias]))
        if view.relations[alias].where:
            rows = selection(rows)
        rows = projection(rows)
        derived[alias] = rows
        result.relations[alias] = rows_to_sets(rows)
    acc = derived[view.root]
    for alias in view.order[1:]:
        acc = join(acc, derived[alias])
    acc = projection(acc)
    result.output = rows_to_sets(acc)
    if view.plan != "rules":
        result.output = complete_sets(result.output)
    return result


def complete_sets(rules_output: set[str]) -> set[str]:
    """What the diff plan (macros/engine/diff_plan.sql) emits where the rules emit
    `rules_output`: the same keys, labelled completely — a key the view gains is `ins` (the
    rules say ins or ups), a key it loses `del` (del or delk), a key whose row changes `upd`
    (upd, up or ups: an upsert is either)."""
    out = set()
    if rules_output & {"ins", "ups"}:
        out.add("ins")
    if rules_output & {"upd", "up", "ups"}:
        out.add("upd")
    if rules_output & {"del", "delk"}:
        out.add("del")
    return out


def analyze_all(views: dict[str, View]) -> dict[str, Analysis]:
    """Every view, upstream views first, so a chained view sees its input view's sets."""
    done: dict[str, Analysis] = {}

    def visit(name: str, stack: tuple = ()):
        if name in done or name in stack:
            return
        v = views[name]
        for r in v.relations.values():
            if isinstance(r.changes, dict) and r.changes.get("feed_of") in views:
                visit(r.changes["feed_of"], (*stack, name))
        done[name] = analyze(v, upstream={k: a.feed for k, a in done.items()})

    for name in sorted(views):
        visit(name)
    return done


def apply_statements(sets: set[str], upsert: str = "delete_insert", ins_checked: bool = True) -> list[str]:
    """What applying a batch with these sets takes (paper §4: less partial deltas apply cheaper),
    as macros/apply/choose_apply_strategy.sql picks it for a MERGE-capable target; `upsert` is
    the model's `pdelta_apply.upsert` (delete_insert by default, or merge); `ins_checked`: the
    batch's `ins` keys were checked absent from the target (not so in the rules plan)."""
    if not sets:
        return ["nothing to apply"]
    if sets <= {"ins"} and ins_checked:
        return ["append: INSERT INTO (no scan of the target)"]
    if sets <= {"del", "delk"}:
        return ["delete_by_key: a DELETE of the batch's keys"]
    images = sorted(t for t in sets if algebra.ENCODING[t][0])  # the sets with a new image (Fig. 4)
    if upsert == "delete_insert":
        return ["delete_insert: a DELETE of every key of the batch, then INSERT the new images of "
                + ", ".join(images)]
    clauses = []
    if sets & {"del", "delk"}:
        clauses.append(f"WHEN MATCHED AND type IN ({', '.join(sorted(sets & {'del', 'delk'}))}) THEN DELETE")
    if sets & {"upd", "up", "ups"}:
        clauses.append(f"WHEN MATCHED AND type IN ({', '.join(sorted(sets & {'upd', 'up', 'ups'}))}) THEN UPDATE")
    if sets & {"ins", "ups", "up"}:  # `up` may reach a view row that was never there: inserted
        clauses.append(f"WHEN NOT MATCHED AND type IN ({', '.join(sorted(sets & {'ins', 'ups', 'up'}))}) THEN INSERT")
    return ["merge: MERGE " + "; ".join(clauses)]


def cheaper_capture_hints(view: View, analysis: Analysis) -> list[str]:
    """Where a more complete capture would let the refresh skip work."""
    hints = []
    for alias, sets in analysis.inputs.items():
        if "ups" in sets:
            hints.append(f"`{alias}`: an upsert feed cannot tell inserts from updates; a technique that does "
                         "(log_based, change_tracking) lets inserts append without a MERGE")
        if "delk" in sets:
            hints.append(f"`{alias}`: key-only deletes make deleted view rows key-only (`delk`); a before-image "
                         "(log_based) makes them complete")
        if "up" in sets and view.relations[alias].where:
            hints.append(f"`{alias}`: partial updates through the predicate `{view.relations[alias].where}` become "
                         "upserts; a before-image (log_based) keeps them updates")
    return hints
