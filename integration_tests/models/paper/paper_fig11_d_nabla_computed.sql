-- The rule term `v__nabla` of paper_d's refresh, to compare with the paper's figure.
{{ config(materialized='view') }}
{{ pdelta.plan_preview(paper_d_declaration(), 'v__nabla') }}
