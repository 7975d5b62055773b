{#- The body of a dimension-view model:

      {%- set view = {...declaration...} -%}
      {{ config(materialized='dimension_view', pdelta=view) }}
      {{ pdelta.dimension_view(view) }}

    Checks the declaration, registers every state and change feed as a dependency (so dbt
    orders the DAG and the manifest shows them), and renders the full-recompute SELECT, which
    is what the model compiles to and what the first run builds. -#}
{% macro dimension_view(declaration) %}
  {#- `pdelta validate` parses with this var set: it checks every view itself and reports all
      problems at once, so nothing here may stop the parse -#}
  {%- if var('pdelta_validate', false) -%}
    {{ return('select 1 as pdelta_validate_placeholder') }}
  {%- endif -%}
  {%- set view = pdelta.normalize_declaration(declaration, model.name) -%}
  {%- for alias in view['order'] -%}
    {%- do pdelta.resolve_relation(view['relations'][alias]['changes']) -%}
  {%- endfor -%}
  {{ pdelta.full_select_sql(view, pdelta.resolved_states(view)) }}
{%- endmacro %}

{#- A relation in a declaration: a model or seed name (ref), [source_name, table_name]
    (source), or {ref: name} / {source: [source_name, table_name]}; {feed_of: view} is the change
    feed another dimension view publishes, so views chain. -#}
{% macro resolve_relation(spec) %}
  {%- if spec is string -%}{{ return(ref(spec)) }}
  {%- elif spec is mapping and 'ref' in spec -%}{{ return(ref(spec['ref'])) }}
  {%- elif spec is mapping and 'feed_of' in spec -%}{{ return(pdelta.meta_relation(ref(spec['feed_of']), 'changes')) }}
  {%- elif spec is mapping and 'source' in spec -%}{{ return(source(spec['source'][0], spec['source'][1])) }}
  {%- elif spec is sequence and spec | length == 2 -%}{{ return(source(spec[0], spec[1])) }}
  {%- else -%}{{ exceptions.raise_compiler_error("pdelta: cannot read relation " ~ spec
        ~ " (use a model name, [source, table], {ref: ...}, {source: [...]} or {feed_of: view})") }}
  {%- endif -%}
{% endmacro %}

{% macro resolved_states(view) %}
  {%- set states = {} -%}
  {%- for alias in view['order'] -%}
    {%- do states.update({alias: pdelta.resolve_relation(view['relations'][alias]['state'])}) -%}
  {%- endfor -%}
  {{ return(states) }}
{% endmacro %}

{#- Full recomputation: the view's SELECT over the current states. `columns`: another select list over
    the same joins (SQL expressions on the aliases; complement_statement) instead of the view's columns. -#}
{% macro full_select_sql(view, states, columns=none) %}
  {%- set q = adapter.quote -%}
  select {% if columns is not none %}{{ columns | join(', ') }}{% else %}
         {%- for o in view['output'] %}{{ q(o[1]) }}.{{ q(o[2]) }} as {{ q(o[0]) }}{% if not loop.last %},
         {% endif %}{% endfor %}{% endif %}
  from {% for alias in view['order'] -%}
    {%- set r = view['relations'][alias] -%}
    {%- if not loop.first %}
  join {% endif -%}
    {%- if r['where'] %}(select * from {{ states[alias] }}
      where ({{ r['where'] }})){% else %}{{ states[alias] }}{% endif %} as {{ q(alias) }}
    {%- if r['join'] %} on {% for p in r['join']['on'] %}{{ q(r['join']['to']) }}.{{ q(p[0]) }}
        = {{ q(alias) }}.{{ q(p[1]) }}{% if not loop.last %} and {% endif %}{% endfor %}{% endif -%}
  {%- endfor %}
{%- endmacro %}
