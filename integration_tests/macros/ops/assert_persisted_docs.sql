{#- persist_docs check (run by the test suite through `dbt run-operation`): the model's table has
    its description as the table comment and each documented column's description as the column
    comment, as `describe table extended` shows them, or the operation raises. -#}
{% macro assert_persisted_docs(model_name) %}
  {%- set relation = ref(model_name) -%}
  {%- set node = graph.nodes.values() | selectattr('resource_type', 'equalto', 'model')
                                      | selectattr('name', 'equalto', model_name) | first -%}
  {%- set got = {'table': none, 'columns': {}} -%}
  {%- set ns = namespace(detail=false) -%}
  {%- for row in run_query('describe table extended ' ~ relation).rows -%}
    {%- if row[0] is string and row[0].startswith('# ') -%}{%- set ns.detail = true -%}
    {%- elif ns.detail and row[0] == 'Comment' -%}{%- do got.update({'table': row[1]}) -%}
    {%- elif not ns.detail and row[0] -%}{%- do got['columns'].update({row[0] | lower: row[2]}) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set wrong = [] -%}
  {%- if got['table'] != node.description -%}
    {%- do wrong.append('table comment ' ~ got['table'] ~ ', expected ' ~ node.description) -%}
  {%- endif -%}
  {%- for name, col in node.columns.items() if col.description -%}
    {%- if got['columns'].get(name | lower) != col.description -%}
      {%- do wrong.append('column ' ~ name ~ ' comment ' ~ got['columns'].get(name | lower)
                          ~ ', expected ' ~ col.description) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if wrong -%}{{ exceptions.raise_compiler_error(relation ~ ': ' ~ wrong | join('; ')) }}{%- endif -%}
  {{ log('pdelta: ' ~ relation ~ ' carries its docs: the table comment and ' ~ node.columns | length
         ~ ' column comment(s)', info=true) }}
{% endmacro %}
