{#- Plain file formats (parquet, orc) have no MERGE or DELETE: the target is partitioned by a
    bucket of its key and a batch rewrites only the buckets its keys fall in (dynamic partition
    overwrite): the bucket's rows minus the batch's keys, plus the batch's new images. A bucket
    left with no row is not rewritten by a dynamic overwrite, so it is dropped afterwards
    (`apply_changes` asks `empty_buckets_sql` which). Cost: every affected bucket is read and
    rewritten whole, about (affected buckets / buckets) of the table. Idempotent. -#}
{% macro bucket_expr(key, buckets, alias=none) %}
  {%- set cols = [] -%}
  {%- for k in key -%}{%- do cols.append((alias ~ '.' if alias else '') ~ adapter.quote(k)) -%}{%- endfor -%}
  {{ return('pmod(hash(' ~ cols | join(', ') ~ '), ' ~ (buckets | int) ~ ')') }}
{% endmacro %}

{% macro apply_bucket_overwrite_sql(target, source, key, attrs, opts) %}
  {{ return(adapter.dispatch('apply_bucket_overwrite_sql', 'pdelta')(target, source, key, attrs, opts)) }}
{% endmacro %}

{% macro default__apply_bucket_overwrite_sql(target, source, key, attrs, opts) %}
  {%- set q = adapter.quote -%}
  {%- set cols = [] -%}{%- for c in key + attrs -%}{%- do cols.append(q(c)) -%}{%- endfor -%}
  insert overwrite table {{ target }} partition (`pdelta_bucket`)
  select {{ cols | join(', ') }}, `pdelta_bucket` from (
    select {% for c in cols %}t.{{ c }}, {% endfor %}t.`pdelta_bucket`
    from {{ target }} as t
    left anti join {{ source }} as s
      on {% for k in key %}t.{{ q(k) }} = s.{{ q(k) }}{% if not loop.last %} and {% endif %}{% endfor %}
    where t.`pdelta_bucket` in (select distinct {{ pdelta.bucket_expr(key, opts['buckets']) }} from {{ source }})
    union all
    select {% for c in cols %}{{ c }}, {% endfor %}{{ pdelta.bucket_expr(key, opts['buckets']) }}
    from {{ source }}
    where `_pdelta_type` in ('ins', 'upd', 'up', 'ups')
  ) as rewritten
{%- endmacro %}

{#- affected buckets that hold no row after the overwrite: every row left in them is a key the
    batch deletes (a bucket with any surviving row was rewritten without the deleted keys) -#}
{% macro empty_buckets_sql(target, source, key, opts) %}
  {%- set q = adapter.quote -%}
  select distinct {{ pdelta.bucket_expr(key, opts['buckets']) }} as b from {{ source }}
  except
  select distinct t.`pdelta_bucket`
  from {{ target }} as t
  left anti join (select {% for k in key %}{{ q(k) }}{% if not loop.last %}, {% endif %}{% endfor %}
                  from {{ source }} where `_pdelta_type` in ('del', 'delk')) as d
    on {% for k in key %}t.{{ q(k) }} = d.{{ q(k) }}{% if not loop.last %} and {% endif %}{% endfor %}
  where t.`pdelta_bucket` in (select distinct {{ pdelta.bucket_expr(key, opts['buckets']) }} from {{ source }})
{%- endmacro %}
