{#- Test-suite check (`dbt run-operation`): a dimension view's empty feed (view_feed_definition)
    has the view's column types whichever form creates it. A scratch view in the target schema
    with a plain, a decimal and a nested (struct) column: the feed of its plain columns comes from
    a column list, the feed with the struct from the AS SELECT form; each feed's key, attribute
    and `_pdelta_before` types must equal what the view's own columns give. -#}
{% macro assert_view_feed_definition() %}
  {%- set view = api.Relation.create(schema=target.schema, identifier='pdelta_feed_definition_view',
                                     type='table') -%}
  {%- set feed = api.Relation.create(schema=target.schema, identifier='pdelta_feed_definition_feed',
                                     type='table') -%}
  {%- do run_query('create or replace table ' ~ view ~ " using delta as select cast(1 as bigint) as `k`, "
                   ~ "'x' as `name`, cast(2.5 as decimal(10, 2)) as `amount`, "
                   ~ "named_struct('a', 1, 'b', 'y') as `nested`") -%}
  {%- set columns = adapter.get_columns_in_relation(view) -%}
  {%- set problems = [] -%}
  {%- for attrs, form in [(['name', 'amount'], 'column list'), (['name', 'nested'], 'as select')] -%}
    {%- set body = pdelta.view_feed_definition(view, ['k'], attrs, columns) -%}
    {%- if (form == 'as select') != body.startswith('using delta tblproperties') -%}
      {%- do problems.append(attrs | join('+') ~ ': expected the ' ~ form ~ ' form, got: ' ~ body) -%}
    {%- endif -%}
    {%- do run_query('create or replace table ' ~ feed ~ ' ' ~ body) -%}
    {%- set got = {} -%}
    {%- for c in adapter.get_columns_in_relation(feed) -%}{%- do got.update({c.name: c.dtype}) -%}{%- endfor -%}
    {%- set want = {} -%}
    {%- for c in columns if c.name in ['k'] + attrs -%}{%- do want.update({c.name: c.dtype}) -%}{%- endfor -%}
    {%- for name, dtype in want.items() if got.get(name) != dtype -%}
      {%- do problems.append(attrs | join('+') ~ ': `' ~ name ~ '` is ' ~ got.get(name) ~ ' in the feed, '
                             ~ dtype ~ ' in the view') -%}
    {%- endfor -%}
    {%- set before_fields = [] -%}
    {%- for a in attrs -%}{%- do before_fields.append(a ~ ':' ~ want[a]) -%}{%- endfor -%}
    {%- set before = (got.get('_pdelta_before') or '') | replace(' ', '') | replace('`', '') -%}
    {%- if before != 'struct<' ~ before_fields | join(',') | replace(' ', '') ~ '>' -%}
      {%- do problems.append(attrs | join('+') ~ ': `_pdelta_before` is ' ~ got.get('_pdelta_before')) -%}
    {%- endif -%}
    {%- if got.get('_pdelta_type') != 'string' or got.get('_pdelta_seq') != 'bigint' -%}
      {%- do problems.append(attrs | join('+') ~ ': `_pdelta_type` / `_pdelta_seq` are '
                             ~ got.get('_pdelta_type') ~ ' / ' ~ got.get('_pdelta_seq')) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- do run_query('drop table if exists ' ~ feed) -%}
  {%- do run_query('drop table if exists ' ~ view) -%}
  {%- if problems -%}
    {{ exceptions.raise_compiler_error('pdelta: view_feed_definition: ' ~ problems | join('; ')) }}
  {%- endif -%}
  {{ log('pdelta: view_feed_definition gives the view\'s types in both forms', info=true) }}
{% endmacro %}
