{#- Pruning from the delta itself: a session variable holding the batch's key range (first key
    column, of type `key_type`), set from the staged changes, that MERGE / delete conditions compare the target's
    key with. Delta skips every file whose min/max statistics fall outside it; the values never
    pass through the SQL text. Returns [declare, set] statements and the variable's name. -#}
{% macro key_range_statements(source, key, name, key_type) %}
  {%- set var = 'pdelta_range__' ~ modules.re.sub('\\W', '_', name) -%}
  {%- set k = adapter.quote(key[0]) -%}
  {%- set stmts = [
      {'name': 'declare_key_range', 'sql': 'declare or replace variable ' ~ var ~ ' struct<lo: ' ~ key_type ~ ', hi: ' ~ key_type ~ '>'},
      {'name': 'set_key_range', 'sql': 'set var ' ~ var ~ ' = (select named_struct(\'lo\', min(' ~ k ~ '), \'hi\', max(' ~ k ~ ')) from ' ~ source ~ ')'}] -%}
  {{ return({'statements': stmts, 'var': var}) }}
{% endmacro %}

{#- the condition a target row must meet to be inside the range (true when pruning is off) -#}
{% macro key_range_condition(alias, key, var) %}
  {%- if not var -%}{{ return('') }}{%- endif -%}
  {{ return(' and ' ~ alias ~ '.' ~ adapter.quote(key[0]) ~ ' between ' ~ var ~ '.lo and ' ~ var ~ '.hi') }}
{% endmacro %}
