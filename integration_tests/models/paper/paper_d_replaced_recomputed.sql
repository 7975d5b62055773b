-- paper_d_replaced recomputed in full from the current states (under the same vars).
{{ config(materialized='view') }}
{{ pdelta.dimension_view(paper_d_declaration(replaceable=true)) }}
