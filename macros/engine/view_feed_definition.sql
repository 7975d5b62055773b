{#- The body of a view's empty change feed's CREATE TABLE: the view's key and attribute columns,
    `_pdelta_before` (a struct of the attributes), `_pdelta_type`, `_pdelta_seq`. A column list
    with the types the view's description gave (`columns`), so the statement reads nothing: a
    CREATE ... AS SELECT ... WHERE false loaded the fresh view's Delta snapshot first (5 Spark jobs,
    0.9-1.1 s at 1M rows, 2 cores). Where a type nests (struct, array, map: its field names come
    unquoted from the description), the AS SELECT form, which takes the types from the view. -#}
{% macro view_feed_definition(target, key, attrs_out, columns) %}
  {%- set q = adapter.quote -%}
  {%- set types = {} -%}
  {%- for c in columns -%}{%- do types.update({c.name | lower: c.dtype}) -%}{%- endfor -%}
  {%- set plain = namespace(ok=true) -%}
  {%- for c in key + attrs_out -%}
    {%- set dtype = types.get(c | lower) -%}
    {%- if dtype is none or not modules.re.fullmatch('[a-z_]+( ?\\(\\d+(, ?\\d+)?\\))?', dtype | lower) -%}
      {%- set plain.ok = false -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if plain.ok -%}
    {%- set defs = [] -%}
    {%- for c in key + attrs_out -%}{%- do defs.append(q(c) ~ ' ' ~ types[c | lower]) -%}{%- endfor -%}
    {%- set fields = [] -%}
    {%- for c in attrs_out -%}{%- do fields.append(q(c) ~ ': ' ~ types[c | lower]) -%}{%- endfor -%}
    {%- do defs.append('`_pdelta_before` struct<' ~ (fields | join(', ') if fields else '`_`: int') ~ '>') -%}
    {%- do defs.append('`_pdelta_type` string') -%}
    {%- do defs.append('`_pdelta_seq` bigint') -%}
    {{ return('(' ~ defs | join(', ') ~ ') using delta ' ~ pdelta.own_table_properties_clause()) }}
  {%- endif -%}
  {%- set cols = [] -%}
  {%- for c in key + attrs_out -%}{%- do cols.append(q(c)) -%}{%- endfor -%}
  {%- set before = [] -%}
  {%- for c in attrs_out -%}{%- do before.append(q(c)) -%}{%- endfor -%}
  {%- set before_sql = 'struct(' ~ before | join(', ') ~ ')' if before else 'cast(null as struct<`_`: int>)' -%}
  {{ return('using delta ' ~ pdelta.own_table_properties_clause() ~ ' as select ' ~ cols | join(', ') ~ ', '
            ~ before_sql ~ ' as `_pdelta_before`, '
            ~ 'cast(null as string) as `_pdelta_type`, cast(null as bigint) as `_pdelta_seq` '
            ~ 'from ' ~ target ~ ' where false') }}
{% endmacro %}
