{#- The keys held by more than one row of any built dimension view of the project, as rows
    (model, key as JSON, n_rows): a singular data test over every view is

      {{ pdelta.duplicate_view_keys_sql() }}

    (tests/dbt/dimension_view_keys_unique.sql). A view is keyed by its declaration's key; a
    refresh must never leave a key twice (docs/dimension-views.md, "The feed contract"). Views
    not built yet are skipped; no view at all gives an empty result. -#}
{% macro duplicate_view_keys_sql() %}
  {%- set parts = [] -%}
  {%- if execute -%}
    {%- for node in graph.nodes.values() if node.resource_type == 'model'
          and node.config.materialized == 'dimension_view'
          and node.package_name == project_name -%}
      {%- set view = pdelta.normalize_declaration(node.config.get('pdelta'), node.name) -%}
      {%- set rel = adapter.get_relation(database=node.database, schema=node.schema, identifier=node.alias) -%}
      {%- if rel is not none -%}
        {%- set shown = [] -%}
        {%- for k in view['key'] -%}
          {%- do shown.append(pdelta.sql_literal(k) ~ ', ' ~ adapter.quote(k)) -%}
        {%- endfor -%}
        {%- do parts.append('select ' ~ pdelta.sql_literal(node.name) ~ ' as model, to_json(named_struct('
              ~ shown | join(', ') ~ ')) as key, count(*) as n_rows from ' ~ rel ~ ' group by '
              ~ pdelta._cols(view['key']) ~ ' having count(*) > 1') -%}
      {%- endif -%}
    {%- endfor -%}
  {%- endif -%}
  {{ return(parts | join('\nunion all\n') if parts
            else 'select cast(null as string) as model, cast(null as string) as key, 0 as n_rows where false') }}
{% endmacro %}
