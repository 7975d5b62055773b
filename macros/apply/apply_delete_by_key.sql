{#- Delete-only batch (`del`, `delk`): only the key is needed, which is all `delk` carries.
    Delta takes no subquery in DELETE, so this is a delete-only MERGE (Delta's cheapest MERGE:
    no insert side, only files holding a deleted key are rewritten).
    `types`: the six sets whose keys are deleted; none deletes every key of the batch (the
    first statement of delete_insert). -#}
{% macro apply_delete_by_key_sql(target, source, key, range_var=none, types=['del', 'delk']) %}
  {{ return(adapter.dispatch('apply_delete_by_key_sql', 'pdelta')(target, source, key, range_var, types)) }}
{% endmacro %}

{% macro default__apply_delete_by_key_sql(target, source, key, range_var=none, types=['del', 'delk']) %}
  {%- set q = adapter.quote -%}
  merge into {{ target }} as t
  using (select {% for k in key %}{{ q(k) }}{% if not loop.last %}, {% endif %}{% endfor %} from {{ source }}
         {%- if types %} where `_pdelta_type` in ({% for t in types %}'{{ t }}'{% if not loop.last %}, {% endif %}{% endfor %}){% endif %}) as s
  on {% for k in key %}t.{{ q(k) }} = s.{{ q(k) }}{% if not loop.last %} and {% endif %}{% endfor %}{{ pdelta.key_range_condition('t', key, range_var) }}
  when matched then delete
{%- endmacro %}
