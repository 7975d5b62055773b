-- D recomputed, its columns in the reverse order: pdelta.equal_rowsets matches columns by name, so
-- paper_d equals it (compared by position, the test would fail on every row).
{{ config(materialized='view') }}
select acountry, acity, caddr, cname, cid from {{ ref('paper_d_recomputed') }}
