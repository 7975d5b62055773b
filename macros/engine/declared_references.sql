{#- Whether the relation a declaration names (`spec`, as resolve_relation takes it) declares every
    value of its column `column` present in column `to_column` of the relation `to_spec` names: a
    dbt `relationships` data test on the column, read from dbt's graph (no statement). An
    inclusion dependency of a view's join (maintainability_verdicts); python/pdelta/project.py
    `references` reads the same. Feeds of views and relations dbt does not know declare none. -#}
{% macro declared_references(spec, column, to_spec, to_column) %}
  {%- set node = pdelta.graph_node_of(spec) -%}
  {%- set target = pdelta.graph_node_of(to_spec) -%}
  {%- if node is none or target is none or node.unique_id == target.unique_id -%}{{ return(false) }}{%- endif -%}
  {%- for t in graph.nodes.values() if t.resource_type == 'test' and t.test_metadata
        and t.test_metadata.name == 'relationships' and t.attached_node == node.unique_id
        and (t.column_name or '') | lower == column | lower
        and (t.test_metadata.kwargs.get('field') or '') | lower == to_column | lower
        and target.unique_id in t.depends_on.nodes -%}
    {{ return(true) }}
  {%- endfor -%}
  {{ return(false) }}
{% endmacro %}
