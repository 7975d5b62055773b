{#- Paper Fig. 4: six-set changes (one row per key, from net_effect_sql) into the delete-insert
    model. ΔR holds the new image of every set that has one; ∇R holds the old image flagged
    `comp` for complete sets, and a key-only row (attributes NULL) flagged `up` or `ups` for
    partial ones. Which set goes where comes from delta_model().encoding. -#}
{% macro six_sets_to_delta_sql(net, key, attrs) %}
  {%- set enc = pdelta.delta_model()['encoding'] -%}
  {%- set q = adapter.quote -%}
  select {% for k in key %}{{ q(k) }}, {% endfor %}
         {% for c in attrs %}last_image.{{ q(c) }} as {{ q(c) }}{% if not loop.last %}, {% endif %}{% endfor %}
  from {{ net }}
  where `_pdelta_type` in (
    {% for t, e in enc.items() if e['delta'] %}'{{ t }}'{% if not loop.last %}, {% endif %}{% endfor %})
{%- endmacro %}

{% macro six_sets_to_nabla_sql(net, key, attrs) %}
  {%- set enc = pdelta.delta_model()['encoding'] -%}
  {%- set q = adapter.quote -%}
  {%- set comp_types -%}
    {% for t, e in enc.items() if e['nabla_flag'] == 'comp' %}'{{ t }}'{% if not loop.last %}, {% endif %}{% endfor %}
  {%- endset -%}
  select {% for k in key %}{{ q(k) }}, {% endfor %}
         {% for c in attrs %}case when `_pdelta_type` in ({{ comp_types }}) then first_old_image.{{ q(c) }}
                                  end as {{ q(c) }},
         {% endfor %}case `_pdelta_type`{% for t, e in enc.items() if e['nabla_flag'] %}
                        when '{{ t }}' then '{{ e['nabla_flag'] }}'{% endfor %} end as `_pdelta_flag`
  from {{ net }}
  where `_pdelta_type` in (
    {% for t, e in enc.items() if e['nabla_flag'] %}'{{ t }}'{% if not loop.last %}, {% endif %}{% endfor %})
{%- endmacro %}
