{#- The statement that clears a view at a target's name (a model that was a dbt `view` before:
    no table statement replaces a view), as [{name, sql}], or [] when no view is there. dbt's
    relation cache knows what is at the name (listed at the start of the run). -#}
{% macro drop_view_at_target(target) %}
  {%- set existing = adapter.get_relation(database=target.database, schema=target.schema,
                                          identifier=target.identifier) -%}
  {%- if existing is none or not existing.is_view -%}{{ return([]) }}{%- endif -%}
  {{ return([{'name': 'drop_view', 'sql': 'drop view if exists ' ~ target, 'relation': existing}]) }}
{% endmacro %}
