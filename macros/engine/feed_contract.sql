{#- GENERATED from python/pdelta/contract.py by `pdelta gen-macros`; do not edit.
    The feed contract's checks, shared by every refresh (feed_checks.sql) and
    `pdelta validate --live`. -#}
{% macro feed_contract() %}
  {{ return(fromjson('{
  "row_checks": [
    {
      "rule": "feed-type",
      "condition": "`_pdelta_type` is null or `_pdelta_type` not in ({six_sets})",
      "problem": "a `_pdelta_type` that is not one of the six sets (ins, del, upd, up, ups, delk)",
      "hint": "every row belongs to one of the six sets (case-sensitive)"
    },
    {
      "rule": "feed-key-null",
      "condition": "{key_null}",
      "problem": "a NULL key column",
      "hint": "every feed row carries its whole key"
    },
    {
      "rule": "feed-upd-images",
      "condition": "`_pdelta_type` = \u0027upd\u0027 and `_pdelta_before` is null",
      "problem": "`upd` without a before-image (`_pdelta_before` NULL)",
      "hint": "an update pair carries both images; emit `up` when the before-image is unknown"
    },
    {
      "rule": "feed-before-image",
      "condition": "`_pdelta_type` in ({six_sets}) and `_pdelta_type` <> \u0027upd\u0027 and `_pdelta_before` is not '
        'null",
      "problem": "a before-image on a row that is not `upd`",
      "hint": "only `upd` rows carry a before-image; emit `upd`, or NULL `_pdelta_before`"
    },
    {
      "rule": "feed-delk-key-only",
      "condition": "`_pdelta_type` = \u0027delk\u0027 and ({attrs_not_null})",
      "problem": "`delk` with a non-NULL attribute column (a partial delete carries only the key)",
      "hint": "emit `del` with the deleted row when it is known, else NULL the attributes"
    },
    {
      "rule": "feed-del-image",
      "condition": "`_pdelta_type` = \u0027del\u0027 and ({required_null})",
      "problem": "`del` without the deleted row (NULL in a column the state declares not null)",
      "hint": "a `del` carries the deleted row; emit `delk` when only the key is known"
    },
    {
      "rule": "feed-technique",
      "condition": "`_pdelta_type` in ({six_sets}) and `_pdelta_type` not in ({allowed_sets})",
      "problem": "a set the relation\u0027s declared technique cannot emit, even composed per key",
      "hint": "declare the technique that matches the feed (or `any`); `pdelta_unexpected_sets: warn` applies them '
        'anyway"
    }
  ],
  "other_checks": [
    {
      "rule": "feed-disjoint",
      "problem": "the same key more than once at one `_pdelta_seq` (the six sets of one sequence are disjoint on the '
        'key)",
      "hint": "emit one change per key and sequence (the net effect), or give later changes higher sequences"
    },
    {
      "rule": "feed-column-type",
      "problem": "a column whose type differs from the state\u0027s (or a `_pdelta_before` without a field of the '
        'state)",
      "hint": "write the feed with the state\u0027s column types; a refresh never casts a feed value silently"
    },
    {
      "rule": "feed-seq-null",
      "problem": "a NULL `_pdelta_seq` (no refresh ever reads such rows)",
      "hint": "give every row a bigint sequence above the ones already consumed"
    },
    {
      "rule": "feed-seq-behind",
      "problem": "a `_pdelta_seq` at or below one an earlier refresh already consumed (they landed late; no refresh '
        'reads them)",
      "hint": "give every change a sequence above the ones already consumed"
    },
    {
      "rule": "feed-rewritten",
      "problem": "fewer or different rows at or below the consumed `_pdelta_seq` than when it was consumed: the feed '
        'was rewritten or its sequences restarted",
      "hint": "keep consumed rows as they were (retention may delete whole feeds only with a full rebuild); rebuild '
        'with `dbt run --full-refresh`"
    },
    {
      "rule": "state-duplicate-key",
      "problem": "the same primary key in more than one row of the state",
      "hint": "fix the state so that its key is unique; the next run then refreshes normally"
    }
  ],
  "quarantinable": [
    "feed-type",
    "feed-key-null",
    "feed-upd-images",
    "feed-before-image",
    "feed-delk-key-only",
    "feed-del-image",
    "feed-technique",
    "feed-disjoint"
  ],
  "options": {
    "pdelta_bad_rows": {
      "values": [
        "stop",
        "quarantine"
      ],
      "expected": "\u0027stop\u0027 (a refresh meeting a row that breaks the feed contract writes nothing) or '
        '\u0027quarantine\u0027 (such rows go to <model>__pdelta_quarantine, the rest is applied)"
    },
    "pdelta_unexpected_sets": {
      "values": [
        "stop",
        "warn"
      ],
      "expected": "\u0027stop\u0027 (a row of a set the declared technique cannot emit is a bad row) or '
        '\u0027warn\u0027 (it is applied and the run log says so)"
    }
  },
  "technique_sets": {
    "audit_columns": [
      "ins",
      "del",
      "upd",
      "up",
      "delk"
    ],
    "log_based": [
      "ins",
      "del",
      "upd"
    ],
    "log_net_effect": [
      "del",
      "upd",
      "ups",
      "delk"
    ],
    "change_tracking": [
      "ins",
      "up",
      "ups",
      "delk"
    ],
    "snapshot_diff": [
      "ins",
      "del",
      "upd"
    ],
    "upsert_feed": [
      "ups",
      "delk"
    ],
    "any": [
      "ins",
      "del",
      "upd",
      "up",
      "ups",
      "delk"
    ],
    "debezium_postgres_default": [
      "ins",
      "up",
      "ups",
      "delk"
    ],
    "debezium_postgres_full": [
      "ins",
      "del",
      "upd",
      "ups",
      "delk"
    ],
    "debezium_mysql_minimal": [
      "ins",
      "up",
      "ups",
      "delk"
    ],
    "delta_cdf": [
      "ins",
      "del",
      "upd"
    ],
    "sqlserver_change_tracking": [
      "ins",
      "up",
      "ups",
      "delk"
    ],
    "sqlserver_cdc_net": [
      "del",
      "upd",
      "ups",
      "delk"
    ]
  }
}')) }}
{% endmacro %}
