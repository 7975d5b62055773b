{#- The Delta version a table is at now, from `describe history` (the Delta log's newest commit; no
    rows read). A refresh keeps its view's or mirror's version with each committed batch
    (record_batch), so that a view reading that table as its state reads it as of the batch its
    feed's bound names, not as whatever a later commit made it (state_read). -#}
{% macro table_version(relation) %}
  {%- set newest = run_query('describe history ' ~ relation ~ ' limit 1') -%}
  {{ return(newest.rows[0][0] | int) }}
{% endmacro %}

{#- Whether a dimension view of the project reads model `model_name` as a state (a mirror, or a view
    read through its feed): only then does a commit keep its table's version (record_batch `table`),
    one statement that a table nobody reads as a state does without. A reader added later reads the
    state as it is until the next commit keeps a version. -#}
{% macro read_as_state(model_name) %}
  {%- if not execute -%}{{ return(false) }}{%- endif -%}
  {%- for node in graph.nodes.values()
        if node.resource_type == 'model' and node.config.get('materialized') == 'dimension_view' -%}
    {%- set declaration = node.config.get('pdelta') -%}
    {%- set relations = declaration.get('relations') if declaration is mapping else none -%}
    {%- for spec in (relations.values() if relations is mapping else []) if spec is mapping -%}
      {%- set state = spec.get('state') -%}
      {%- if state == model_name or (state is mapping and state.get('ref') == model_name) -%}
        {{ return(true) }}
      {%- endif -%}
    {%- endfor -%}
  {%- endfor -%}
  {{ return(false) }}
{% endmacro %}
