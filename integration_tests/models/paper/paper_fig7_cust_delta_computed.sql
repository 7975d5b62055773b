-- The rule term `c__prj_delta` of paper_d's refresh, to compare with the paper's figure.
{{ config(materialized='view') }}
{{ pdelta.plan_preview(paper_d_declaration(), 'c__prj_delta') }}
