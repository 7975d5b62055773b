-- Addr's changes captured by change tracking (ins, up, delk: no before-images, deletes carry
-- the key only): canonical change feed. Empty in stage 'old'.
{{ config(materialized='table') }}
select aid, acity, acountry,
       cast(null as struct<acity: string, acountry: string>) as _pdelta_before,
       change_type as _pdelta_type,
       cast(seq as bigint) as _pdelta_seq
from {{ ref('paper_addr_captured') }}
where {{ "false" if var('paper_stage', 'new') == 'old' else "true" }}
