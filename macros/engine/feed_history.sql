{#- What a user's Delta feed went through since the commit a refresh last scanned (`since`:
    {version, at}, its version and commit time): {version, at: its latest commit now; appends_only:
    every commit after `since` only added rows (a blind append) or rewrote files keeping every
    row}, from `describe history` (the Delta log; no rows read). appends_only is false without
    `since`, when `since` is not among the last `limit` commits, or when its commit time differs
    (the table was dropped and created again, its versions counting anew).

    It lets feed_scans leave out the rows a refresh consumed before: after blind appends they are
    the rows the batch log recorded, with the count and hash sum recorded then (DESIGN §4). -#}
{% macro feed_history(changes, since=none, limit=50) %}
  {%- set result = run_query('describe history ' ~ changes ~ ' limit ' ~ (limit | int)) -%}
  {%- set names = result.column_names | list -%}
  {%- set ns = namespace(version=none, at=none, since_found=false, appends_only=since is not none) -%}
  {%- for row in result.rows -%}
    {%- set version = row[names.index('version')] | int -%}
    {%- set at = row[names.index('timestamp')] | string -%}
    {%- if ns.version is none or version > ns.version -%}
      {%- set ns.version = version -%}{%- set ns.at = at -%}
    {%- endif -%}
    {%- if since is not none and version == since['version'] | int -%}
      {%- set ns.since_found = at == since['at'] -%}
    {%- elif since is not none and version > since['version'] | int
          and not (row[names.index('isBlindAppend')] in [true, 'true']
                   or row[names.index('operation')] in pdelta.row_preserving_operations()) -%}
      {%- set ns.appends_only = false -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return({'version': ns.version, 'at': ns.at, 'appends_only': ns.appends_only and ns.since_found}) }}
{% endmacro %}

{#- Delta operations that rewrite files or metadata and keep every row as it was -#}
{% macro row_preserving_operations() %}
  {{ return(['OPTIMIZE', 'VACUUM START', 'VACUUM END', 'SET TBLPROPERTIES', 'UNSET TBLPROPERTIES']) }}
{% endmacro %}
