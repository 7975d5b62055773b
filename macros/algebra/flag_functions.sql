{#- The paper's flag functions as SQL, generated from the shared delta model
    (macros/algebra/delta_model.sql, from python/pdelta/algebra.py). -#}

{#- s(flag), paper §5.5: a partial update that passes a selection becomes an upsert. -#}
{% macro flag_s(flag_sql) %}
  {%- set m = pdelta.delta_model()['s'] -%}
  case {{ flag_sql }}{% for f, v in m.items() if f != v %} when '{{ f }}' then '{{ v }}'{% endfor %}
    else {{ flag_sql }} end
{%- endmacro %}

{#- j(flag_s, flag_t), paper §5.6: flag of a joined delete-set row; S is `pre` or `comp`. -#}
{% macro flag_j(s_flag_sql, t_flag_sql) %}
  {%- set m = pdelta.delta_model()['j'] -%}
  case{% for pair, v in m.items() %}{% set p = pair.split(',') %}
    when {{ s_flag_sql }} = '{{ p[0] }}' and {{ t_flag_sql }} = '{{ p[1] }}' then '{{ v }}'{% endfor %} end
{%- endmacro %}
