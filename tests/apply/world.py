"""A small two-relation world (customers with an address each) whose true states are kept in
Python, the canonical change-feed rows that describe its changes with every encoding a CDC
technique might give (complete or partial), and the recomputations the apply tests compare
with: the dimension view, its SCD2 history from the sequence of its states, and the replay of
its published change feed."""
from __future__ import annotations

import random
from dataclasses import dataclass, field

CUST_ATTRS = ["name", "tier", "aid"]
ADDR_ATTRS = ["city", "country"]
VIEW_KEY = ["cid"]
VIEW_ATTRS = ["name", "tier", "city", "country"]
TRACKED = ["tier", "city"]          # SCD2: a new version when these change; name/country type 1
# the single-relation view the fault-injection test refreshes: customers not in tier bronze
SMALL_ATTRS = ["name", "tier"]
SMALL_TRACKED = ["tier"]
SMALL_EXCLUDED_TIER = "bronze"
EXCLUDED_COUNTRY = "ZZ"             # the view's selection: a.country <> 'ZZ'

NAMES = ["ann", "bob", "cy", "dee", "eve", "fay"]
TIERS = ["gold", "silver", "bronze"]
CITIES = ["oslo", "rome", "kyiv", "lima", "pune"]
COUNTRIES = ["NO", "IT", "UA", "PE", "ZZ"]


def sql_value(v) -> str:
    """Test fixture literals: ints and words from the fixed alphabets above."""
    if v is None:
        return "null"
    if isinstance(v, int):
        return str(v)
    assert isinstance(v, str) and v.replace("_", "").isalnum(), v
    return f"'{v}'"


@dataclass
class Rel:
    name: str
    key: str
    attrs: list[str]
    rows: dict[int, dict] = field(default_factory=dict)


@dataclass
class World:
    rng: random.Random
    cust: Rel = field(default_factory=lambda: Rel("cust", "cid", CUST_ATTRS))
    addr: Rel = field(default_factory=lambda: Rel("addr", "aid", ADDR_ATTRS))
    seq: int = 0
    next_id: int = 1000
    # the true history: (seq, relation, key, new row or None), to rebuild any past state
    events: list = field(default_factory=list)
    initial_rows: dict = field(default_factory=dict)

    # ---------------------------------------------------------------- initial states
    @classmethod
    def initial(cls, seed: int, n_cust: int = 40, n_addr: int = 12) -> "World":
        w = cls(random.Random(seed))
        for aid in range(1, n_addr + 1):
            w.addr.rows[aid] = w.addr_image()
        for cid in range(1, n_cust + 1):
            w.cust.rows[cid] = w.cust_image()
        w.initial_rows = {"cust": dict(w.cust.rows), "addr": dict(w.addr.rows)}
        return w

    def addr_image(self) -> dict:
        return {"city": self.rng.choice(CITIES), "country": self.rng.choice(COUNTRIES)}

    def cust_image(self, aid: int | None = None) -> dict:
        return {"name": self.rng.choice(NAMES), "tier": self.rng.choice(TIERS),
                "aid": aid if aid is not None else self.rng.choice(list(self.addr.rows) + [999])}

    # ---------------------------------------------------------------- changes
    def _emit(self, rel: Rel, op: str, key: int, old: dict | None, new: dict | None, encodings: tuple[str, ...]):
        """One canonical feed row for a change, encoded as one of the techniques allows."""
        self.seq += 1
        choices = {"insert": [t for t in ("ins", "ups") if t in encodings],
                   "update": [t for t in ("upd", "up", "ups") if t in encodings],
                   "delete": [t for t in ("del", "delk") if t in encodings]}[op]
        typ = self.rng.choice(choices)
        image = new if typ in ("ins", "upd", "up", "ups") else (old if typ == "del" else None)
        before = old if typ == "upd" else None        # the contract: a `del` row carries the old row itself
        self.events.append((self.seq, rel.name, key, new))
        return {"rel": rel.name, rel.key: key, **{a: (image or {}).get(a) for a in rel.attrs},
                "_before": before, "_type": typ, "_seq": self.seq}

    def change(self, n: int, kinds=("insert", "update", "delete"), rels=("cust", "addr"),
               encodings=("ins", "del", "upd", "up", "ups", "delk")) -> list[dict]:
        """n random changes applied to the true states; returns their feed rows in order."""
        out = []
        for _ in range(n):
            rel = self.cust if self.rng.choice(rels) == "cust" else self.addr
            kind = self.rng.choice(kinds)
            if kind != "insert" and not rel.rows:
                kind = "insert"
            if kind == "insert":
                self.next_id += 1
                key = self.next_id
                new = (self.cust_image(self.rng.choice(self.live_addrs() or [999])) if rel is self.cust
                       else self.addr_image())
                rel.rows[key] = new
                out.append(self._emit(rel, "insert", key, None, new, encodings))
            elif kind == "update":
                key = self.rng.choice(sorted(rel.rows))
                old = rel.rows[key]
                new = dict(old)
                col = self.rng.choice(rel.attrs)
                new[col] = (self.cust_image() if rel is self.cust else self.addr_image())[col]
                rel.rows[key] = new
                out.append(self._emit(rel, "update", key, old, new, encodings))
            else:
                key = self.rng.choice(sorted(rel.rows))
                old = rel.rows.pop(key)
                out.append(self._emit(rel, "delete", key, old, None, encodings))
        return out

    def insert(self, rel_name: str, image: dict, enc: str) -> dict:
        rel = getattr(self, rel_name)
        self.next_id += 1
        rel.rows[self.next_id] = image
        return self._emit(rel, "insert", self.next_id, None, image, (enc,))

    def update(self, rel_name: str, key: int, changes: dict, enc: str) -> dict:
        rel = getattr(self, rel_name)
        old = rel.rows[key]
        rel.rows[key] = {**old, **changes}
        return self._emit(rel, "update", key, old, rel.rows[key], (enc,))

    def delete(self, rel_name: str, key: int, enc: str) -> dict:
        rel = getattr(self, rel_name)
        old = rel.rows.pop(key)
        return self._emit(rel, "delete", key, old, None, (enc,))

    def rows_at(self, rel_name: str, seq: int | None) -> dict[int, dict]:
        """The relation's true state after the feed rows up to `seq` (None: before any)."""
        rows = dict(self.initial_rows[rel_name])
        for s, rel, key, new in self.events:
            if seq is not None and s <= seq and rel == rel_name:
                if new is None:
                    rows.pop(key, None)
                else:
                    rows[key] = new
        return rows

    def small_view(self) -> dict[int, tuple]:
        return {cid: (c["name"], c["tier"]) for cid, c in self.cust.rows.items() if c["tier"] != SMALL_EXCLUDED_TIER}

    def live_addrs(self) -> list[int]:
        return sorted(a for a, r in self.addr.rows.items() if r["country"] != EXCLUDED_COUNTRY)

    # ---------------------------------------------------------------- the view, recomputed
    def view(self, cust: dict | None = None, addr: dict | None = None) -> dict[int, tuple]:
        cust = self.cust.rows if cust is None else cust
        addr = self.addr.rows if addr is None else addr
        out = {}
        for cid, c in cust.items():
            a = addr.get(c["aid"])
            if a is not None and a["country"] != EXCLUDED_COUNTRY:
                out[cid] = (c["name"], c["tier"], a["city"], a["country"])
        return out


def scd2(states: list[tuple[int, dict[int, tuple]]], attrs: list[str] = VIEW_ATTRS,
         tracked: list[str] = TRACKED) -> set[tuple]:
    """SCD2 history recomputed from a view's states after each batch: a version per key and
    run of batches with equal tracked columns; untracked columns are those of the version's
    last state. Rows: (cid, *attrs, valid_from, valid_to)."""
    tracked_ix = [attrs.index(c) for c in tracked]
    cur: dict[int, tuple[tuple, int]] = {}      # cid -> (image, valid_from)
    out: set[tuple] = set()
    for batch, state in states:
        for cid in sorted(set(cur) - set(state)):
            image, frm = cur.pop(cid)
            out.add((cid, *image, frm, batch))
        for cid, image in state.items():
            if cid in cur:
                old, frm = cur[cid]
                if [old[i] for i in tracked_ix] != [image[i] for i in tracked_ix]:
                    out.add((cid, *old, frm, batch))
                    cur[cid] = (image, batch)
                else:
                    cur[cid] = (image, frm)     # untracked columns overwritten in place
            else:
                cur[cid] = (image, batch)
    for cid, (image, frm) in cur.items():
        out.add((cid, *image, frm, None))
    return out


def replay_feed(initial: dict[int, tuple], feed: list[dict],
                attrs: list[str] = VIEW_ATTRS) -> tuple[dict[int, tuple], list[str]]:
    """Applies a view's published change feed, batch by batch, to its initial state, checking
    that every change is consistent with the state it applies to (an insert of a key already
    there or an update pair whose before-image is not the current row means a change was
    applied twice or lost). Returns the final state and the problems found."""
    state = dict(initial)
    problems = []
    batches: dict[int, list[dict]] = {}
    for r in feed:
        batches.setdefault(r["_pdelta_seq"], []).append(r)
    for b in sorted(batches):
        keys = [r["cid"] for r in batches[b]]
        if len(keys) != len(set(keys)):
            problems.append(f"batch {b}: a key appears more than once")
        for r in batches[b]:
            cid, typ = r["cid"], r["_pdelta_type"]
            image = tuple(r[c] for c in attrs)
            before = None if r["_pdelta_before"] is None else tuple(r["_pdelta_before"][c] for c in attrs)
            if typ == "ins" and cid in state:
                problems.append(f"batch {b}: ins of key {cid} already in the view")
            if typ == "del":
                before = image                                    # a `del` row is the deleted row
            if typ in ("upd", "del") and state.get(cid) != before:
                problems.append(f"batch {b}: {typ} of key {cid} with before-image {before}, view had {state.get(cid)}")
            if typ in ("del", "delk"):
                state.pop(cid, None)
            else:
                state[cid] = image
    return state, problems
