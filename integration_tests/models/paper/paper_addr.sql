-- State of Addr in the stage given by var('paper_stage'): 'old' before the changes, 'new' after.
{{ config(materialized='table') }}
select * from {{ ref('paper_addr_' ~ var('paper_stage', 'new')) }}
