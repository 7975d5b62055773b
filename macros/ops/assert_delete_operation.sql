{#- Test-suite check (`dbt run-operation`): the last refresh of the model removed its batch's keys
    with the operation `expected` (DELETE: the listed keys, apply_delete_listed_keys_sql; MERGE:
    the delete-only MERGE), read from the Delta history of the model's table: the newest commit
    that is a DELETE or a MERGE. Raises when it is the other one or there is none. -#}
{% macro assert_delete_operation(model_name, expected) %}
  {%- set relation = ref(model_name) -%}
  {%- set history = run_query('describe history ' ~ relation) -%}
  {%- set found = [] -%}
  {%- for op in history.columns['operation'].values() if op in ['DELETE', 'MERGE'] -%}
    {%- do found.append(op) -%}
  {%- endfor -%}
  {%- if not found or found[0] != expected -%}
    {{ exceptions.raise_compiler_error('pdelta: the last delete of ' ~ relation ~ ' was ' ~ ((found or ['none'])[0])
                                       ~ ', expected ' ~ expected) }}
  {%- endif -%}
  {{ log('pdelta: ' ~ relation ~ ' removed its last batch\'s keys with a ' ~ expected, info=true) }}
{% endmacro %}
