{#- The columns of `columns` that the relation a declaration names (`spec`, as resolve_relation
    takes it) declares not null: a `not_null` data test on the column or a `not_null` column
    constraint, read from dbt's graph (no statement). A change feed's `del` must carry these
    (the feed contract's `feed-del-image`); python/pdelta/project.py `not_null` reads the same.
    Feeds of views (`feed_of`) and relations dbt does not know give none. -#}
{% macro declared_not_null(spec, columns) %}
  {%- set found = [] -%}
  {%- if spec is string or (spec is mapping and 'ref' in spec) -%}
    {%- set name = spec if spec is string else spec['ref'] -%}
    {%- for n in graph.nodes.values() if n.resource_type in ['model', 'seed', 'snapshot'] and n.name == name -%}
      {%- do found.append(n) -%}
    {%- endfor -%}
    {%- set own = found | selectattr('package_name', 'equalto', project_name) | list -%}
    {%- set found = own or found -%}
  {%- elif spec is mapping and 'feed_of' in spec -%}
    {{ return([]) }}
  {%- else -%}
    {%- set pair = spec['source'] if spec is mapping else spec -%}
    {%- for s in graph.sources.values() if s.source_name == pair[0] and s.name == pair[1] -%}{%- do found.append(s) -%}{%- endfor -%}
  {%- endif -%}
  {{ return(pdelta.not_null_columns(found[0], columns) if found else []) }}
{% endmacro %}

{#- the columns of `columns` that graph node `node` declares not null (tests, constraints) -#}
{% macro not_null_columns(node, columns) %}
  {%- set declared = [] -%}
  {%- for name, col in (node.columns or {}).items() -%}
    {%- for c in col.constraints or [] if c.type == 'not_null' -%}{%- do declared.append(name | lower) -%}{%- endfor -%}
  {%- endfor -%}
  {#- a source's tests have no attached_node: they depend on the source alone -#}
  {%- for t in graph.nodes.values() if t.resource_type == 'test' and t.test_metadata and t.test_metadata.name == 'not_null'
        and t.column_name and (t.attached_node or (t.depends_on.nodes | first if t.depends_on.nodes | length == 1 else none)) == node.unique_id -%}
    {%- do declared.append(t.column_name | lower) -%}
  {%- endfor -%}
  {%- set out = [] -%}
  {%- for c in columns if c | lower in declared -%}{%- do out.append(c) -%}{%- endfor -%}
  {{ return(out) }}
{% endmacro %}
