{%- set view = paper_d_declaration() -%}
{{ config(materialized='dimension_view', pdelta=view) }}
{{ pdelta.dimension_view(view) }}
