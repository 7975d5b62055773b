-- A dimension view over paper_d_rebuilt_diff's state and change feed (a view of a view): equal to D
-- recomputed only if it noticed how paper_d_rebuilt_diff published its rebuild.
{%- set view = {'root': 'd', 'relations': {'d': {'state': 'paper_d_rebuilt_diff',
    'changes': {'feed_of': 'paper_d_rebuilt_diff'},
    'key': ['cid'], 'technique': 'pdelta_view', 'columns': ['cid', 'cname', 'caddr', 'acity', 'acountry']}}} -%}
{{ config(materialized='dimension_view', pdelta=view) }}
{{ pdelta.dimension_view(view) }}
