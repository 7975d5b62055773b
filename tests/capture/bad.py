"""The quarantine fixture: a Debezium PostgreSQL feed (REPLICA IDENTITY FULL) whose second batch
mixes good events with one or two records per quarantine reason. `expected_reason` says which
reason each bad record must get; good events are applied, an exact duplicate once."""
from __future__ import annotations

import json


def ev(op, before, after, lsn, extra=None):
    payload = {"before": before, "after": after, "source": {"connector": "postgresql", "name": "dbserver1",
               "ts_ms": 1700000000000 + lsn, "db": "postgres", "schema": "public", "table": "customers",
               "lsn": lsn}, "op": op, "ts_ms": 1700000000005 + lsn}
    payload.update(extra or {})
    return json.dumps(payload)


def r(i, name, city, score, bio="x"):
    return {"id": i, "name": name, "city": city, "score": score, "bio": bio}


BATCH1 = [ev("c", None, r(i, n, c, s), 100 + 10 * i) for i, n, c, s in
          [(1, "Ann", "Aue", 11), (2, "Ben", "Bad", 22), (3, "Cid", "Cham", 33), (4, "Dan", "Dahn", 44)]]
U1 = ev("u", r(1, "Ann", "Aue", 11), r(1, "Ann", "Apen", 12), 200)
# (value, expected reason or None for a good record, marker found in the raw record)
BATCH2 = [
    (U1, None, None),
    (ev("d", r(2, "Ben", "Bad", 22), None, 210), None, None),
    (None, None, None),  # the tombstone after the delete
    (ev("c", None, r(5, "Eli", "Eger", 55), 220), None, None),
    (U1, None, None),  # delivered twice (at-least-once): applied once
    ('{"before": null, "after": {"id": 6, "name": "Fin"', "malformed_json", '"Fin"'),
    (ev("t", None, None, 230), "unknown_operation", '"op": "t"'),
    (ev("c", None, r(None, "Nil", "Nowhere", 1), 240), "null_key", '"Nil"'),
    (ev("c", None, {**r(7, "Sev", "Selb", 7), "id": "seven"}, 245), "null_key", '"seven"'),
    (ev("c", None, {**r(8, "Gus", "Gera", 8), "score": "lots"}, 250), "cast_failed", '"lots"'),
    (ev("c", None, {**r(9, "Hal", "Hof", 9), "email": "hal@example.org"}, 260), "unknown_column", "hal@example.org"),
    (ev("u", None, r(3, "Cid", "Chur", 34), 270), "missing_image", '"Chur"'),
    (ev("u", r(4, "Dan", "Dahn", 44), r(4, "Dan", "Dahn", 45), 280), "conflicting_duplicate", '"score": 45'),
    (ev("u", r(4, "Dan", "Dahn", 44), r(4, "Dan", "Dahn", 46), 280), "conflicting_duplicate", '"score": 46'),
    (ev("c", None, r(10, "Ivo", "Ilm", 10), 50), "late_event", '"Ivo"'),
]
# the state after batch 2 when exactly the good events apply
TRUTH1 = {1: ("Ann", "Aue", 11, "x"), 2: ("Ben", "Bad", 22, "x"), 3: ("Cid", "Cham", 33, "x"),
          4: ("Dan", "Dahn", 44, "x")}
TRUTH2 = {1: ("Ann", "Apen", 12, "x"), 3: ("Cid", "Cham", 33, "x"), 4: ("Dan", "Dahn", 44, "x"),
          5: ("Eli", "Eger", 55, "x")}


def rows(batch: int) -> list[dict]:
    if batch == 0:
        return [{"offset": i, "key": None, "value": v} for i, v in enumerate(BATCH1)]
    return [{"offset": 100 + i, "key": None, "value": v} for i, (v, _, _) in enumerate(BATCH2)]
