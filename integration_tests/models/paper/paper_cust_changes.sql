-- Cust's changes captured log-based (full images): canonical change feed. Empty in stage 'old'.
-- With paper_feed_column: true the feed gains a column, `cname_len`, in its rows and before-images
-- (a column the source added after paper_cust_old was taken): its mirror's on_schema_change.
{{ config(materialized='table') }}
select cid, cname, cdiscount, caddr,
       {%- if var('paper_feed_column', false) %} length(cname) as cname_len,{% endif %}
       case when change_type = 'upd'
            then struct(before_cname as cname, before_cdiscount as cdiscount, before_caddr as caddr
                        {%- if var('paper_feed_column', false) %}, length(before_cname) as cname_len{% endif %})
            end as _pdelta_before,
       change_type as _pdelta_type,
       cast(seq as bigint) as _pdelta_seq
from {{ ref('paper_cust_captured') }}
where {{ "false" if var('paper_stage', 'new') == 'old' else "true" }}
