-- paper_addr_moved without Dresden: a replacement whose rows are some of paper_addr_moved's (containment
-- subset). The lane drops it after paper_d_replaced has read it, so that the next replacement adapts
-- without the relation it replaces.
{{ config(materialized='view') }}
select * from {{ ref('paper_addr_moved') }} where city <> 'Dresden'
