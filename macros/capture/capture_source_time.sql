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

{#- The source time of a raw record of capture `m` (normalize_capture's, its raw columns read) as SQL over `alias`:
    the raw column as it is, or the Debezium event's JSON path as a bigint, read from the payload whether or not
    the event is wrapped in {schema, payload} (as capture_parse_debezium unwraps it) -#}
{% macro capture_source_time_sql(m, alias='r') %}
  {%- set source_time = m['source_time'] -%}
  {%- if not source_time.startswith('$') -%}
    {#- m['raw_columns']: capture_raw_columns has described the raw relation -#}
    {%- if source_time not in m['raw_columns'] -%}
      {{ exceptions.raise_compiler_error("pdelta capture: raw relation " ~ m['raw_relation'] ~ " has no column `"
                                         ~ source_time ~ "` (its source_time)") }}
    {%- endif -%}
    {{ return(alias ~ '.' ~ adapter.quote(source_time)) }}
  {%- endif -%}
  {%- set value = 'cast(' ~ alias ~ '.' ~ adapter.quote(m['value']) ~ ' as string)' -%}
  {%- set wrapped = 'payload' ~ source_time[1:] -%}
  {{ return('try_cast(case when get_json_object(' ~ value ~ ", '$.op') is null and get_json_object(" ~ value
            ~ ", '$.payload') is not null then get_json_object(" ~ value ~ ', ' ~ pdelta.sql_literal('$.' ~ wrapped)
            ~ ') else get_json_object(' ~ value ~ ', ' ~ pdelta.sql_literal(source_time) ~ ') end as bigint)') }}
{% endmacro %}

{#- The source time of a record of capture `m`'s heartbeat relation (its `heartbeats`; columns `columns`, {name:
    type}) as SQL over `alias`: its `heartbeat_time` column, or the JSON path into its value (the capture's `value`
    column), unwrapped from {schema, payload} as an event is -#}
{% macro capture_heartbeat_time_sql(m, columns, alias='h') %}
  {%- set path = m['heartbeat_time'] -%}
  {%- if not path.startswith('$') -%}
    {%- if path not in columns -%}
      {{ exceptions.raise_compiler_error("pdelta capture: heartbeat relation " ~ m['heartbeats'] ~ " has no column `"
                                         ~ path ~ "` (its heartbeat_time)") }}
    {%- endif -%}
    {{ return(alias ~ '.' ~ adapter.quote(path)) }}
  {%- endif -%}
  {%- set value = 'cast(' ~ alias ~ '.' ~ adapter.quote(m['value']) ~ ' as string)' -%}
  {{ return('try_cast(coalesce(get_json_object(' ~ value ~ ', ' ~ pdelta.sql_literal('$.payload' ~ path[1:]) ~ '), '
            ~ 'get_json_object(' ~ value ~ ', ' ~ pdelta.sql_literal(path) ~ ')) as bigint)') }}
{% endmacro %}

{#- the raw records a cut by source time counts (capture `m`, over `alias`): a Kafka tombstone after a Debezium
    delete carries no change and no source time -#}
{% macro capture_cut_filter(m, alias='r') %}
  {{ return(alias ~ '.' ~ adapter.quote(m['value']) ~ ' is not null' if m['format'].startswith('debezium_')
            else none) }}
{% endmacro %}
