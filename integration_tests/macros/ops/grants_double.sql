{#- A stand-in for a catalog's grants, for this project's own test lane (open-source Spark has no
    GRANT; Unity Catalog and Hive with authorization do): dbt-spark's grant statements, overridden
    here in the root project, read and write the table `pdelta_grants_double` instead, with the
    columns dbt-spark's `standardize_grants_dict` reads from `show grants`. They are this
    integration project's (the root project of its dbt runs; dbt looks up its own macros in the
    root project only), never the package's: a project that installs pdelta keeps its catalog's
    grants. -#}
{#- the stand-in table, in the schema of the relation whose grants it holds -#}
{% macro _grants_double(relation) %}
  {{ return(api.Relation.create(schema=relation.schema, identifier='pdelta_grants_double')) }}
{% endmacro %}

{#- the stand-in table, created by the first statement that needs it (a model's first build
    grants without reading grants first) -#}
{% macro _ensured_grants_double(relation) %}
  {%- set grants = _grants_double(relation) -%}
  {%- do run_query('create table if not exists ' ~ grants ~ ' (`relation` string, `Principal` string, '
                   ~ '`ActionType` string, `ObjectType` string) using delta') -%}
  {{ return(grants) }}
{% endmacro %}

{% macro spark__get_show_grant_sql(relation) %}
  select `Principal`, `ActionType`, `ObjectType` from {{ _ensured_grants_double(relation) }}
  where `relation` = {{ pdelta.sql_literal(relation | string) }}
{% endmacro %}

{% macro spark__get_grant_sql(relation, privilege, grantees) %}
  insert into {{ _ensured_grants_double(relation) }} values
  ({{ pdelta.sql_literal(relation | string) }}, {{ pdelta.sql_literal(grantees[0]) }},
   {{ pdelta.sql_literal(privilege) }}, 'TABLE')
{% endmacro %}

{% macro spark__get_revoke_sql(relation, privilege, grantees) %}
  delete from {{ _grants_double(relation) }} where `relation` = {{ pdelta.sql_literal(relation | string) }}
    and `Principal` = {{ pdelta.sql_literal(grantees[0]) }} and `ActionType` = {{ pdelta.sql_literal(privilege) }}
{% endmacro %}

{#- the grants the double holds for `model_name` must be exactly `expected` ({privilege: [grantees]}),
    or the operation raises -#}
{% macro assert_grants(model_name, expected) %}
  {%- set relation = ref(model_name) -%}
  {%- set got = {} -%}
  {%- for row in run_query(spark__get_show_grant_sql(relation)).rows -%}
    {%- do got.setdefault(row[1], []).append(row[0]) -%}
  {%- endfor -%}
  {%- for privilege in got -%}{%- do got.update({privilege: got[privilege] | sort}) -%}{%- endfor -%}
  {%- set want = {} -%}
  {%- for privilege, grantees in expected.items() -%}{%- do want.update({privilege: grantees | sort}) -%}{%- endfor -%}
  {%- if got != want -%}
    {{ exceptions.raise_compiler_error(relation ~ ' has the grants ' ~ tojson(got) ~ ', expected ' ~ tojson(want)) }}
  {%- endif -%}
  {{ log('pdelta: ' ~ relation ~ ' has the grants ' ~ tojson(got), info=true) }}
{% endmacro %}
