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
# A feed another dimension view publishes (`changes: {feed_of: view}`): its sets are that
# view's predicted output sets.
VIEW_FEED = "pdelta_view"
KNOWN = (*TECHNIQUES, VIEW_FEED)
