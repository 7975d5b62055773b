{#- Tables pdelta keeps beside a maintained relation `x`:
      x__pdelta_changes  its change feed (canonical partial deltas, _pdelta_seq = batch id)
      x__pdelta_batches  one row per input per refresh: the feed range consumed and counts
      x__pdelta_stage    the last refresh's six-set changes, before they are applied -#}
{% macro meta_relation(relation, kind) %}
  {{ return(relation.incorporate(path={'identifier': relation.identifier ~ '__pdelta_' ~ kind}, type='table')) }}
{% endmacro %}

{% macro relation_exists(relation) %}
  {{ return(adapter.get_relation(database=relation.database, schema=relation.schema, identifier=relation.identifier) is not none) }}
{% endmacro %}

{#- upper bound of a refresh: the feed's highest sequence now (none for an empty feed) -#}
{% macro feed_high_watermark(changes) %}
  {%- set r = run_query('select max(`_pdelta_seq`) from ' ~ changes) -%}
  {%- set v = r.columns[0].values()[0] -%}
  {{ return(none if v is none else v | int) }}
{% endmacro %}

{#- last consumed sequence per input alias, from the batch log -#}
{% macro consumed_watermarks(batches) %}
  {%- set r = run_query('select `input`, max(`hi`) from ' ~ batches ~ ' group by `input`') -%}
  {%- set wm = {} -%}
  {%- for row in r.rows -%}{%- do wm.update({row[0]: (none if row[1] is none else row[1] | int)}) -%}{%- endfor -%}
  {{ return(wm) }}
{% endmacro %}

{% macro last_batch_id(batches) %}
  {%- set r = run_query('select max(`batch_id`) from ' ~ batches) -%}
  {%- set v = r.columns[0].values()[0] -%}
  {{ return(-1 if v is none else v | int) }}
{% endmacro %}

{% macro sql_literal(value) %}
  {%- if value is none -%}null
  {%- elif value is number -%}{{ value }}
  {%- else -%}'{{ value | string | replace('\\', '\\\\') | replace("'", "\\'") }}'
  {%- endif -%}
{% endmacro %}

{#- the batch log: one row per input per refresh, the feed range consumed and the counts -#}
{% macro create_batch_log(batches) %}
  {%- call statement('create_batches') -%}
    create or replace table {{ batches }}
      (`batch_id` bigint, `input` string, `changes` string, `lo` bigint, `hi` bigint,
       `counts` string, `mode` string, `recorded_at` timestamp)
    using delta
  {%- endcall -%}
{% endmacro %}

{#- rows per change type in a staged batch (a relation or a parenthesized query), as {type: count} -#}
{% macro change_counts(stage) %}
  {%- set counts = {} -%}
  {%- for row in run_query('select `_pdelta_type`, count(*) from ' ~ stage ~ ' group by 1').rows -%}
    {%- do counts.update({row[0]: row[1] | int}) -%}
  {%- endfor -%}
  {{ return(counts) }}
{% endmacro %}
