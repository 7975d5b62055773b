{#- The canonical change feed of one classified batch (capture_classify_sql, staged): the
    records without a quarantine reason, exact repetitions dropped, reduced per key to their net
    effect in sequence order by the shared net table (net_effect_sql; the composition of every
    pair is in docs/capture.md), in the change-feed contract's shape with `_pdelta_seq` = the
    batch id. A delete carries the deleted row (the first before-image), a delk the key only. -#}
{% macro capture_canonical_sql(m, stage, batch_id) %}
  {{ return(adapter.dispatch('capture_canonical_sql', 'pdelta')(m, stage, batch_id)) }}
{% endmacro %}

{% macro default__capture_canonical_sql(m, stage, batch_id) %}
  {%- set q = adapter.quote -%}
  {%- set key, attrs, types = m['key'], m['attrs'], m['types'] -%}
  with events as (
    select {% for k in key %}{{ q(k) }}, {% endfor %}
           {%- for c in attrs %}case when `_op` = 'del' then `_pdelta_before`.{{ q(c) }} when `_op` = 'delk' then null
                                else {{ q(c) }} end as {{ q(c) }}, {% endfor %}
           case when `_op` = 'upd' then `_pdelta_before` end as `_pdelta_before`,
           `_op` as `_pdelta_type`, `_seq` as `_pdelta_seq`
    from {{ stage }}
    where `_reason` is null and not `_dup`
  ), net as (
    {{ pdelta.net_effect_sql('events', key, attrs) }}
  )
  select {% for k in key %}{{ q(k) }}, {% endfor %}
         {%- for c in attrs %}cast(case `_pdelta_type` when 'del' then first_old_image.{{ q(c) }} when 'delk' then null
                                        else last_image.{{ q(c) }} end as {{ types[c] }}) as {{ q(c) }}, {% endfor %}
         case when `_pdelta_type` = 'upd' then first_old_image end as `_pdelta_before`,
         `_pdelta_type`, cast({{ batch_id | int }} as bigint) as `_pdelta_seq`
  from net
  where `_pdelta_type` is not null
{%- endmacro %}
