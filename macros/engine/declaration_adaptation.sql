{#- Whether a view whose declaration changed since it was built can be brought to the new one by
    its next refresh instead of a rebuild (issue #19; Nica & Rundensteiner, view adaptation after
    view synchronization: the old extent plus what is known about how the definition changed).

    Adapted: a change of predicates — a relation's `where` added, dropped, narrowed, widened or
    rewritten, on any relation, any number of them at once — with the root, key, relations,
    joins, states and feeds as they were built. The old and the new view then join the same rows;
    a row can be in one and not the other only
    where the two predicates disagree on a row of a relation whose predicate changed (NULL counts
    as false, as in a WHERE). The refresh's diff plan adds those rows' keys to the keys its batch
    reaches (diff_plan `adapt`), walks them up to the root like pending feed keys, recomputes the
    rows under the new declaration and diffs them with the view's: one batch, with the pending
    changes, published on the view's feed with before-images (`del` for rows that leave, `ins`
    for rows that come in), so views downstream refresh incrementally. Reading only those rows of
    the changed relation's state is what containment would save too: no predicate's SQL is parsed
    here, so a narrowing is not told from a rewrite, and both read the same rows.

    Output columns dropped or renamed (a relation column now output under another name): the
    rows keep their values, so no state is read and no row is written. On a Delta view (one
    without SCD2 history) the refresh drops and renames the columns of the view and of its change
    feed (the feed's before-image fields too) in the table metadata (adapt_view_columns: Delta
    column mapping), before its batch; the batch, with the pending changes and a changed
    predicate's rows, then runs as above and takes the new declaration in its commit.

    Not adapted (the view rebuilds, as before): output columns added, re-sourced (a name kept
    for another relation column: every row's value changes) or reordered, the last attribute
    dropped, columns changed on a view that is not Delta or keeps SCD2 history, relations joined
    in or removed, a changed join, key, root, state or feed.

    built_with: the declaration_record the batch log kept (none: not kept); running: the current
    one; table: the view's apply options (apply_options: its `format` and `history`), none to
    leave the table out. Returns {adapt: {alias: {old, new, change, disagree}} or none, columns:
    {dropped: [name], renamed: [[old, new]]} or none, why: the reason when both are none and the
    declarations differ}; `disagree` is the SQL condition on the relation's state columns that
    holds where the two predicates disagree. -#}
{% macro declaration_adaptation(built_with, running, table=none) %}
  {%- set none_adapted = {'adapt': none, 'columns': none, 'why': none} -%}
  {%- if built_with is none -%}{{ return(none_adapted) }}{%- endif -%}
  {%- set built, now = built_with['extent'], running['extent'] -%}
  {%- if pdelta._rows_defined(built) != pdelta._rows_defined(now) -%}
    {%- do none_adapted.update({'why': 'a change of predicates and output columns dropped or renamed are adapted, and'
                                       ~ ' this one changes more (relations, joins, keys, states or feeds)'}) -%}
    {{ return(none_adapted) }}
  {%- endif -%}
  {%- set changes = pdelta.output_column_changes(built['output'], now['output']) -%}
  {%- set attrs_now = now['output'] | map('first') | reject('in', now['key']) | list -%}
  {%- set refused = [] -%}
  {%- if changes['added'] -%}
    {%- do refused.append('columns added (' ~ changes['added'] | join(', ') ~ ') are not adapted yet') -%}
  {%- endif -%}
  {%- if changes['resourced'] -%}
    {%- do refused.append('columns taken from another relation column (' ~ changes['resourced'] | join(', ')
                          ~ ') change every row') -%}
  {%- endif -%}
  {%- if changes['recased'] -%}
    {%- do refused.append('a change of case only in a column name is not adapted') -%}
  {%- endif -%}
  {%- if not changes['order_kept'] -%}{%- do refused.append('the columns kept change their order') -%}{%- endif -%}
  {%- set columns = {'dropped': changes['dropped'], 'renamed': changes['renamed']}
                    if changes['dropped'] or changes['renamed'] else none -%}
  {%- if columns and not attrs_now -%}
    {%- do refused.append('the view would keep its key only') -%}
  {%- endif -%}
  {%- if columns and table is not none and table['format'] != 'delta' -%}
    {%- do refused.append('columns are dropped or renamed in place on Delta views only (this one is '
                          ~ table['format'] ~ ')') -%}
  {%- endif -%}
  {%- if columns and table is not none and table['history'] -%}
    {%- do refused.append('a view with SCD2 history rebuilds when its columns change') -%}
  {%- endif -%}
  {%- if refused -%}
    {%- do none_adapted.update({'why': refused | join('; ')}) -%}
    {{ return(none_adapted) }}
  {%- endif -%}
  {%- set adapt = {} -%}
  {%- for alias, r in now['relations'].items() if r['where'] != built['relations'][alias]['where'] -%}
    {%- set old = built['relations'][alias]['where'] -%}
    {%- do adapt.update({alias: {'old': old, 'new': r['where'],
          'change': 'added' if not old else ('dropped' if not r['where'] else 'changed'),
          'disagree': pdelta._passes(old) ~ ' <> ' ~ pdelta._passes(r['where'])}}) -%}
  {%- endfor -%}
  {{ return({'adapt': adapt or none, 'columns': columns, 'why': none}) }}
{% endmacro %}

{#- a declaration_record's extent without what adaptation handles (each relation's predicate and
    output columns, the view's output list), as JSON: what must stay for the view to be adapted -#}
{% macro _rows_defined(extent) %}
  {%- set relations = {} -%}
  {%- for alias, r in extent['relations'].items() -%}
    {%- set kept = {} -%}
    {%- for part, value in r.items() if part not in ['where', 'columns'] -%}
      {%- do kept.update({part: value}) -%}
    {%- endfor -%}
    {%- do relations.update({alias: kept}) -%}
  {%- endfor -%}
  {%- set rest = {} -%}
  {%- for part, value in extent.items() if part != 'output' -%}{%- do rest.update({part: value}) -%}{%- endfor -%}
  {%- do rest.update({'relations': relations}) -%}
  {{ return(tojson(rest, sort_keys=true)) }}
{% endmacro %}

{#- whether a state row passes a relation's predicate (none: every row does), NULL as false -#}
{% macro _passes(where) %}
  {{ return('true' if not where else 'coalesce((' ~ where ~ '), false)') }}
{% endmacro %}
