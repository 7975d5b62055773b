{#- How a maintained relation is written, from its model config:
      file_format      dbt's own config: delta (default), iceberg, hudi -> MERGE path;
                       parquet (or another plain file format) -> affected key buckets overwritten
      pdelta_apply     {buckets: 16, prune: true, cluster_by_key: false, upsert: delete_insert}
                         buckets         bucket count of a plain-file target (`pdelta_bucket` =
                                         pmod(hash(key), buckets), its partition column)
                         prune           MERGE / delete conditions carry the batch's key range
                                         so Delta can skip files by their min/max statistics
                         cluster_by_key  Delta targets are created CLUSTER BY the key
                         upsert          how a batch with updates reaches a MERGE-capable target:
                                         delete_insert (a DELETE of the batch's keys,
                                         then an INSERT of the new images) or merge (one MERGE;
                                         the target's own change data feed then records updates
                                         as update images instead of delete + insert)
      pdelta_history   {type: scd2, tracked: [columns]} keeps <model>__pdelta_history
      tblproperties    dbt-spark's own config: table properties of the created target, e.g.
                       {'delta.enableDeletionVectors': 'true'} so a MERGE marks the rows it
                       replaces instead of rewriting every file a batch's keys touch -#}
{% macro apply_options(cfg, attrs) %}
  {%- set errors = pdelta.apply_option_errors(cfg, attrs) -%}
  {%- if errors -%}{{ exceptions.raise_compiler_error(errors | join('; ')) }}{%- endif -%}
  {%- set fmt = (cfg.get('file_format') or 'delta') | lower -%}
  {%- set a = cfg.get('pdelta_apply') or {} -%}
  {%- set h = cfg.get('pdelta_history') -%}
  {%- set history = none -%}
  {%- if h -%}
    {%- if h is string -%}{%- set h = {'type': h} -%}{%- endif -%}
    {%- set history = {'type': 'scd2', 'tracked': h.get('tracked') or attrs} -%}
  {%- endif -%}
  {{ return({'format': fmt, 'merge': fmt in ['delta', 'iceberg', 'hudi'], 'buckets': a.get('buckets', 16) | int,
             'prune': a.get('prune', true), 'cluster_by_key': a.get('cluster_by_key', false),
             'history': history, 'tblproperties': cfg.get('tblproperties') or {},
             'upsert': a.get('upsert', 'delete_insert')}) }}
{% endmacro %}
