{#- The columns whose type a view's SCD2 history (`history`, existing) holds otherwise than the
    view's SELECT (`select_sql`) would give them, as phrases ("caddr: bigint in the history, string
    in the view"). The history outlives rebuilds and keeps its columns: a column of another type
    cannot take the new versions (Spark's store assignment refuses the cast), so a view with such a
    change stops before writing anything (refuse_history_type_change) and `pdelta validate --live`
    refuses it. Two metadata reads: the history's schema and the SELECT's (DESCRIBE QUERY). -#}
{% macro history_type_conflicts(history, select_sql) %}
  {%- set held = {} -%}
  {%- for c in adapter.get_columns_in_relation(history) -%}
    {%- do held.update({c.name | lower: c.dtype | lower}) -%}
  {%- endfor -%}
  {%- set out = [] -%}
  {%- for row in run_query('describe query ' ~ select_sql).rows -%}
    {%- set name, type = row[0] | lower, row[1] | lower -%}
    {%- if name in held and held[name] != type -%}
      {%- do out.append(name ~ ': ' ~ held[name] ~ ' in the history, ' ~ type ~ ' in the view') -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#- What stops a run of a view with SCD2 history (`history`) before it writes anything: the phrase
    for the columns the history cannot take (history_type_conflicts), or none. Checked only when
    the declaration is not the one the view was built with (`built_with`: the batch log's
    declaration_record or none; `declared`: this run's), since only a change of declaration
    changes the view's column types, and only where the history exists. -#}
{% macro history_type_stop(history, select_sql, built_with, declared) %}
  {%- if built_with is not none and built_with['fingerprint'] == declared['fingerprint'] -%}
    {{ return(none) }}
  {%- endif -%}
  {%- if not pdelta.relation_exists(history) -%}{{ return(none) }}{%- endif -%}
  {%- set conflicts = pdelta.history_type_conflicts(history, select_sql) -%}
  {{ return(pdelta.history_type_change_phrase(history, conflicts) if conflicts else none) }}
{% endmacro %}

{#- Stops a run (history_type_stop), before it writes anything, whose view's SCD2 history cannot
    take the view's columns, with what to do about it. -#}
{% macro refuse_history_type_change(model_name, history, select_sql, built_with, declared) %}
  {%- set stop = pdelta.history_type_stop(history, select_sql, built_with, declared) -%}
  {%- if stop -%}
    {{ exceptions.raise_compiler_error('pdelta: ' ~ model_name ~ ': ' ~ stop) }}
  {%- endif -%}
{% endmacro %}

{#- what history_type_stop says of such columns -#}
{% macro history_type_change_phrase(history, conflicts) %}
  {{ return('its SCD2 history ' ~ history ~ ' cannot take the new declaration\'s column types ('
            ~ conflicts | join('; ') ~ '): the run stops before writing anything. Output the column under another name'
            ~ ' (the history keeps the old one with its versions) or drop the history table to start a new one') }}
{% endmacro %}
