-- Addr's state kept by pdelta from its change feed, starting from the old state: equals
-- paper_addr_new once the feed holds the captured changes.
{%- set m = {'changes': 'paper_addr_changes', 'key': ['aid'], 'snapshot': 'paper_addr_old'} -%}
{{ config(materialized='mirror', pdelta_mirror=m, grants=var('paper_grants', {})) }}
{{ pdelta.mirror(m) }}
