{#- Change tracking (the paper's technique 4; SQL Server's CHANGETABLE(CHANGES …) has the same
    shape): key + operation + version, joined to the source's current row. I -> ins and U -> up
    with the current row as new image (never a before-image), D -> delk (key only). A row gone
    from the current table is fine when the key's last change in the batch deletes it (its image
    cannot matter: the net effect ends in a delete); otherwise the image is missing. -#}
{% macro capture_parse_change_tracking(m, raw, current, lo, hi) %}
  {%- set q = adapter.quote -%}
  {%- set pos = pdelta.capture_bigint_expr(m, m['position']) -%}
  {%- set seq = pdelta.capture_bigint_expr(m, m['seq']) -%}
  {%- set op = pdelta.capture_op_case('r.' ~ q(m['op']), m['ops']) -%}
  with r as (
    select r.*, to_json(struct(r.*)) as `_pdelta_raw`, {{ pos }} as `_pdelta_pos`, {{ seq }} as `_pdelta_seq_`,
           {{ op }} as `_pdelta_op`, cast(r.{{ q(m['op']) }} as string) as `_pdelta_op_raw`,
           max_by({{ op }}, {{ seq }}) over (partition by {% for k in m['key'] %}r.{{ q(k) }}{% if not loop.last %},
                                                             {% endif %}{% endfor %}) as `_pdelta_last_op`
    from {{ raw }} as r
    where {{ pdelta.capture_range(pos, lo, hi) }}
  ), c as (
    select {% for c in m['key'] + m['attrs'] %}{{ q(c) }}, {% endfor %}true as `_pdelta_present` from {{ current }}
  )
  select r.`_pdelta_raw` as `_raw`, r.`_pdelta_pos` as `_pos`, r.`_pdelta_seq_` as `_seq`, r.`_pdelta_op` as `_op`,
         r.`_pdelta_op_raw` as `_op_raw`,
         case when r.`_pdelta_op` in ('ins', 'up') then
           case when c.`_pdelta_present` then {{ pdelta.capture_str_map(m['attrs'], 'c') }}
                when r.`_pdelta_last_op` = 'delk' then map({% for a in m['attrs'] %}{{ pdelta.sql_literal(a) }},
                                                           cast(null as string){% if not loop.last %},
                                                           {% endif %}{% endfor %})
           end
         end as `_new`,
         cast(null as map<string, string>) as `_old`,
         {{ pdelta.capture_str_map(m['key'], 'r') }} as `_keys`,
         cast(null as string) as `_err`, false as `_skip`
  from r left join c
    on {% for k in m['key'] %}c.{{ q(k) }} = r.{{ q(k) }}{% if not loop.last %} and {% endif %}{% endfor %}
{%- endmacro %}
