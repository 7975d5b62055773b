-- D recomputed in full from the current states, to check the maintained paper_d against.
{{ config(materialized='view') }}
{{ pdelta.dimension_view(paper_d_declaration()) }}
