"""Self-maintainability verdicts (issue #21, item 1): for each relation of a dimension view and each
change set its feed can deliver, whether a refresh can apply that change from the view and the
change alone, or needs part of a complement — rows or columns of other relations the view does
not hold (Laurent et al., complements for data warehouses) — or a relation's full state.

The conditions are those of Gupta, Jagadish & Mumick as the surveyed paper states them
(`incremental-recomputations-distributed-views.txt` §2.4), applied to a dimension view's shape
(a root relation whose key the view keeps, inner joins of foreign keys to whole primary keys):
- deletions are self-maintainable when the deleted relation's key is retained in the view (for a
  joined relation: its key, or the parent's foreign key it equals, is an output column);
- insertions are self-maintainable only without joins (an SP view);
- updates are when the updated attributes are unexposed (no predicate on them) and the view rows
  are found by key — here, the updated relation has no predicate and joins nothing further (its
  foreign keys may change with the update).
An inclusion dependency from the parent's foreign key to a joined relation's key (Laurent et al.
§2: a dbt `relationships` test on the parent's column) makes that relation's inserts and deletes
change no view row: no parent row names a new key, none names a key that can go.

One definition: `rule` decides from six features of a relation; `rules_table` tabulates it for
every combination and `pdelta gen-macros` writes the table to macros/engine/maintainability_rules.sql,
which the Jinja side (macros/engine/maintainability_verdicts.sql) reads with the same features.
tests/test_maintainability.py checks every verdict against the definition on small databases:
when the verdict says "view", no two databases with the same view and the same change lead to
different views; otherwise two such databases exist, and the named complement parts tell them apart."""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from itertools import product

from . import algebra
from .declaration import View
from .flags import complete_sets, technique_sets
from .techniques import TECHNIQUES

# what a verdict says a change set needs beyond the view and the change
NEEDS = ("others", "descendants", "join_key")
READS = ("view", "complement", "state")  # least to most

WHY = {
    "root_delete": "the root key is an output column: the deleted key names the one view row to delete "
                   "(deletions: the key is retained)",
    "sp_view": "the view joins nothing (an SP view): the new image alone decides whether and how its row is in "
               "the view",
    "root_joins": "the new image joins {descendants} rows the view may not hold (rows no view row references yet)",
    "child_insert": "{parent} rows whose foreign key named no {alias} row were dropped by the inner join and are "
                    "not in the view; a new {alias} row joins them (no inclusion dependency {parent} -> {alias})",
    "child_upsert": "an upsert may be an insert: {parent} rows whose foreign key named no {alias} row were dropped "
                    "by the inner join and are not in the view; the new image joins them",
    "covered_insert": "the inclusion dependency {parent}.{fk} -> {alias}.{key} (a relationships test) means no "
                      "{parent} row names a new key: an insert changes no view row",
    "covered_delete": "the inclusion dependency {parent}.{fk} -> {alias}.{key} (a relationships test) means no "
                      "{parent} row names a key that can be deleted: a delete changes no view row",
    "key_retained": "the join key ({join}) is an output column: the changed key names the view rows it reaches "
                    "(the key is retained)",
    "key_projected_away": "neither {join_sides} is an output column: the view cannot tell which of its rows join "
                          "the changed key",
    "predicate_exposed": "the update is exposed to {alias}'s predicate: an old image that failed it joined no view "
                         "row, the new one may pass and join {parent} rows the view does not hold",
    "foreign_key_moves": "the new image's foreign key may name another {descendants} row: one the view does not "
                         "hold, or one that lets {parent} rows the inner join dropped for the old image join",
    "irrelevant_update": "{alias} has no predicate, joins nothing further and shows no column but its key: an "
                         "update of it changes no view row (updates: unexposed, not distinguished attributes)",
    "unexposed_update": "no predicate on {alias} and nothing joined from it: the view rows found by the key "
                        "take the new image's columns (updates: unexposed attributes, key retained)",
}


@dataclass(frozen=True)
class Features:
    """What the rule looks at for one relation of a view."""

    root: bool            # the view's root relation
    children: bool        # it joins a relation that can matter to the view (not transparent)
    where: bool           # it has a predicate
    key_visible: bool     # its key, or the parent's foreign key equal to it, is an output column
    shows_values: bool    # the view outputs a column of it besides its key (distinguished attributes)
    covered: bool = False  # an inclusion dependency: every parent row's foreign key names a row of it


@dataclass(frozen=True)
class Rule:
    needs: tuple[str, ...]   # parts of NEEDS
    why: tuple[str, ...]     # keys of WHY


def rule(change_set: str, f: Features) -> Rule:
    """What applying a `change_set` change of a relation with features `f` needs besides the view."""
    deletes = change_set in ("del", "delk")
    if f.root:
        if deletes:
            return Rule((), ("root_delete",))
        return Rule((), ("sp_view",)) if not f.children else Rule(("descendants",), ("root_joins",))
    if f.covered and change_set in ("ins", "del", "delk"):
        return Rule((), ("covered_insert" if change_set == "ins" else "covered_delete",))
    if f.covered and change_set == "ups":
        change_set = "up"  # an insert is no change to the view: what an upsert can do is an update's
    updates = change_set in ("upd", "up")
    if updates and not (f.where or f.children or f.shows_values):
        return Rule((), ("irrelevant_update",))
    # the rows an old image kept out of the view (it failed the predicate, or its foreign key named
    # no row, or one that is not in the view) may join the new image: they are outside the view
    why = [w for w, applies in (("child_insert", change_set == "ins"), ("child_upsert", change_set == "ups"),
                                ("predicate_exposed", updates and f.where),
                                ("foreign_key_moves", updates and f.children)) if applies]
    if why:
        # `others` holds the parent's rows in the view with their foreign key: the join key too
        return Rule(("others",), tuple(why))
    if not f.key_visible:
        return Rule(("join_key",), ("key_projected_away",))
    return Rule((), ("key_retained",) if deletes else ("unexposed_update",))


def rule_key(change_set: str, f: Features) -> str:
    flags = (f.root, f.children, f.where, f.key_visible, f.shows_values, f.covered)
    return "/".join([change_set, *("1" if v else "0" for v in flags)])


@cache
def rules_table() -> dict:
    """`rule` on every input, and the sets a feed of another view can hold: the data
    macros/engine/maintainability_rules.sql returns (the sets of each technique's feed are the feed
    contract's, macros/engine/feed_contract.sql)."""
    rules = {}
    for change_set, flags in product(algebra.SIX_SETS, product((True, False), repeat=6)):
        r = rule(change_set, Features(*flags))
        rules[rule_key(change_set, Features(*flags))] = {"needs": list(r.needs), "why": list(r.why)}
    return {"rules": rules, "why": WHY,
            # a feed another dimension view publishes: what its plan can emit
            "view_feed_sets": {"diff": [t for t in algebra.SIX_SETS if t in complete_sets(set(algebra.SIX_SETS))],
                               "rules": list(algebra.SIX_SETS)}}


def render_macro() -> str:
    """The text of macros/engine/maintainability_rules.sql."""
    return algebra.data_macro("maintainability_rules", "python/pdelta/maintainability.py",
                              "The self-maintainability rule on every input (issue #21) and the sets a\n"
                              "    view's feed can hold: read by macros/engine/maintainability_verdicts.sql.",
                              rules_table())


@dataclass(frozen=True)
class Verdict:
    alias: str
    change_set: str
    reads: str                       # view, complement or state
    needs: tuple[str, ...]           # what of the complement, in words
    why: str

    def as_dict(self) -> dict:
        return {"relation": self.alias, "change_set": self.change_set, "reads": self.reads,
                "needs": list(self.needs), "why": self.why}


def features(view: View, alias: str, covered: set[str] = frozenset()) -> Features:
    """`covered`: the aliases whose join is an inclusion dependency the project declares
    (covered_joins)"""
    r = view.relations[alias]
    outputs = {(a, src) for _, a, src in view.output}
    visible = alias == view.root or all((r.join_to, p) in outputs or (alias, k) in outputs for p, k in r.join_on)
    joins = any(not transparent(view, child, covered) for child in view.children(alias))
    return Features(alias == view.root, joins, bool(r.where), visible, holds_values(view, alias), alias in covered)


def transparent(view: View, alias: str, covered: set[str]) -> bool:
    """a joined relation that cannot matter to the view: its join is covered by an inclusion
    dependency (every parent row has its partner), it has no predicate, the view outputs none of
    its columns, and so on for everything joined from it"""
    return (alias in covered and not view.relations[alias].where and not any(a == alias for _, a, _ in view.output)
            and all(transparent(view, child, covered) for child in view.children(alias)))


def covered_joins(view: View, references) -> set[str]:
    """the aliases joined on one column that an inclusion dependency covers: `references(spec,
    column, to_spec, to_column)` says whether the parent's state declares its foreign key's values
    present in the relation's key (Project.references: a dbt relationships test)"""
    out = set()
    for alias in view.order[1:]:
        r = view.relations[alias]
        parent_state = view.relations[r.join_to].state
        if len(r.join_on) == 1 and references(parent_state, r.join_on[0][0], r.state, r.join_on[0][1]):
            out.add(alias)
    return out


def descendants(view: View, alias: str) -> list[str]:
    out = []
    for child in view.children(alias):
        out += [child, *descendants(view, child)]
    return [a for a in view.order if a in out]


def holds_values(view: View, alias: str) -> bool:
    """whether the view outputs any column of `alias` besides its key"""
    key = set(view.relations[alias].key)
    return any(a == alias and src not in key for _, a, src in view.output)


def input_sets(view: View, alias: str, plans: dict[str, str]) -> list[str]:
    """the sets `alias`'s feed can hold: its technique's, netted; a feed of another view (`plans`:
    view -> its pdelta_plan): what that view's plan emits"""
    r = view.relations[alias]
    if isinstance(r.changes, dict) and "feed_of" in r.changes:
        return rules_table()["view_feed_sets"][plans.get(r.changes["feed_of"], "diff")]
    return technique_sets(r.technique if r.technique in TECHNIQUES else "any")


def verdict(view: View, alias: str, change_set: str, covered: set[str] = frozenset()) -> Verdict:
    r = view.relations[alias]
    found = rule(change_set, features(view, alias, covered))
    words: list[str] = []
    needed: list[str] = []
    for part in found.needs:
        if part == "join_key":
            words.append(join_key_part(view, alias))
            continue
        rels = descendants(view, alias) if part == "descendants" else [a for a in view.order if a != alias]
        rels = [a for a in rels if not transparent(view, a, covered)]  # they cannot matter to the view
        needed += rels
        for a in rels:
            if not holds_values(view, a):
                words.append(f"{a}: its full state")
                continue
            words.append(f"{a}: its rows and columns the view does not hold")
            if not features(view, a).key_visible:
                # the view shows a's columns without its key: which row they belong to is the
                # parent's foreign key of each view row
                words.append(join_key_part(view, a))
    reads = "view" if not found.needs else "state" if any(not holds_values(view, a) for a in needed) else "complement"
    names = {"alias": alias, "parent": r.join_to or "", "descendants": ", ".join(descendants(view, alias)),
             "join": " / ".join(f"{r.join_to}.{p} = {alias}.{k}" for p, k in r.join_on),
             "join_sides": " nor ".join(f"{r.join_to}.{p} / {alias}.{k}" for p, k in r.join_on),
             "fk": ", ".join(p for p, _ in r.join_on), "key": ", ".join(k for _, k in r.join_on)}
    why = "; ".join(WHY[w].format(**names) for w in found.why)
    return Verdict(alias, change_set, reads, tuple(dict.fromkeys(words)), why)


def join_key_part(view: View, alias: str) -> str:
    """the complement part that says which `alias` row each view row joins: the parent's foreign
    key, per view row"""
    r = view.relations[alias]
    return f"the join key {', '.join(f'{r.join_to}.{p}' for p, _ in r.join_on)} of the view's rows"


def verdicts(view: View, plans: dict[str, str] | None = None, covered: set[str] = frozenset()) -> list[Verdict]:
    """every relation's verdict for each set its feed can hold, in join order (`covered`: covered_joins)"""
    return [verdict(view, alias, t, covered) for alias in view.order for t in input_sets(view, alias, plans or {})]


def hints(view: View, plans: dict[str, str] | None = None, covered: set[str] = frozenset()) -> list[str]:
    """what would let more of a joined relation's change sets apply from the view alone: keeping
    its join key in the view, or declaring the inclusion dependency its join may have"""
    out = []
    for alias in view.order[1:]:
        r = view.relations[alias]
        f = features(view, alias, covered)
        sets = input_sets(view, alias, plans or {})
        now = {t for t in sets if not rule(t, f).needs}
        fk = ", ".join(f"{r.join_to}.{p}" for p, _ in r.join_on)
        key = ", ".join(f"{alias}.{k}" for _, k in r.join_on)
        if not f.key_visible:
            gained = [t for t in sets if t not in now and not rule(t, replace(f, key_visible=True)).needs]
            if gained:
                out.append(f"`{alias}`: with {fk} or {key} among the output columns its {', '.join(gained)} "
                           "would apply from the view alone (the key retained)")
        if not f.covered and len(r.join_on) == 1:
            gained = [t for t in sets if t not in now and not rule(t, replace(f, covered=True)).needs]
            if gained:
                out.append(f"`{alias}`: if every {fk} names a row of {alias}, a dbt relationships test saying so "
                           f"({fk} to {key}) would make its {', '.join(gained)} apply from the view alone")
    return out


def self_maintainable(found: list[Verdict]) -> bool:
    return all(v.reads == "view" for v in found)


def claim_violations(found: list[Verdict]) -> list[str]:
    """why a view declared `pdelta_self_maintainable: true` is not, one line per change set"""
    return [f"`{v.alias}` {v.change_set}: needs {v.reads} ({'; '.join(v.needs)}): {v.why}"
            for v in found if v.reads != "view"]
