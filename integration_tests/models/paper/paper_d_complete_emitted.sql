-- The changes paper_d_diff (the diff plan) published in its last refresh, flattened for comparison.
{{ config(materialized='view') }}
{{ paper_last_batch(ref('paper_d_diff')) }}
