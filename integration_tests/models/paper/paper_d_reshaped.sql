-- The paper's D, reshaped after its build: ACountry dropped (paper_reshape: dropped), adapted by a
-- batch of no rows; then also CName output as customer_name and Dresden left out (paper_reshape:
-- renamed, paper_decl: narrowed), adapted in one batch: the column renamed in place, Dresden's rows
-- deleted; then Addr removed (unjoined), joined again as a filter (filtered) and ACity output again
-- (widened: a column added, filled from Addr's state). Equal to its recomputation after each.
{%- set view = paper_d_declaration(reshapable=true) -%}
{{ config(materialized='dimension_view', pdelta=view) }}
{{ pdelta.dimension_view(view) }}
