{#- Any batch with updates or upserts: one MERGE whose clauses are typed by the six sets.
    The source holds one row per key (the six sets are disjoint on the key).
      del, delk            matched -> delete
      ins, upd, up, ups    matched -> update, skipped when the image is already there (no-op);
                           not matched -> insert (`up` too: a partial update can reach a view
                           row that was not there, and `ins` is matched only on a retry)
    Every clause is idempotent, so the same batch can be merged again after a crash. -#}
{% macro apply_merge_sql(target, source, key, attrs, range_var=none) %}
  {{ return(adapter.dispatch('apply_merge_sql', 'pdelta')(target, source, key, attrs, range_var)) }}
{% endmacro %}

{% macro default__apply_merge_sql(target, source, key, attrs, range_var=none) %}
  {%- set q = adapter.quote -%}
  merge into {{ target }} as t
  using {{ source }} as s
  on {% for k in key %}t.{{ q(k) }} = s.{{ q(k) }}{% if not loop.last %} and {% endif %}{% endfor %}
    {{ pdelta.key_range_condition('t', key, range_var) }}
  when matched and s.`_pdelta_type` in ('del', 'delk') then delete
  {%- if attrs %}
  when matched and s.`_pdelta_type` in ('ins', 'upd', 'up', 'ups')
       and not (
         {% for c in attrs %}t.{{ q(c) }} <=> s.{{ q(c) }}{% if not loop.last %} and {% endif %}{% endfor %}) then
    update set {% for c in attrs %}t.{{ q(c) }} = s.{{ q(c) }}{% if not loop.last %}, {% endif %}{% endfor %}
  {%- endif %}
  when not matched and s.`_pdelta_type` in ('ins', 'upd', 'up', 'ups') then
    insert ({% for c in key + attrs %}{{ q(c) }}{% if not loop.last %}, {% endif %}{% endfor %})
    values ({% for c in key + attrs %}s.{{ q(c) }}{% if not loop.last %}, {% endif %}{% endfor %})
{%- endmacro %}
