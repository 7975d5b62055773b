{#- The relation a declaration's relation spec names, from dbt's graph (graph_node_of: a model, seed or snapshot
    name, {ref: name}, [source, table] or {source: [source, table]}), or none. For the macros that read a relation
    a declaration names outside ref() and source(): a data test's or an operation's, whose dependencies dbt knows
    before they render, and a recorded declaration's, whose relation the current one may no longer name. -#}
{% macro graph_relation(spec) %}
  {%- set node = pdelta.graph_node_of(spec) -%}
  {%- if node is none -%}{{ return(none) }}{%- endif -%}
  {{ return(api.Relation.create(database=node.database, schema=node.schema,
                                identifier=node.identifier if node.resource_type == 'source' else node.alias)) }}
{% endmacro %}
