{#- What is wrong with a maintained relation's `pdelta_apply`, `pdelta_history` and
    `tblproperties` config: a list of messages, empty when nothing is. apply_options refuses
    the run on the first; `pdelta validate` reports the same messages before anything runs
    (python/pdelta/options.py; tests/test_options.py keeps the two in step). `attrs`: the
    relation's non-key columns, which history may track. -#}
{% macro apply_option_errors(cfg, attrs) %}
  {%- set known = ['buckets', 'cluster_by_key', 'prune', 'upsert'] -%}
  {%- set out = [] -%}
  {%- set a = cfg.get('pdelta_apply') -%}
  {%- if a is not none and a is not mapping -%}
    {%- do out.append("pdelta_apply: expected a mapping of options (" ~ known | join(', ') ~ "), got " ~ a) -%}
    {%- set a = {} -%}
  {%- endif -%}
  {%- set a = a or {} -%}
  {%- for k in a | sort if k not in known -%}
    {%- do out.append("pdelta_apply: unknown option `" ~ k ~ "` (known: " ~ known | join(', ') ~ ")") -%}
  {%- endfor -%}
  {%- if 'buckets' in a and not (a['buckets'] is integer and a['buckets'] >= 1) -%}
    {%- do out.append("pdelta_apply: buckets must be a positive integer, got " ~ a['buckets']) -%}
  {%- endif -%}
  {%- for k in ['prune', 'cluster_by_key'] if k in a and a[k] is not boolean -%}
    {%- do out.append("pdelta_apply: " ~ k ~ " must be true or false, got " ~ a[k]) -%}
  {%- endfor -%}
  {%- if 'upsert' in a and a['upsert'] not in ['delete_insert', 'merge'] -%}
    {%- do out.append("pdelta_apply: upsert must be 'delete_insert' or 'merge', got '" ~ a['upsert'] ~ "'") -%}
  {%- endif -%}
  {%- set h = cfg.get('pdelta_history') -%}
  {%- if h -%}
    {%- if h is string -%}{%- set h = {'type': h} -%}{%- endif -%}
    {%- if h is not mapping -%}
      {%- do out.append("pdelta_history: expected 'scd2' or a mapping {type: scd2, tracked: [columns]}, got " ~ h) -%}
    {%- else -%}
      {%- if (h.get('type') or 'scd2') != 'scd2' -%}
        {%- do out.append("pdelta_history: type must be 'scd2', got '" ~ h.get('type') ~ "'") -%}
      {%- endif -%}
      {%- for c in h.get('tracked') or [] if c not in attrs -%}
        {%- do out.append("pdelta_history: tracked column `" ~ c ~ "` is not a non-key output column ("
                          ~ attrs | join(', ') ~ ")") -%}
      {%- endfor -%}
    {%- endif -%}
  {%- endif -%}
  {%- set props = cfg.get('tblproperties') or {} -%}
  {%- if props is not mapping -%}
    {%- do out.append("tblproperties: expected a mapping of property names to values, got " ~ props) -%}
  {%- else -%}
    {%- for k, v in props.items() -%}
      {#- rendered as SQL string literals: refuse what would break out of one -#}
      {%- if "'" in (k | string) or "\\" in (k | string) or "'" in (v | string) or "\\" in (v | string) -%}
        {%- do out.append("tblproperties: `" ~ k ~ "` = `" ~ v
                          ~ "` contains a quote or backslash, which a table property cannot carry here") -%}
      {%- endif -%}
    {%- endfor -%}
  {%- endif -%}
  {{ return(out) }}
{% endmacro %}
