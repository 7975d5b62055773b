-- The paper's D under an enforced dbt model contract (column names and types in
-- _paper_models.yml): each full build checks the SELECT against the contract before it writes
-- anything. With paper_contract_break: true the contract declares `cname` an int, and the
-- build stops.
{%- set view = paper_d_declaration() -%}
{{ config(materialized='dimension_view', pdelta=view) }}
{{ pdelta.dimension_view(view) }}
