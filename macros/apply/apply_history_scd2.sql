{#- SCD2 history of a maintained relation, kept in <model>__pdelta_history from the same six-set
    batches that maintain the relation: one row per key and version, with
    `_pdelta_valid_from` / `_pdelta_valid_to` (batch ids; valid_to null while current),
    `_pdelta_is_current` and the refresh times. A new version starts when a tracked column
    changes; untracked columns are overwritten in the current version (type 1).
      upd        the pair says whether a tracked column changed: no lookup
      up, ups    no before-image: compared with the current version (one join)
      ins        a new key: a first version
      del, delk  the current version is closed
    One MERGE: each change row meets its key's current version; a second copy of the row, with
    no merge key, inserts the new version where a tracked column changed. -#}
{% macro history_columns() %}
  {{ return(['_pdelta_valid_from', '_pdelta_valid_to', '_pdelta_is_current', '_pdelta_valid_from_at',
             '_pdelta_valid_to_at']) }}
{% endmacro %}

{#- the history's first rows: every row of the relation, current from batch `batch_id` -#}
{% macro create_history_sql(history, target, key, attrs, batch_id) %}
  {%- set q = adapter.quote -%}
  create table {{ history }} using delta as
  select {% for c in key + attrs %}{{ q(c) }}, {% endfor %}cast({{ batch_id | int }} as bigint) as `_pdelta_valid_from`,
         cast(null as bigint) as `_pdelta_valid_to`, true as `_pdelta_is_current`,
         current_timestamp() as `_pdelta_valid_from_at`, cast(null as timestamp) as `_pdelta_valid_to_at`
  from {{ target }}
{%- endmacro %}

{#- a full rebuild of a relation that already has history: the difference between the history's
    current versions and the rebuilt relation, as six-set rows (`ups` for every row, `delk` for
    keys that are gone), so the rebuild extends the history instead of erasing it -#}
{% macro history_rebuild_source_sql(history, target, key, attrs) %}
  {%- set q = adapter.quote -%}
  {%- set img -%}
    {% if attrs %}struct({% for c in attrs %}{{ q(c) }}{% if not loop.last %}, {% endif %}{% endfor %}){% else %}
    struct(1 as `_`){% endif %}
  {%- endset -%}
  select {% for c in key + attrs %}{{ q(c) }}, {% endfor %}case when false then {{ img }} end as `_pdelta_before`,
         'ups' as `_pdelta_type`
  from {{ target }}
  union all
  select {% for c in key + attrs %}h.{{ q(c) }}, {% endfor %}case when false then {{ img }} end, 'delk'
  from {{ history }} as h left anti join {{ target }} as t
    on {% for k in key %}h.{{ q(k) }} = t.{{ q(k) }}{% if not loop.last %} and {% endif %}{% endfor %}
  where h.`_pdelta_is_current`
{%- endmacro %}

{#- a retry of batch `batch_id` first takes back what its earlier attempt wrote to the history -#}
{% macro history_undo_statements(history, batch_id) %}
  {{ return([
    {'name': 'history_undo_versions',
     'sql': 'delete from ' ~ history ~ ' where `_pdelta_valid_from` = ' ~ (batch_id | int)},
    {'name': 'history_undo_closes',
     'sql': 'update ' ~ history ~ ' set `_pdelta_valid_to` = null, `_pdelta_is_current` = true,'
            ~ ' `_pdelta_valid_to_at` = null where `_pdelta_valid_to` = ' ~ (batch_id | int)}]) }}
{% endmacro %}

{% macro apply_history_scd2_sql(history, source, key, attrs, tracked, batch_id) %}
  {{ return(adapter.dispatch('apply_history_scd2_sql', 'pdelta')(history, source, key, attrs, tracked, batch_id)) }}
{% endmacro %}

{% macro default__apply_history_scd2_sql(history, source, key, attrs, tracked, batch_id) %}
  {%- set q = adapter.quote -%}
  {%- set untracked = attrs | reject('in', tracked) | list -%}
  {%- set b = batch_id | int -%}
  {%- set cols -%}{% for c in key + attrs %}s.{{ q(c) }}, {% endfor %}s.`_pdelta_before`, s.`_pdelta_type`{%- endset -%}
  merge into {{ history }} as h
  using (
    select {% for k in key %}s.{{ q(k) }} as {{ q('_pdelta_mk_' ~ loop.index) }}, {% endfor %}{{ cols }},
           false as `_pdelta_new_version`
    from {{ source }} as s
    union all
    select {% for k in key %}null, {% endfor %}{{ cols }}, true
    from {{ source }} as s
    where s.`_pdelta_type` = 'upd' and not {{ pdelta._scd2_same(tracked, 's', 's', true) }}
    union all
    select {% for k in key %}null, {% endfor %}{{ cols }}, true
    from {{ source }} as s
    join {{ history }} as c on {% for k in key %}c.{{ q(k) }} = s.{{ q(k) }} and {% endfor %}c.`_pdelta_is_current`
    where s.`_pdelta_type` in ('ins', 'up', 'ups') and not {{ pdelta._scd2_same(tracked, 'c', 's') }}
  ) as s
  on {% for k in key %}h.{{ q(k) }} = s.{{ q('_pdelta_mk_' ~ loop.index) }} and {% endfor %}h.`_pdelta_is_current`
  when matched and (s.`_pdelta_type` in ('del', 'delk')
                    or (s.`_pdelta_type` = 'upd' and not {{ pdelta._scd2_same(tracked, 's', 's', true) }})
                    or (s.`_pdelta_type` in ('ins', 'up', 'ups')
                        and not {{ pdelta._scd2_same(tracked, 'h', 's') }})) then
    update set `_pdelta_valid_to` = {{ b }}, `_pdelta_is_current` = false, `_pdelta_valid_to_at` = current_timestamp()
  {%- if untracked %}
  when matched then
    update set {% for c in untracked %}h.{{ q(c) }} = s.{{ q(c) }}{% if not loop.last %}, {% endif %}{% endfor %}
  {%- endif %}
  when not matched and s.`_pdelta_type` in ('ins', 'upd', 'up', 'ups') then
    insert ({% for c in key + attrs %}{{ q(c) }}, {% endfor %}`_pdelta_valid_from`, `_pdelta_valid_to`,
            `_pdelta_is_current`, `_pdelta_valid_from_at`, `_pdelta_valid_to_at`)
    values ({% for c in key + attrs %}s.{{ q(c) }}, {% endfor %}{{ b }}, null, true, current_timestamp(), null)
{%- endmacro %}

{#- true where the tracked columns of `l` equal those of `r` (of its before-image if `before`) -#}
{% macro _scd2_same(tracked, l, r, before=false) %}
  {%- set parts = [] -%}
  {%- for c in tracked -%}
    {%- do parts.append(l ~ '.' ~ adapter.quote(c) ~ ' <=> ' ~ r ~ ('.`_pdelta_before`' if before else '') ~ '.'
                        ~ adapter.quote(c)) -%}
  {%- endfor -%}
  {{ return('(' ~ (parts | join(' and ') if parts else 'true') ~ ')') }}
{% endmacro %}
