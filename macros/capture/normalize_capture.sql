{#- Checks a capture declaration (the model's `pdelta_capture` config) and returns its normal
    form with the format's defaults filled in. Formats and the sets each can emit come from the
    shared delta model (python/pdelta/techniques.py FORMATS, generated into delta_model()); the
    per-format raw column names below are the vendors' own names where there is one.

    Normal form:
      raw, format, technique, sets, key: [..], attrs: [..], types: {column: sql type},
      position: raw column watermarked per batch, seq: raw column or JSON path ('$.…') ordering
      events, ops: {raw code: set}, current (change tracking), before (log_based), value/key_json
      (JSON formats), inserted_at/updated_at/deleted (audit columns), snapshot (snapshot_diff),
      meta: raw columns that are not data, unavailable: placeholder of an absent value or none,
      quarantine_max_rows, quarantine_max_fraction, late_records: fail | warn,
      source_time: a raw column, or for Debezium a JSON path into the event ('$.source.ts_ms'), holding the
      source's commit time: the capture is then cut with the other feeds of `source` (default `default`) at one
      source time each run (macros/engine/cut_sources.sql); none: not cut; heartbeats: a relation whose records
      say the topic holds every change up to their source time (Debezium's heartbeat topic), heartbeat_time: its
      column or JSON path (Debezium: '$.ts_ms') -#}
{% macro normalize_capture(decl, model_name) %}
  {{ return(adapter.dispatch('normalize_capture', 'pdelta')(decl, model_name)) }}
{% endmacro %}

{% macro default__normalize_capture(decl, model_name) %}
  {%- set at = "capture '" ~ model_name ~ "'" -%}
  {%- set formats = pdelta.delta_model()['capture_formats'] -%}
  {%- if decl is not mapping or not decl.get('raw') or not decl.get('format') or not decl.get('key')
         or not decl.get('columns') -%}
    {{ exceptions.raise_compiler_error(at ~ ": config `pdelta_capture` needs `raw`, `format`, `key` and `columns`") }}
  {%- endif -%}
  {%- set fmt = decl['format'] -%}
  {%- if fmt not in formats -%}
    {{ exceptions.raise_compiler_error(at ~ ": unknown format `" ~ fmt ~ "` (one of "
                                       ~ formats.keys() | list | join(', ') ~ ")") }}
  {%- endif -%}
  {%- set allowed = ['raw', 'format', 'key', 'columns', 'position', 'seq', 'op', 'ops', 'current', 'before', 'value',
                     'key_json', 'inserted_at', 'updated_at', 'deleted', 'snapshot', 'ignore_columns',
                     'unavailable_value', 'quarantine_max_rows', 'quarantine_max_fraction', 'late_records',
                     'source_time', 'source', 'heartbeats', 'heartbeat_time'] -%}
  {%- for k in decl.keys() if k not in allowed -%}
    {{ exceptions.raise_compiler_error(at ~ ": unknown entry `" ~ k ~ "` (allowed: " ~ allowed | join(', ') ~ ")") }}
  {%- endfor -%}
  {%- set key = [decl['key']] if decl['key'] is string else decl['key'] | list -%}
  {%- if decl['columns'] is not mapping -%}
    {{ exceptions.raise_compiler_error(at ~ ": `columns` maps every column (key included) to its SQL type") }}
  {%- endif -%}
  {%- set types = {} -%}{%- set attrs = [] -%}
  {%- for c, t in decl['columns'].items() -%}
    {#- a type is spliced into DDL and casts: accept type names only, never arbitrary SQL -#}
    {%- if not modules.re.match('^[A-Za-z][A-Za-z0-9_]*( ?\\( ?[0-9]+ ?(, ?[0-9]+ ?)?\\))?$', t | string) -%}
      {{ exceptions.raise_compiler_error(at ~ ": column `" ~ c ~ "` has type `" ~ t
                                         ~ "`; use an atomic SQL type name such as int, string, decimal(10,2)") }}
    {%- endif -%}
    {%- do types.update({c: t | string}) -%}
    {%- if c not in key -%}{%- do attrs.append(c) -%}{%- endif -%}
  {%- endfor -%}
  {%- for k in key if k not in types -%}
    {{ exceptions.raise_compiler_error(at ~ ": key column `" ~ k ~ "` is not among `columns`") }}
  {%- endfor -%}
  {%- set d = {
      'audit_columns': {'position': 'updated_at', 'ops': {}},
      'log_based': {'position': 'seq', 'op': 'op', 'before': 'before', 'ops': {'I': 'ins', 'U': 'upd', 'D': 'del'}},
      'log_net_effect': {'position': 'seq', 'op': 'op', 'ops': {'U': 'ups', 'D': 'del'}},
      'change_tracking': {'position': 'version', 'op': 'op', 'ops': {'I': 'ins', 'U': 'up', 'D': 'delk'}},
      'sqlserver_change_tracking': {'position': 'SYS_CHANGE_VERSION', 'op': 'SYS_CHANGE_OPERATION',
                                    'ops': {'I': 'ins', 'U': 'up', 'D': 'delk'}},
      'snapshot_diff': {'position': 'snapshot_id', 'ops': {}},
      'debezium_postgres_default': {'position': 'offset', 'seq': '$.source.lsn',
                                    'ops': {'c': 'ins', 'r': 'ups', 'u': 'up', 'd': 'delk'}},
      'debezium_postgres_full': {'position': 'offset', 'seq': '$.source.lsn',
                                 'ops': {'c': 'ins', 'r': 'ups', 'u': 'upd', 'd': 'del'}},
      'debezium_mysql_minimal': {'position': 'offset', 'ops': {'c': 'ins', 'r': 'ups', 'u': 'up', 'd': 'delk'}},
      'upsert_feed': {'position': 'offset', 'ops': {}},
      'delta_cdf': {'position': '_commit_version', 'ops': {}},
      'sqlserver_cdc_net': {'position': '__$start_lsn', 'op': '__$operation', 'ops': {'1': 'del', '5': 'ups'}},
  }[fmt] -%}
  {%- set position = decl.get('position', d['position']) -%}
  {%- set m = {
      'raw': decl['raw'], 'format': fmt, 'technique': formats[fmt]['technique'], 'sets': formats[fmt]['sets'],
      'key': key, 'attrs': attrs, 'types': types, 'position': position,
      'seq': decl.get('seq', d.get('seq', position)),
      'op': decl.get('op', d.get('op')), 'ops': decl.get('ops', d['ops']),
      'current': decl.get('current'), 'before': decl.get('before', d.get('before')),
      'value': decl.get('value', 'value'), 'key_json': decl.get('key_json', 'key'),
      'inserted_at': decl.get('inserted_at', 'inserted_at'), 'updated_at': decl.get('updated_at', 'updated_at'),
      'deleted': decl.get('deleted'), 'snapshot': decl.get('snapshot', position),
      'unavailable': decl.get('unavailable_value', '__debezium_unavailable_value') if fmt.startswith('debezium_')
                     else none,
      'quarantine_max_rows': decl.get('quarantine_max_rows'),
      'quarantine_max_fraction': decl.get('quarantine_max_fraction'),
      'late_records': decl.get('late_records', 'fail'),
  } -%}
  {%- do m.update(pdelta.capture_source_time(decl, fmt, at)) -%}
  {%- if m['late_records'] not in ['fail', 'warn'] -%}
    {{ exceptions.raise_compiler_error(at ~ ": late_records must be 'fail' or 'warn', got '" ~ m['late_records']
                                       ~ "'") }}
  {%- endif -%}
  {%- for code, t in m['ops'].items() if t not in formats[fmt]['records'] -%}
    {{ exceptions.raise_compiler_error(at ~ ": op `" ~ code ~ "` maps to `" ~ t ~ "`, which a record of format " ~ fmt
                                       ~ " cannot be (" ~ formats[fmt]['records'] | join(', ') ~ ")") }}
  {%- endfor -%}
  {%- if fmt in ['change_tracking', 'sqlserver_change_tracking'] and not m['current'] -%}
    {{ exceptions.raise_compiler_error(at ~ ": format " ~ fmt
         ~ " needs `current`, the table holding the current rows the changes are joined to") }}
  {%- endif -%}
  {#- raw columns that carry no data of the relation: never an unknown column -#}
  {%- set meta = [position, m['op'], m['before'], m['inserted_at'], m['updated_at'], m['deleted'], m['snapshot'],
                  '_change_type', '_commit_version', '_commit_timestamp', '__$start_lsn', '__$end_lsn', '__$seqval',
                  '__$operation', '__$update_mask', '__$command_id', 'SYS_CHANGE_VERSION',
                  'SYS_CHANGE_CREATION_VERSION', 'SYS_CHANGE_OPERATION', 'SYS_CHANGE_COLUMNS', 'SYS_CHANGE_CONTEXT']
                  + (decl.get('ignore_columns') or []) -%}
  {%- if m['seq'] and not (m['seq'] | string).startswith('$') -%}{%- do meta.append(m['seq']) -%}{%- endif -%}
  {%- if m['source_time'] and not m['source_time'].startswith('$') -%}
    {%- do meta.append(m['source_time']) -%}
  {%- endif -%}
  {%- do m.update({'meta': meta | reject('none') | list}) -%}
  {{ return(m) }}
{% endmacro %}
