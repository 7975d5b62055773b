-- Cust's state kept by pdelta from its change feed, starting from the old state: equals
-- paper_cust_new once the feed holds the captured changes. Applied with one typed MERGE
-- (`upsert: merge`) instead of the default delete_insert, so both apply paths meet the
-- paper's figures.
{%- set m = {'changes': 'paper_cust_changes', 'key': ['cid'], 'snapshot': 'paper_cust_old'} -%}
{{ config(materialized='mirror', pdelta_mirror=m, pdelta_apply={'upsert': 'merge'},
          on_schema_change=var('paper_on_schema_change', 'ignore')) }}
{{ pdelta.mirror(m) }}
