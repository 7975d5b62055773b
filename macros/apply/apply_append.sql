{#- Insert-only batch: the new rows are appended; the target is neither read nor rewritten. -#}
{% macro apply_append_sql(target, source, key, attrs, opts) %}
  {{ return(adapter.dispatch('apply_append_sql', 'pdelta')(target, source, key, attrs, opts)) }}
{% endmacro %}

{% macro default__apply_append_sql(target, source, key, attrs, opts) %}
  {%- set names = [] -%}{%- set exprs = [] -%}
  {%- for c in key + attrs -%}
    {%- do names.append(adapter.quote(c)) -%}{%- do exprs.append(adapter.quote(c)) -%}
  {%- endfor -%}
  {%- if not opts['merge'] -%}
    {%- do names.append('`pdelta_bucket`') -%}{%- do exprs.append(pdelta.bucket_expr(key, opts['buckets'])) -%}
  {%- endif -%}
  insert into {{ target }} ({{ names | join(', ') }})
  select {{ exprs | join(', ') }}
  from {{ source }}
  where `_pdelta_type` = 'ins'
{%- endmacro %}
