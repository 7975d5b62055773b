{#- Adds, drops, renames and reorders a dimension view's output columns in place (declaration_adaptation's
    `columns`): on the view and on its change feed, whose before-image struct `_pdelta_before`
    holds the same attributes. Delta does each in its table metadata (drops and renames once
    column mapping is on: `delta.columnMapping.mode` = name, which this sets on a table that has
    no mode yet: a metadata commit, no file rewritten), so the change costs a few commits whatever
    the view's size; rows keep their values, and an added column holds NULL until
    fill_added_columns fills it. An added column takes the type of the state column it comes from
    (`states`: alias -> relation) and its declared place (after the column before it). Columns
    reordered (`order`: every output column in the declared order) are moved into that order on the
    view and the feed (the before-image's fields too), after the rest; the history keeps its order.

    A view with SCD2 history (`history`: its history table, none without) adapts that table too,
    and loses none of it: a dropped column stays in the history (the versions before the drop keep
    their values, later versions hold NULL), a renamed one is renamed there too (every version keeps
    its value under the new name; where the history holds that name already, from a column dropped
    earlier, the old name stays with the older versions) and an added one is added (NULL in the
    versions before it: fill_added_columns gives the current versions the view's values).

    A column whose name changes its case only (`recased`: [[old, new]]) is renamed on all three in two
    steps, through a transient name (_recase_renames).

    Idempotent, for the run after a stop: a column that is already gone is not dropped again, a
    rename already made is not repeated and a column already there is not added (the tables'
    columns are read first, from their schemas: `select * ... where false` reads no row). A rename
    never takes a name the view had before (output_column_changes), so a later drop cannot hit a
    renamed column.
    Returns the names of the statements it ran. -#}
{% macro adapt_view_columns(target, feed, columns, states=none, history=none) %}
  {%- set q = adapter.quote -%}
  {%- set statements = [] -%}
  {%- set added = pdelta._added_column_definitions(columns.get('added', []), states) -%}
  {%- for table in [target, feed] + ([history] if history is not none else []) -%}
    {%- set named = pdelta._column_names('select * from ' ~ table ~ ' where false', lower=false) -%}
    {%- set present = named | map('lower') | list -%}
    {#- the history keeps the columns the view drops, with the values of the versions before -#}
    {%- set table_columns = columns if table != history else {'dropped': [], 'renamed': columns['renamed'],
                                                              'recased': columns.get('recased', [])} -%}
    {#- the feed's before-image fields: the view's attributes again -#}
    {%- set field_names = pdelta._column_names('select `_pdelta_before`.* from ' ~ table ~ ' where false', lower=false)
                          if table == feed else none -%}
    {%- set fields = field_names | map('lower') | list if field_names is not none else none -%}
    {%- set changes = [] -%}
    {%- set drops = [] -%}
    {%- for name in table_columns['dropped'] -%}
      {%- if name | lower in present -%}{%- do drops.append(q(name)) -%}{%- endif -%}
      {%- if fields is not none and name | lower in fields -%}
        {%- do drops.append('`_pdelta_before`.' ~ q(name)) -%}
      {%- endif -%}
    {%- endfor -%}
    {%- if drops -%}{%- do changes.append('drop columns (' ~ drops | join(', ') ~ ')') -%}{%- endif -%}
    {%- for pair in table_columns['renamed'] -%}
      {%- if pair[0] | lower in present and pair[1] | lower not in present -%}
        {%- do changes.append('rename column ' ~ q(pair[0]) ~ ' to ' ~ q(pair[1])) -%}
      {%- endif -%}
      {%- if fields is not none and pair[0] | lower in fields and pair[1] | lower not in fields -%}
        {%- do changes.append('rename column `_pdelta_before`.' ~ q(pair[0]) ~ ' to ' ~ q(pair[1])) -%}
      {%- endif -%}
    {%- endfor -%}
    {#- a name whose case alone changes: Spark refuses `rename column cname to CName` (the name exists,
        case-insensitively), so through a transient name; a run stopped between the two renames finds
        the transient one and makes the second -#}
    {%- for pair in table_columns.get('recased', []) -%}
      {%- do changes.extend(pdelta._recase_renames(named, pair[1])) -%}
      {%- if field_names is not none -%}
        {%- do changes.extend(pdelta._recase_renames(field_names, pair[1], '`_pdelta_before`.')) -%}
      {%- endif -%}
    {%- endfor -%}
    {#- Delta drops and renames columns only under column mapping; it adds them without -#}
    {%- set needs_mapping = changes | length > 0 -%}
    {#- the columns (and before-image fields) as the drops and renames above leave them, in order:
        where each added one goes -#}
    {%- set order = pdelta._columns_after(present, table_columns) -%}
    {%- set image = pdelta._columns_after(fields, table_columns) if fields is not none else none -%}
    {%- set adds = [] -%}
    {%- for col in added -%}
      {%- set name = col['name'] | lower -%}
      {%- if name not in order -%}
        {%- do adds.append(q(col['name']) ~ ' ' ~ col['type'] ~ pdelta._place(col['after'])) -%}
        {%- do order.insert(order.index(col['after'] | lower) + 1 if col['after'] is not none else 0, name) -%}
      {%- endif -%}
      {%- if image is not none and name not in image -%}
        {#- the before-image holds the attributes only: after the nearest one before it -#}
        {%- set before = order[:order.index(name)] | select('in', image) | list -%}
        {%- set after = before[-1] if before else none -%}
        {%- do adds.append('`_pdelta_before`.' ~ q(col['name']) ~ ' ' ~ col['type'] ~ pdelta._place(after)) -%}
        {%- do image.insert(image.index(after) + 1 if after is not none else 0, name) -%}
      {%- endif -%}
    {%- endfor -%}
    {%- if adds -%}{%- do changes.append('add columns (' ~ adds | join(', ') ~ ')') -%}{%- endif -%}
    {#- the declared order, on the view and its feed (and the before-image's fields): the history keeps its own -#}
    {%- if columns.get('order') and table != history -%}
      {%- do changes.extend(pdelta._column_moves(order, columns['order'])) -%}
      {%- if image is not none -%}
        {%- do changes.extend(pdelta._column_moves(image, columns['order'], '`_pdelta_before`.')) -%}
      {%- endif -%}
    {%- endif -%}
    {%- if changes -%}
      {%- set role = 'view' if table == target else ('feed' if table == feed else 'history') -%}
      {%- if needs_mapping -%}{%- do statements.extend(pdelta._column_mapping_on(table, role)) -%}{%- endif -%}
      {%- for change in changes -%}
        {%- call statement('adapt_columns_' ~ role ~ '_' ~ loop.index) -%}
          alter table {{ table }} {{ change }}
        {%- endcall -%}
        {%- do statements.append('adapt_columns_' ~ role ~ '_' ~ loop.index) -%}
      {%- endfor -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(statements) }}
{% endmacro %}

{#- each added column ([name, alias, source column, column before it], declaration_adaptation) as
    {name, type: the state column's, after: the output column before it or none} -#}
{% macro _added_column_definitions(added, states) %}
  {%- set out = [] -%}
  {%- set types_of = {} -%}
  {%- for col in added -%}
    {%- if col[1] not in types_of -%}
      {#- each state described once, however many columns come from it -#}
      {%- set described = {} -%}
      {%- for c in adapter.get_columns_in_relation(states[col[1]]) -%}
        {%- do described.update({c.name | lower: c.dtype}) -%}
      {%- endfor -%}
      {%- do types_of.update({col[1]: described}) -%}
    {%- endif -%}
    {%- set types = types_of[col[1]] -%}
    {%- if col[2] | lower not in types -%}
      {{ exceptions.raise_compiler_error('pdelta: column ' ~ col[2] ~ ' of relation ' ~ col[1] ~ ' (' ~ states[col[1]]
                                         ~ ') is not in its state, so column ' ~ col[0] ~ ' cannot be added') }}
    {%- endif -%}
    {%- do out.append({'name': col[0], 'type': types[col[2] | lower], 'after': col[3]}) -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#- The ALTER COLUMN clauses that put the columns `wanted` (names in the declared order) into that order among a
    table's columns `names` (lower-cased, in the table's order; changed in place as each move is made): each of
    them first or right after the one before it, moved only where it is not there already, so the columns of
    `names` not in `wanted` (a feed's bookkeeping columns) end up after them. `prefix`: a struct column's
    path for its fields (`_pdelta_before`.). A column's place is table metadata: Delta moves it without
    rewriting a row or needing column mapping. -#}
{% macro _column_moves(names, wanted, prefix='') %}
  {#- the wanted columns the table has (a before-image holds the attributes only) -#}
  {%- set placed = [] -%}
  {%- for name in wanted if name | lower in names -%}{%- do placed.append(name) -%}{%- endfor -%}
  {%- set moves = [] -%}
  {%- for name in placed -%}
    {%- set before = placed[loop.index0 - 1] if not loop.first else none -%}
    {%- set at = names.index(name | lower) -%}
    {%- if (before is none and at != 0) or (before is not none and (at == 0 or names[at - 1] != before | lower)) -%}
      {%- do names.pop(at) -%}
      {%- do names.insert(0 if before is none else names.index(before | lower) + 1, name | lower) -%}
      {%- do moves.append('alter column ' ~ prefix ~ adapter.quote(name) ~ ' '
                          ~ ('first' if before is none else 'after ' ~ adapter.quote(before))) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(moves) }}
{% endmacro %}

{#- The RENAME COLUMN clauses that give a table's column the name `name` where only its case differs
    (`names`: the table's column names as it has them; `prefix`: a struct column's path for its fields):
    none when the column has that name already or is not there, two through a transient name, or the
    second one alone when a run stopped after the first -#}
{% macro _recase_renames(names, name, prefix='') %}
  {%- set lowered = names | map('lower') | list -%}
  {%- set transient = '_pdelta_recased_' ~ name | lower -%}
  {%- set renames = [] -%}
  {%- if transient in lowered -%}
    {%- do renames.append('rename column ' ~ prefix ~ adapter.quote(transient) ~ ' to ' ~ adapter.quote(name)) -%}
  {%- elif name | lower in lowered and name not in names -%}
    {%- set held = names[lowered.index(name | lower)] -%}
    {%- do renames.append('rename column ' ~ prefix ~ adapter.quote(held) ~ ' to ' ~ adapter.quote(transient)) -%}
    {%- do renames.append('rename column ' ~ prefix ~ adapter.quote(transient) ~ ' to ' ~ adapter.quote(name)) -%}
  {%- endif -%}
  {{ return(renames) }}
{% endmacro %}

{#- lower-cased column names in order, with `columns`' drops and renames made -#}
{% macro _columns_after(names, columns) %}
  {%- set dropped = columns['dropped'] | map('lower') | list -%}
  {%- set new_name = {} -%}
  {%- for pair in columns['renamed'] -%}{%- do new_name.update({pair[0] | lower: pair[1] | lower}) -%}{%- endfor -%}
  {%- set out = [] -%}
  {%- for name in names if name not in dropped -%}{%- do out.append(new_name.get(name, name)) -%}{%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#- Delta drops and renames a table's columns only under column mapping: sets it (mode name, a
    metadata commit) on a table that has no mode yet. Returns the statement names it ran (none or
    `column_mapping_<role>`). -#}
{% macro _column_mapping_on(table, role) %}
  {%- if pdelta.table_properties(table).get('delta.columnMapping.mode', 'none') != 'none' -%}
    {{ return([]) }}
  {%- endif -%}
  {%- call statement('column_mapping_' ~ role) -%}
    alter table {{ table }} set tblproperties ('delta.columnMapping.mode' = 'name')
  {%- endcall -%}
  {{ return(['column_mapping_' ~ role]) }}
{% endmacro %}

{#- where ADD COLUMNS puts a column: after `after`, or first -#}
{% macro _place(after) %}
  {{ return(' after ' ~ adapter.quote(after) if after is not none else ' first') }}
{% endmacro %}

{#- the lower-cased column names of a query's result, read from its schema (as the result names them
    with `lower` false) -#}
{% macro _column_names(sql, lower=true) %}
  {%- set names = run_query(sql).column_names | list -%}
  {{ return(names | map('lower') | list if lower else names) }}
{% endmacro %}

{#- declaration_adaptation's `columns` for the log: "column acountry dropped, cname renamed customer_name" -#}
{% macro adapted_columns_phrase(columns) %}
  {%- set parts = [] -%}
  {%- for name in columns['dropped'] -%}{%- do parts.append(name ~ ' dropped') -%}{%- endfor -%}
  {%- for pair in columns['renamed'] + columns.get('recased', [])
        -%}{%- do parts.append(pair[0] ~ ' renamed ' ~ pair[1]) -%}{%- endfor -%}
  {%- for col in columns.get('added', []) -%}{%- do parts.append(col[0] ~ ' added') -%}{%- endfor -%}
  {%- set phrase = (('columns ' if parts | length > 1 else 'column ') ~ parts | join(', ')) if parts else '' -%}
  {%- if columns.get('order') -%}
    {%- set phrase = phrase ~ ('; ' if phrase else '') ~ 'columns reordered: ' ~ columns['order'] | join(', ') -%}
  {%- endif -%}
  {{ return(phrase) }}
{% endmacro %}

{#- why a view rebuilds after a run that marked its batch log (mark_adapting) and stopped, under
    another declaration than the one it adapted to: its columns are no longer the recorded ones -#}
{% macro stopped_adapting_phrase() %}
  {{ return('a run that stopped had changed its columns for another declaration') }}
{% endmacro %}
