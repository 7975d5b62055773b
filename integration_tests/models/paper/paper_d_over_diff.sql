-- A dimension view over paper_d_diff's state and change feed (a view of a view): when paper_d_diff
-- adapts to a changed declaration (paper_decl: narrowed), it refreshes from the adapting batch
-- instead of rebuilding, and stays equal to D recomputed. It reads Delta through Delta's classic reader
-- (pdelta_delta_reader: classic), the others through the Kernel reader (the default).
{%- set view = {'root': 'd', 'relations': {'d': {'state': 'paper_d_diff', 'changes': {'feed_of': 'paper_d_diff'},
    'key': ['cid'], 'technique': 'pdelta_view', 'columns': ['cid', 'cname', 'caddr', 'acity', 'acountry']}}} -%}
{{ config(materialized='dimension_view', pdelta=view, pdelta_delta_reader='classic') }}
{{ pdelta.dimension_view(view) }}
