{#- make test's local lane: drops a view model's relation (a replaced relation gone from the warehouse) -#}
{% macro paper_drop_view(model_name) %}
  {%- call statement('paper_drop_view') -%}drop view if exists {{ ref(model_name) }}{%- endcall -%}
  {{ log('pdelta: ' ~ ref(model_name) ~ ' dropped', info=true) }}
{% endmacro %}
