-- The paper's D with the default diff plan: the rows the batch reaches are recomputed and compared
-- with D, so its feed labels the same changes completely (ins 1, ins 4, upd 2, del 3 with Carl's row).
-- With paper_claim_self_maintainable: true it claims to be self-maintainable, which it is not (a new
-- customer joins an address the view may not hold): the package's data test must say so.
-- It keeps its complement (pdelta_complement, issue #21): with it the view gives back Cust and Addr as it reads them
-- (paper_complement: false switches the mode off, which drops it), each refresh from the rows its batch touches
-- (pdelta_complement_upkeep: batch; the default rebuilds it from the states).
{%- set view = paper_d_declaration() -%}
{{ config(materialized='dimension_view', pdelta=view, on_schema_change=var('paper_on_schema_change', 'ignore'),
          grants=var('paper_grants', {}), pdelta_self_maintainable=var('paper_claim_self_maintainable', false),
          pdelta_complement=var('paper_complement', true), pdelta_complement_upkeep='batch') }}
{{ pdelta.dimension_view(view) }}
