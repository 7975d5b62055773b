{#- Paper Fig. 6: the view's ΔV/∇V back to the six sets, joining them on the key. The flag
    selections apply to ∇V (DESIGN.md §6 erratum):
      only in ΔV -> ins;  in both: ∇ flag comp -> upd, up -> up, ups -> ups;
      only in ∇V: comp -> del, otherwise -> delk.
    Output is the canonical change-feed shape: key, attributes (new image; the old image for
    del; NULL for delk), _pdelta_before (old image, upd only) and _pdelta_type. -#}
{% macro delete_insert_to_six_sets_sql(delta, nabla, key, attrs) %}
  {%- set q = adapter.quote -%}
  {%- set before -%}
    struct({% for c in attrs %}n.{{ q(c) }} as {{ q(c) }}{% if not loop.last %}, {% endif %}{% endfor %})
  {%- endset -%}
  select {% for k in key %}coalesce(d.{{ q(k) }}, n.{{ q(k) }}) as {{ q(k) }}, {% endfor %}
         {% for c in attrs %}case when d.`_pdelta_present` then d.{{ q(c) }}
                                  when n.`_pdelta_flag` = 'comp' then n.{{ q(c) }} end as {{ q(c) }},
         {% endfor %}case when d.`_pdelta_present` and n.`_pdelta_flag` = 'comp'
                      then {{ before }} end as `_pdelta_before`,
         case
           when n.`_pdelta_flag` is null then 'ins'
           when d.`_pdelta_present` is null then (case when n.`_pdelta_flag` = 'comp' then 'del' else 'delk' end)
           when n.`_pdelta_flag` = 'comp' then 'upd'
           else n.`_pdelta_flag`
         end as `_pdelta_type`
  from (select *, true as `_pdelta_present` from {{ delta }}) as d
  full outer join {{ nabla }} as n
    on {% for k in key %}d.{{ q(k) }} = n.{{ q(k) }}{% if not loop.last %} and {% endif %}{% endfor %}
{%- endmacro %}
