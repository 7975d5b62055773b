{#- Classifies one batch of parsed records (capture_parse_sql): types every value with try_cast
    (Spark may run with ANSI on or off; a failed cast is detected explicitly as a value present
    but NULL after the cast), fills absent columns of partial updates, and gives each record a
    quarantine reason or none. Output, one row per record: the key and attribute columns under
    their declared names (the new image, absent columns filled), `_pdelta_before` (the typed
    before-image), `_op`, `_seq`, `_pos`, `_raw`, `_reason`, `_detail` and `_dup` (an exact
    repetition of an earlier record: applied once).

    Reasons, first match wins: _err (malformed_json); unknown_operation; null_key; unknown_column;
    cast_failed (a value or the sequence); missing_image (an image the set needs is missing or
    incomplete, or an absent column of a partial update has no earlier image); then among the
    remaining records conflicting_duplicate (same key and sequence, different content) and
    late_event (sequence at or below the highest sequence of the committed batches).

    Filling (why: MySQL's binlog_row_image=MINIMAL and PostgreSQL's unchanged TOAST values leave
    columns out of `after`): an absent column takes the value of the last earlier event of the key
    in this batch that had it, or, with none, of the key's last row in the capture's own feed
    (`history`, the committed batches); a delete in between leaves nothing to fill from. An update
    pair's after-image takes a missing column from its own before-image. -#}
{% macro capture_classify_sql(m, parsed_sql, history, seq_lo) %}
  {{ return(adapter.dispatch('capture_classify_sql', 'pdelta')(m, parsed_sql, history, seq_lo)) }}
{% endmacro %}

{% macro default__capture_classify_sql(m, parsed_sql, history, seq_lo) %}
  {%- set q = adapter.quote -%}
  {%- set L = pdelta.sql_literal -%}
  {%- set key, attrs, types = m['key'], m['attrs'], m['types'] -%}
  {%- set ph = m['unavailable'] -%}
  {%- set keys_by -%}{% for k in key %}{{ q(k) }}{% if not loop.last %}, {% endif %}{% endfor %}{%- endset -%}
  {#- built once: every dbt macro call costs, and these appear once per column in several places -#}
  {%- set lit, pn, pb = {}, {}, {} -%}
  {%- for c in key + attrs -%}{%- do lit.update({c: L(c)}) -%}{%- endfor -%}
  {%- for c in attrs -%}
    {%- do pn.update({c: pdelta.capture_present('`_new`', c, ph)}) -%}
    {%- do pb.update({c: pdelta.capture_present('`_old`', c, ph)}) -%}
  {%- endfor -%}
  {%- set all_np = pdelta.capture_all_of('_np', attrs) -%}{%- set all_bp = pdelta.capture_all_of('_bp', attrs) -%}
  {%- set all_ep = pdelta.capture_all_of('_ep', attrs) -%}{%- set all_fp = pdelta.capture_all_of('_fp', attrs) -%}
  {#- only formats whose updates may leave columns out need the fill (a window and the history) -#}
  {%- set partial = m['format'] in ['debezium_postgres_default', 'debezium_postgres_full', 'debezium_mysql_minimal'] -%}
  with parsed as (
    {{ parsed_sql }}
  ), typed as (
    select `_raw`, `_pos`, `_seq`, `_op`, `_op_raw`, `_err`, `_new` is not null as `_has_new`,
           `_old` is not null as `_has_old`,
           {%- for k in key %}
           coalesce(try_element_at(`_keys`, {{ lit[k] }}), try_element_at(`_new`, {{ lit[k] }}),
                    try_element_at(`_old`, {{ lit[k] }})) as `_ks{{ loop.index0 }}`,
           {%- endfor %}
           {%- for c in attrs %}
           {{ pn[c] }} as `_np{{ loop.index0 }}`,
           try_cast(try_element_at(`_new`, {{ lit[c] }}) as {{ types[c] }}) as `_n{{ loop.index0 }}`,
           {{ pb[c] }} as `_bp{{ loop.index0 }}`,
           try_cast(try_element_at(`_old`, {{ lit[c] }}) as {{ types[c] }}) as `_b{{ loop.index0 }}`,
           {%- endfor %}
           array_except(array_union(coalesce(map_keys(`_new`), cast(array() as array<string>)),
                                    coalesce(map_keys(`_old`), cast(array() as array<string>))),
                        array({% for c in key + attrs %}{{ lit[c] }}{% if not loop.last %},
                              {% endif %}{% endfor %})) as `_unknown`,
           filter(array(
             {%- for c in attrs %}
             case when {{ pn[c] }} and try_element_at(`_new`, {{ lit[c] }}) is not null
                       and try_cast(try_element_at(`_new`, {{ lit[c] }}) as {{ types[c] }}) is null
                  then {{ lit[c] }} end,
             case when {{ pb[c] }} and try_element_at(`_old`, {{ lit[c] }}) is not null
                       and try_cast(try_element_at(`_old`, {{ lit[c] }}) as {{ types[c] }}) is null
                  then {{ L('before.' ~ c) }} end,
             {%- endfor %}
             case when `_seq` is null then 'sequence' end), x -> x is not null) as `_badcast`
    from parsed
    where not coalesce(`_skip`, false)
  ), keyed as (
    select *,
           {%- for k in key %}
           try_cast(`_ks{{ loop.index0 }}` as {{ types[k] }}) as {{ q(k) }},
           {%- endfor %}
           {%- for c in attrs %}
           {#- effective new value: an update pair's after-image misses nothing its before-image has -#}
           case when `_np{{ loop.index0 }}` then `_n{{ loop.index0 }}`
                when `_op` = 'upd' and `_bp{{ loop.index0 }}` then `_b{{ loop.index0 }}` end as `_e{{ loop.index0 }}`,
           (`_np{{ loop.index0 }}` or (`_op` = 'upd' and `_bp{{ loop.index0 }}`)) as `_ep{{ loop.index0 }}`,
           {%- endfor %}
           true as `_pdelta_one`
    from typed
  ), reasoned as (
    select *,
           case when `_err` is not null then `_err`
                when `_op` is null then 'unknown_operation'
                when {% for k in key %}{{ q(k) }} is null or {% endfor %}false then 'null_key'
                when size(`_unknown`) > 0 then 'unknown_column'
                when size(`_badcast`) > 0 then 'cast_failed'
                when `_op` in ('ins', 'ups') and not (`_has_new` and {{ all_np }}) then 'missing_image'
                when `_op` in ('up', 'upd') and not `_has_new` then 'missing_image'
                when `_op` in ('upd', 'del') and not (`_has_old` and {{ all_bp }}) then 'missing_image'
           end as `_r0`
    from keyed
  ){% if partial %}, windowed as (
    select *,
           {%- for c in attrs %}
           last_value(case when `_r0` is null and `_op` in ('del', 'delk')
                           then named_struct('gone', true, 'v', cast(null as {{ types[c] }}))
                           when `_r0` is null and `_ep{{ loop.index0 }}`
                           then named_struct('gone', false, 'v', `_e{{ loop.index0 }}`) end, true)
             over (partition by {{ keys_by }} order by `_seq`, `_pos`
                   rows between unbounded preceding and 1 preceding) as `_w{{ loop.index0 }}`,
           {%- endfor %}
           true as `_pdelta_two`
    from reasoned
  ){% if history %}, hist as (
    select {% for k in key %}h.{{ q(k) }}, {% endfor %}
           max_by(named_struct('t', h.`_pdelta_type`{% for c in attrs %}, 'f{{ loop.index0 }}',
                               h.{{ q(c) }}{% endfor %}),
                  h.`_pdelta_seq`) as `_h`
    from {{ history }} as h
    left semi join (select {{ keys_by }} from windowed where `_r0` is null and not ({{ all_ep }})) as need
      on {% for k in key %}h.{{ q(k) }} = need.{{ q(k) }}{% if not loop.last %} and {% endif %}{% endfor %}
    group by {% for k in key %}h.{{ q(k) }}{% if not loop.last %}, {% endif %}{% endfor %}
  ){% endif %}, filled as (
    select w.*,
           {%- for c in attrs %}{% set i = loop.index0 %}
           case when `_ep{{ i }}` then `_e{{ i }}` when `_w{{ i }}` is not null then `_w{{ i }}`.v
                {%- if history %} when hist.`_h` is not null and hist.`_h`.t not in ('del', 'delk')
                                  then hist.`_h`.`f{{ i }}`{% endif %} end as `_f{{ i }}`,
           (`_ep{{ i }}` or (`_w{{ i }}` is not null and not `_w{{ i }}`.gone)
            {%- if history %} or (`_w{{ i }}` is null and hist.`_h` is not null
                                  and hist.`_h`.t not in ('del', 'delk')){% endif %}) as `_fp{{ i }}`,
           {%- endfor %}
           true as `_pdelta_three`
    from windowed as w
    {%- if history %}
    left join hist on {% for k in key %}hist.{{ q(k) }} = w.{{ q(k) }}{% if not loop.last %} and {% endif %}{% endfor %}
    {%- endif %}
  ){% else %}, filled as (
    select *, {% for c in attrs %}`_e{{ loop.index0 }}` as `_f{{ loop.index0 }}`,
              `_ep{{ loop.index0 }}` as `_fp{{ loop.index0 }}`, {% endfor %}true as `_pdelta_three`
    from reasoned
  ){% endif %}, reasoned2 as (
    select *,
           coalesce(`_r0`, case when `_op` in ('up', 'upd') and not ({{ all_fp }}) then 'missing_image' end) as `_r1`,
           to_json(named_struct('t', `_op`,
                                'n', named_struct({% for c in attrs %}'f{{ loop.index0 }}', `_f{{ loop.index0 }}`,
                                                  {% endfor %}'_', 0),
                                'o', named_struct({% for c in attrs %}'f{{ loop.index0 }}', `_b{{ loop.index0 }}`,
                                                  {% endfor %}'_', 0))) as `_content`
    from filled
  ), checked as (
    select *,
           row_number() over (partition by `_r1` is null, {{ keys_by }}, `_seq`, `_content` order by `_pos`) as `_rn`,
           min(`_content`) over (partition by `_r1` is null, {{ keys_by }}, `_seq`) as `_cmin`,
           max(`_content`) over (partition by `_r1` is null, {{ keys_by }}, `_seq`) as `_cmax`
    from reasoned2
  ), final as (
    select *,
           coalesce(`_r1`, case when `_cmin` <> `_cmax` then 'conflicting_duplicate'
                                {%- if seq_lo is not none %} when `_seq` <= {{ seq_lo | int }}
                                                             then 'late_event'{% endif %} end) as `_reason`
    from checked
  )
  select {% for k in key %}{{ q(k) }}, {% endfor %}
         {%- for c in attrs %}`_f{{ loop.index0 }}` as {{ q(c) }}, {% endfor %}
         named_struct({% for c in attrs %}{{ lit[c] }}, `_b{{ loop.index0 }}`{% if not loop.last %},
                      {% endif %}{% endfor %}) as `_pdelta_before`,
         `_op`, `_seq`, `_pos`, `_raw`, `_reason`,
         case `_reason`
           when 'unknown_operation' then concat('operation ', coalesce(`_op_raw`, 'NULL'))
           when 'null_key' then 'key ' || concat_ws(', ', {% for k in key %}coalesce(`_ks{{ loop.index0 }}`, 'NULL'){%
                                                    if not loop.last %}, {% endif %}{% endfor %})
           when 'unknown_column' then concat('columns ', array_join(`_unknown`, ', '))
           when 'cast_failed' then concat('values of ', array_join(`_badcast`, ', '))
           when 'missing_image' then
             case when `_op` in ('ins', 'ups', 'up', 'upd') and not `_has_new` then 'no new image'
                  when `_op` in ('upd', 'del') and not `_has_old` then 'no before-image'
                  when `_op` in ('upd', 'del') and not ({{ all_bp }})
                  then concat('before-image lacks ', array_join({{ pdelta.capture_missing_of('_bp', attrs) }}, ', '))
                  when `_op` in ('ins', 'ups')
                  then concat('new image lacks ', array_join({{ pdelta.capture_missing_of('_np', attrs) }}, ', '))
                  else concat('no earlier image to fill ',
                              array_join({{ pdelta.capture_missing_of('_fp', attrs) }}, ', ')) end
           when 'conflicting_duplicate' then concat('sequence ', cast(`_seq` as string))
           when 'late_event' then concat('sequence ', cast(`_seq` as string), ' <= ',
                                         {{ L((seq_lo | string) if seq_lo is not none else '') }})
         end as `_detail`,
         (`_reason` is null and `_rn` > 1) as `_dup`
  from final
{%- endmacro %}
