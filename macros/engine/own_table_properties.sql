{#- Delta table properties of the tables pdelta creates (a view, its change feed, its batch log),
    as name -> value. `delta.checkpointInterval` 100 instead of Delta's 10: a refresh commits about
    five versions over these tables, and Delta writes a checkpoint inside whichever statement makes
    every tenth, so about every second refresh paid one (0.85 s each on tiny tables, 1.05 s on a
    batch log `alter` at 1M rows, 2 cores). Readers lose nothing measurable: the first query of a
    new process on a table 99 commits past its checkpoint took 1.1 s against 1.7 s 9 commits past.
    A model's own `tblproperties` config overrides these on the view. -#}
{% macro own_table_properties() %}
  {{ return({'delta.checkpointInterval': '100'}) }}
{% endmacro %}

{#- own_table_properties() as a `tblproperties (...)` clause -#}
{% macro own_table_properties_clause() %}
  {%- set props = [] -%}
  {%- for name, value in pdelta.own_table_properties().items() -%}
    {%- do props.append(pdelta.sql_literal(name) ~ ' = ' ~ pdelta.sql_literal(value)) -%}
  {%- endfor -%}
  {{ return('tblproperties (' ~ props | join(', ') ~ ')') }}
{% endmacro %}
