{#- Delete-only batch (`del`, `delk`): only the key is needed, which is all `delk` carries.
    Delta takes no subquery in DELETE, so this is a delete-only MERGE (Delta's cheapest MERGE:
    no insert side, only files holding a deleted key are rewritten). -#}
{% macro apply_delete_by_key_sql(target, source, key, range_var=none) %}
  {{ return(adapter.dispatch('apply_delete_by_key_sql', 'pdelta')(target, source, key, range_var)) }}
{% endmacro %}

{% macro default__apply_delete_by_key_sql(target, source, key, range_var=none) %}
  {%- set q = adapter.quote -%}
  merge into {{ target }} as t
  using (select {% for k in key %}{{ q(k) }}{% if not loop.last %}, {% endif %}{% endfor %} from {{ source }} where `_pdelta_type` in ('del', 'delk')) as s
  on {% for k in key %}t.{{ q(k) }} = s.{{ q(k) }}{% if not loop.last %} and {% endif %}{% endfor %}{{ pdelta.key_range_condition('t', key, range_var) }}
  when matched then delete
{%- endmacro %}
