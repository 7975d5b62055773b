{#- GENERATED from python/pdelta/maintainability.py by `pdelta gen-macros`; do not edit.
    The self-maintainability rule on every input (issue #21) and the sets a
    view's feed can hold: read by macros/engine/maintainability_verdicts.sql. -#}
{% macro maintainability_rules() %}
  {{ return(fromjson('{
  "rules": {
    "ins/1/1/1/1/1/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ins/1/1/1/1/1/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ins/1/1/1/1/0/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ins/1/1/1/1/0/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ins/1/1/1/0/1/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ins/1/1/1/0/1/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ins/1/1/1/0/0/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ins/1/1/1/0/0/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ins/1/1/0/1/1/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ins/1/1/0/1/1/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ins/1/1/0/1/0/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ins/1/1/0/1/0/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ins/1/1/0/0/1/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ins/1/1/0/0/1/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ins/1/1/0/0/0/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ins/1/1/0/0/0/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ins/1/0/1/1/1/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ins/1/0/1/1/1/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ins/1/0/1/1/0/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ins/1/0/1/1/0/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ins/1/0/1/0/1/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ins/1/0/1/0/1/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ins/1/0/1/0/0/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ins/1/0/1/0/0/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ins/1/0/0/1/1/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ins/1/0/0/1/1/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ins/1/0/0/1/0/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ins/1/0/0/1/0/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ins/1/0/0/0/1/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ins/1/0/0/0/1/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ins/1/0/0/0/0/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ins/1/0/0/0/0/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ins/0/1/1/1/1/1": {
      "needs": [],
      "why": [
        "covered_insert"
      ]
    },
    "ins/0/1/1/1/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_insert"
      ]
    },
    "ins/0/1/1/1/0/1": {
      "needs": [],
      "why": [
        "covered_insert"
      ]
    },
    "ins/0/1/1/1/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_insert"
      ]
    },
    "ins/0/1/1/0/1/1": {
      "needs": [],
      "why": [
        "covered_insert"
      ]
    },
    "ins/0/1/1/0/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_insert"
      ]
    },
    "ins/0/1/1/0/0/1": {
      "needs": [],
      "why": [
        "covered_insert"
      ]
    },
    "ins/0/1/1/0/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_insert"
      ]
    },
    "ins/0/1/0/1/1/1": {
      "needs": [],
      "why": [
        "covered_insert"
      ]
    },
    "ins/0/1/0/1/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_insert"
      ]
    },
    "ins/0/1/0/1/0/1": {
      "needs": [],
      "why": [
        "covered_insert"
      ]
    },
    "ins/0/1/0/1/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_insert"
      ]
    },
    "ins/0/1/0/0/1/1": {
      "needs": [],
      "why": [
        "covered_insert"
      ]
    },
    "ins/0/1/0/0/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_insert"
      ]
    },
    "ins/0/1/0/0/0/1": {
      "needs": [],
      "why": [
        "covered_insert"
      ]
    },
    "ins/0/1/0/0/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_insert"
      ]
    },
    "ins/0/0/1/1/1/1": {
      "needs": [],
      "why": [
        "covered_insert"
      ]
    },
    "ins/0/0/1/1/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_insert"
      ]
    },
    "ins/0/0/1/1/0/1": {
      "needs": [],
      "why": [
        "covered_insert"
      ]
    },
    "ins/0/0/1/1/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_insert"
      ]
    },
    "ins/0/0/1/0/1/1": {
      "needs": [],
      "why": [
        "covered_insert"
      ]
    },
    "ins/0/0/1/0/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_insert"
      ]
    },
    "ins/0/0/1/0/0/1": {
      "needs": [],
      "why": [
        "covered_insert"
      ]
    },
    "ins/0/0/1/0/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_insert"
      ]
    },
    "ins/0/0/0/1/1/1": {
      "needs": [],
      "why": [
        "covered_insert"
      ]
    },
    "ins/0/0/0/1/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_insert"
      ]
    },
    "ins/0/0/0/1/0/1": {
      "needs": [],
      "why": [
        "covered_insert"
      ]
    },
    "ins/0/0/0/1/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_insert"
      ]
    },
    "ins/0/0/0/0/1/1": {
      "needs": [],
      "why": [
        "covered_insert"
      ]
    },
    "ins/0/0/0/0/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_insert"
      ]
    },
    "ins/0/0/0/0/0/1": {
      "needs": [],
      "why": [
        "covered_insert"
      ]
    },
    "ins/0/0/0/0/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_insert"
      ]
    },
    "del/1/1/1/1/1/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/1/1/1/1/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/1/1/1/0/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/1/1/1/0/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/1/1/0/1/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/1/1/0/1/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/1/1/0/0/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/1/1/0/0/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/1/0/1/1/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/1/0/1/1/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/1/0/1/0/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/1/0/1/0/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/1/0/0/1/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/1/0/0/1/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/1/0/0/0/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/1/0/0/0/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/0/1/1/1/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/0/1/1/1/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/0/1/1/0/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/0/1/1/0/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/0/1/0/1/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/0/1/0/1/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/0/1/0/0/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/0/1/0/0/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/0/0/1/1/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/0/0/1/1/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/0/0/1/0/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/0/0/1/0/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/0/0/0/1/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/0/0/0/1/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/0/0/0/0/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/1/0/0/0/0/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "del/0/1/1/1/1/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "del/0/1/1/1/1/0": {
      "needs": [],
      "why": [
        "key_retained"
      ]
    },
    "del/0/1/1/1/0/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "del/0/1/1/1/0/0": {
      "needs": [],
      "why": [
        "key_retained"
      ]
    },
    "del/0/1/1/0/1/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "del/0/1/1/0/1/0": {
      "needs": [
        "join_key"
      ],
      "why": [
        "key_projected_away"
      ]
    },
    "del/0/1/1/0/0/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "del/0/1/1/0/0/0": {
      "needs": [
        "join_key"
      ],
      "why": [
        "key_projected_away"
      ]
    },
    "del/0/1/0/1/1/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "del/0/1/0/1/1/0": {
      "needs": [],
      "why": [
        "key_retained"
      ]
    },
    "del/0/1/0/1/0/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "del/0/1/0/1/0/0": {
      "needs": [],
      "why": [
        "key_retained"
      ]
    },
    "del/0/1/0/0/1/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "del/0/1/0/0/1/0": {
      "needs": [
        "join_key"
      ],
      "why": [
        "key_projected_away"
      ]
    },
    "del/0/1/0/0/0/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "del/0/1/0/0/0/0": {
      "needs": [
        "join_key"
      ],
      "why": [
        "key_projected_away"
      ]
    },
    "del/0/0/1/1/1/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "del/0/0/1/1/1/0": {
      "needs": [],
      "why": [
        "key_retained"
      ]
    },
    "del/0/0/1/1/0/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "del/0/0/1/1/0/0": {
      "needs": [],
      "why": [
        "key_retained"
      ]
    },
    "del/0/0/1/0/1/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "del/0/0/1/0/1/0": {
      "needs": [
        "join_key"
      ],
      "why": [
        "key_projected_away"
      ]
    },
    "del/0/0/1/0/0/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "del/0/0/1/0/0/0": {
      "needs": [
        "join_key"
      ],
      "why": [
        "key_projected_away"
      ]
    },
    "del/0/0/0/1/1/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "del/0/0/0/1/1/0": {
      "needs": [],
      "why": [
        "key_retained"
      ]
    },
    "del/0/0/0/1/0/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "del/0/0/0/1/0/0": {
      "needs": [],
      "why": [
        "key_retained"
      ]
    },
    "del/0/0/0/0/1/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "del/0/0/0/0/1/0": {
      "needs": [
        "join_key"
      ],
      "why": [
        "key_projected_away"
      ]
    },
    "del/0/0/0/0/0/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "del/0/0/0/0/0/0": {
      "needs": [
        "join_key"
      ],
      "why": [
        "key_projected_away"
      ]
    },
    "upd/1/1/1/1/1/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "upd/1/1/1/1/1/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "upd/1/1/1/1/0/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "upd/1/1/1/1/0/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "upd/1/1/1/0/1/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "upd/1/1/1/0/1/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "upd/1/1/1/0/0/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "upd/1/1/1/0/0/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "upd/1/1/0/1/1/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "upd/1/1/0/1/1/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "upd/1/1/0/1/0/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "upd/1/1/0/1/0/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "upd/1/1/0/0/1/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "upd/1/1/0/0/1/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "upd/1/1/0/0/0/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "upd/1/1/0/0/0/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "upd/1/0/1/1/1/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "upd/1/0/1/1/1/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "upd/1/0/1/1/0/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "upd/1/0/1/1/0/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "upd/1/0/1/0/1/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "upd/1/0/1/0/1/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "upd/1/0/1/0/0/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "upd/1/0/1/0/0/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "upd/1/0/0/1/1/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "upd/1/0/0/1/1/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "upd/1/0/0/1/0/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "upd/1/0/0/1/0/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "upd/1/0/0/0/1/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "upd/1/0/0/0/1/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "upd/1/0/0/0/0/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "upd/1/0/0/0/0/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "upd/0/1/1/1/1/1": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed",
        "foreign_key_moves"
      ]
    },
    "upd/0/1/1/1/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed",
        "foreign_key_moves"
      ]
    },
    "upd/0/1/1/1/0/1": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed",
        "foreign_key_moves"
      ]
    },
    "upd/0/1/1/1/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed",
        "foreign_key_moves"
      ]
    },
    "upd/0/1/1/0/1/1": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed",
        "foreign_key_moves"
      ]
    },
    "upd/0/1/1/0/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed",
        "foreign_key_moves"
      ]
    },
    "upd/0/1/1/0/0/1": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed",
        "foreign_key_moves"
      ]
    },
    "upd/0/1/1/0/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed",
        "foreign_key_moves"
      ]
    },
    "upd/0/1/0/1/1/1": {
      "needs": [
        "others"
      ],
      "why": [
        "foreign_key_moves"
      ]
    },
    "upd/0/1/0/1/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "foreign_key_moves"
      ]
    },
    "upd/0/1/0/1/0/1": {
      "needs": [
        "others"
      ],
      "why": [
        "foreign_key_moves"
      ]
    },
    "upd/0/1/0/1/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "foreign_key_moves"
      ]
    },
    "upd/0/1/0/0/1/1": {
      "needs": [
        "others"
      ],
      "why": [
        "foreign_key_moves"
      ]
    },
    "upd/0/1/0/0/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "foreign_key_moves"
      ]
    },
    "upd/0/1/0/0/0/1": {
      "needs": [
        "others"
      ],
      "why": [
        "foreign_key_moves"
      ]
    },
    "upd/0/1/0/0/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "foreign_key_moves"
      ]
    },
    "upd/0/0/1/1/1/1": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed"
      ]
    },
    "upd/0/0/1/1/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed"
      ]
    },
    "upd/0/0/1/1/0/1": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed"
      ]
    },
    "upd/0/0/1/1/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed"
      ]
    },
    "upd/0/0/1/0/1/1": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed"
      ]
    },
    "upd/0/0/1/0/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed"
      ]
    },
    "upd/0/0/1/0/0/1": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed"
      ]
    },
    "upd/0/0/1/0/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed"
      ]
    },
    "upd/0/0/0/1/1/1": {
      "needs": [],
      "why": [
        "unexposed_update"
      ]
    },
    "upd/0/0/0/1/1/0": {
      "needs": [],
      "why": [
        "unexposed_update"
      ]
    },
    "upd/0/0/0/1/0/1": {
      "needs": [],
      "why": [
        "irrelevant_update"
      ]
    },
    "upd/0/0/0/1/0/0": {
      "needs": [],
      "why": [
        "irrelevant_update"
      ]
    },
    "upd/0/0/0/0/1/1": {
      "needs": [
        "join_key"
      ],
      "why": [
        "key_projected_away"
      ]
    },
    "upd/0/0/0/0/1/0": {
      "needs": [
        "join_key"
      ],
      "why": [
        "key_projected_away"
      ]
    },
    "upd/0/0/0/0/0/1": {
      "needs": [],
      "why": [
        "irrelevant_update"
      ]
    },
    "upd/0/0/0/0/0/0": {
      "needs": [],
      "why": [
        "irrelevant_update"
      ]
    },
    "up/1/1/1/1/1/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "up/1/1/1/1/1/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "up/1/1/1/1/0/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "up/1/1/1/1/0/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "up/1/1/1/0/1/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "up/1/1/1/0/1/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "up/1/1/1/0/0/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "up/1/1/1/0/0/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "up/1/1/0/1/1/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "up/1/1/0/1/1/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "up/1/1/0/1/0/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "up/1/1/0/1/0/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "up/1/1/0/0/1/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "up/1/1/0/0/1/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "up/1/1/0/0/0/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "up/1/1/0/0/0/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "up/1/0/1/1/1/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "up/1/0/1/1/1/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "up/1/0/1/1/0/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "up/1/0/1/1/0/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "up/1/0/1/0/1/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "up/1/0/1/0/1/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "up/1/0/1/0/0/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "up/1/0/1/0/0/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "up/1/0/0/1/1/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "up/1/0/0/1/1/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "up/1/0/0/1/0/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "up/1/0/0/1/0/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "up/1/0/0/0/1/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "up/1/0/0/0/1/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "up/1/0/0/0/0/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "up/1/0/0/0/0/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "up/0/1/1/1/1/1": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed",
        "foreign_key_moves"
      ]
    },
    "up/0/1/1/1/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed",
        "foreign_key_moves"
      ]
    },
    "up/0/1/1/1/0/1": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed",
        "foreign_key_moves"
      ]
    },
    "up/0/1/1/1/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed",
        "foreign_key_moves"
      ]
    },
    "up/0/1/1/0/1/1": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed",
        "foreign_key_moves"
      ]
    },
    "up/0/1/1/0/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed",
        "foreign_key_moves"
      ]
    },
    "up/0/1/1/0/0/1": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed",
        "foreign_key_moves"
      ]
    },
    "up/0/1/1/0/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed",
        "foreign_key_moves"
      ]
    },
    "up/0/1/0/1/1/1": {
      "needs": [
        "others"
      ],
      "why": [
        "foreign_key_moves"
      ]
    },
    "up/0/1/0/1/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "foreign_key_moves"
      ]
    },
    "up/0/1/0/1/0/1": {
      "needs": [
        "others"
      ],
      "why": [
        "foreign_key_moves"
      ]
    },
    "up/0/1/0/1/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "foreign_key_moves"
      ]
    },
    "up/0/1/0/0/1/1": {
      "needs": [
        "others"
      ],
      "why": [
        "foreign_key_moves"
      ]
    },
    "up/0/1/0/0/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "foreign_key_moves"
      ]
    },
    "up/0/1/0/0/0/1": {
      "needs": [
        "others"
      ],
      "why": [
        "foreign_key_moves"
      ]
    },
    "up/0/1/0/0/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "foreign_key_moves"
      ]
    },
    "up/0/0/1/1/1/1": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed"
      ]
    },
    "up/0/0/1/1/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed"
      ]
    },
    "up/0/0/1/1/0/1": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed"
      ]
    },
    "up/0/0/1/1/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed"
      ]
    },
    "up/0/0/1/0/1/1": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed"
      ]
    },
    "up/0/0/1/0/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed"
      ]
    },
    "up/0/0/1/0/0/1": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed"
      ]
    },
    "up/0/0/1/0/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed"
      ]
    },
    "up/0/0/0/1/1/1": {
      "needs": [],
      "why": [
        "unexposed_update"
      ]
    },
    "up/0/0/0/1/1/0": {
      "needs": [],
      "why": [
        "unexposed_update"
      ]
    },
    "up/0/0/0/1/0/1": {
      "needs": [],
      "why": [
        "irrelevant_update"
      ]
    },
    "up/0/0/0/1/0/0": {
      "needs": [],
      "why": [
        "irrelevant_update"
      ]
    },
    "up/0/0/0/0/1/1": {
      "needs": [
        "join_key"
      ],
      "why": [
        "key_projected_away"
      ]
    },
    "up/0/0/0/0/1/0": {
      "needs": [
        "join_key"
      ],
      "why": [
        "key_projected_away"
      ]
    },
    "up/0/0/0/0/0/1": {
      "needs": [],
      "why": [
        "irrelevant_update"
      ]
    },
    "up/0/0/0/0/0/0": {
      "needs": [],
      "why": [
        "irrelevant_update"
      ]
    },
    "ups/1/1/1/1/1/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ups/1/1/1/1/1/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ups/1/1/1/1/0/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ups/1/1/1/1/0/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ups/1/1/1/0/1/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ups/1/1/1/0/1/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ups/1/1/1/0/0/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ups/1/1/1/0/0/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ups/1/1/0/1/1/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ups/1/1/0/1/1/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ups/1/1/0/1/0/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ups/1/1/0/1/0/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ups/1/1/0/0/1/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ups/1/1/0/0/1/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ups/1/1/0/0/0/1": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ups/1/1/0/0/0/0": {
      "needs": [
        "descendants"
      ],
      "why": [
        "root_joins"
      ]
    },
    "ups/1/0/1/1/1/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ups/1/0/1/1/1/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ups/1/0/1/1/0/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ups/1/0/1/1/0/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ups/1/0/1/0/1/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ups/1/0/1/0/1/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ups/1/0/1/0/0/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ups/1/0/1/0/0/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ups/1/0/0/1/1/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ups/1/0/0/1/1/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ups/1/0/0/1/0/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ups/1/0/0/1/0/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ups/1/0/0/0/1/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ups/1/0/0/0/1/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ups/1/0/0/0/0/1": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ups/1/0/0/0/0/0": {
      "needs": [],
      "why": [
        "sp_view"
      ]
    },
    "ups/0/1/1/1/1/1": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed",
        "foreign_key_moves"
      ]
    },
    "ups/0/1/1/1/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_upsert"
      ]
    },
    "ups/0/1/1/1/0/1": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed",
        "foreign_key_moves"
      ]
    },
    "ups/0/1/1/1/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_upsert"
      ]
    },
    "ups/0/1/1/0/1/1": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed",
        "foreign_key_moves"
      ]
    },
    "ups/0/1/1/0/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_upsert"
      ]
    },
    "ups/0/1/1/0/0/1": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed",
        "foreign_key_moves"
      ]
    },
    "ups/0/1/1/0/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_upsert"
      ]
    },
    "ups/0/1/0/1/1/1": {
      "needs": [
        "others"
      ],
      "why": [
        "foreign_key_moves"
      ]
    },
    "ups/0/1/0/1/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_upsert"
      ]
    },
    "ups/0/1/0/1/0/1": {
      "needs": [
        "others"
      ],
      "why": [
        "foreign_key_moves"
      ]
    },
    "ups/0/1/0/1/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_upsert"
      ]
    },
    "ups/0/1/0/0/1/1": {
      "needs": [
        "others"
      ],
      "why": [
        "foreign_key_moves"
      ]
    },
    "ups/0/1/0/0/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_upsert"
      ]
    },
    "ups/0/1/0/0/0/1": {
      "needs": [
        "others"
      ],
      "why": [
        "foreign_key_moves"
      ]
    },
    "ups/0/1/0/0/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_upsert"
      ]
    },
    "ups/0/0/1/1/1/1": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed"
      ]
    },
    "ups/0/0/1/1/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_upsert"
      ]
    },
    "ups/0/0/1/1/0/1": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed"
      ]
    },
    "ups/0/0/1/1/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_upsert"
      ]
    },
    "ups/0/0/1/0/1/1": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed"
      ]
    },
    "ups/0/0/1/0/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_upsert"
      ]
    },
    "ups/0/0/1/0/0/1": {
      "needs": [
        "others"
      ],
      "why": [
        "predicate_exposed"
      ]
    },
    "ups/0/0/1/0/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_upsert"
      ]
    },
    "ups/0/0/0/1/1/1": {
      "needs": [],
      "why": [
        "unexposed_update"
      ]
    },
    "ups/0/0/0/1/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_upsert"
      ]
    },
    "ups/0/0/0/1/0/1": {
      "needs": [],
      "why": [
        "irrelevant_update"
      ]
    },
    "ups/0/0/0/1/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_upsert"
      ]
    },
    "ups/0/0/0/0/1/1": {
      "needs": [
        "join_key"
      ],
      "why": [
        "key_projected_away"
      ]
    },
    "ups/0/0/0/0/1/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_upsert"
      ]
    },
    "ups/0/0/0/0/0/1": {
      "needs": [],
      "why": [
        "irrelevant_update"
      ]
    },
    "ups/0/0/0/0/0/0": {
      "needs": [
        "others"
      ],
      "why": [
        "child_upsert"
      ]
    },
    "delk/1/1/1/1/1/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/1/1/1/1/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/1/1/1/0/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/1/1/1/0/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/1/1/0/1/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/1/1/0/1/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/1/1/0/0/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/1/1/0/0/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/1/0/1/1/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/1/0/1/1/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/1/0/1/0/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/1/0/1/0/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/1/0/0/1/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/1/0/0/1/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/1/0/0/0/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/1/0/0/0/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/0/1/1/1/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/0/1/1/1/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/0/1/1/0/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/0/1/1/0/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/0/1/0/1/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/0/1/0/1/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/0/1/0/0/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/0/1/0/0/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/0/0/1/1/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/0/0/1/1/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/0/0/1/0/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/0/0/1/0/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/0/0/0/1/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/0/0/0/1/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/0/0/0/0/1": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/1/0/0/0/0/0": {
      "needs": [],
      "why": [
        "root_delete"
      ]
    },
    "delk/0/1/1/1/1/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "delk/0/1/1/1/1/0": {
      "needs": [],
      "why": [
        "key_retained"
      ]
    },
    "delk/0/1/1/1/0/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "delk/0/1/1/1/0/0": {
      "needs": [],
      "why": [
        "key_retained"
      ]
    },
    "delk/0/1/1/0/1/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "delk/0/1/1/0/1/0": {
      "needs": [
        "join_key"
      ],
      "why": [
        "key_projected_away"
      ]
    },
    "delk/0/1/1/0/0/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "delk/0/1/1/0/0/0": {
      "needs": [
        "join_key"
      ],
      "why": [
        "key_projected_away"
      ]
    },
    "delk/0/1/0/1/1/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "delk/0/1/0/1/1/0": {
      "needs": [],
      "why": [
        "key_retained"
      ]
    },
    "delk/0/1/0/1/0/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "delk/0/1/0/1/0/0": {
      "needs": [],
      "why": [
        "key_retained"
      ]
    },
    "delk/0/1/0/0/1/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "delk/0/1/0/0/1/0": {
      "needs": [
        "join_key"
      ],
      "why": [
        "key_projected_away"
      ]
    },
    "delk/0/1/0/0/0/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "delk/0/1/0/0/0/0": {
      "needs": [
        "join_key"
      ],
      "why": [
        "key_projected_away"
      ]
    },
    "delk/0/0/1/1/1/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "delk/0/0/1/1/1/0": {
      "needs": [],
      "why": [
        "key_retained"
      ]
    },
    "delk/0/0/1/1/0/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "delk/0/0/1/1/0/0": {
      "needs": [],
      "why": [
        "key_retained"
      ]
    },
    "delk/0/0/1/0/1/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "delk/0/0/1/0/1/0": {
      "needs": [
        "join_key"
      ],
      "why": [
        "key_projected_away"
      ]
    },
    "delk/0/0/1/0/0/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "delk/0/0/1/0/0/0": {
      "needs": [
        "join_key"
      ],
      "why": [
        "key_projected_away"
      ]
    },
    "delk/0/0/0/1/1/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "delk/0/0/0/1/1/0": {
      "needs": [],
      "why": [
        "key_retained"
      ]
    },
    "delk/0/0/0/1/0/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "delk/0/0/0/1/0/0": {
      "needs": [],
      "why": [
        "key_retained"
      ]
    },
    "delk/0/0/0/0/1/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "delk/0/0/0/0/1/0": {
      "needs": [
        "join_key"
      ],
      "why": [
        "key_projected_away"
      ]
    },
    "delk/0/0/0/0/0/1": {
      "needs": [],
      "why": [
        "covered_delete"
      ]
    },
    "delk/0/0/0/0/0/0": {
      "needs": [
        "join_key"
      ],
      "why": [
        "key_projected_away"
      ]
    }
  },
  "why": {
    "root_delete": "the root key is an output column: the deleted key names the one view row to delete (deletions: the '
      'key is retained)",
    "sp_view": "the view joins nothing (an SP view): the new image alone decides whether and how its row is in the '
      'view",
    "root_joins": "the new image joins {descendants} rows the view may not hold (rows no view row references yet)",
    "child_insert": "{parent} rows whose foreign key named no {alias} row were dropped by the inner join and are not '
      'in the view; a new {alias} row joins them (no inclusion dependency {parent} -> {alias})",
    "child_upsert": "an upsert may be an insert: {parent} rows whose foreign key named no {alias} row were dropped by '
      'the inner join and are not in the view; the new image joins them",
    "covered_insert": "the inclusion dependency {parent}.{fk} -> {alias}.{key} (a relationships test) means no '
      '{parent} row names a new key: an insert changes no view row",
    "covered_delete": "the inclusion dependency {parent}.{fk} -> {alias}.{key} (a relationships test) means no '
      '{parent} row names a key that can be deleted: a delete changes no view row",
    "key_retained": "the join key ({join}) is an output column: the changed key names the view rows it reaches (the '
      'key is retained)",
    "key_projected_away": "neither {join_sides} is an output column: the view cannot tell which of its rows join the '
      'changed key",
    "predicate_exposed": "the update is exposed to {alias}\u0027s predicate: an old image that failed it joined no '
      'view row, the new one may pass and join {parent} rows the view does not hold",
    "foreign_key_moves": "the new image\u0027s foreign key may name another {descendants} row: one the view does not '
      'hold, or one that lets {parent} rows the inner join dropped for the old image join",
    "irrelevant_update": "{alias} has no predicate, joins nothing further and shows no column but its key: an update '
      'of it changes no view row (updates: unexposed, not distinguished attributes)",
    "unexposed_update": "no predicate on {alias} and nothing joined from it: the view rows found by the key take the '
      'new image\u0027s columns (updates: unexposed attributes, key retained)"
  },
  "view_feed_sets": {
    "diff": [
      "ins",
      "del",
      "upd"
    ],
    "rules": [
      "ins",
      "del",
      "upd",
      "up",
      "ups",
      "delk"
    ]
  }
}')) }}
{% endmacro %}
