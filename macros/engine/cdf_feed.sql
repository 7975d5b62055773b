{#- A mirror's state published as a *complete* change feed through Delta's change data feed.

    A mirror applies partial changes (up, ups, delk) to a keyed Delta table; with the table's
    change data feed on, Delta records every row the MERGE touched with its pre- and
    post-image. `cdf_feed` turns those records into the canonical feed shape (ins, upd with
    `_pdelta_before`, del; `_pdelta_seq` = the Delta commit version), so a dimension view fed by
    the mirror receives complete deltas only (DESIGN.md §4, way (b)).

      -- models/cust_mirror.sql: the hook is one post_hook
      {{ config(materialized='mirror', pdelta_mirror=m,
                post_hook="{{ pdelta.enable_change_data_feed(this) }}") }}
      -- models/cust_cdf.sql: a view over the mirror's change data
      {{ config(materialized='view') }}
      {{ pdelta.cdf_feed(ref('cust_mirror'), ['cid']) }}

    The view reads from the version that switched the change data feed on, which this macro
    looks up when the view is built, at the table's location (also looked up then); a mirror
    rebuilt with --full-refresh needs its cdf view rebuilt too. -#}

{#- turns the change data feed on for a Delta table (idempotent: no commit when already on) -#}
{% macro enable_change_data_feed(relation) %}
  {%- if execute -%}
    {%- set props = run_query('show tblproperties ' ~ relation) -%}
    {%- set on = [] -%}
    {%- for row in props.rows if row[0] == 'delta.enableChangeDataFeed' and (row[1] | lower) == 'true'
        -%}{%- do on.append(1) -%}{%- endfor -%}
    {%- if not on -%}
      {%- do run_query('alter table ' ~ relation ~ ' set tblproperties (delta.enableChangeDataFeed = true)') -%}
    {%- endif -%}
  {%- endif -%}
  select 1
{% endmacro %}

{#- the first version of `relation` from which the change data feed is recorded -#}
{% macro cdf_start_version(relation) %}
  {%- set hist = run_query('describe history ' ~ relation) -%}
  {%- set ns = namespace(v=none) -%}
  {#- history is newest first: the newest commit that turned the feed on (a rebuild of the
      table by `create or replace` turns it off again until its post-hook turns it back on) -#}
  {%- for row in hist.rows if ns.v is none -%}
    {%- set params = row['operationParameters'] | string -%}
    {%- if 'enableChangeDataFeed' in params and 'true' in (params | lower)
        -%}{%- set ns.v = row['version'] | int -%}{%- endif -%}
  {%- endfor -%}
  {%- if ns.v is none -%}
    {{ exceptions.raise_compiler_error("pdelta.cdf_feed: " ~ relation
        ~ " has no change data feed; add post_hook=\"{{ pdelta.enable_change_data_feed(this) }}\" to its model") }}
  {%- endif -%}
  {{ return(ns.v) }}
{% endmacro %}

{#- SELECT of the canonical complete feed of a Delta table with the change data feed on -#}
{% macro cdf_feed(relation, key) %}
  {%- if not execute -%}{{ return('select 1 as parse_placeholder') }}{%- endif -%}
  {%- set q = adapter.quote -%}
  {%- set key = [key] if key is string else key -%}
  {%- set attrs = [] -%}
  {%- for c in adapter.get_columns_in_relation(relation) if c.name not in key
      -%}{%- do attrs.append(c.name) -%}{%- endfor -%}
  {%- set start = pdelta.cdf_start_version(relation) -%}
  {#- by the table's location, not its name: a statement that reads table_changes('<name>')
      and the table itself resolves both to one relation on Spark 4.2 / Delta 4.4 (the table
      read as its change rows, or the reverse); the diff plan reads a mirror and its feed in
      one statement -#}
  {%- set location = run_query('describe detail ' ~ relation).columns['location'].values()[0] -%}
  with c as (
    select * from table_changes_by_path({{ pdelta.sql_literal(location) }}, {{ start | int }})
  ), n as (
    select * from c where `_change_type` in ('insert', 'update_postimage')
  ), o as (
    select * from c where `_change_type` in ('delete', 'update_preimage')
  )
  select {% for k in key %}coalesce(n.{{ q(k) }}, o.{{ q(k) }}) as {{ q(k) }}, {% endfor %}
         {%- for a in attrs %}case when n.`_commit_version` is null then o.{{ q(a) }}
              else n.{{ q(a) }} end as {{ q(a) }}, {% endfor %}
         case when n.`_commit_version` is not null and o.`_commit_version` is not null
              then {% if attrs %}struct({% for a in attrs %}o.{{ q(a) }} as {{ q(a) }}{% if not loop.last %},
                {% endif %}{% endfor %}){% else %}cast(null as struct<`_`: int>){% endif %} end as `_pdelta_before`,
         case when o.`_commit_version` is null then 'ins'
              when n.`_commit_version` is null then 'del' else 'upd' end as `_pdelta_type`,
         cast(coalesce(n.`_commit_version`, o.`_commit_version`) as bigint) as `_pdelta_seq`
  from n full outer join o
    on {% for k in key %}n.{{ q(k) }} = o.{{ q(k) }} and {% endfor %}n.`_commit_version` = o.`_commit_version`
{%- endmacro %}
