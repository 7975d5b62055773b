{#- dbt's model contract, when the model enforces one: the build's SELECT must have the declared
    column names and types (dbt's own check, get_assert_columns_equivalent), checked before a full
    build writes anything; refreshes keep the build's columns. dbt ignores a contract's
    `constraints` on materializations other than its own (it warns at parse time). -#}
{% macro assert_contract(select_sql) %}
  {%- set contract = config.get('contract') -%}
  {%- if contract and contract.enforced -%}{{ get_assert_columns_equivalent(select_sql) }}{%- endif -%}
{% endmacro %}
