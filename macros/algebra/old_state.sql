{#- Old-state reconstruction, paper §5.6: R_old = π_{…,pre}(R_new − ΔR) ∪ ∇R.
    Rows of the new state whose key has no insert-set row are preserved (flag `pre`); the
    delete set adds old rows (`comp`) or key-only rows (`up`/`ups`). Because ΔR ⊆ R_new and keys
    are unique, the difference is an anti-join on the key. -#}
{% macro old_state_sql(new, delta, nabla, key, cols) %}
  {%- set q = adapter.quote -%}
  select {% for c in cols %}n.{{ q(c) }}, {% endfor %}'pre' as `_pdelta_flag`
  from {{ new }} as n
  left anti join {{ delta }} as d
    on {% for k in key %}n.{{ q(k) }} = d.{{ q(k) }}{% if not loop.last %} and {% endif %}{% endfor %}
  union all
  select {% for c in cols %}{{ q(c) }}, {% endfor %}`_pdelta_flag` from {{ nabla }}
{%- endmacro %}
