{#- Typed raw tables, one row per change: audit columns (the paper's technique 1: a row is
    new when inserted after the last extraction, updated otherwise, deleted when its logical
    delete column is set; a row both inserted and deleted since then carries no change),
    log-based with full images (op I/U/D, before-image struct), log-based net effect (U/D) and
    SQL Server CDC net changes 'all with merge' (__$operation 1 = delete with the last row,
    5 = insert or update). -#}
{% macro capture_parse_typed(m, raw, lo, hi) %}
  {%- set q = adapter.quote -%}
  {%- set f = m['format'] -%}
  {%- set cols = m['key'] + m['attrs'] -%}
  {%- set extra = pdelta.capture_extra_columns(raw, m) -%}
  {%- set pos = pdelta.capture_bigint_expr(m, m['position']) -%}
  with r as (
    select r.*, to_json(struct(r.*)) as `_pdelta_raw`, {{ pos }} as `_pdelta_pos`,
           {{ pdelta.capture_bigint_expr(m, m['seq']) }} as `_pdelta_seq_`,
    {%- if f == 'audit_columns' %}
           {%- set ins_pos = pdelta.capture_bigint_expr(m, m['inserted_at']) %}
           {%- set gone = ('coalesce(try_cast(r.' ~ q(m['deleted']) ~ ' as boolean), false)') if m['deleted']
                          else 'false' %}
           case when {{ gone }} then 'del'
                when {% if lo is none %}true{% else %}{{ ins_pos }} > {{ lo | int }}{% endif %} then 'ins'
                else 'up' end as `_pdelta_op`,
           ({{ gone }}
            and {% if lo is none %}true{% else %}{{ ins_pos }} > {{ lo | int }}{% endif %}) as `_pdelta_skip`,
           cast(null as string) as `_pdelta_op_raw`
    {%- else %}
           {{ pdelta.capture_op_case('r.' ~ q(m['op']), m['ops']) }} as `_pdelta_op`, false as `_pdelta_skip`,
           cast(r.{{ q(m['op']) }} as string) as `_pdelta_op_raw`
    {%- endif %}
    from {{ raw }} as r
    where {{ pdelta.capture_range(pos, lo, hi) }}
  )
  select `_pdelta_raw` as `_raw`, `_pdelta_pos` as `_pos`, `_pdelta_seq_` as `_seq`, `_pdelta_op` as `_op`,
         `_pdelta_op_raw` as `_op_raw`,
         case when `_pdelta_op` in ('ins', 'upd', 'up', 'ups')
              then {{ pdelta.capture_image_map(cols, extra, 'r') }} end as `_new`,
         {%- if f == 'log_based' %}
         case when `_pdelta_op` in ('upd', 'del') and r.{{ q(m['before']) }} is not null then
           map({% for c in m['attrs'] %}{{ pdelta.sql_literal(c) }},
               cast(r.{{ q(m['before']) }}.{{ q(c) }} as string){% if not loop.last %},
               {% endif %}{% endfor %}) end as `_old`,
         {%- else %}
         {#- these techniques' deletes carry the deleted row itself -#}
         case when `_pdelta_op` = 'del' then {{ pdelta.capture_image_map(cols, extra, 'r') }} end as `_old`,
         {%- endif %}
         {{ pdelta.capture_str_map(m['key'], 'r') }} as `_keys`,
         cast(null as string) as `_err`, `_pdelta_skip` as `_skip`
  from r
{%- endmacro %}
