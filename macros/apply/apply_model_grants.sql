{#- dbt's `grants` for a relation pdelta maintains (dimension view, mirror, capture), as dbt's
    own table materializations apply them: after the relation is written, through the adapter's
    `apply_grants` (dbt-spark: `show grants` then one `grant` / `revoke` per difference;
    dbt-databricks: Unity Catalog's). `existed`: the relation was there before this run, so the
    grants it holds are read and the ones the config dropped are revoked (`should_revoke`; a
    full build's `create or replace` keeps a Delta table's grants where the catalog does). No
    config, no statement. The relation's change feed, batch log and history get none: grant on
    them with a post-hook where their readers need it. -#}
{% macro apply_model_grants(relation, existed, full) %}
  {%- set grant_config = config.get('grants') -%}
  {%- if grant_config -%}
    {%- set revoke = should_revoke(relation if existed else none, full_refresh_mode=full) -%}
    {%- do apply_grants(relation, grant_config, revoke) -%}
  {%- endif -%}
{% endmacro %}
