{#- The changes a view of the paper's D published in its last refresh, flattened for
    comparison with a seed (before-image fields as columns). -#}
{% macro paper_last_batch(view_relation) %}
  {%- set feed = pdelta.meta_relation(view_relation, 'changes') %}
select cid, cname, caddr, acity, acountry,
       _pdelta_before.cname as before_cname, _pdelta_before.caddr as before_caddr,
       _pdelta_before.acity as before_acity, _pdelta_before.acountry as before_acountry,
       _pdelta_type
from {{ feed }}
where _pdelta_seq = (select max(_pdelta_seq) from {{ feed }})
{%- endmacro %}
