{#- What defines a dimension view's rows, from its normal form (normalize_declaration): the root,
    the key, the output columns and, per relation, its state, change feed, key, predicate, columns
    and join. The technique is left out: it says how the feed's rows are read, which a later
    refresh may change without touching the rows already built. Returns {v, fingerprint, extent};
    the full build keeps it in the batch log (record_batch `declaration`, property
    `pdelta.declaration`), and each refresh compares the declaration it runs with it
    (declaration_differences). `containment`: alias -> the relation's declared `containment` (how its
    rows relate to those of the relation it replaced: declaration_adaptation), outside the extent and
    the fingerprint, since it does not define the rows. -#}
{% macro declaration_record(view) %}
  {%- set relations = {} -%}
  {%- set containment = {} -%}
  {%- for alias, r in view['relations'].items() -%}
    {%- if r.get('containment') -%}{%- do containment.update({alias: r['containment']}) -%}{%- endif -%}
    {%- do relations.update({alias: {'state': r['state'] | string, 'changes': r['changes'] | string, 'key': r['key'],
                                     'where': r['where'], 'columns': r['columns'], 'join': r['join']}}) -%}
  {%- endfor -%}
  {%- set extent = {'root': view['root'], 'key': view['key'], 'output': view['output'], 'relations': relations} -%}
  {{ return({'v': 1, 'fingerprint': local_md5(tojson(extent, sort_keys=true)), 'extent': extent,
             'containment': containment}) }}
{% endmacro %}
