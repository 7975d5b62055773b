-- paper_addr_moved's change feed: Addr's, under the moved table's names.
{{ config(materialized='view') }}
select aid as address_id, acity as city, acountry as country,
       cast(null as struct<city: string, country: string>) as _pdelta_before, _pdelta_type, _pdelta_seq
from {{ ref('paper_addr_changes') }}
