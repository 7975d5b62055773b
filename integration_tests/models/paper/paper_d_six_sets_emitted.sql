-- The six-set changes paper_d (the rules plan) published in its last refresh, flattened for comparison.
{{ config(materialized='view') }}
{{ paper_last_batch(ref('paper_d')) }}
