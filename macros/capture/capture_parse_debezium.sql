{#- Debezium change events: a JSON envelope {before, after, source, op, ts_ms}, bare or wrapped in
    {schema, payload} (JSON converter with schemas enabled), one per raw row in the `value`
    column; `position` is the Kafka offset (or any increasing load position) and `seq` a JSON
    path into the payload (PostgreSQL: $.source.lsn) or a raw column. Ops by variant (see
    normalize_capture): c -> ins, r (snapshot read) -> ups, u -> upd (REPLICA IDENTITY FULL) or up
    (DEFAULT: no before-image; MySQL binlog_row_image=MINIMAL: only changed columns in `after`),
    d -> del (FULL) or delk (key-only before). A NULL value is a Kafka tombstone following a
    delete and carries nothing more. The unchanged-TOAST placeholder counts as an absent column
    (filled from the last image, see capture_classify). -#}
{% macro capture_parse_debezium(m, raw, lo, hi) %}
  {%- set q = adapter.quote -%}
  {%- set pos = pdelta.capture_bigint_expr(m, m['position']) -%}
  with r as (
    select cast(r.{{ q(m['value']) }} as string) as `_v`, {{ pos }} as `_pos`,
           {%- if not (m['seq'] | string).startswith('$') %}
           {{ pdelta.capture_bigint_expr(m, m['seq']) }} as `_rawseq`,{% endif %}
           from_json(cast(r.{{ q(m['value']) }} as string), 'map<string, string>') as `_top`
    from {{ raw }} as r
    where {{ pdelta.capture_range(pos, lo, hi) }}
  ), p as (
    select *, case when `_top` is not null and not map_contains_key(`_top`, 'op')
                        and map_contains_key(`_top`, 'payload')
                   then try_element_at(`_top`, 'payload') else `_v` end as `_payload`
    from r
  ), e as (
    select *, from_json(`_payload`, 'map<string, string>') as `_env` from p
  ), i as (
    select *, from_json(try_element_at(`_env`, 'after'), 'map<string, string>') as `_after`,
              from_json(try_element_at(`_env`, 'before'), 'map<string, string>') as `_before`
    from e
  )
  select `_v` as `_raw`, `_pos`,
         {% if (m['seq'] | string).startswith('$') %}try_cast(get_json_object(`_payload`,
                                                                               {{ pdelta.sql_literal(m['seq']) }})
                                                               as bigint){% else %}`_rawseq`{% endif %} as `_seq`,
         {{ pdelta.capture_op_case("try_element_at(`_env`, 'op')", m['ops']) }} as `_op`,
         try_element_at(`_env`, 'op') as `_op_raw`,
         `_after` as `_new`, `_before` as `_old`, cast(null as map<string, string>) as `_keys`,
         case when `_v` is not null and (`_top` is null or `_env` is null
                   or (try_element_at(`_env`, 'after') is not null and `_after` is null)
                   or (try_element_at(`_env`, 'before') is not null and `_before` is null))
              then 'malformed_json' end as `_err`,
         `_v` is null as `_skip`
  from i
{%- endmacro %}
