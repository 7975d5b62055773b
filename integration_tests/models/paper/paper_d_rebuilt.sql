-- The paper's D with the cost-based choice at a tiny threshold, so the paper's changes (they
-- reach most of D) make the refresh a plain rebuild (`pdelta_rebuild_feed: reset`, the default):
-- a `full` batch in D's log (the feed keeps its earlier rows), so paper_d_over_rebuilt, which reads the
-- feed, must rebuild too.
{%- set view = paper_d_declaration() -%}
{{ config(materialized='dimension_view', pdelta=view, pdelta_rebuild_ratio=0.01) }}
{{ pdelta.dimension_view(view) }}
