{#- The node of dbt's graph a declaration's relation spec names (a model, seed or snapshot name,
    {ref: name}, [source, table] or {source: [source, table]}; the project's own node first), or
    none: feeds of views ({feed_of: view}) and relations dbt does not know. -#}
{% macro graph_node_of(spec) %}
  {%- set found = [] -%}
  {%- if spec is string or (spec is mapping and 'ref' in spec) -%}
    {%- set name = spec if spec is string else spec['ref'] -%}
    {%- for n in graph.nodes.values() if n.resource_type in ['model', 'seed', 'snapshot'] and n.name == name -%}
      {%- do found.append(n) -%}
    {%- endfor -%}
    {%- set own = found | selectattr('package_name', 'equalto', project_name) | list -%}
    {{ return((own or found) | first if found else none) }}
  {%- elif spec is mapping and 'feed_of' in spec -%}
    {{ return(none) }}
  {%- endif -%}
  {%- set pair = spec['source'] if spec is mapping else spec -%}
  {%- for s in graph.sources.values() if s.source_name == pair[0] and s.name == pair[1] -%}
    {%- do found.append(s) -%}
  {%- endfor -%}
  {{ return(found | first if found else none) }}
{% endmacro %}
