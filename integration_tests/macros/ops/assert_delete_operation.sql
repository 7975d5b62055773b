{#- Test-suite check (`dbt run-operation`): the last refresh of the model removed its batch's keys
    in the form `expected`, read from the Delta history of the model's table (the newest commit
    that is a DELETE or a MERGE):
      listed    a DELETE whose condition reads the keys from the summary variable's list
                (apply_delete_listed_keys_sql: `array_contains` in its predicate)
      subquery  a DELETE whose condition is an EXISTS over the stage (apply_delete_by_key_sql)
      MERGE     the delete-only MERGE (apply_delete_by_key_sql on Databricks)
    Raises when it is another form or there is none. -#}
{% macro assert_delete_operation(model_name, expected) %}
  {%- set relation = ref(model_name) -%}
  {%- set history = run_query('describe history ' ~ relation) -%}
  {%- set found = [] -%}
  {%- for row in history.rows if row['operation'] in ['DELETE', 'MERGE'] -%}
    {#- the commit's parameters (its predicate among them), as text whatever type the adapter gives -#}
    {%- set predicate = row['operationParameters'] | string | lower -%}
    {%- if row['operation'] == 'MERGE' -%}
      {%- do found.append('MERGE') -%}
    {%- elif 'array_contains' in predicate -%}
      {%- do found.append('listed') -%}
    {%- elif 'exists' in predicate -%}
      {%- do found.append('subquery') -%}
    {%- else -%}
      {%- do found.append('DELETE: ' ~ predicate) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if not found or found[0] != expected -%}
    {{ exceptions.raise_compiler_error('pdelta: the last delete of ' ~ relation ~ ' was ' ~ ((found or ['none'])[0])
                                       ~ ', expected ' ~ expected) }}
  {%- endif -%}
  {{ log('pdelta: ' ~ relation ~ ' removed its last batch\'s keys by ' ~ expected, info=true) }}
{% endmacro %}
