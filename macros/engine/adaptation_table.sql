{#- What declaration_adaptation needs to know of a view's tables: its apply options (`opts`:
    apply_options) and, for a view with SCD2 history whose table exists, that table's columns
    (`history_columns`, lower-cased: one metadata read), which a column added back must not be in.
    A run that stopped while adapting to the same declaration (`blog`: batch_log_state; `declared`:
    declaration_record) may have added columns to the history already: the columns its mark kept
    (mark_adapting), read before it changed any, stand instead. history: the view's history relation. -#}
{% macro adaptation_table(opts, history, blog=none, declared=none) %}
  {%- set table = {} -%}
  {%- do table.update(opts) -%}
  {%- if opts['history'] and pdelta.relation_exists(history) -%}
    {%- set resumed = blog is not none and declared is not none and blog['adapting'] == declared['fingerprint']
                      and blog.get('adapting_history_columns') is not none -%}
    {%- do table.update({'history_columns': blog['adapting_history_columns'] if resumed
                         else pdelta._column_names('select * from ' ~ history ~ ' where false')}) -%}
  {%- endif -%}
  {{ return(table) }}
{% endmacro %}
