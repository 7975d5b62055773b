"""Randomized scenarios for the dimension-view engine: shapes (which relations join how),
generated states and change feeds for each CDC technique, and a Python oracle.

Everything here is independent of the engine: the oracle recomputes a view from the Python
states with plain loops, and the change feeds are derived from the operations applied to those
states, per technique, as the technique's source would report them.

Many scenarios share one shape: a scenario is a `sid`, encoded in every key (k = sid*10000+i),
so scenarios never join across each other and one refresh of a shape's view maintains all of
its scenarios at once.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from pdelta.techniques import TECHNIQUES as _TECHNIQUES

KEY_BASE = 10_000
FK_SLOTS = ("fa", "fb", "fc")
ATTRS = ("v", "s")

# technique -> the change types its feed carries: the package's one definition (paper Fig. 2)
# the paper's techniques (Fig. 2) and the upsert feed: the encodings _feed_row knows (capture
# formats, also in pdelta.techniques, are exercised by tests/test_capture.py)
_PAPER = ("audit_columns", "log_based", "log_net_effect", "change_tracking", "snapshot_diff", "upsert_feed")
TECHNIQUES = {k: v for k, v in _TECHNIQUES.items() if k in _PAPER}
assert set(TECHNIQUES) == set(_PAPER), sorted(TECHNIQUES)
PER_BATCH = {"audit_columns", "snapshot_diff"}  # report the batch's net difference, not each event

PREDICATES = [
    ("v % 3 <> 0", lambda r: r["v"] is not None and r["v"] % 3 != 0),
    ("v < 7", lambda r: r["v"] is not None and r["v"] < 7),
    ("s <> 'x1'", lambda r: r["s"] is not None and r["s"] != "x1"),
    ("coalesce(v, 0) >= 2", lambda r: (r["v"] if r["v"] is not None else 0) >= 2),
]


def predicate_indexes(predicate: int | tuple[int, ...] | None) -> tuple[int, ...]:
    """the PREDICATES an alias's predicate conjoins (none: no predicate)"""
    return () if predicate is None else ((predicate,) if isinstance(predicate, int) else tuple(predicate))


def predicate_sql(predicate: int | tuple[int, ...] | None) -> str | None:
    """an alias's `where`: one of PREDICATES, or the conjunction of several"""
    if isinstance(predicate, int):
        return PREDICATES[predicate][0]
    return " and ".join(f"({PREDICATES[i][0]})" for i in predicate_indexes(predicate)) or None


def passes(predicate: int | tuple[int, ...] | None, row: dict) -> bool:
    return all(PREDICATES[i][1](row) for i in predicate_indexes(predicate))


def redraw_predicates(shape: "Shape", rng: random.Random) -> list[str]:
    """A changed declaration for the view-adaptation check: each alias's predicate kept, dropped,
    added, narrowed (a conjunct added), widened (a conjunct dropped) or replaced, at least one of
    them changed. Returns what changed, as `alias: old -> new`."""
    def redraw(p):
        have = predicate_indexes(p)
        other = [i for i in range(len(PREDICATES)) if i not in have]
        kind = rng.choice(["keep", "keep", "drop", "narrow", "widen", "replace"])
        if kind == "drop" or (kind == "widen" and len(have) <= 1):
            return None
        if kind == "narrow" and other:
            return have + (rng.choice(other),)
        if kind == "widen":
            return have[:-1] if len(have) > 2 else have[0]
        if kind == "replace" and other:
            return rng.choice(other)
        return p

    changed = []
    for a in shape.aliases:
        new = redraw(a.predicate)
        if predicate_indexes(new) != predicate_indexes(a.predicate):
            changed.append(f"{a.name}: {predicate_sql(a.predicate)} -> {predicate_sql(new)}")
            a.predicate = new
    if not changed:  # the root's predicate replaced, so that every shape adapts
        root = shape.aliases[0]
        new = next(i for i in range(len(PREDICATES)) if (i,) != predicate_indexes(root.predicate))
        changed.append(f"{root.name}: {predicate_sql(root.predicate)} -> {predicate_sql(new)}")
        root.predicate = new
    return changed


def _attributes(shape: "Shape") -> list[tuple["Alias", str]]:
    """(alias, column) of the view's output columns but the root's key, which the view keeps"""
    root = shape.aliases[0]
    return [(a, c) for a in shape.aliases for c in a.outputs if not (a is root and c in shape.key_cols(root.rel))]


def redraw_columns(shape: "Shape", rng: random.Random, kind: str) -> tuple[list[str], dict[str, str]]:
    """Output columns changed for the view-adaptation check: `drop` one attribute and add another
    (a column of a relation the view joins that it does not output yet), `rename` one, or `both`
    rename and drop (never the root's key, which the view keeps, and never the last attribute).
    Returns what changed, as phrases, and {new output name: old output name} for the renamed ones."""
    attributes = _attributes(shape)
    changed, renamed_from = [], {}
    rng.shuffle(attributes)
    addable = [(a, c) for a in shape.aliases for c in ATTRS if c not in a.outputs and c not in a.renamed]
    if kind == "drop" and addable:
        a, c = rng.choice(addable)
        a.outputs.append(c)
        changed.append(f"column {output_name(a, c)} added")
    if kind in ("rename", "both") and attributes:
        a, c = attributes.pop()
        old, new = output_name(a, c), f"{a.name}_{c}_renamed"
        a.renamed[c] = new
        renamed_from[new] = old
        changed.append(f"column {old} renamed {new}")
    if kind in ("drop", "both") and len(attributes) >= 1 + (kind == "drop"):
        a, c = attributes.pop()
        changed.append(f"column {output_name(a, c)} dropped")
        a.outputs.remove(c)
    return changed, renamed_from


def remove_leaf(shape: "Shape", rng: random.Random) -> list[str]:
    """A leaf relation removed for the view-adaptation check (its output columns go with it): one
    no other alias joins to, with no renamed column, whose removal leaves the view an attribute.
    Returns what changed, as phrases (none when no alias qualifies)."""
    attributes = _attributes(shape)
    leaves = [a for a in shape.aliases[1:] if not any(o.parent == a.name for o in shape.aliases)
              and not a.renamed and any(b is not a for b, _ in attributes)]
    if not leaves:
        return []
    leaf = rng.choice(leaves)
    shape.aliases.remove(leaf)
    shape.removed.append(leaf)
    return [f"relation {leaf.name} removed"] + [f"column {output_name(leaf, c)} dropped" for c in leaf.outputs]


def replace_leaf(shape: "Shape", rng: random.Random) -> list[str]:
    """A leaf relation replaced for the view-adaptation check (issue #19, the paper's relation
    replacement): its state and feed become views over its relation with every column renamed
    (`m<column>`: the key, the join's key side, the predicate's and outputs' sources), all its rows
    or those a predicate of PREDICATES keeps (`moved_filter`); declare_containments says how they
    relate, once the predicates are redrawn. Only a leaf with no renamed column whose rows the view
    can locate: its parent is the root, or the parent outputs the columns it joins it on under the
    names the view had (such a leaf below the root first). Returns what changed, as phrases (none
    when no alias qualifies)."""
    def located(a: "Alias") -> bool:
        parent = shape.alias(a.parent)
        slots = [a.slot] + ([a.slot + "2"] if shape.composite.get(a.rel) else [])
        return parent is shape.aliases[0] or all(c in parent.outputs and c not in parent.renamed for c in slots)
    leaves = [a for a in shape.aliases[1:] if not any(o.parent == a.name for o in shape.aliases)
              and not a.renamed and located(a)]
    # a leaf below the root where there is one: its rows are found through the view's join columns
    below_root = [a for a in leaves if a.parent != shape.aliases[0].name]
    if not leaves:
        return []
    leaf = rng.choice(below_root or leaves)
    leaf.replaced, leaf.replaced_predicate = True, leaf.predicate
    leaf.moved_filter = rng.choice([None, None, None, 0, 1, 2, 3])
    kept = "all its rows" if leaf.moved_filter is None else f"its rows where {PREDICATES[leaf.moved_filter][0]}"
    return [f"relation {leaf.name} replaced by {kept}"]


def declare_containments(shape: "Shape", rng: random.Random) -> list[str]:
    """The containment each replaced alias declares (replace_leaf), after its predicate was redrawn:
    one that holds of its rows as the view selects them (the paper's PC constraint, through the old
    and the new predicate: the replacement's filter is one more conjunct), drawn among those that
    hold (three times in four, where one does), or none. Conjunctions of PREDICATES: more conjuncts
    select fewer rows."""
    out = []
    for a in shape.aliases:
        if not a.replaced:
            continue
        old = set(predicate_indexes(a.replaced_predicate))
        new = set(predicate_indexes(a.predicate)) | ({a.moved_filter} if a.moved_filter is not None else set())
        holds = ((["equal"] if new == old else []) + (["subset"] if new >= old else [])
                 + (["superset"] if new <= old else []))
        a.moved = rng.choice(holds) if holds and rng.random() < 0.75 else None
        out.append(f"relation {a.name}: {a.moved or 'no'} containment declared")
    return out


def moved_column(column: str) -> str:
    """a column's name in a replaced relation's replacement (replace_leaf)"""
    return f"m{column}"


@dataclass
class Alias:
    name: str
    rel: str                      # physical relation (role-playing aliases share one)
    parent: str | None = None
    slot: str | None = None       # the parent's FK slot this alias joins on
    predicate: int | tuple[int, ...] | None = None  # index into PREDICATES, or a conjunction of them
    outputs: list[str] = field(default_factory=list)  # columns of this alias in the view
    renamed: dict[str, str] = field(default_factory=dict)  # column -> its output name, where not `<alias>_<column>`
    # replaced (replace_leaf): the containment declared (None: none), and the predicate its replacement keeps
    # rows by (None: all of them)
    replaced: bool = False
    replaced_predicate: int | tuple[int, ...] | None = None  # its predicate before (on the replaced relation)
    moved: str | None = None
    moved_filter: int | None = None


@dataclass
class Shape:
    name: str
    aliases: list[Alias]
    composite: dict[str, bool]    # physical relation -> composite key (k, k2)?
    chained: bool = False         # a second view over this one's change feed
    steps: int = 2                # consecutive refreshes
    # aliases the view no longer joins (remove_leaf): their relations and the parents' FK columns
    # stay in the data, as a source's tables do when a model stops reading one
    removed: list[Alias] = field(default_factory=list)

    def alias(self, name: str) -> Alias:
        return next(a for a in self.aliases if a.name == name)

    def rels(self) -> list[str]:
        out = []
        for a in self.aliases + self.removed:
            if a.rel not in out:
                out.append(a.rel)
        if self.chained:
            out.append("z")
        return out

    def key_cols(self, rel: str) -> list[str]:
        return ["k", "k2"] if self.composite.get(rel) else ["k"]

    def fk_cols(self, rel: str) -> list[tuple[str, str]]:
        """(slot, target relation) for the FK slots physical relation `rel` carries."""
        owners = [a for a in self.aliases + self.removed if a.rel == rel]
        out = []
        for child in self.aliases + self.removed:
            if child.parent and any(o.name == child.parent for o in owners) and (child.slot, child.rel) not in out:
                out.append((child.slot, child.rel))
        if rel == "z":
            out.append(("fa", "__view__"))
        return out

    def columns(self, rel: str) -> list[str]:
        cols = list(self.key_cols(rel)) + list(ATTRS)
        for slot, target in self.fk_cols(rel):
            cols.append(slot)
            if self.target_composite(target):
                cols.append(slot + "2")
        return cols

    def target_composite(self, target: str) -> bool:
        return self.composite.get(self.aliases[0].rel if target == "__view__" else target, False)


def make_shapes(rng: random.Random, deep: bool) -> list[Shape]:
    """Fixed shapes covering the required structures, plus random ones in deep mode."""
    A = Alias
    shapes = [
        Shape("single", [A("r0", "r0", predicate=0)], {"r0": False}),
        Shape("paper", [A("c", "c"), A("a", "a", "c", "fa", predicate=2)], {"c": False, "a": False}, steps=5),
        Shape("chain2", [A("r0", "r0", predicate=1), A("r1", "r1", "r0", "fa"), A("r2", "r2", "r1", "fa", predicate=0)],
              {"r0": True, "r1": False, "r2": True}),
        Shape("chain4", [A("r0", "r0"), A("r1", "r1", "r0", "fa", predicate=3), A("r2", "r2", "r1", "fa"),
                         A("r3", "r3", "r2", "fa", predicate=1), A("r4", "r4", "r3", "fa", predicate=2)],
              {"r0": False, "r1": True, "r2": False, "r3": True, "r4": False}),
        Shape("star", [A("f", "f", predicate=3), A("d1", "d1", "f", "fa", predicate=0),
                       A("d2", "d2", "f", "fb", predicate=1),
                       A("d3", "d3", "f", "fc", predicate=2)], {"f": True, "d1": False, "d2": True, "d3": False}),
        Shape("roles", [A("o", "o", predicate=1), A("ship", "addr", "o", "fa", predicate=0),
                        A("bill", "addr", "o", "fb"),
                        A("cust", "cust", "o", "fc")], {"o": False, "addr": True, "cust": False}),
        Shape("snowflake", [A("r0", "r0", predicate=2), A("r1", "r1", "r0", "fa"),
                            A("r2", "r2", "r0", "fb", predicate=3),
                            A("r3", "r3", "r1", "fa", predicate=0), A("r4", "r4", "r1", "fb")],
              {"r0": True, "r1": True, "r2": False, "r3": False, "r4": True}),
        Shape("chained", [A("c", "c", predicate=3), A("a", "a", "c", "fa", predicate=0)], {"c": True, "a": False},
              chained=True, steps=5),
    ]
    if deep:
        for shape in shapes:
            shape.steps = 5
        for n in range(6):
            shapes.append(random_shape(rng, f"rand{n}"))
    for shape in shapes:
        for a in shape.aliases:
            pick = [c for c in shape.columns(a.rel) if rng.random() < 0.6]
            a.outputs = sorted(set(pick + (shape.key_cols(a.rel) if a.parent is None else [])),
                               key=shape.columns(a.rel).index)
    return shapes


def random_shape(rng: random.Random, name: str) -> Shape:
    aliases = [Alias("r0", "r0", predicate=rng.choice([None, 0, 1, 2, 3]))]
    for i in range(1, rng.randint(2, 5)):
        parent = rng.choice(aliases)
        used = {a.slot for a in aliases if a.parent == parent.name}
        free = [s for s in FK_SLOTS if s not in used]
        if not free or parent.rel != parent.name:
            continue
        aliases.append(Alias(f"r{i}", f"r{i}", parent.name, free[0], rng.choice([None, 0, 1, 2, 3])))
    return Shape(name, aliases, {a.rel: rng.random() < 0.4 for a in aliases}, chained=rng.random() < 0.3, steps=5)


# ---------------------------------------------------------------------------------------------
# data


@dataclass
class Scenario:
    sid: int
    technique: dict[str, str]                 # physical relation -> technique
    state: dict[str, dict[tuple, dict]]       # relation -> key -> row
    next_i: dict[str, int]


def _key(shape: Shape, rel: str, row: dict) -> tuple:
    return tuple(row[c] for c in shape.key_cols(rel))


class World:
    """All scenarios of one shape, their states, and the feed rows of each step."""

    def __init__(self, shape: Shape, sids: list[int], rng: random.Random):
        self.shape, self.rng = shape, rng
        self.seq = 0
        self.scenarios = []
        for sid in sids:
            tech = {rel: rng.choice(sorted(TECHNIQUES)) for rel in shape.rels()}
            sc = Scenario(sid, tech, {rel: {} for rel in shape.rels()}, {rel: 1 for rel in shape.rels()})
            self.scenarios.append(sc)
            for rel in self._fill_order():
                for _ in range(rng.randint(2, 7)):
                    self._insert(sc, rel)

    def _fill_order(self) -> list[str]:
        return list(reversed(self.shape.rels()))  # children first, so FKs find targets

    def _targets(self, sc: Scenario, target: str) -> list[tuple]:
        if target == "__view__":
            return [(k[0], k[1] if len(k) > 1 else None) for k in sc.state[self.shape.aliases[0].rel]]
        return [(k[0], k[1] if len(k) > 1 else None) for k in sc.state[target]]

    def _random_row(self, sc: Scenario, rel: str, key: dict) -> dict:
        rng = self.rng
        row = dict(key)
        row["v"] = None if rng.random() < 0.1 else rng.randint(0, 9)
        row["s"] = None if rng.random() < 0.1 else f"x{rng.randint(0, 3)}"
        for slot, target in self.shape.fk_cols(rel):
            self._set_fk(sc, row, slot, target)
        return row

    def _set_fk(self, sc: Scenario, row: dict, slot: str, target: str):
        rng = self.rng
        composite = self.shape.target_composite(target)
        existing = self._targets(sc, target)
        roll = rng.random()
        if roll < 0.06:
            fk = (None, None)                                   # NULL foreign key
        elif roll < 0.12 or not existing:
            fk = (sc.sid * KEY_BASE + 999, 1)                   # dangling foreign key
        else:
            fk = rng.choice(existing)
        row[slot] = fk[0]
        if composite:
            row[slot + "2"] = fk[1] if fk[0] is not None else None

    def _insert(self, sc: Scenario, rel: str) -> tuple[str, dict, dict | None]:
        i = sc.next_i[rel]
        sc.next_i[rel] += 1
        key = {"k": sc.sid * KEY_BASE + i}
        if self.shape.composite.get(rel):
            key["k2"] = self.rng.randint(1, 2)
        row = self._random_row(sc, rel, key)
        sc.state[rel][_key(self.shape, rel, row)] = row
        return ("ins", row, None)

    def step(self) -> list[dict]:
        """Apply random operations to every scenario; return the feed rows they produce."""
        feed = []
        for sc in self.scenarios:
            for rel in self.shape.rels():
                before = {k: dict(r) for k, r in sc.state[rel].items()}
                events = []
                for _ in range(self.rng.randint(0, 4)):
                    events.append(self._operate(sc, rel))
                feed.extend(self._capture(sc, rel, before, [e for e in events if e]))
        return feed

    def _operate(self, sc: Scenario, rel: str):
        rng, rows = self.rng, sc.state[rel]
        roll = rng.random()
        if roll < 0.3 or not rows:
            return self._insert(sc, rel)
        key = rng.choice(sorted(rows, key=repr))
        old = rows[key]
        if roll < 0.55:
            del rows[key]
            return ("del", None, old)
        new = dict(old)
        what = rng.random()
        if what < 0.25:
            pass                                                # no-op update (ineffective)
        elif what < 0.5:
            new["v"] = None if rng.random() < 0.1 else rng.randint(0, 9)
        elif what < 0.7:
            new["s"] = None if rng.random() < 0.1 else f"x{rng.randint(0, 3)}"
        else:
            fks = self.shape.fk_cols(rel)
            if fks:
                slot, target = rng.choice(fks)
                self._set_fk(sc, new, slot, target)
        rows[key] = new
        return ("upd", new, old)

    def _capture(self, sc: Scenario, rel: str, before: dict, events: list) -> list[dict]:
        tech = sc.technique[rel]
        out = []
        if tech in PER_BATCH:
            after = sc.state[rel]
            for key in sorted(set(before) | set(after), key=repr):
                b, a = before.get(key), after.get(key)
                if b is None and a is not None:
                    out.append(("ins", a, None))
                elif b is not None and a is None:
                    out.append(("del", None, b))
                elif b is not None and b != a:
                    out.append(("upd", a, b))
        else:
            out = events
        rows = []
        for kind, new, old in out:
            row = self._feed_row(rel, tech, kind, new, old)
            row["_rel"] = rel
            rows.append(row)
        return rows

    def _feed_row(self, rel: str, tech: str, kind: str, new: dict | None, old: dict | None) -> dict:
        cols = self.shape.columns(rel)
        keys = self.shape.key_cols(rel)
        emitted = {
            "log_based": {"ins": "ins", "upd": "upd", "del": "del"},
            "snapshot_diff": {"ins": "ins", "upd": "upd", "del": "del"},
            "audit_columns": {"ins": "ins", "upd": "up", "del": "del"},
            "log_net_effect": {"ins": "ups", "upd": "ups", "del": "del"},
            "change_tracking": {"ins": "ins", "upd": "up", "del": "delk"},
            "upsert_feed": {"ins": "ups", "upd": "ups", "del": "delk"},
        }[tech][kind]
        image = new if new is not None else old
        row = {c: None for c in cols}
        row.update({c: image[c] for c in keys})
        if emitted != "delk":
            row.update({c: image[c] for c in cols})
        row["_before"] = {c: old[c] for c in cols if c not in keys} if emitted == "upd" else None
        row["_type"] = emitted
        self.seq += 1
        row["_seq"] = self.seq
        return row


# ---------------------------------------------------------------------------------------------
# oracle


def output_name(alias: Alias, column: str) -> str:
    return alias.renamed.get(column, f"{alias.name}_{column}")


def view_columns(shape: Shape) -> list[tuple[str, str, str]]:
    """(output name, alias, column) in the view's column order."""
    return [(output_name(a, c), a.name, c) for a in shape.aliases for c in a.outputs]


def recompute(shape: Shape, scenarios: list[Scenario]) -> list[tuple]:
    """The view by full recomputation, from the Python states."""
    out = []
    cols = view_columns(shape)
    for sc in scenarios:
        for root in sc.state[shape.aliases[0].rel].values():
            bound = {}
            if _bind(shape, sc, shape.aliases[0], root, bound):
                out.append(tuple(bound[a][c] for _, a, c in cols))
    return out


def _bind(shape: Shape, sc: Scenario, alias: Alias, row: dict, bound: dict) -> bool:
    if not passes(alias.predicate, row) or (alias.moved_filter is not None and not passes(alias.moved_filter, row)):
        return False
    bound[alias.name] = row
    for child in shape.aliases:
        if child.parent != alias.name:
            continue
        fk = [row.get(child.slot)] + ([row.get(child.slot + "2")] if shape.composite.get(child.rel) else [])
        if any(v is None for v in fk):
            return False
        partner = sc.state[child.rel].get(tuple(fk))
        if partner is None or not _bind(shape, sc, child, partner, bound):
            return False
    return True


def chained_columns(shape: Shape) -> list[tuple[str, str, str]]:
    vkey = [f"{shape.aliases[0].name}_{c}" for c in shape.key_cols(shape.aliases[0].rel)]
    return [("z_k", "z", "k"), ("z_v", "z", "v")] + [(f"w_{c}", "w", c) for c in vkey]


def recompute_chained(shape: Shape, scenarios: list[Scenario]) -> list[tuple]:
    """W = σ(Z) ⋈_{Z.fa = V.key} V, with V the first view."""
    base_cols = [c for c, _, _ in view_columns(shape)]
    vkey = [f"{shape.aliases[0].name}_{c}" for c in shape.key_cols(shape.aliases[0].rel)]
    composite = shape.composite.get(shape.aliases[0].rel)
    out = []
    for sc in scenarios:
        view = {}
        for t in recompute(shape, [sc]):
            r = dict(zip(base_cols, t))
            view[tuple(r[c] for c in vkey)] = r
        for z in sc.state["z"].values():
            if not PREDICATES[1][1](z):
                continue
            fk = (z["fa"], z["fa2"]) if composite else (z["fa"],)
            if any(v is None for v in fk) or fk not in view:
                continue
            out.append((z["k"], z["v"]) + tuple(view[fk][c] for c in vkey))
    return out
