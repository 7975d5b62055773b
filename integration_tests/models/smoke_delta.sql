{{ config(materialized='table') }}
select 1 as id, 'a' as v union all select 2, 'b' union all select 3, 'c'
