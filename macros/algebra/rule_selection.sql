{#- Selection rule, paper §5.5:
      Δσ_p(S) = σ_p(ΔS)
      ∇σ_p(S) = σ_{p ∨ flag≠comp}(π_{…,s(flag)} ∇S)
    A complete old row leaves the view only if it was in it (p held); a partial row cannot be
    tested, so it is always passed on, a partial update turned upsert by s. Returns the SQL
    of both terms. -#}
{% macro rule_selection_delta_sql(delta, predicate) %}
  select * from {{ delta }} where ({{ predicate }})
{%- endmacro %}

{% macro rule_selection_nabla_sql(nabla, cols, predicate) %}
  {%- set q = adapter.quote -%}
  select {% for c in cols %}{{ q(c) }}, {% endfor %}{{ pdelta.flag_s('`_pdelta_flag`') }} as `_pdelta_flag`
  from {{ nabla }}
  where ({{ predicate }}) or `_pdelta_flag` <> 'comp'
{%- endmacro %}
