{#- The file format of a refresh's stage (create_stage). The stage is written once, read by the
    same refresh's summary and apply statements, and dropped by the next refresh: it needs no
    transaction log. On Spark a parquet stage saves each of those reads Delta's per-table file
    listing and snapshot jobs (the paper's refresh: 30 Spark jobs -> 25, measured on 2 cores); a
    MERGE that reads it materializes it first (Delta does so for any source that is not a Delta
    scan), which costs one job. Databricks keeps Delta: Unity Catalog's managed tables are Delta.
    The project variable `pdelta_stage_format` (`parquet` or `delta`) overrides the default. -#}
{% macro stage_format() %}
  {{ return(adapter.dispatch('stage_format', 'pdelta')()) }}
{% endmacro %}

{% macro default__stage_format() %}
  {{ return(pdelta.chosen_stage_format('parquet')) }}
{% endmacro %}

{% macro databricks__stage_format() %}
  {{ return(pdelta.chosen_stage_format('delta')) }}
{% endmacro %}

{#- the project variable `pdelta_stage_format` when set (checked), else `default` -#}
{% macro chosen_stage_format(default) %}
  {%- set chosen = var('pdelta_stage_format', default) -%}
  {%- if chosen not in ['parquet', 'delta'] -%}
    {{ exceptions.raise_compiler_error("pdelta: the variable pdelta_stage_format must be 'parquet' or 'delta', not "
                                       ~ chosen) }}
  {%- endif -%}
  {{ return(chosen) }}
{% endmacro %}
