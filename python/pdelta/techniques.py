"""CDC techniques a relation's change feed can be declared with (`technique:` in a dimension-view
declaration), and the six sets each can emit (paper §2, Fig. 2). The flag analysis starts here."""
from __future__ import annotations

from .algebra import SIX_SETS

TECHNIQUES: dict[str, tuple[str, ...]] = {
    # insert/update timestamps tell inserts from updates, never the before-image; deletes are
    # seen as a logical-delete column with the last row
    "audit_columns": ("ins", "up", "del"),
    # a log with full before- and after-images
    "log_based": ("ins", "upd", "del"),
    # a log reduced to its net effect: insert-or-update and delete with the last row
    "log_net_effect": ("ups", "del"),
    # key + operation + version joined to the current row: no before-image, deletes by key only
    "change_tracking": ("ins", "up", "delk"),
    # the difference of two full snapshots
    "snapshot_diff": ("ins", "upd", "del"),
    # an upsert feed with tombstones (a compacted Kafka topic)
    "upsert_feed": ("ups", "delk"),
    # completeness unknown: anything may come
    "any": SIX_SETS,
}

# Raw CDC formats a `capture` model reads (macros/materializations/capture.sql, docs/capture.md):
# format -> (the paper's technique it follows, the sets its raw records map to, whether a batch
# holds at most one record per key). A capture emits the net effect per key of a batch, so its
# feed can also hold compositions of those sets (a delk then an ins is an ups): FORMAT_SETS.
FORMATS: dict[str, tuple[str, tuple[str, ...], bool]] = {
    # the paper's five techniques over typed raw tables; audit columns and snapshot differentials
    # see each key once per batch (the table's current row, one diff)
    "audit_columns": ("audit_columns", ("ins", "up", "del"), True),
    "log_based": ("log_based", ("ins", "upd", "del"), False),
    "log_net_effect": ("log_net_effect", ("ups", "del"), False),
    "change_tracking": ("change_tracking", ("ins", "up", "delk"), False),
    "snapshot_diff": ("snapshot_diff", ("ins", "upd", "del"), True),
    # Debezium JSON envelopes; `r` (snapshot read) is an upsert: the row may already be held
    "debezium_postgres_default": ("change_tracking", ("ins", "up", "ups", "delk"), False),
    "debezium_postgres_full": ("log_based", ("ins", "upd", "ups", "del"), False),
    "debezium_mysql_minimal": ("change_tracking", ("ins", "up", "ups", "delk"), False),
    # a compacted topic: key + value, a null value (tombstone) deletes the key
    "upsert_feed": ("upsert_feed", ("ups", "delk"), False),
    # Delta Lake's change data feed (insert, update_preimage/postimage, delete)
    "delta_cdf": ("log_based", ("ins", "upd", "del"), False),
    # SQL Server change tracking (CHANGETABLE(CHANGES ...) joined to the current row)
    "sqlserver_change_tracking": ("change_tracking", ("ins", "up", "delk"), False),
    # SQL Server CDC net changes, 'all with merge': 1 = delete (last row), 5 = insert or update
    "sqlserver_cdc_net": ("log_net_effect", ("ups", "del"), False),
}


def composed_sets(records: tuple[str, ...], one_per_key: bool) -> tuple[str, ...]:
    """The sets a capture's feed can hold: the records' sets closed under composition of
    consistent pairs (algebra.compose), unless a batch never holds two records of one key."""
    from .algebra import compose, consistent

    out = set(records)
    while not one_per_key:
        more = {compose(a, b) for a in out for b in out if consistent(a, b)} - {None} - out
        if not more:
            break
        out |= more
    return tuple(t for t in SIX_SETS if t in out)


FORMAT_SETS: dict[str, tuple[str, ...]] = {f: composed_sets(r, one) for f, (_, r, one) in FORMATS.items()}
for _fmt, _sets in FORMAT_SETS.items():
    # a format's name may stand for its sets wherever a technique is declared
    TECHNIQUES.setdefault(_fmt, _sets)

# Why a capture puts a raw record into `<model>__pdelta_quarantine` instead of its feed.
QUARANTINE_REASONS: dict[str, str] = {
    "malformed_json": "the record (or its key, envelope, before/after image) is not valid JSON",
    "unknown_operation": "the operation code is not one the format defines",
    "null_key": "a key column is missing, NULL or does not cast to the key's type",
    "unknown_column": "the record holds a non-NULL value for a column the declared schema does not know",
    "cast_failed": "a value (or the sequence) does not cast to the declared type",
    "missing_image": "the event lacks an image its format promises (e.g. an update pair without the before-image, "
                     "an absent column with no earlier image to fill it from)",
    "conflicting_duplicate": "two different events for one key with the same sequence: their order is unknown",
    "late_event": "the event's sequence is at or below the sequence already captured by an earlier batch",
}

# A feed another dimension view publishes (`changes: {feed_of: view}`): its sets are that
# view's predicted output sets.
VIEW_FEED = "pdelta_view"
KNOWN = (*TECHNIQUES, VIEW_FEED)
