-- Addr as another source holds it after a move to a new table: its key and columns named otherwise
-- (view adaptation's relation replacement: paper_d_replaced).
{{ config(materialized='view') }}
select aid as address_id, acity as city, acountry as country from {{ ref('paper_addr') }}
