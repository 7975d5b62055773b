-- paper_d_reshaped with SCD2 history (every attribute tracked), reshaped by the same steps but one:
-- from Addr removed it goes straight to Addr joined in again with ACity output as `city` (a column its
-- history never held). The history keeps every version through each step, under the view's columns.
{%- set view = paper_d_declaration(reshapable=true, city='city') -%}
{{ config(materialized='dimension_view', pdelta=view, pdelta_history='scd2') }}
{{ pdelta.dimension_view(view) }}
