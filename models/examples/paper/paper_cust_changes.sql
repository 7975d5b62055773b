-- Cust's changes captured log-based (full images): canonical change feed. Empty in stage 'old'.
{{ config(materialized='table') }}
select cid, cname, cdiscount, caddr,
       case when change_type = 'upd'
            then struct(before_cname as cname, before_cdiscount as cdiscount, before_caddr as caddr) end as _pdelta_before,
       change_type as _pdelta_type,
       cast(seq as bigint) as _pdelta_seq
from {{ ref('paper_cust_captured') }}
where {{ "false" if var('paper_stage', 'new') == 'old' else "true" }}
