{#- Fails with the differing rows when `model` and `compare_model` do not hold the same
    multiset of rows. NULLs compare equal. Columns are matched by name (case-insensitively), in
    whatever order either relation lists them; when the two do not have the same column names the
    test stops with an error naming the columns only one side has. `match_columns_by: position`
    compares the n-th columns of both instead, whatever their names (a computed set against a
    figure whose columns are named otherwise). -#}
{% test equal_rowsets(model, compare_model, match_columns_by='name') %}
  {{ return(adapter.dispatch('test_equal_rowsets', 'pdelta')(model, compare_model, match_columns_by)) }}
{% endtest %}

{% macro default__test_equal_rowsets(model, compare_model, match_columns_by='name') %}
  {%- if match_columns_by not in ['name', 'position'] -%}
    {{ exceptions.raise_compiler_error('equal_rowsets: match_columns_by is name or position, not '
                                       ~ match_columns_by) }}
  {%- endif -%}
  {#- `select *` while dbt parses (no relation is described then) or by position; the model's columns
      by name once it runs -#}
  {%- set selected = '*' -%}
  {%- set unmatched = [] -%}
  {%- set model_names = adapter.get_columns_in_relation(model) | map(attribute='name') | list
        if execute and match_columns_by == 'name' else [] -%}
  {%- set compare_names = adapter.get_columns_in_relation(compare_model) | map(attribute='name') | list
        if model_names else [] -%}
  {#- a relation that does not exist describes as no columns: `select *` then, which Spark refuses naming it -#}
  {%- if model_names and compare_names -%}
    {%- set model_lower = model_names | map('lower') | list -%}
    {%- set compare_lower = compare_names | map('lower') | list -%}
    {%- for name in model_names if name | lower not in compare_lower -%}
      {%- do unmatched.append(model.identifier ~ '.' ~ name) -%}
    {%- endfor -%}
    {%- for name in compare_names if name | lower not in model_lower -%}
      {%- do unmatched.append(compare_model.identifier ~ '.' ~ name) -%}
    {%- endfor -%}
    {%- set selected = pdelta._cols(model_names) -%}
  {%- endif -%}
  {%- if unmatched -%}
    {{ exceptions.raise_compiler_error('equal_rowsets: ' ~ model.identifier ~ ' and ' ~ compare_model.identifier
          ~ ' do not have the same columns; only on one side: ' ~ unmatched | join(', ')) }}
  {%- endif %}
with only_in_model as (
  select {{ selected }} from {{ model }} except all select {{ selected }} from {{ compare_model }}
), only_in_compare as (
  select {{ selected }} from {{ compare_model }} except all select {{ selected }} from {{ model }}
)
select 'only in {{ model.identifier }}' as pdelta_side, * from only_in_model
union all
select 'only in {{ compare_model.identifier }}' as pdelta_side, * from only_in_compare
{% endmacro %}
