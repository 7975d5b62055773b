{#- Applies six-set changes (one row per key, canonical shape) to a keyed Delta table with one
    MERGE: deletes (`del`, `delk`) remove the key; every other set carries the new image and is
    upserted. `up` is upserted too rather than only updated: a partial update may reach a view
    row that was not there (its before-image is unknown), so inserting is the safe reading. -#}
{% macro apply_changes(target, source, key, attrs) %}
  {{ return(adapter.dispatch('apply_changes', 'pdelta')(target, source, key, attrs)) }}
{% endmacro %}

{% macro default__apply_changes(target, source, key, attrs) %}
  {%- set q = adapter.quote -%}
  merge into {{ target }} as t
  using {{ source }} as s
  on {% for k in key %}t.{{ q(k) }} = s.{{ q(k) }}{% if not loop.last %} and {% endif %}{% endfor %}
  when matched and s.`_pdelta_type` in ('del', 'delk') then delete
  {%- if attrs %}
  when matched then update set {% for c in attrs %}t.{{ q(c) }} = s.{{ q(c) }}{% if not loop.last %}, {% endif %}{% endfor %}
  {%- endif %}
  when not matched and s.`_pdelta_type` not in ('del', 'delk') then
    insert ({% for c in key + attrs %}{{ q(c) }}{% if not loop.last %}, {% endif %}{% endfor %})
    values ({% for c in key + attrs %}s.{{ q(c) }}{% if not loop.last %}, {% endif %}{% endfor %})
{%- endmacro %}
