{#- A capture's `source_time` and `source` (normalize_capture): {source_time: the raw column or Debezium JSON path,
    or none; source: the group of feeds cut together; heartbeats: the relation of the topic's heartbeats, or none;
    heartbeat_time: its column or JSON path (default: Debezium's '$.ts_ms', else source_time's column)}. A JSON
    path reads a number (Debezium's `source.ts_ms`: epoch milliseconds) and is for Debezium events only: a Kafka
    tombstone after a delete carries nothing, while an upsert feed's tombstone is the delete itself, which would have
    no source time -#}
{% macro capture_source_time(decl, fmt, at) %}
  {%- set source_time = decl.get('source_time') -%}
  {%- if source_time is not none and (source_time is not string or not source_time) -%}
    {{ exceptions.raise_compiler_error(at ~ ": `source_time` names the raw column holding the source's commit time"
          ~ " (or, for Debezium events, a JSON path such as '$.source.ts_ms'), got " ~ tojson(source_time)) }}
  {%- endif -%}
  {%- if source_time and source_time.startswith('$') and not fmt.startswith('debezium_') -%}
    {{ exceptions.raise_compiler_error(at ~ ": `source_time` " ~ source_time ~ " is a JSON path, which only a Debezium"
          ~ " format reads (its events carry source.ts_ms); name the raw column holding the source's commit time") }}
  {%- endif -%}
  {%- if decl.get('source') is not none and not source_time -%}
    {{ exceptions.raise_compiler_error(at ~ ": `source` names the group of feeds cut together at one source time,"
          ~ " which needs `source_time` too") }}
  {%- endif -%}
  {%- if decl.get('source') is not none and (decl['source'] is not string or not decl['source']) -%}
    {{ exceptions.raise_compiler_error(at ~ ": `source` names the group of feeds cut together: a name, got "
          ~ tojson(decl['source'])) }}
  {%- endif -%}
  {%- for k in ['heartbeats', 'heartbeat_time'] if decl.get(k) is not none and not source_time -%}
    {{ exceptions.raise_compiler_error(at ~ ": `" ~ k ~ "` says up to which source time a quiet topic holds every"
          ~ " change, for its cut by source time: it needs `source_time` too") }}
  {%- endfor -%}
  {%- set heartbeat_time = decl.get('heartbeat_time', '$.ts_ms' if fmt.startswith('debezium_') else source_time) -%}
  {%- if decl.get('heartbeats') is not none and (heartbeat_time is not string or not heartbeat_time) -%}
    {{ exceptions.raise_compiler_error(at ~ ": `heartbeat_time` names the heartbeat relation's column holding the"
          ~ " source time (or, for Debezium heartbeat messages, a JSON path such as '$.ts_ms'), got "
          ~ tojson(heartbeat_time)) }}
  {%- endif -%}
  {{ return({'source_time': source_time, 'source': (decl.get('source') or 'default') if source_time else none,
             'heartbeats': decl.get('heartbeats'),
             'heartbeat_time': heartbeat_time if decl.get('heartbeats') is not none else none}) }}
{% endmacro %}

{#- The source time of a record of a capture's raw relation (`path`: its `source_time`) or of its heartbeat relation
    (its `heartbeat_time`), as SQL over `alias`: the column as it is (`columns`: the relation's, {name: type}, or none:
    described here, only then), or the JSON path into the `value` column as a bigint, read from the payload whether
    or not the message is wrapped in {schema, payload} (as capture_parse_debezium unwraps an event; a heartbeat
    message has no `op` either). `setting` names the declaration's entry for the message -#}
{% macro capture_time_sql(path, value, relation, columns, alias, setting) %}
  {%- if not path.startswith('$') -%}
    {%- set columns = columns if columns is not none
                      else adapter.get_columns_in_relation(relation) | map(attribute='name') | list -%}
    {%- if path not in columns -%}
      {{ exceptions.raise_compiler_error("pdelta capture: " ~ relation ~ " has no column `" ~ path ~ "` (its "
                                         ~ setting ~ ")") }}
    {%- endif -%}
    {{ return(alias ~ '.' ~ adapter.quote(path)) }}
  {%- endif -%}
  {%- set text = 'cast(' ~ alias ~ '.' ~ adapter.quote(value) ~ ' as string)' -%}
  {%- set wrapped = pdelta.sql_literal('$.payload' ~ path[1:]) -%}
  {{ return('try_cast(case when get_json_object(' ~ text ~ ", '$.op') is null and get_json_object(" ~ text
            ~ ", '$.payload') is not null then get_json_object(" ~ text ~ ', ' ~ wrapped
            ~ ') else get_json_object(' ~ text ~ ', ' ~ pdelta.sql_literal(path) ~ ') end as bigint)') }}
{% endmacro %}

{#- the raw records a cut by source time counts (capture `m`, over `alias`): a Kafka tombstone after a Debezium
    delete carries no change and no source time -#}
{% macro capture_cut_filter(m, alias='r') %}
  {{ return(alias ~ '.' ~ adapter.quote(m['value']) ~ ' is not null' if m['format'].startswith('debezium_')
            else none) }}
{% endmacro %}
