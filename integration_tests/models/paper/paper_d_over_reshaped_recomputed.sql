-- paper_d_over_reshaped recomputed: paper_d_reshaped's recomputation, on the columns it reads.
{{ config(materialized='view') }}
select cid, caddr, acity from {{ ref('paper_d_reshaped_recomputed') }}
