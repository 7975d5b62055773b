{#- The `feed-rewritten` violations a pdelta capture's own full build explains: the capture rebuilt
    its feed (`--full-refresh`, or a declaration change under on_schema_change) after what the
    view consumed of it, so the rows the view consumed were rewritten by pdelta, not behind its
    back, and the view rebuilds in full instead of stopping. A capture's batch ids are its feed's
    `_pdelta_seq`, the unit of the view's watermark. The capture's batch log is read only when
    such a violation is found, never on a clean refresh. Returns {violations: those explained,
    reasons: one phrase per input}. -#}
{% macro feeds_rebuilt_by_capture(violations, consumed) %}
  {%- set explained = [] -%}
  {%- set reasons = [] -%}
  {%- for v in violations if v['rule'] == 'feed-rewritten' and v['changes'] is not string -%}
    {%- set capture_log = pdelta.meta_relation(v['changes'], 'batches') -%}
    {%- if pdelta.relation_exists(capture_log) -%}
      {%- set st = pdelta.batch_log_state(capture_log) -%}
      {%- set lo = consumed.get(v['alias']) -%}
      {%- if st['last_full'] is not none and st['last_full'] >= 0 and (lo is none or st['last_full'] > lo) -%}
        {%- do explained.append(v) -%}
        {%- do reasons.append('input `' ~ v['alias'] ~ '` (' ~ v['changes']
                              ~ ') was rebuilt in full by its capture at its'
                              ~ ' batch ' ~ st['last_full'] ~ ', after what this view consumed') -%}
      {%- endif -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return({'violations': explained, 'reasons': reasons}) }}
{% endmacro %}
