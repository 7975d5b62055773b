{#- Drops and renames a dimension view's output columns in place (declaration_adaptation's
    `columns`): on the view and on its change feed, whose before-image struct `_pdelta_before`
    holds the same attributes. Delta does both in its table metadata once column mapping is on
    (`delta.columnMapping.mode` = name, which this sets on a table that has no mode yet: a
    metadata commit, no file rewritten), so the change costs a few commits whatever the view's
    size; rows keep their values, so no state is read and nothing is published on the feed.

    Idempotent, for the run after a stop: a column that is already gone is not dropped again and
    a rename already made is not repeated (the tables' columns are read first, from their schemas:
    `select * ... where false` reads no row). A rename never takes a name the view had before
    (output_column_changes), so a later drop cannot hit a renamed column.
    Returns the names of the statements it ran. -#}
{% macro adapt_view_columns(target, feed, columns) %}
  {%- set q = adapter.quote -%}
  {%- set statements = [] -%}
  {%- for table in [target, feed] -%}
    {%- set present = pdelta._column_names('select * from ' ~ table ~ ' where false') -%}
    {#- the feed's before-image fields: the view's attributes again -#}
    {%- set fields = pdelta._column_names('select `_pdelta_before`.* from ' ~ table ~ ' where false')
                     if table == feed else none -%}
    {%- set changes = [] -%}
    {%- set drops = [] -%}
    {%- for name in columns['dropped'] -%}
      {%- if name | lower in present -%}{%- do drops.append(q(name)) -%}{%- endif -%}
      {%- if fields is not none and name | lower in fields -%}
        {%- do drops.append('`_pdelta_before`.' ~ q(name)) -%}
      {%- endif -%}
    {%- endfor -%}
    {%- if drops -%}{%- do changes.append('drop columns (' ~ drops | join(', ') ~ ')') -%}{%- endif -%}
    {%- for pair in columns['renamed'] -%}
      {%- if pair[0] | lower in present and pair[1] | lower not in present -%}
        {%- do changes.append('rename column ' ~ q(pair[0]) ~ ' to ' ~ q(pair[1])) -%}
      {%- endif -%}
      {%- if fields is not none and pair[0] | lower in fields and pair[1] | lower not in fields -%}
        {%- do changes.append('rename column `_pdelta_before`.' ~ q(pair[0]) ~ ' to ' ~ q(pair[1])) -%}
      {%- endif -%}
    {%- endfor -%}
    {%- if changes -%}
      {%- set role = 'view' if table == target else 'feed' -%}
      {%- if pdelta.table_properties(table).get('delta.columnMapping.mode', 'none') == 'none' -%}
        {%- call statement('column_mapping_' ~ role) -%}
          alter table {{ table }} set tblproperties ('delta.columnMapping.mode' = 'name')
        {%- endcall -%}
        {%- do statements.append('column_mapping_' ~ role) -%}
      {%- endif -%}
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

{#- the lower-cased column names of a query's result, read from its schema -#}
{% macro _column_names(sql) %}
  {{ return(run_query(sql).column_names | map('lower') | list) }}
{% endmacro %}

{#- declaration_adaptation's `columns` for the log: "column acountry dropped, cname renamed customer_name" -#}
{% macro adapted_columns_phrase(columns) %}
  {%- set parts = [] -%}
  {%- for name in columns['dropped'] -%}{%- do parts.append(name ~ ' dropped') -%}{%- endfor -%}
  {%- for pair in columns['renamed'] -%}{%- do parts.append(pair[0] ~ ' renamed ' ~ pair[1]) -%}{%- endfor -%}
  {{ return(('columns ' if parts | length > 1 else 'column ') ~ parts | join(', ')) }}
{% endmacro %}

{#- why a view rebuilds after a run that marked its batch log (mark_adapting) and stopped, under
    another declaration than the one it adapted to: its columns are no longer the recorded ones -#}
{% macro stopped_adapting_phrase() %}
  {{ return('a run that stopped had changed its columns for another declaration') }}
{% endmacro %}
