"""A simulated source table and its changes, encoded as each raw CDC format shapes them.

One scenario of source operations (inserts, updates, deletes, re-inserts, several changes of
one key per batch) is run against a Python dict (the truth: the source table after each batch)
and written out, per format, as the raw records that format's producer would deliver:
Debezium envelopes as Debezium documents them (`{schema, payload}` or bare `{before, after,
source, op, ts_ms}`, a tombstone after each delete), a compacted topic's key/value pairs,
SQL Server's change tracking and CDC net-change rows, audit-column tables, log tables and
snapshots. Delta Lake's change data feed is not simulated: the harness makes a real Delta table
with the feed enabled and reads table_changes()."""
from __future__ import annotations

import json
from dataclasses import dataclass, field

KEY = "id"
ATTRS = ["name", "city", "score", "bio"]
COLUMNS = {"id": "int", "name": "string", "city": "string", "score": "int", "bio": "string"}
TOAST = "__debezium_unavailable_value"

# (op, id, row-or-None); the first batch starts from an empty table
BATCHES: list[list[tuple]] = [
    [("ins", 1, ("Adam", "Aachen", 10, "a" * 20)), ("ins", 2, ("Bob", "Berlin", 20, "b" * 20)),
     ("ins", 3, ("Carl", "Chemnitz", 5, "c" * 20)), ("ins", 4, ("Dave", "Dresden", 30, "d" * 20)),
     ("ins", 5, ("Eve", "Essen", 40, "e" * 20)), ("upd", 2, ("Bob", "Bonn", 20, "b" * 20)),
     ("ins", 8, ("Hal", "Hamm", 15, "h" * 20))],
    [("upd", 1, ("Adam", "Aachen", 11, "a" * 20)),   # a column the view drops... and keeps
     ("upd", 3, ("Carl", "Chemnitz", 50, "c" * 20)),  # enters the view's selection
     ("upd", 4, ("Dave", "Dresden", 1, "d" * 20)),    # leaves it
     ("del", 5, None), ("ins", 5, ("Eva", "Erfurt", 45, "e" * 20)),  # delete then re-insert
     ("ins", 6, ("Fay", "Fulda", 60, "f" * 20)), ("upd", 6, ("Fay", "Fürth", 61, "f" * 20)),
     ("ins", 7, ("Gil", "Gera", 70, "g" * 20)), ("del", 7, None),  # inserted and deleted
     ("upd", 2, ("Bob", "Bremen", 21, "b" * 20)), ("upd", 2, ("Bob", "Bochum", 22, "b2" * 10)),
     ("del", 8, None),
     ("ins", 9, ("Ida", "Jena", 90, None))],
]


@dataclass
class Event:
    op: str          # ins / upd / del (what happened in the source)
    id: int
    before: dict | None
    after: dict | None
    lsn: int         # a global, increasing position of the change


@dataclass
class Sim:
    state: dict = field(default_factory=dict)
    lsn: int = 1000
    truths: list[dict] = field(default_factory=list)
    events: list[list[Event]] = field(default_factory=list)

    def run(self, batches=BATCHES):
        for batch in batches:
            out = []
            for op, k, row in batch:
                before = self.state.get(k)
                after = None if row is None else dict(zip(ATTRS, row))
                self.lsn += 10
                if op == "ins":
                    assert before is None
                    self.state[k] = after
                elif op == "upd":
                    assert before is not None
                    self.state[k] = after
                else:
                    assert before is not None
                    del self.state[k]
                out.append(Event(op, k, before and dict(before), after, self.lsn))
            self.events.append(out)
            self.truths.append({k: dict(v) for k, v in self.state.items()})
        return self


def row(k, img):
    return {"id": k, **img}


# --- typed raw tables -------------------------------------------------------------------------

def audit_rows(sim: Sim, upto: int) -> list[dict]:
    """The source table with audit columns after batch `upto` (0-based): deleted rows stay with
    their logical-delete flag; a re-insert of a logically deleted key revives it (an update)."""
    table: dict[int, dict] = {}
    for b in range(upto + 1):
        for e in sim.events[b]:
            t = e.lsn
            if e.op == "ins" and (e.id not in table or not table[e.id]["deleted"]):
                table[e.id] = {**row(e.id, e.after), "inserted_at": t, "updated_at": t, "deleted": False}
            elif e.op in ("ins", "upd"):
                table[e.id] = {**table[e.id], **e.after, "updated_at": t, "deleted": False}
            else:
                table[e.id] = {**table[e.id], "updated_at": t, "deleted": True}
    return list(table.values())


def log_rows(sim: Sim, b: int) -> list[dict]:
    code = {"ins": "I", "upd": "U", "del": "D"}
    return [{**row(e.id, e.after or {a: None for a in ATTRS}), "op": code[e.op], "seq": e.lsn,
             "before": e.before if e.op != "ins" else None} for e in sim.events[b]]


def _net(sim: Sim, b: int):
    """Per key touched in batch b: (existed before the batch, row after it or None, last lsn, last row)."""
    start = sim.truths[b - 1] if b > 0 else {}
    out = {}
    for e in sim.events[b]:
        first = out.get(e.id, (e.id in start, None, None, None))
        out[e.id] = (first[0], sim.truths[b].get(e.id), e.lsn, e.before if e.op == "del" else e.after)
    return out


def log_net_rows(sim: Sim, b: int) -> list[dict]:
    rows = []
    for k, (existed, now, lsn, last) in _net(sim, b).items():
        if now is not None:
            rows.append({**row(k, now), "op": "U", "seq": lsn})
        elif existed:
            rows.append({**row(k, last), "op": "D", "seq": lsn})
    return rows


def cdc_net_rows(sim: Sim, b: int) -> list[dict]:
    """SQL Server cdc.fn_cdc_get_net_changes_<instance>(…, 'all with merge')."""
    return [{"__$start_lsn": r["seq"], "__$operation": 5 if r["op"] == "U" else 1, "__$update_mask": None,
             **{c: r[c] for c in ["id", *ATTRS]}} for r in log_net_rows(sim, b)]


def change_tracking_rows(sim: Sim, b: int) -> list[dict]:
    """Generic change tracking: one row per change, key + operation + version."""
    code = {"ins": "I", "upd": "U", "del": "D"}
    return [{"id": e.id, "op": code[e.op], "version": e.lsn} for e in sim.events[b]]


def sqlserver_ct_rows(sim: Sim, b: int) -> list[dict]:
    """CHANGETABLE(CHANGES t, @last_sync): one row per changed key, its net operation."""
    rows = []
    for k, (existed, now, lsn, _) in _net(sim, b).items():
        op = "U" if existed and now is not None else ("I" if now is not None else "D")
        rows.append({"SYS_CHANGE_VERSION": lsn, "SYS_CHANGE_CREATION_VERSION": None, "SYS_CHANGE_OPERATION": op,
                     "SYS_CHANGE_COLUMNS": None, "SYS_CHANGE_CONTEXT": None, "id": k})
    return rows


def snapshot_rows(sim: Sim, b: int) -> list[dict]:
    return [{"snapshot_id": b + 1, **row(k, v)} for k, v in sorted(sim.truths[b].items())]


# --- Debezium and Kafka -----------------------------------------------------------------------

def _source(connector: str, lsn: int) -> dict:
    if connector == "postgresql":
        return {"version": "2.7.0.Final", "connector": "postgresql", "name": "dbserver1", "ts_ms": 1700000000000 + lsn,
                "snapshot": "false", "db": "postgres", "schema": "inventory", "table": "customers",
                "txId": 500 + lsn, "lsn": lsn, "xmin": None}
    return {"version": "2.7.0.Final", "connector": "mysql", "name": "mysql-server-1", "ts_ms": 1700000000000 + lsn,
            "snapshot": "false", "db": "inventory", "table": "customers", "server_id": 223344, "gtid": None,
            "file": "mysql-bin.000003", "pos": lsn, "row": 0, "thread": 7, "query": None}


def _envelope(op, before, after, source, wrap):
    payload = {"before": before, "after": after, "source": source, "op": op, "ts_ms": source["ts_ms"] + 3}
    if wrap:  # JSON converter with schemas.enable=true: {schema, payload}
        return json.dumps({"schema": {"type": "struct", "optional": False,
                                      "name": "dbserver1.inventory.customers.Envelope",
                                      "fields": [{"field": "before"}, {"field": "after"}, {"field": "source"},
                                                 {"field": "op"}, {"field": "ts_ms"}]}, "payload": payload})
    return json.dumps(payload)


def debezium_rows(sim: Sim, b: int, variant: str, offset0: int) -> list[dict]:
    """Debezium events of batch b. variant: postgres_default | postgres_full | mysql_minimal.
    Batch 0's inserts arrive as a snapshot (`r`) for half of the rows, as `c` for the rest."""
    connector = "mysql" if variant.startswith("mysql") else "postgresql"
    rows, off = [], offset0
    for i, e in enumerate(sim.events[b]):
        src = _source(connector, e.lsn)
        wrap = i % 2 == 0
        if e.op == "ins":
            op = "r" if b == 0 and i < 3 else "c"
            if op == "r":
                src["snapshot"] = "true"
            v = _envelope(op, None, row(e.id, e.after), src, wrap)
        elif e.op == "upd":
            after = row(e.id, e.after)
            if variant == "postgres_full":
                v = _envelope("u", row(e.id, e.before), after, src, wrap)
            elif variant == "postgres_default":
                if e.after["bio"] == e.before["bio"]:
                    after["bio"] = TOAST  # unchanged TOASTed value: not in the WAL record
                v = _envelope("u", None, after, src, wrap)
            else:  # binlog_row_image=MINIMAL: before holds the key, after the changed columns
                changed = {a: e.after[a] for a in ATTRS if e.after[a] != e.before[a]}
                v = _envelope("u", {"id": e.id}, {"id": e.id, **changed}, src, wrap)
        else:
            before = (row(e.id, e.before) if variant == "postgres_full"
                      else {"id": e.id, **({a: None for a in ATTRS} if connector == "postgresql" else {})})
            v = _envelope("d", before, None, src, wrap)
        rows.append({"offset": off, "key": json.dumps({"id": e.id}), "value": v})
        off += 1
        if e.op == "del":  # the tombstone Debezium writes after a delete for log compaction
            rows.append({"offset": off, "key": json.dumps({"id": e.id}), "value": None})
            off += 1
    return rows


def upsert_rows(sim: Sim, b: int, offset0: int) -> list[dict]:
    """A compacted topic: the row as value on insert/update, a tombstone (NULL) on delete."""
    rows = []
    for i, e in enumerate(sim.events[b]):
        rows.append({"offset": offset0 + i, "key": json.dumps({"id": e.id}),
                     "value": None if e.op == "del" else json.dumps(row(e.id, e.after))})
    return rows
