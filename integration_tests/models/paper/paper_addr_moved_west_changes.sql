-- paper_addr_moved_west's change feed (its rows' keys; a refresh recomputes the rows they reach).
{{ config(materialized='view') }}
select * from {{ ref('paper_addr_moved_changes') }}
