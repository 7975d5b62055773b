{#- mirror: a keyed Delta table kept from a change feed (a base relation's new state).
    First run / --full-refresh: the snapshot with the whole feed's net effect applied. Later
    runs: the net effect of the feed rows past the watermark, applied with one MERGE (deletes
    for del/delk, upserts for the rest). The batch log <model>__pdelta_batches records the
    consumed range, so a view can pin the mirror to the feed position it reflects. -#}
{% materialization mirror, adapter='spark' %}
  {%- set m = pdelta.normalize_mirror(config.get('pdelta_mirror'), model.name) -%}
  {%- set target = this.incorporate(type='table') -%}
  {%- set batches = pdelta.meta_relation(this, 'batches') -%}
  {%- set stage = pdelta.meta_relation(this, 'stage') -%}
  {%- set changes = pdelta.resolve_relation(m['changes']) -%}
  {%- set snapshot = pdelta.resolve_relation(m['snapshot']) if m['snapshot'] else none -%}
  {%- set hi = pdelta.feed_high_watermark(changes) -%}
  {%- set attrs = pdelta.mirror_attrs(changes, m['key']) -%}
  {%- set q = adapter.quote -%}
  {%- set full = should_full_refresh() or not pdelta.relation_exists(target) or not pdelta.relation_exists(batches) -%}
  {{ run_hooks(pre_hooks) }}
  {%- if full -%}
    {%- call statement('main') -%}
      create or replace table {{ target }} using delta as
      {{ pdelta.mirror_rebuild_sql(changes, snapshot, m['key'], attrs, hi) }}
    {%- endcall -%}
    {%- do pdelta.create_batch_log(batches) -%}
    {%- set batch_id = 0 -%}{%- set lo = none -%}{%- set counts = {} -%}
  {%- else -%}
    {%- set lo = pdelta.consumed_watermarks(batches).get('changes') -%}
    {%- set batch_id = pdelta.last_batch_id(batches) + 1 -%}
    {%- set counts = {} -%}
    {%- if hi is none or (lo is not none and hi <= lo) -%}
      {%- set hi = lo -%}
      {%- call statement('main') -%} select 'pdelta: no new changes' {%- endcall -%}
    {%- else -%}
      {%- call statement('stage') -%}
        create or replace table {{ stage }} using delta as
        with feed as (
          select {% for c in m['key'] + attrs %}{{ q(c) }}, {% endfor %}`_pdelta_before`, `_pdelta_type`, `_pdelta_seq` from {{ changes }}
          where {% if lo is not none %}`_pdelta_seq` > {{ lo | int }} and {% endif %}`_pdelta_seq` <= {{ hi | int }}
        ), net as (
          {{ pdelta.net_effect_sql('feed', m['key'], attrs) }}
        )
        select {% for k in m['key'] %}{{ q(k) }}, {% endfor %}{% for c in attrs %}last_image.{{ q(c) }} as {{ q(c) }}, {% endfor %}`_pdelta_type`
        from net where `_pdelta_type` is not null
      {%- endcall -%}
      {%- do counts.update(pdelta.change_counts(stage)) -%}
      {%- call statement('main') -%}
        {{ pdelta.apply_changes(target, stage, m['key'], attrs) }}
      {%- endcall -%}
    {%- endif -%}
  {%- endif -%}
  {%- call statement('record_batch') -%}
    insert into {{ batches }} values
    ({{ batch_id | int }}, 'changes', {{ pdelta.sql_literal(changes | string) }}, {{ pdelta.sql_literal(lo) }}, {{ pdelta.sql_literal(hi) }},
     {{ pdelta.sql_literal(tojson(counts)) }}, {{ pdelta.sql_literal('full' if full else 'incremental') }}, current_timestamp())
  {%- endcall -%}
  {{ log('pdelta: mirror ' ~ model.name ~ (' built in full' if full else ' batch ' ~ batch_id ~ ': ' ~ (counts if counts else 'no new changes')), info=true) }}
  {{ run_hooks(post_hooks) }}
  {{ return({'relations': [target]}) }}
{% endmaterialization %}
