{#- The body of a mirror model: a keyed state table kept from a change feed.

      {%- set m = {'changes': 'cust_changes', 'key': ['cid'], 'snapshot': 'cust_initial'} -%}
      {{ config(materialized='mirror', pdelta_mirror=m) }}
      {{ pdelta.mirror(m) }}

    `snapshot` (optional) is the relation's state before the feed's first row. The model
    compiles to the full rebuild: the snapshot with the net effect of the whole feed applied.
    dbt renders this body on every run, a refresh too, and the materialization builds its own
    statements (with the bound it froze), so the body reads no data: the bigint maximum as its
    bound keeps every feed row with a sequence, where reading the feed's highest sequence cost a
    query (two Spark jobs) per run. -#}
{% macro mirror(declaration) %}
  {%- set m = pdelta.normalize_mirror(declaration, model.name) -%}
  {%- set changes = pdelta.resolve_relation(m['changes']) -%}
  {%- set snapshot = pdelta.resolve_relation(m['snapshot']) if m['snapshot'] else none -%}
  {%- if not execute -%}
    select 1 as parse_placeholder
  {%- else -%}
    {%- set attrs = pdelta.mirror_attrs(changes, m['key'], skip=m['source_time']) -%}
    {{ pdelta.mirror_rebuild_sql(changes, snapshot, m['key'], attrs, 9223372036854775807) }}
  {%- endif -%}
{%- endmacro %}

{% macro normalize_mirror(decl, model_name) %}
  {%- set at = "mirror '" ~ model_name ~ "'" -%}
  {%- if decl is not mapping or not decl.get('changes') or not decl.get('key') -%}
    {{ exceptions.raise_compiler_error(at ~ ": config `pdelta_mirror` needs `changes` and `key`") }}
  {%- endif -%}
  {%- for k in decl.keys()
        if k not in ['changes', 'key', 'snapshot', 'technique', 'source_time', 'source', 'heartbeats'] -%}
    {{ exceptions.raise_compiler_error(at ~ ": unknown entry `" ~ k
        ~ "` (allowed: changes, key, snapshot, technique, source_time, source, heartbeats)") }}
  {%- endfor -%}
  {#- source_time: the feed column holding the source's commit time; the mirror consumes its feed up to
      the run's cut of its source (macros/engine/cut_sources.sql) -#}
  {%- if decl.get('source_time') is not none and decl['source_time'] is not string -%}
    {{ exceptions.raise_compiler_error(at ~ ": `source_time` names the feed column holding the source's commit"
        ~ " time (a column name)") }}
  {%- endif -%}
  {%- for k in ['source', 'heartbeats'] if decl.get(k) is not none and not decl.get('source_time') -%}
    {{ exceptions.raise_compiler_error(at ~ ": `" ~ k ~ "` belongs to a feed cut by source time; declare"
        ~ " `source_time` too") }}
  {%- endfor -%}
  {{ return({'changes': decl['changes'], 'key': [decl['key']] if decl['key'] is string else decl['key'] | list,
             'snapshot': decl.get('snapshot'), 'technique': decl.get('technique', 'unknown'),
             'source_time': decl.get('source_time'), 'source': decl.get('source') or 'default'}) }}
{% endmacro %}

{#- the state's attribute columns: the feed's columns less the key, pdelta's own and the source time
    column (`skip`: source_time's, or none) -#}
{% macro mirror_attrs(changes, key, columns=none, skip=none) %}
  {%- set attrs = [] -%}
  {%- for c in (columns if columns is not none else pdelta.state_columns(changes))
        if c[0] not in key and not c[0].startswith('_pdelta_') and (c[0] | lower) != (skip or '') | lower -%}
    {%- do attrs.append(c[0]) -%}
  {%- endfor -%}
  {{ return(attrs) }}
{% endmacro %}

{#- snapshot (or nothing) with the net effect of feed rows up to `hi` applied (less the rows
    `exclude` quarantines: feed_range_sql). `snapshot_gaps`: {column: type} of feed columns the
    snapshot lacks (a column the feed gained after it; mirror_snapshot_gaps): NULL in its rows. -#}
{% macro mirror_rebuild_sql(changes, snapshot, key, attrs, hi, exclude=none, snapshot_gaps={}) %}
  {%- set q = adapter.quote -%}
  {%- set cols = key + attrs -%}
  with feed as (
    {{ pdelta.feed_range_sql(changes, cols + ['_pdelta_before', '_pdelta_type', '_pdelta_seq'], none, hi, exclude) }}
  ), net as (
    {{ pdelta.net_effect_sql('feed', key, attrs) }}
  )
  {%- if snapshot %}
  select
    {%- for c in cols %} {% if c in snapshot_gaps %}cast(null as {{ snapshot_gaps[c] }}) as {{ q(c) }}
    {%- else %}s.{{ q(c) }}{% endif %}{% if not loop.last %},{% endif %}{% endfor %}
  from {{ snapshot }} as s
  left anti join net as n on
    {% for k in key %}s.{{ q(k) }} = n.{{ q(k) }}{% if not loop.last %} and {% endif %}{% endfor %}
  union all
  {%- endif %}
  select {% for k in key %}{{ q(k) }}, {% endfor %}{% for c in attrs %}last_image.{{ q(c) }}
           as {{ q(c) }}{% if not loop.last %}, {% endif %}{% endfor %}
  from net where `_pdelta_type` in ('ins', 'upd', 'up', 'ups')
{%- endmacro %}

{#- {column: type} of the feed's attribute columns `attrs` (types from `feed_columns`, [[name,
    type]]) that the snapshot lacks: the feed gained them after the snapshot was taken -#}
{% macro mirror_snapshot_gaps(snapshot, attrs, feed_columns) %}
  {%- set have = [] -%}
  {%- for c in pdelta.state_columns(snapshot) -%}{%- do have.append(c[0] | lower) -%}{%- endfor -%}
  {%- set gaps = {} -%}
  {%- for c in feed_columns if c[0] in attrs and (c[0] | lower) not in have -%}
    {%- do gaps.update({c[0]: c[1]}) -%}
  {%- endfor -%}
  {{ return(gaps) }}
{% endmacro %}
