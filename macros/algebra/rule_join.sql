{#- Join rule for S ⋈_{S.a = T.pk} T, paper §5.6:
      Δ(S ⋈ T) = (S_new ⋈ ΔT) ∪ (ΔS ⋈ T_new)
      ∇(S ⋈ T) = π_{…,j(S.flag,T.flag)}(S_old ⋈ ∇T)
               ∪ π_{…,j(S.flag,T.flag)}(∇S ⋈ T_old)
               ∪ π_{…,NULL…,s(flag)}(σ_{flag≠comp} ∇S)
    Partial rows of S (flag up/ups) lack the join column's old value, so they take part only
    in the third term. Each term is its own macro so the generated SQL has one CTE per term.
    `on` is a list of [S column, T column] pairs. -#}
{% macro _join_on(on, s='s', t='t') %}
  {%- for p in on %}{{ s }}.{{ adapter.quote(p[0]) }} = {{ t }}.{{ adapter.quote(p[1]) }}{% if not loop.last %} and {% endif %}{% endfor -%}
{% endmacro %}

{% macro _join_cols(s_cols, t_cols) %}
  {%- for c in s_cols %}s.{{ adapter.quote(c) }}, {% endfor %}{% for c in t_cols %}t.{{ adapter.quote(c) }}{% if not loop.last %}, {% endif %}{% endfor -%}
{% endmacro %}

{#- S_new ⋈ T_new: the view's new state up to this join -#}
{% macro join_new_sql(s_new, t_new, s_cols, t_cols, on) %}
  select {{ pdelta._join_cols(s_cols, t_cols) }} from {{ s_new }} as s join {{ t_new }} as t on {{ pdelta._join_on(on) }}
{%- endmacro %}

{#- Δ terms: S_new ⋈ ΔT and ΔS ⋈ T_new -#}
{% macro rule_join_delta_term_sql(s_rel, t_rel, s_cols, t_cols, on) %}
  select {{ pdelta._join_cols(s_cols, t_cols) }} from {{ s_rel }} as s join {{ t_rel }} as t on {{ pdelta._join_on(on) }}
{%- endmacro %}

{#- ∇ term 1: S_old ⋈ ∇T, S rows complete (pre or comp) -#}
{% macro rule_join_nabla_s_old_term_sql(s_old, t_nabla, s_cols, t_cols, on) %}
  select {{ pdelta._join_cols(s_cols, t_cols) }}, {{ pdelta.flag_j('s.`_pdelta_flag`', 't.`_pdelta_flag`') }} as `_pdelta_flag`
  from {{ s_old }} as s join {{ t_nabla }} as t on {{ pdelta._join_on(on) }}
  where s.`_pdelta_flag` in ('pre', 'comp')
{%- endmacro %}

{#- ∇ term 2: ∇S ⋈ T_old, S rows complete (comp) -#}
{% macro rule_join_nabla_t_old_term_sql(s_nabla, t_old, s_cols, t_cols, on) %}
  select {{ pdelta._join_cols(s_cols, t_cols) }}, {{ pdelta.flag_j('s.`_pdelta_flag`', 't.`_pdelta_flag`') }} as `_pdelta_flag`
  from {{ s_nabla }} as s join {{ t_old }} as t on {{ pdelta._join_on(on) }}
  where s.`_pdelta_flag` = 'comp'
{%- endmacro %}

{#- ∇ term 3: partial rows of ∇S, T's columns NULL, flag through s -#}
{% macro rule_join_nabla_partial_term_sql(s_nabla, s_cols, t_cols) %}
  select {% for c in s_cols %}s.{{ adapter.quote(c) }}, {% endfor %}{% for c in t_cols %}null as {{ adapter.quote(c) }}, {% endfor %}{{ pdelta.flag_s('s.`_pdelta_flag`') }} as `_pdelta_flag`
  from {{ s_nabla }} as s
  where s.`_pdelta_flag` <> 'comp'
{%- endmacro %}
