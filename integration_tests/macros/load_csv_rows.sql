{#- pdelta's seed loader (empty cells NULL, text intact) for this project's seeds, as a project
    that installs pdelta turns it on (docs/use-in-your-project.md, step 2): dbt looks up its own
    macros' adapter implementations in the root project, not in installed packages. -#}
{% macro spark__load_csv_rows(model, agate_table) %}
  {{ return(pdelta.spark__load_csv_rows(model, agate_table)) }}
{% endmacro %}
