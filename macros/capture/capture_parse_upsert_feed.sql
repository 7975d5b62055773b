{#- An upsert feed with tombstones, as a compacted Kafka topic holds it: `key` a JSON object of
    the key columns, `value` a JSON object of the row (-> ups: inserted or updated, unknown which)
    or NULL (a tombstone -> delk). -#}
{% macro capture_parse_upsert_feed(m, raw, lo, hi) %}
  {%- set q = adapter.quote -%}
  {%- set pos = pdelta.capture_bigint_expr(m, m['position']) -%}
  with r as (
    select cast(r.{{ q(m['key_json']) }} as string) as `_k`, cast(r.{{ q(m['value']) }} as string) as `_v`,
           {{ pos }} as `_pos`, {{ pdelta.capture_bigint_expr(m, m['seq']) }} as `_s`
    from {{ raw }} as r
    where {{ pdelta.capture_range(pos, lo, hi) }}
  ), p as (
    select *, from_json(`_k`, 'map<string, string>') as `_kmap`, from_json(`_v`, 'map<string, string>') as `_vmap`
    from r
  )
  select to_json(named_struct('key', `_k`, 'value', `_v`)) as `_raw`, `_pos`, `_s` as `_seq`,
         case when `_v` is null then 'delk' else 'ups' end as `_op`, cast(null as string) as `_op_raw`,
         `_vmap` as `_new`, cast(null as map<string, string>) as `_old`, `_kmap` as `_keys`,
         case when (`_k` is not null and `_kmap` is null) or (`_v` is not null and `_vmap` is null)
              then 'malformed_json' end as `_err`,
         false as `_skip`
  from p
{%- endmacro %}
