{#- Drop a view's stage (the staged batch: create_stage) and forget it in dbt's relation cache, so that a
    later `relation_exists` in the same run does not find it. `name`: the statement's name in dbt's log. -#}
{% macro drop_stage(stage, name='drop_stage') %}
  {%- call statement(name) -%}drop table if exists {{ stage }}{%- endcall -%}
  {%- do adapter.cache_dropped(stage) -%}
{% endmacro %}
