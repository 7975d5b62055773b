{#- The SQL of an array of at most `count` keys of `source`'s column `key_column` (quoted), for
    the batch summary's `key_list` (batch_summary_statements), evaluated in the summary's own
    aggregate over `source`'s keys (one row per key). Spark 4.2's `min_by(k, k, count)` keeps the
    `count` smallest keys in a bounded heap during that one scan (one heap: in an aggregate with
    a count(distinct ...) Spark would keep one per key). Databricks keeps the portable form, a second bounded
    scan (`LIMIT count`), since its runtimes before Spark 4.2 have no `min_by` with a count. -#}
{% macro bounded_key_list_sql(source, key_column, count) %}
  {{ return(adapter.dispatch('bounded_key_list_sql', 'pdelta')(source, key_column, count)) }}
{% endmacro %}

{% macro default__bounded_key_list_sql(source, key_column, count) %}
  {{ return('min_by(' ~ key_column ~ ', ' ~ key_column ~ ', ' ~ count ~ ')') }}
{% endmacro %}

{% macro databricks__bounded_key_list_sql(source, key_column, count) %}
  {{ return('(select collect_list(' ~ key_column ~ ') from (select ' ~ key_column ~ ' from ' ~ source
            ~ ' limit ' ~ count ~ '))') }}
{% endmacro %}
