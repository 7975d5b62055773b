{#- Projection rule with the effectiveness test, paper §5.4:
      Δπ_A(S) = π_A(ΔS) − π_A(σ_{flag=comp} ∇S)
      ∇π_A(S) = π_{A,flag}(∇S) − π_{A,comp}(ΔS)
    An update pair whose projected images are equal changes nothing and drops out of both
    sets; partial rows are never tested (their old image is unknown). `cols` are
    [expression, output_name] pairs, so the projection also renames. -#}
{% macro rule_projection_delta_sql(delta, nabla, cols) %}
  select {% for c in cols %}{{ c[0] }} as {{ adapter.quote(c[1]) }}{% if not loop.last %}, {% endif %}{% endfor %}
  from {{ delta }}
  except
  select {% for c in cols %}{{ c[0] }} as {{ adapter.quote(c[1]) }}{% if not loop.last %}, {% endif %}{% endfor %}
  from {{ nabla }} where `_pdelta_flag` = 'comp'
{%- endmacro %}

{% macro rule_projection_nabla_sql(delta, nabla, cols) %}
  select {% for c in cols %}{{ c[0] }} as {{ adapter.quote(c[1]) }}, {% endfor %}`_pdelta_flag` from {{ nabla }}
  except
  select {% for c in cols %}{{ c[0] }} as {{ adapter.quote(c[1]) }}, {% endfor %}'comp' as `_pdelta_flag`
  from {{ delta }}
{%- endmacro %}

{% macro projection_sql(relation, cols) %}
  select {% for c in cols %}{{ c[0] }} as {{ adapter.quote(c[1]) }}{% if not loop.last %}, {% endif %}{% endfor %}
  from {{ relation }}
{%- endmacro %}
