{#- The inputs of one refresh, frozen before anything is read: alias -> {state, changes:
    relations; hi: the feed's highest sequence now (rows that land later wait for the next
    refresh); lo: none (the caller sets the consumed watermark)}. -#}
{% macro freeze_inputs(view) %}
  {%- set inputs = {} -%}
  {%- for alias in view['order'] -%}
    {%- set r = view['relations'][alias] -%}
    {%- set changes = pdelta.resolve_relation(r['changes']) -%}
    {%- do inputs.update({alias: {'state': pdelta.resolve_relation(r['state']), 'changes': changes,
                                  'hi': pdelta.feed_high_watermark(changes), 'lo': none}}) -%}
  {%- endfor -%}
  {{ return(inputs) }}
{% endmacro %}

{#- a state's columns as [[name, type]], the form refresh_plan takes -#}
{% macro state_columns(state) %}
  {%- set cols = [] -%}
  {%- for c in adapter.get_columns_in_relation(state) -%}{%- do cols.append([c.name, c.dtype]) -%}{%- endfor -%}
  {{ return(cols) }}
{% endmacro %}
