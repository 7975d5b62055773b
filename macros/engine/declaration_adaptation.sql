{#- Whether a view whose declaration changed since it was built can be brought to the new one by
    its next refresh instead of a rebuild (issue #19; Nica & Rundensteiner, view adaptation after
    view synchronization: the old extent plus what is known about how the definition changed).

    Adapted: a change of predicates only — a relation's `where` added, dropped, narrowed, widened
    or rewritten, on any relation, any number of them at once — with the root, key, output
    columns, relations, joins, states and feeds as they were built. The old and the new view then
    join the same rows and project the same columns; a row can be in one and not the other only
    where the two predicates disagree on a row of a relation whose predicate changed (NULL counts
    as false, as in a WHERE). The refresh's diff plan adds those rows' keys to the keys its batch
    reaches (diff_plan `adapt`), walks them up to the root like pending feed keys, recomputes the
    rows under the new declaration and diffs them with the view's: one batch, with the pending
    changes, published on the view's feed with before-images (`del` for rows that leave, `ins`
    for rows that come in), so views downstream refresh incrementally. Reading only those rows of
    the changed relation's state is what containment would save too: no predicate's SQL is parsed
    here, so a narrowing is not told from a rewrite, and both read the same rows.

    Not adapted (the view rebuilds, as before): output columns added, dropped or re-sourced (the
    table's columns change), relations joined in or removed, a changed join, key, state or feed.

    built_with: the declaration_record the batch log kept (none: not kept); running: the current
    one. Returns {adapt: {alias: {old, new, change, disagree}} or none, why: the reason when it is
    none and the declarations differ}; `disagree` is the SQL condition on the relation's state
    columns that holds where the two predicates disagree. -#}
{% macro declaration_adaptation(built_with, running) %}
  {%- if built_with is none -%}{{ return({'adapt': none, 'why': none}) }}{%- endif -%}
  {%- set built, now = built_with['extent'], running['extent'] -%}
  {%- if pdelta._without_predicates(built) != pdelta._without_predicates(now) -%}
    {{ return({'adapt': none, 'why': 'only a change of predicates is adapted, and this one changes more'}) }}
  {%- endif -%}
  {%- set adapt = {} -%}
  {%- for alias, r in now['relations'].items() if r['where'] != built['relations'][alias]['where'] -%}
    {%- set old = built['relations'][alias]['where'] -%}
    {%- do adapt.update({alias: {'old': old, 'new': r['where'],
          'change': 'added' if not old else ('dropped' if not r['where'] else 'changed'),
          'disagree': pdelta._passes(old) ~ ' <> ' ~ pdelta._passes(r['where'])}}) -%}
  {%- endfor -%}
  {{ return({'adapt': adapt or none, 'why': none}) }}
{% endmacro %}

{#- a declaration_record's extent with every relation's predicate left out, as JSON -#}
{% macro _without_predicates(extent) %}
  {%- set relations = {} -%}
  {%- for alias, r in extent['relations'].items() -%}
    {%- set kept = {} -%}
    {%- for part, value in r.items() if part != 'where' -%}{%- do kept.update({part: value}) -%}{%- endfor -%}
    {%- do relations.update({alias: kept}) -%}
  {%- endfor -%}
  {%- set rest = {} -%}
  {%- for part, value in extent.items() -%}{%- do rest.update({part: value}) -%}{%- endfor -%}
  {%- do rest.update({'relations': relations}) -%}
  {{ return(tojson(rest, sort_keys=true)) }}
{% endmacro %}

{#- whether a state row passes a relation's predicate (none: every row does), NULL as false -#}
{% macro _passes(where) %}
  {{ return('true' if not where else 'coalesce((' ~ where ~ '), false)') }}
{% endmacro %}
