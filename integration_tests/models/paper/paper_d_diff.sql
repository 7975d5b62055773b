-- The paper's D with the default diff plan: the rows the batch reaches are recomputed and compared
-- with D, so its feed labels the same changes completely (ins 1, ins 4, upd 2, del 3 with Carl's row).
{%- set view = paper_d_declaration() -%}
{{ config(materialized='dimension_view', pdelta=view, on_schema_change=var('paper_on_schema_change', 'ignore'),
          grants=var('paper_grants', {})) }}
{{ pdelta.dimension_view(view) }}
