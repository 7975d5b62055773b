{#- Snapshot differential (the paper's technique 5): the raw relation holds full snapshots tagged
    with an increasing snapshot id (the position). A batch compares the snapshot the last batch
    saw with the newest one: keys only in the new one are ins, only in the old one del (the old
    row), in both with a different row upd. Snapshots in between cannot change that net effect. -#}
{% macro capture_parse_snapshot_diff(m, raw, lo, hi) %}
  {%- set q = adapter.quote -%}
  {%- set cols = m['key'] + m['attrs'] -%}
  {%- set extra = pdelta.capture_extra_columns(raw, m) -%}
  {%- set pos = pdelta.capture_bigint_expr(m, m['snapshot']) -%}
  with n as (
    select r.*, to_json(struct(r.*)) as `_pdelta_raw`, true as `_pdelta_in` from {{ raw }} as r
    where {% if hi is none %}false{% else %}{{ pos }} = {{ hi | int }}{% endif %}
  ), o as (
    select r.*, to_json(struct(r.*)) as `_pdelta_raw`, true as `_pdelta_in` from {{ raw }} as r
    where {% if lo is none %}false{% else %}{{ pos }} = {{ lo | int }}{% endif %}
  ), d as (
    select n.`_pdelta_raw` as `_nraw`, o.`_pdelta_raw` as `_oraw`, n.`_pdelta_in` as `_nin`, o.`_pdelta_in` as `_oin`,
           case when n.`_pdelta_in` then {{ pdelta.capture_image_map(cols, extra, 'n') }} end as `_nmap`,
           case when o.`_pdelta_in` then {{ pdelta.capture_str_map(cols, 'o') }} end as `_omap`,
           ({% for c in m['attrs'] %}not (n.{{ q(c) }} <=> o.{{ q(c) }}) or {% endfor %}false) as `_differs`
    from n full outer join o
      on {% for k in m['key'] %}n.{{ q(k) }} = o.{{ q(k) }}{% if not loop.last %} and {% endif %}{% endfor %}
  )
  select coalesce(`_nraw`, `_oraw`) as `_raw`, cast({{ hi | int if hi is not none else 'null' }} as bigint) as `_pos`,
         cast({{ hi | int if hi is not none else 'null' }} as bigint) as `_seq`,
         case when `_oin` is null then 'ins' when `_nin` is null then 'del' else 'upd' end as `_op`,
         cast(null as string) as `_op_raw`,
         `_nmap` as `_new`, `_omap` as `_old`, coalesce(`_nmap`, `_omap`) as `_keys`,
         cast(null as string) as `_err`, false as `_skip`
  from d
  where `_nin` is null or `_oin` is null or `_differs`
{%- endmacro %}
