-- The paper's D whose Addr is replaced after its build (paper_replace): by paper_addr_moved, declared
-- equal to it (Adam's move, pending in Addr's feed, is read from that feed); then by paper_addr_moved_west,
-- declared a subset (Dresden's rows leave); then, with paper_addr_moved_west gone, by paper_addr_moved again,
-- declared a superset, and CAddr dropped (both sides read from the view, the root's state and the
-- replacement). Adapted each time, equal to its recomputation after each.
{%- set view = paper_d_declaration(replaceable=true) -%}
{{ config(materialized='dimension_view', pdelta=view) }}
{{ pdelta.dimension_view(view) }}
