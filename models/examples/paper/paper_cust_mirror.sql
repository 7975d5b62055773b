-- Cust's state kept by pdelta from its change feed, starting from the old state: equals
-- paper_cust_new once the feed holds the captured changes.
{%- set m = {'changes': 'paper_cust_changes', 'key': ['cid'], 'snapshot': 'paper_cust_old'} -%}
{{ config(materialized='mirror', pdelta_mirror=m) }}
{{ pdelta.mirror(m) }}
