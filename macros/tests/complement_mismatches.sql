{#- complement_mismatch_sql over every dimension view of this project in complement mode that exists, in one
    query (the project-wide data test tests/dbt/complements_reconstruct_states.sql); no row when each complement
    gives back its relations -#}
{% macro complement_mismatches_sql() %}
  {%- set parts = [] -%}
  {%- for node in (graph.nodes.values() if execute else []) if node.resource_type == 'model'
        and node.config.materialized == 'dimension_view' and node.package_name == project_name
        and node.config.get('pdelta_complement') is sameas true -%}
    {%- set target = adapter.get_relation(database=node.database, schema=node.schema, identifier=node.alias) -%}
    {%- if target is not none -%}
      {%- set view = pdelta.normalize_declaration(node.config.get('pdelta'), node.name) -%}
      {%- do parts.append(pdelta.complement_mismatch_sql(target, view, node.name)) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(parts | join('\nunion all\n') if parts else 'select cast(null as string) as model, cast(null as string)'
            ~ ' as relation, cast(null as string) as side, cast(null as string) as row where false') }}
{% endmacro %}
