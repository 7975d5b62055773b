{#- Whether an earlier run may have written rows of capture batch `batch_id`: its stage is
    marked with that batch id (every attempt stages first), or the stage carries no mark (a
    stage written before the mark existed, or none at all), which is taken as a yes. One metadata
    read, no Spark job. -#}
{% macro capture_attempted(stage, batch_id) %}
  {%- if not pdelta.relation_exists(stage) -%}{{ return(true) }}{%- endif -%}
  {%- for row in run_query('show tblproperties ' ~ stage).rows if row[0] == 'pdelta.batch' -%}
    {{ return(row[1] | int == batch_id | int) }}
  {%- endfor -%}
  {{ return(true) }}
{% endmacro %}
