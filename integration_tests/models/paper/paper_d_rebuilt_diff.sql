-- The paper's D rebuilt by the cost-based choice with `pdelta_rebuild_feed: diff`: the batch is
-- the difference between the full SELECT and D, so D's feed gets exact, complete changes, and
-- paper_d_over_rebuilt_diff refreshes incrementally from them.
{%- set view = paper_d_declaration() -%}
{{ config(materialized='dimension_view', pdelta=view, pdelta_rebuild_ratio=0.01, pdelta_rebuild_feed='diff') }}
{{ pdelta.dimension_view(view) }}
