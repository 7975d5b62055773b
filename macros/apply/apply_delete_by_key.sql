{#- Delete-only batch (`del`, `delk`): only the key is needed, which is all `delk` carries.
    On Spark a DELETE whose condition is an EXISTS over the batch's keys: Delta 4.4 takes that
    subquery when `spark.databricks.delta.delete.allowExistsSubquery` is on (delete_subquery_setting
    turns it on for the session, in the statement before). It finds the rows to delete with a
    semi-join and marks them (deletion vectors) or rewrites their files, with no MERGE around it:
    0.9-1.6 s and 11 Spark jobs against 2.4-4.9 s and 18 for the delete-only MERGE it replaces
    (1,500 keys spread over a 1M-row table with deletion vectors, 2 cores, three runs each).
    Databricks keeps the delete-only MERGE (its runtimes need no setting for the subquery, but
    this one is not tested there).
    `types`: the six sets whose keys are deleted; none deletes every key of the batch (the
    first statement of delete_insert). -#}
{% macro apply_delete_by_key_sql(target, source, key, range_var=none, types=['del', 'delk']) %}
  {{ return(adapter.dispatch('apply_delete_by_key_sql', 'pdelta')(target, source, key, range_var, types)) }}
{% endmacro %}

{% macro default__apply_delete_by_key_sql(target, source, key, range_var=none, types=['del', 'delk']) %}
  {%- set matches = [] -%}
  {%- for k in key -%}{%- do matches.append('s.' ~ adapter.quote(k) ~ ' = t.' ~ adapter.quote(k)) -%}{%- endfor -%}
  {%- if types -%}{%- do matches.append("s.`_pdelta_type` in ('" ~ types | join("', '") ~ "')") -%}{%- endif -%}
  delete from {{ target }} as t
  where exists (select 1 from {{ source }} as s where {{ matches | join(' and ') }})
  {{- pdelta.key_range_condition('t', key, range_var) }}
{%- endmacro %}

{% macro databricks__apply_delete_by_key_sql(target, source, key, range_var=none, types=['del', 'delk']) %}
  {%- set on = [] -%}
  {%- for k in key -%}{%- do on.append('t.' ~ adapter.quote(k) ~ ' = s.' ~ adapter.quote(k)) -%}{%- endfor -%}
  {%- set only = " where `_pdelta_type` in ('" ~ types | join("', '") ~ "')" if types else '' -%}
  merge into {{ target }} as t
  using (select {{ pdelta._cols(key) }} from {{ source }}{{ only }}) as s
  on {{ on | join(' and ') }}{{ pdelta.key_range_condition('t', key, range_var) }}
  when matched then delete
{%- endmacro %}

{#- The statement that lets the session's Delta DELETE take apply_delete_by_key_sql's EXISTS
    subquery (a session setting, no Spark job), or none where it needs no setting -#}
{% macro delete_subquery_setting() %}
  {{ return(adapter.dispatch('delete_subquery_setting', 'pdelta')()) }}
{% endmacro %}

{% macro default__delete_subquery_setting() %}
  {{ return('set spark.databricks.delta.delete.allowExistsSubquery = true') }}
{% endmacro %}

{% macro databricks__delete_subquery_setting() %}
  {{ return(none) }}
{% endmacro %}
