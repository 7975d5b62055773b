{#- GENERATED from python/pdelta/algebra.py by `pdelta gen-macros`; do not edit.
    The six delta sets, the flags, Fig. 4/6 conversions, the flag functions s and j and
    the net-effect table, shared by the Jinja engine and the Python package. -#}
{% macro delta_model() %}
  {{ return(fromjson('{
  "six_sets": [
    "ins",
    "del",
    "upd",
    "up",
    "ups",
    "delk"
  ],
  "flags": [
    "pre",
    "comp",
    "up",
    "ups"
  ],
  "delete_flags": [
    "comp",
    "up",
    "ups"
  ],
  "encoding": {
    "ins": {
      "delta": true,
      "nabla_flag": null
    },
    "del": {
      "delta": false,
      "nabla_flag": "comp"
    },
    "upd": {
      "delta": true,
      "nabla_flag": "comp"
    },
    "up": {
      "delta": true,
      "nabla_flag": "up"
    },
    "ups": {
      "delta": true,
      "nabla_flag": "ups"
    },
    "delk": {
      "delta": false,
      "nabla_flag": "up"
    }
  },
  "before": {
    "ins": "absent",
    "del": "known",
    "upd": "known",
    "up": "present_unknown",
    "ups": "unknown",
    "delk": "unknown"
  },
  "after": {
    "ins": "present",
    "del": "absent",
    "upd": "present",
    "up": "present",
    "ups": "present",
    "delk": "absent"
  },
  "net": [
    [
      "absent",
      "absent",
      null
    ],
    [
      "absent",
      "present",
      "ins"
    ],
    [
      "known",
      "absent",
      "del"
    ],
    [
      "known",
      "present",
      "upd"
    ],
    [
      "present_unknown",
      "absent",
      "delk"
    ],
    [
      "present_unknown",
      "present",
      "up"
    ],
    [
      "unknown",
      "absent",
      "delk"
    ],
    [
      "unknown",
      "present",
      "ups"
    ]
  ],
  "s": {
    "pre": "pre",
    "comp": "comp",
    "up": "ups",
    "ups": "ups"
  },
  "j": {
    "pre,pre": "pre",
    "pre,comp": "comp",
    "pre,up": "up",
    "pre,ups": "ups",
    "comp,pre": "comp",
    "comp,comp": "comp",
    "comp,up": "up",
    "comp,ups": "ups"
  },
  "capture_formats": {
    "audit_columns": {
      "technique": "audit_columns",
      "records": [
        "ins",
        "up",
        "del"
      ],
      "sets": [
        "ins",
        "del",
        "up"
      ]
    },
    "log_based": {
      "technique": "log_based",
      "records": [
        "ins",
        "upd",
        "del"
      ],
      "sets": [
        "ins",
        "del",
        "upd"
      ]
    },
    "log_net_effect": {
      "technique": "log_net_effect",
      "records": [
        "ups",
        "del"
      ],
      "sets": [
        "del",
        "upd",
        "ups",
        "delk"
      ]
    },
    "change_tracking": {
      "technique": "change_tracking",
      "records": [
        "ins",
        "up",
        "delk"
      ],
      "sets": [
        "ins",
        "up",
        "ups",
        "delk"
      ]
    },
    "snapshot_diff": {
      "technique": "snapshot_diff",
      "records": [
        "ins",
        "upd",
        "del"
      ],
      "sets": [
        "ins",
        "del",
        "upd"
      ]
    },
    "debezium_postgres_default": {
      "technique": "change_tracking",
      "records": [
        "ins",
        "up",
        "ups",
        "delk"
      ],
      "sets": [
        "ins",
        "up",
        "ups",
        "delk"
      ]
    },
    "debezium_postgres_full": {
      "technique": "log_based",
      "records": [
        "ins",
        "upd",
        "ups",
        "del"
      ],
      "sets": [
        "ins",
        "del",
        "upd",
        "ups",
        "delk"
      ]
    },
    "debezium_mysql_minimal": {
      "technique": "change_tracking",
      "records": [
        "ins",
        "up",
        "ups",
        "delk"
      ],
      "sets": [
        "ins",
        "up",
        "ups",
        "delk"
      ]
    },
    "upsert_feed": {
      "technique": "upsert_feed",
      "records": [
        "ups",
        "delk"
      ],
      "sets": [
        "ups",
        "delk"
      ]
    },
    "delta_cdf": {
      "technique": "log_based",
      "records": [
        "ins",
        "upd",
        "del"
      ],
      "sets": [
        "ins",
        "del",
        "upd"
      ]
    },
    "sqlserver_change_tracking": {
      "technique": "change_tracking",
      "records": [
        "ins",
        "up",
        "delk"
      ],
      "sets": [
        "ins",
        "up",
        "ups",
        "delk"
      ]
    },
    "sqlserver_cdc_net": {
      "technique": "log_net_effect",
      "records": [
        "ups",
        "del"
      ],
      "sets": [
        "del",
        "upd",
        "ups",
        "delk"
      ]
    }
  },
  "quarantine_reasons": [
    "malformed_json",
    "unknown_operation",
    "null_key",
    "unknown_column",
    "cast_failed",
    "missing_image",
    "conflicting_duplicate",
    "late_event"
  ]
}')) }}
{% endmacro %}
