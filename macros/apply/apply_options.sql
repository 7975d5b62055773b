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
                                         delete_insert (a delete-only MERGE on the batch's keys,
                                         then an INSERT of the new images) or merge (one MERGE;
                                         the target's own change data feed then records updates
                                         as update images instead of delete + insert)
      pdelta_history   {type: scd2, tracked: [columns]} keeps <model>__pdelta_history
      tblproperties    dbt-spark's own config: table properties of the created target, e.g.
                       {'delta.enableDeletionVectors': 'true'} so a MERGE marks the rows it
                       replaces instead of rewriting every file a batch's keys touch -#}
{% macro apply_options(cfg, attrs) %}
  {%- set fmt = (cfg.get('file_format') or 'delta') | lower -%}
  {%- set a = cfg.get('pdelta_apply') or {} -%}
  {%- set h = cfg.get('pdelta_history') -%}
  {%- set history = none -%}
  {%- if h -%}
    {%- if h is string -%}{%- set h = {'type': h} -%}{%- endif -%}
    {%- if (h.get('type') or 'scd2') != 'scd2' -%}
      {{ exceptions.raise_compiler_error("pdelta_history: type must be 'scd2', got '" ~ h.get('type') ~ "'") }}
    {%- endif -%}
    {%- set tracked = h.get('tracked') or attrs -%}
    {%- for c in tracked if c not in attrs -%}
      {{ exceptions.raise_compiler_error("pdelta_history: tracked column `" ~ c ~ "` is not a non-key output column (" ~ attrs | join(', ') ~ ")") }}
    {%- endfor -%}
    {%- set history = {'type': 'scd2', 'tracked': tracked} -%}
  {%- endif -%}
  {%- set buckets = a.get('buckets', 16) | int -%}
  {%- if buckets < 1 -%}{{ exceptions.raise_compiler_error("pdelta_apply: buckets must be a positive integer") }}{%- endif -%}
  {%- set upsert = a.get('upsert', 'delete_insert') -%}
  {%- if upsert not in ['delete_insert', 'merge'] -%}
    {{ exceptions.raise_compiler_error("pdelta_apply: upsert must be 'delete_insert' or 'merge', got '" ~ upsert ~ "'") }}
  {%- endif -%}
  {%- set props = cfg.get('tblproperties') or {} -%}
  {%- if props is not mapping -%}{{ exceptions.raise_compiler_error("tblproperties: expected a mapping of property names to values, got " ~ props) }}{%- endif -%}
  {%- for k, v in props.items() -%}
    {#- property names and values are rendered as SQL string literals; refuse what would break out of one -#}
    {%- if "'" in (k | string) or "\\" in (k | string) or "'" in (v | string) or "\\" in (v | string) -%}
      {{ exceptions.raise_compiler_error("tblproperties: `" ~ k ~ "` = `" ~ v ~ "` contains a quote or backslash, which a table property cannot carry here") }}
    {%- endif -%}
  {%- endfor -%}
  {{ return({'format': fmt, 'merge': fmt in ['delta', 'iceberg', 'hudi'], 'buckets': buckets,
             'prune': a.get('prune', true), 'cluster_by_key': a.get('cluster_by_key', false),
             'history': history, 'tblproperties': props, 'upsert': upsert}) }}
{% endmacro %}
