{#- The change sets that a dimension view declared self-maintainable (`pdelta_self_maintainable:
    true` in its config) cannot apply from the view and the change alone, as rows (model,
    relation, change_set, reads, needs, why): a singular data test over every view is

      {{ pdelta.self_maintainability_claims_sql() }}

    (tests/dbt/dimension_views_self_maintainable.sql). The verdicts are
    maintainability_verdicts'; `pdelta validate` refuses the same claims before anything runs.
    No table is read: the rows are literals, none when every claim holds. -#}
{% macro self_maintainability_claims_sql() %}
  {%- set rows = [] -%}
  {%- if execute -%}
    {%- set views = [] -%}{%- set plans = {} -%}
    {%- for node in graph.nodes.values() if node.resource_type == 'model'
          and node.config.materialized == 'dimension_view' and node.package_name == project_name -%}
      {%- do views.append(node) -%}
      {%- do plans.update({node.name: node.config.get('pdelta_plan') or 'diff'}) -%}
    {%- endfor -%}
    {%- for node in views if node.config.get('pdelta_self_maintainable') is sameas true -%}
      {%- set view = pdelta.normalize_declaration(node.config.get('pdelta'), node.name) -%}
      {%- for v in pdelta.maintainability_verdicts(view, plans) if v['reads'] != 'view' -%}
        {%- set literals = [] -%}
        {%- for value in [node.name, v['relation'], v['change_set'], v['reads'], v['needs'] | join('; '), v['why']] -%}
          {%- do literals.append(pdelta.sql_literal(value)) -%}
        {%- endfor -%}
        {%- do rows.append('(' ~ literals | join(', ') ~ ')') -%}
      {%- endfor -%}
    {%- endfor -%}
  {%- endif -%}
  {%- if rows -%}
    {{ return('select * from values ' ~ rows | join(',\n  ')
              ~ '\nas claims(model, relation, change_set, reads, needs, why)') }}
  {%- endif -%}
  {%- set columns = [] -%}
  {%- for name in ['model', 'relation', 'change_set', 'reads', 'needs', 'why'] -%}
    {%- do columns.append('cast(null as string) as ' ~ name) -%}
  {%- endfor -%}
  {{ return('select ' ~ columns | join(', ') ~ ' where false') }}
{% endmacro %}
