"""Valid states and change feeds for the feed-contract test, and mutations that break the contract.

Every case owns one world: a root relation `c` (key cid; name, aid), captured log-based, joined
on `aid` to `a` (key aid; city), captured by change tracking; the view keeps the cities that do
not start with Z. A world starts with the inserts of its initial rows in its feeds and takes
random valid steps (ins/upd/del on c, ins/up/delk on a, several keys at one sequence at times).
A mutation then adds bad input of one kind; bad feed rows carry a marker string in an attribute
(so a quarantined or quoted row is recognisable) and are rows that match no state change: not
applying them is the only correct outcome.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

# the view's aliases: words that occur in no relation or model name, so a message that holds one names the input
ALIAS = {"c": "buyer", "a": "place"}
KEY = {"c": "cid", "a": "aid"}
CITIES = ["Aachen", "Berlin", "Dresden", "Zwickau"]

# row-level kinds (quarantinable): kind -> (rule, relations whose feed it can break)
ROW_KINDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "type": ("feed-type", ("c", "a")),
    "key_null": ("feed-key-null", ("c", "a")),
    "upd_images": ("feed-upd-images", ("c",)),  # upd is no change-tracking set: c (log-based) only
    "del_image": ("feed-del-image", ("c",)),  # del is no change-tracking set; c's state declares `aid` not null
    "before_image": ("feed-before-image", ("c", "a")),
    "delk_attrs": ("feed-delk-key-only", ("a",)),  # delk is no log-based set: a only
    "disjoint": ("feed-disjoint", ("c", "a")),
    "technique": ("feed-technique", ("c", "a")),
}
# kinds that stop every refresh, whatever pdelta_bad_rows says (rule names: python/pdelta/contract.py)
STOP_KINDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "key_type": ("feed-column-type", ("c", "a")),
    "before_struct": ("feed-column-type", ("c",)),  # a's before-image has one field only
    "seq_null": ("feed-seq-null", ("c", "a")),
    "seq_behind": ("feed-seq-behind", ("c", "a")),
    "rewritten_fewer": ("feed-rewritten", ("c", "a")),
    "rewritten_changed": ("feed-rewritten", ("c", "a")),
    # a key twice in the root's state, or in the joined relation's (the plans read them differently)
    "state_dup_root": ("state-duplicate-key", ("c",)),
    "state_dup_joined": ("state-duplicate-key", ("a",)),
}
RULE = {k: v[0] for k, v in {**ROW_KINDS, **STOP_KINDS}.items()}


@dataclass
class Mutation:
    """What one case's mutation did, and what a correct refresh must make of it."""
    kind: str
    rel: str
    rows: list[dict] = field(default_factory=list)  # bad feed rows appended (a stopped case's fix deletes them)
    quarantined: list[tuple] = field(default_factory=list)  # (alias, rule, seq, marker) a quarantine must hold
    removed: list[dict] = field(default_factory=list)  # consumed feed rows deleted (the fix restores them)
    state_rows: list[dict] = field(default_factory=list)  # extra state rows: a key twice
    feed_sql: str | None = None  # a feed view variant with a schema break (project.feed_sql)

    @property
    def rule(self) -> str:
        return RULE[self.kind]


class World:
    def __init__(self, name: str, rng: random.Random, n_c: int = 12, n_a: int = 8):
        self.name, self.rng = name, rng
        self.c: dict[int, dict] = {}
        self.a: dict[int, dict] = {}
        self.feed: list[dict] = []  # every valid row in the feeds, in order
        self.seq = 0
        self.rid = 0
        self.fresh = 500  # keys no valid step uses: for rows of keys absent from the state
        self.n_marker = 0
        self.consumed: dict[str, int] = {}  # per relation, the highest sequence the views consumed
        rows = [self._row("a", "ins", {"aid": k, "city": rng.choice(CITIES)}, seq=self._next_seq())
                for k in range(1, n_a + 1)]
        for r in rows:
            self.a[r["aid"]] = {"aid": r["aid"], "city": r["city"]}
        for k in range(1, n_c + 1):
            img = {"cid": k, "name": f"n{k}", "aid": rng.randint(1, n_a)}
            rows.append(self._row("c", "ins", img, seq=self._next_seq()))
            self.c[k] = img
        self.next_key = {"c": n_c + 1, "a": n_a + 1}
        self.feed.extend(rows)
        self.last_step: list[dict] = rows

    # --- rows ----------------------------------------------------------------------------------
    def _next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def _row(self, rel, typ, image, before=None, seq=None, bogus=False) -> dict:
        self.rid += 1
        row = {"rel": rel, "rid": f"{self.name}.{self.rid}", "cid": None, "name": None, "aid": None, "city": None,
               "before": before, "type": typ, "seq": seq, "bogus": bogus}
        row.update(image)
        return row

    def marker(self) -> str:
        self.n_marker += 1
        return f"bad.{self.name}.{self.n_marker}"

    def state_rows(self) -> list[dict]:
        return [{"rel": "c", **r} for r in self.c.values()] + [{"rel": "a", **r} for r in self.a.values()]

    # --- valid steps ---------------------------------------------------------------------------
    def step(self, n_c=(2, 3), n_a=(1, 2), force_a: str | None = None) -> list[dict]:
        """Random valid changes, applied to the states; several keys share a sequence at times."""
        rng, out, at_seq = self.rng, [], {}
        ops = [("c", None)] * rng.randint(*n_c) + [("a", None)] * rng.randint(*n_a)
        rng.shuffle(ops)
        if force_a:
            ops.append(("a", force_a))
        seq = None
        for rel, forced in ops:
            row = self._valid_change(rel, forced)
            key = row[KEY[rel]]
            if seq is None or rng.random() < 0.6 or (rel, key) in at_seq.get(seq, set()):
                seq = self._next_seq()
            row["seq"] = seq
            at_seq.setdefault(seq, set()).add((rel, key))
            out.append(row)
        self.feed.extend(out)
        self.last_step = out
        return out

    def _valid_change(self, rel: str, forced: str | None) -> dict:
        rng = self.rng
        if rel == "c":
            typ = forced or rng.choices(["ins", "upd", "del"], [0.35, 0.45, 0.2])[0]
            if typ == "del" and len(self.c) <= 6:
                typ = "upd"
            if typ == "ins":
                k = self.next_key["c"]
                self.next_key["c"] += 1
                img = {"cid": k, "name": f"n{k}", "aid": rng.choice(sorted(self.a) or [1])}
                self.c[k] = img
                return self._row("c", "ins", img)
            k = rng.choice(sorted(self.c))
            old = self.c[k]
            if typ == "del":
                del self.c[k]
                return self._row("c", "del", dict(old))
            new = dict(old)
            if rng.random() < 0.6:
                new["name"] = f"n{k}.{self.seq}"
            if rng.random() < 0.6 or new == old:
                new["aid"] = rng.choice(sorted(set(self.a) | {old["aid"]}))
            if new == old:
                new["name"] = old["name"] + "'"
            self.c[k] = new
            return self._row("c", "upd", new, before={"name": old["name"], "aid": old["aid"]})
        typ = forced or rng.choices(["ins", "up", "delk"], [0.3, 0.5, 0.2])[0]
        if typ == "delk" and len(self.a) <= 4:
            typ = "up"
        if typ == "ins":
            k = self.next_key["a"]
            self.next_key["a"] += 1
            self.a[k] = {"aid": k, "city": rng.choice(CITIES)}
            return self._row("a", "ins", dict(self.a[k]))
        k = rng.choice(sorted(self.a))
        old = self.a[k]
        if typ == "delk":
            del self.a[k]
            row = self._row("a", "delk", {"aid": k})
        else:
            self.a[k] = {"aid": k, "city": rng.choice([c for c in CITIES if c != old["city"]])}
            row = self._row("a", "up", dict(self.a[k]))
        row["_old"] = dict(old)  # what a technique-breaking but truthful rewrite needs (upd / del)
        return row

    # --- the view, recomputed ------------------------------------------------------------------
    def view(self) -> list[tuple]:
        """Full recomputation: c joined to a on aid, cities not starting with Z."""
        out = []
        for r in self.c.values():
            a = self.a.get(r["aid"])
            if a is not None and not a["city"].startswith("Z"):
                out.append((r["cid"], r["name"], r["aid"], a["city"]))
        return sorted(out)

    def mirror(self) -> list[tuple]:
        return sorted((r["cid"], r["name"], r["aid"]) for r in self.c.values())

    # --- mutations -----------------------------------------------------------------------------
    def untouched(self, rel: str, taken: set) -> int:
        """an existing key no row of the last step and no other bad row names"""
        state = self.c if rel == "c" else self.a
        touched = {r[KEY[rel]] for r in self.last_step if r["rel"] == rel} | taken
        free = sorted(set(state) - touched)
        assert free, f"{self.name}: no untouched key of {rel} left"
        k = self.rng.choice(free)
        taken.add(k)
        return k

    def absent(self) -> int:
        self.fresh += 1
        return self.fresh

    def bad_seq(self) -> int:
        """a sequence of the last step (shared with valid rows of other keys) or a new one"""
        seqs = sorted({r["seq"] for r in self.last_step})
        return self.rng.choice(seqs) if self.rng.random() < 0.6 else self._next_seq()

    def mutate(self, kind: str, rel: str | None = None, taken: set | None = None) -> Mutation:
        rng = self.rng
        taken = set() if taken is None else taken
        rule, rels = (ROW_KINDS.get(kind) or STOP_KINDS[kind])
        rel = rel or rng.choice(rels)
        m = Mutation(kind, rel)
        other_aid = lambda old: rng.choice([k for k in sorted(self.a) if k != old] or [old + 1])  # noqa: E731

        def bad(typ, image, before=None, seq=None):
            row = self._row(rel, typ, image, before=before, seq=self.bad_seq() if seq is None else seq, bogus=True)
            m.rows.append(row)
            return row

        def existing_image(k, marker=True):
            img = dict(self.c[k] if rel == "c" else self.a[k])
            if marker:
                img["name" if rel == "c" else "city"] = self.marker()
            return img

        if kind == "type":
            k = self.untouched(rel, taken)
            bad(rng.choice(["foo", "update", "Ins", None]), existing_image(k))
        elif kind == "key_null":
            img = {"cid": None, "name": self.marker(), "aid": rng.choice(sorted(self.a))} if rel == "c" \
                else {"aid": None, "city": self.marker()}
            bad("ins", img)
        elif kind == "upd_images":  # an update pair that lost its before-image and moves the foreign key
            k = self.untouched(rel, taken)
            img = existing_image(k)
            img["aid"] = other_aid(img["aid"])
            bad("upd", img)
        elif kind == "del_image":  # a delete that lost the deleted row's foreign key
            k = self.untouched(rel, taken)
            bad("del", dict(existing_image(k), aid=None))
        elif kind == "before_image":
            if rel == "c":
                k = self.absent()
                bad("ins", {"cid": k, "name": self.marker(), "aid": rng.choice(sorted(self.a))},
                    before={"name": f"n{k}", "aid": 1})
            else:
                k = self.untouched(rel, taken)
                bad("up", existing_image(k), before={"city": self.a[k]["city"]})
        elif kind == "delk_attrs":
            bad("delk", existing_image(self.untouched(rel, taken)))
        elif kind == "disjoint":  # two changes of one key at one sequence, each allowed on its own
            k, seq = self.untouched(rel, taken), self.bad_seq()
            second = "del" if rel == "c" else "ups"
            bad("ins", existing_image(k), seq=seq)
            bad(second, existing_image(k), seq=seq)
        elif kind == "technique":  # a set the declared technique cannot emit
            k = self.untouched(rel, taken)
            if rel == "c":
                bad(rng.choice(["up", "ups"]), existing_image(k))
            elif rng.random() < 0.5:
                bad("del", existing_image(k))
            else:
                bad("upd", existing_image(k), before={"city": self.a[k]["city"]})
        elif kind in ("key_type", "before_struct"):
            m.feed_sql = kind
        elif kind == "seq_null":
            self._fresh_insert(bad, rel, seq_null=True)
        elif kind == "seq_behind":  # appended after a refresh consumed it, below that refresh's bound
            self._fresh_insert(bad, rel, seq=rng.randint(1, self.consumed[rel]))
        elif kind.startswith("rewritten"):  # a consumed row deleted, or one of its attributes changed in place
            consumed = [r for r in self.feed if r["rel"] == rel and r["seq"] <= self.consumed[rel]
                        and (kind == "rewritten_fewer" or r["type"] != "delk")]
            old = rng.choice(consumed)
            m.removed.append(old)
            if kind == "rewritten_changed":
                changed = dict(old, rid=old["rid"] + "x", bogus=True)
                changed["name" if rel == "c" else "city"] = self.marker()
                m.rows.append(changed)
        elif kind.startswith("state_dup"):
            # a key twice in a state, and a valid change that reaches it in both plans: the diff plan
            # recomputes what a change reaches from the states, the rules plan joins each change
            # with the other states, so both read the twins
            visible = sorted(k for k, r in self.c.items()
                             if r["aid"] in self.a and not self.a[r["aid"]]["city"].startswith("Z"))
            k = rng.choice(visible)
            if rel == "c":  # the customer twice: a change of its address joins both twins
                aid, old = self.c[k]["aid"], self.a[self.c[k]["aid"]]
                self.a[aid] = {"aid": aid, "city": rng.choice([c for c in CITIES if c != old["city"] and c[0] != "Z"])}
                reach = self._row("a", "up", dict(self.a[aid]))
            else:  # the address twice: a change of its customer joins both twins
                old = self.c[k]
                self.c[k] = dict(old, name=f"n{k}.{self.seq}'")
                reach = self._row("c", "upd", dict(self.c[k]), before={"name": old["name"], "aid": old["aid"]})
            reach["seq"] = self._next_seq()
            self.feed.append(reach)
            self.last_step.append(reach)
            m.state_rows.append({"rel": rel, **existing_image(k if rel == "c" else self.c[k]["aid"])})
        else:
            raise KeyError(kind)
        if kind in ROW_KINDS:
            m.quarantined = [(ALIAS[rel], rule, r["seq"], r["name"] if rel == "c" else r["city"]) for r in m.rows]
        return m

    def _fresh_insert(self, bad, rel, seq=None, seq_null=False):
        """an otherwise valid insert of a key no state holds (it breaks only the sequence rule)"""
        if rel == "c":
            img = {"cid": self.absent(), "name": self.marker(), "aid": self.rng.choice(sorted(self.a))}
        else:
            img = {"aid": self.absent(), "city": self.marker()}
        row = bad("ins", img, seq=seq if seq is not None else 0)
        if seq_null:
            row["seq"] = None

    def technique_warn(self) -> list[dict]:
        """Truthful rows the declared technique (change tracking) cannot emit: the last step's
        partial updates of `a` as update pairs, its key-only deletes as deletes with the old row."""
        out = []
        for r in self.last_step:
            if r["rel"] == "a" and r["type"] in ("up", "delk"):
                old = r.pop("_old")
                if r["type"] == "up":
                    r.update(type="upd", before={"city": old["city"]})
                else:
                    r.update(type="del", city=old["city"])
                out.append(r)
        return out
