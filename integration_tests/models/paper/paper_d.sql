-- The paper's D maintained with its generalized delta rules, term by term (`pdelta_plan: rules`):
-- its feed publishes the paper's partial six-set output (Example 5: ins 4, ups 1, upd 2, delk 3).
{%- set view = paper_d_declaration() -%}
{{ config(materialized='dimension_view', pdelta=view, pdelta_plan='rules') }}
{{ pdelta.dimension_view(view) }}
