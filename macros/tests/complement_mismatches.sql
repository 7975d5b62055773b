{#- The complement check over every dimension view of this project in complement mode that exists, in one
    query with one aggregation (the project-wide data test tests/dbt/complements_reconstruct_states.sql): each
    relation row whose count in its state (P_alias now) and in the view and complement's reconstruction differ,
    as (model, relation, side: `missing` from the reconstruction or `extra` in it, row: JSON, n: by how many).
    The reconstruction counts a row held by view rows once however many hold it, plus each rest row: no
    `distinct` (a shuffle per relation) before the one aggregation. No row when each complement gives back its
    relations. -#}
{% macro complement_mismatches_sql() %}
  {%- set parts = [] -%}
  {%- for node in (graph.nodes.values() if execute else []) if node.resource_type == 'model'
        and node.config.materialized == 'dimension_view' and node.package_name == project_name
        and node.config.get('pdelta_complement') is sameas true -%}
    {%- set target = adapter.get_relation(database=node.database, schema=node.schema, identifier=node.alias) -%}
    {%- if target is not none -%}
      {%- set view = pdelta.normalize_declaration(node.config.get('pdelta'), node.name) -%}
      {%- do parts.extend(pdelta.complement_check_rows(target, view, node.name)) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if not parts -%}
    {{ return('select cast(null as string) as model, cast(null as string) as relation, cast(null as string) as side,'
              ~ ' cast(null as string) as row, 0 as n where false') }}
  {%- endif -%}
  {{ return('select model, relation, case when in_state > rebuilt then \'missing\' else \'extra\' end as side, row,'
            ~ ' abs(in_state - rebuilt) as n\nfrom (select model, relation, row,'
            ~ ' count_if(part = \'state\') as in_state,'
            ~ ' least(count_if(part = \'held\'), 1) + count_if(part = \'rest\') as rebuilt\n  from ('
            ~ parts | join('\nunion all\n') ~ ')\n  group by model, relation, row)\nwhere in_state <> rebuilt') }}
{% endmacro %}
