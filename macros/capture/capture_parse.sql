{#- One raw feed's records of the batch (position in (lo, hi]) in the common parsed form every
    format reduces to, so one classification (capture_classify.sql) serves them all:
      _raw    the record as a string (quarantined as is)
      _pos    its position (the watermarked column), _seq its order (bigint; NULL: did not cast)
      _op     the canonical set it is, NULL when the code is unknown; _op_raw the code as given
      _new    the new image as map(column -> value as string); a missing entry is an absent column
      _old    the before-image the same way; _keys key values when they come apart from images
      _err    a reason decided while parsing (malformed_json), _skip a record that carries no
              change (a Kafka tombstone after a Debezium delete, an unchanged snapshot row, the
              preimage half of a Delta update pair already folded into its postimage) -#}
{% macro capture_parse_sql(m, raw, current, lo, hi) %}
  {{ return(adapter.dispatch('capture_parse_sql', 'pdelta')(m, raw, current, lo, hi)) }}
{% endmacro %}

{% macro default__capture_parse_sql(m, raw, current, lo, hi) %}
  {%- set f = m['format'] -%}
  {%- if f in ['audit_columns', 'log_based', 'log_net_effect', 'sqlserver_cdc_net'] -%}
    {{ return(pdelta.capture_parse_typed(m, raw, lo, hi)) }}
  {%- elif f in ['change_tracking', 'sqlserver_change_tracking'] -%}
    {{ return(pdelta.capture_parse_change_tracking(m, raw, current, lo, hi)) }}
  {%- elif f == 'snapshot_diff' -%}
    {{ return(pdelta.capture_parse_snapshot_diff(m, raw, lo, hi)) }}
  {%- elif f.startswith('debezium_') -%}
    {{ return(pdelta.capture_parse_debezium(m, raw, lo, hi)) }}
  {%- elif f == 'upsert_feed' -%}
    {{ return(pdelta.capture_parse_upsert_feed(m, raw, lo, hi)) }}
  {%- elif f == 'delta_cdf' -%}
    {{ return(pdelta.capture_parse_delta_cdf(m, raw, lo, hi)) }}
  {%- endif -%}
  {{ exceptions.raise_compiler_error("pdelta capture: no parser for format " ~ f) }}
{% endmacro %}
