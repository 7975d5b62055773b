{#- Fails with the differing rows when `model` and `compare_model` do not hold the same
    multiset of rows (columns compared by position; NULLs compare equal). -#}
{% test equal_rowsets(model, compare_model) %}
  {{ return(adapter.dispatch('test_equal_rowsets', 'pdelta')(model, compare_model)) }}
{% endtest %}

{% macro default__test_equal_rowsets(model, compare_model) %}
with only_in_model as (
  select * from {{ model }} except all select * from {{ compare_model }}
), only_in_compare as (
  select * from {{ compare_model }} except all select * from {{ model }}
)
select 'only in {{ model.identifier }}' as pdelta_side, * from only_in_model
union all
select 'only in {{ compare_model.identifier }}' as pdelta_side, * from only_in_compare
{% endmacro %}
