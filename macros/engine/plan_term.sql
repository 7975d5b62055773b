{#- One term of a refresh plan, as data (the plan is a list of them, in dependency order):
      name   the term's name (a CTE, or a scratch table when kept as 'table')
      rule   what it computes, with the paper section or the plan it belongs to
      reads  the names of the terms it reads (states, feeds and the view are not terms)
      sql    its SELECT
      kept   'inline' (a CTE of each statement that reads it) or 'table' (a scratch table
             written by its own statement)
    The executor (run_plan) turns the records into statements; `pdelta explain` prints them. -#}
{% macro plan_term(name, rule, reads, sql, kept='inline') %}
  {{ return({'name': name, 'rule': rule, 'reads': reads, 'sql': sql | trim, 'kept': kept}) }}
{% endmacro %}

{#- One statement: `select <select> from <final>` with `final` and every inline term it
    reads, directly or through other inline terms, as a CTE (in plan order). Terms kept as
    tables are read by their qualified names and not followed further; `final` is computed
    here even when it is kept as a table (the statement that fills that table). -#}
{% macro plan_statement(plan, final, select='*') %}
  {%- set by_name = {} -%}
  {%- for term in plan -%}{%- do by_name.update({term['name']: term}) -%}{%- endfor -%}
  {%- set needed = [] -%}
  {%- set todo = [final] -%}
  {%- for _ in range(plan | length + 1) -%}
    {%- set next = [] -%}
    {%- for name in todo if name in by_name and name not in needed and (by_name[name]['kept'] == 'inline' or name == final) -%}
      {%- do needed.append(name) -%}{%- do next.extend(by_name[name]['reads']) -%}
    {%- endfor -%}
    {%- do todo.clear() -%}{%- do todo.extend(next) -%}
  {%- endfor -%}
  {%- set ctes = [] -%}
  {%- for term in plan if term['name'] in needed -%}
    {%- do ctes.append(term['name'] ~ ' as (\n  ' ~ term['sql'] ~ '\n)') -%}
  {%- endfor -%}
  {{ return(('with ' ~ ctes | join(',\n') ~ '\n' if ctes else '') ~ 'select ' ~ select ~ ' from ' ~ final) }}
{% endmacro %}
