-- The six-set changes paper_d published in its last refresh, flattened for comparison.
{{ config(materialized='view') }}
{%- set feed = pdelta.meta_relation(ref('paper_d'), 'changes') %}
select cid, cname, caddr, acity, acountry,
       _pdelta_before.cname as before_cname, _pdelta_before.caddr as before_caddr,
       _pdelta_before.acity as before_acity, _pdelta_before.acountry as before_acountry,
       _pdelta_type
from {{ feed }}
where _pdelta_seq = (select max(_pdelta_seq) from {{ feed }})
