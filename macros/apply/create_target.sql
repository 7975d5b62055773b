{#- The full build of a maintained relation in its file format: Delta (optionally CLUSTER BY
    the key, so MERGE conditions on the key skip files), Iceberg / Hudi as tables of that
    format, or a plain file format partitioned by the key bucket `pdelta_bucket` that
    `apply_bucket_overwrite_sql` rewrites. A view at the target's name (a model that was a dbt
    `view` before) is dropped first: no table statement replaces a view; an existing table is
    replaced in one statement (create_table_verb). Returns the statements as [{name, sql}]. -#}
{% macro create_target_statements(target, select_sql, key, opts) %}
  {{ return(adapter.dispatch('create_target_statements', 'pdelta')(target, select_sql, key, opts)) }}
{% endmacro %}

{% macro default__create_target_statements(target, select_sql, key, opts) %}
  {%- set q = adapter.quote -%}
  {%- set drop_view = pdelta.drop_view_at_target(target) -%}
  {%- set keys = [] -%}{%- for k in key -%}{%- do keys.append(q(k)) -%}{%- endfor -%}
  {%- if opts['merge'] -%}
    {%- set sql -%}
      {{ pdelta.create_table_verb(target) }} {{ target }} using {{ opts['format'] }}
      {%- if opts['cluster_by_key'] and opts['format'] == 'delta' %} cluster by ({{ keys | join(', ') }}){% endif %}
      {{- pdelta._tblproperties_clause(opts) }}
      as {{ select_sql }}
    {%- endset -%}
    {{ return(drop_view + [{'name': 'main', 'sql': sql}]) }}
  {%- else -%}
    {%- set sql -%}
      create table {{ target }} using {{ opts['format'] }}
      partitioned by (`pdelta_bucket`)
      options ('partitionOverwriteMode' = 'dynamic')
      {{- pdelta._tblproperties_clause(opts) }}
      as select *, {{ pdelta.bucket_expr(key, opts['buckets']) }} as `pdelta_bucket` from ({{ select_sql }}) as built
    {%- endset -%}
    {%- set drop_target = drop_view or [{'name': 'drop_target', 'sql': 'drop table if exists ' ~ target}] -%}
    {{ return(drop_target + [{'name': 'main', 'sql': sql}]) }}
  {%- endif -%}
{% endmacro %}

{#- dbt-spark's `tblproperties` config as a clause (apply_options checked the literals) -#}
{% macro _tblproperties_clause(opts) %}
  {#- pdelta's own properties under the model's (own_table_properties), on a Delta target -#}
  {%- set props = {} -%}
  {%- if opts['format'] == 'delta' -%}{%- do props.update(pdelta.own_table_properties()) -%}{%- endif -%}
  {%- do props.update(opts.get('tblproperties') or {}) -%}
  {%- if props %} tblproperties ({% for k, v in props.items() %}'{{ k }}' = '{{ v | string | lower
        if v is sameas true or v is sameas false else v }}'{% if not loop.last %}, {% endif %}{% endfor %}){% endif -%}
{% endmacro %}
