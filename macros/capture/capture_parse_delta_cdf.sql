{#- Delta Lake's change data feed (table_changes): `_change_type` insert / delete (the row) /
    update_preimage + update_postimage (one pair per key and commit), `_commit_version` the
    position. A pair becomes one upd; a half without its other half misses an image. -#}
{% macro capture_parse_delta_cdf(m, raw, lo, hi) %}
  {%- set q = adapter.quote -%}
  {%- set cols = m['key'] + m['attrs'] -%}
  {%- set extra = pdelta.capture_extra_columns(raw, m) -%}
  {%- set pos = pdelta.capture_bigint_expr(m, m['position']) -%}
  {%- set w -%}partition by {% for k in m['key'] %}r.{{ q(k) }}, {% endfor %}{{ pos }}{%- endset -%}
  with r as (
    select r.*, to_json(struct(r.*)) as `_pdelta_raw`, {{ pos }} as `_pdelta_pos`,
           {{ pdelta.capture_bigint_expr(m, m['seq']) }} as `_pdelta_seq_`,
           sum(case when r.`_change_type` = 'update_preimage' then 1 else 0 end) over ({{ w }}) as `_npre`,
           sum(case when r.`_change_type` = 'update_postimage' then 1 else 0 end) over ({{ w }}) as `_npost`,
           first(case when r.`_change_type` = 'update_preimage' then {{ pdelta.capture_str_map(cols, 'r') }} end, true)
             over ({{ w }}) as `_premap`
    from {{ raw }} as r
    where {{ pdelta.capture_range(pos, lo, hi) }}
  )
  select `_pdelta_raw` as `_raw`, `_pdelta_pos` as `_pos`, `_pdelta_seq_` as `_seq`,
         case `_change_type` when 'insert' then 'ins' when 'delete' then 'del' when 'update_preimage' then 'upd'
                             when 'update_postimage' then 'upd' end as `_op`,
         cast(`_change_type` as string) as `_op_raw`,
         case when `_change_type` in ('insert', 'update_postimage')
              then {{ pdelta.capture_image_map(cols, extra, 'r') }} end as `_new`,
         case when `_change_type` = 'delete' then {{ pdelta.capture_image_map(cols, extra, 'r') }}
              when `_change_type` = 'update_postimage' and `_npre` = 1 and `_npost` = 1 then `_premap`
              when `_change_type` = 'update_preimage' then {{ pdelta.capture_str_map(cols, 'r') }} end as `_old`,
         {{ pdelta.capture_str_map(m['key'], 'r') }} as `_keys`,
         cast(null as string) as `_err`,
         (`_change_type` = 'update_preimage' and `_npre` = 1 and `_npost` = 1) as `_skip`
  from r
{%- endmacro %}
