{#- Puts a plain view at a model's name before its first build (run by the test suite through
    `dbt run-operation`), as when a model that was a dbt `view` becomes a maintained relation. -#}
{% macro occupy_with_view(model_name) %}
  {%- call statement('occupy') -%}create or replace view {{ ref(model_name) }} as select 1 as `occupied`{%- endcall -%}
  {{ log('pdelta: ' ~ ref(model_name) ~ ' is now a view', info=true) }}
{% endmacro %}
