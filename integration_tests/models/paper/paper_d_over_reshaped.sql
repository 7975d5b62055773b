-- A dimension view over paper_d_reshaped's state and change feed, on columns the reshaping keeps:
-- when paper_d_reshaped adapts, it refreshes from the adapting batch instead of rebuilding.
{%- set view = {'root': 'd', 'relations': {'d': {
    'state': 'paper_d_reshaped', 'changes': {'feed_of': 'paper_d_reshaped'},
    'key': ['cid'], 'technique': 'pdelta_view', 'columns': ['cid', 'caddr', 'acity']}}} -%}
{{ config(materialized='dimension_view', pdelta=view) }}
{{ pdelta.dimension_view(view) }}
