{#- The columns of `columns` that the relation a declaration names (`spec`, as resolve_relation
    takes it) declares not null: a `not_null` data test on the column or a `not_null` column
    constraint, read from dbt's graph (no statement). A change feed's `del` must carry these
    (the feed contract's `feed-del-image`); python/pdelta/project.py `not_null` reads the same.
    Feeds of views (`feed_of`) and relations dbt does not know give none. -#}
{% macro declared_not_null(spec, columns) %}
  {%- set node = pdelta.graph_node_of(spec) -%}
  {{ return([] if node is none else pdelta.not_null_columns(node, columns)) }}
{% endmacro %}

{#- the columns of `columns` that graph node `node` declares not null (tests, constraints) -#}
{% macro not_null_columns(node, columns) %}
  {%- set declared = [] -%}
  {%- for name, col in (node.columns or {}).items() -%}
    {%- for c in col.constraints or [] if c.type == 'not_null' -%}{%- do declared.append(name | lower) -%}{%- endfor -%}
  {%- endfor -%}
  {#- a source's tests have no attached_node: they depend on the source alone -#}
  {%- for t in graph.nodes.values() if t.resource_type == 'test' and t.test_metadata
        and t.test_metadata.name == 'not_null'
        and t.column_name
        and (t.attached_node
             or (t.depends_on.nodes | first if t.depends_on.nodes | length == 1 else none)) == node.unique_id -%}
    {%- do declared.append(t.column_name | lower) -%}
  {%- endfor -%}
  {%- set out = [] -%}
  {%- for c in columns if c | lower in declared -%}{%- do out.append(c) -%}{%- endfor -%}
  {{ return(out) }}
{% endmacro %}
