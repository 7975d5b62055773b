{#- One term of a refresh plan, as data (the plan is a list of them, in dependency order):
      name   the term's name (a CTE, or a scratch table when kept as 'table')
      rule   what it computes, with the paper section or the plan it belongs to
      reads  the names of the terms it reads (states, feeds and the view are not terms)
      sql    its SELECT
      kept   'inline' (a CTE of each statement that reads it), 'shared' (the same, computed once per
             statement however many terms read it: shared_cte) or 'table' (a scratch table
             written by its own statement)
      stored none, or where an inline term's rows are kept: {term: the 'table' term that holds
             them, table: its qualified name, part: the value of `_pdelta_part` that marks them,
             columns: their names}. Statements other than the one filling that table read the
             rows from it instead of computing them (one scratch table holds a level's Δ and ∇:
             half the statements of one table per term).
      table  for a 'table' term: its qualified name (scratch_relation: beside the view)
    The executor (run_plan) turns the records into statements; `pdelta explain` prints them. -#}
{% macro plan_term(name, rule, reads, sql, kept='inline', stored=none) %}
  {{ return({'name': name, 'rule': rule, 'reads': reads, 'sql': sql | trim, 'kept': kept, 'stored': stored}) }}
{% endmacro %}

{#- The record of the scratch table that keeps two terms of equal columns (a level's Δ and ∇;
    ∇ has `_pdelta_flag` last, Δ gets a NULL one), and the two terms marked as stored in it:
    stored_relations with one group, whose `_pdelta_part` is `delta` or `nabla`. -#}
{% macro stored_pair(name, table, delta, nabla, columns) %}
  {%- set untyped = [] -%}{%- for c in columns -%}{%- do untyped.append([c, none]) -%}{%- endfor -%}
  {%- set group = {'alias': none, 'delta': delta, 'nabla': nabla, 'columns': untyped} -%}
  {{ return(pdelta.stored_relations(name, table, [group])) }}
{% endmacro %}

{#- The record of the scratch table that keeps the Δ and ∇ terms of several groups (the
    projected Δ and ∇ of several relations: one CTAS where a table per relation cost one
    statement each, and one DROP), and each term marked as stored in it. Each group's rows fill
    its own columns (a relation's are named `alias__column`, so no two share one) and leave the
    others NULL, cast to their type (the type is read only when there are other groups);
    `_pdelta_part` is `alias.delta` or `alias.nabla` (`delta` or `nabla` for a group without alias).
    relations: [{alias, delta, nabla (plan_term records), columns: [[name, type]]}] -#}
{% macro stored_relations(name, table, relations) %}
  {%- set q = adapter.quote -%}
  {%- set selects = [] -%}
  {%- set reads = [] -%}
  {%- for rel in relations -%}
    {%- set own = [] -%}{%- for c in rel['columns'] -%}{%- do own.append(c[0]) -%}{%- endfor -%}
    {%- set padded = [] -%}
    {%- for other in relations -%}
      {%- for c in other['columns'] -%}
        {%- set own_column = other['alias'] == rel['alias'] -%}
        {%- do padded.append(q(c[0]) if own_column else 'cast(null as ' ~ c[1] ~ ') as ' ~ q(c[0])) -%}
      {%- endfor -%}
    {%- endfor -%}
    {%- set prefix = rel['alias'] ~ '.' if rel['alias'] is not none else '' -%}
    {%- do selects.append("select '" ~ prefix ~ "delta' as `_pdelta_part`, " ~ padded | join(', ')
                          ~ ', cast(null as string) as `_pdelta_flag` from ' ~ rel['delta']['name']) -%}
    {%- do rel['delta'].update({'stored': {'term': name, 'table': table, 'part': prefix ~ 'delta',
                                           'columns': own}}) -%}
    {%- do selects.append("select '" ~ prefix ~ "nabla' as `_pdelta_part`, " ~ padded | join(', ')
                          ~ ', `_pdelta_flag` from ' ~ rel['nabla']['name']) -%}
    {%- do rel['nabla'].update({'stored': {'term': name, 'table': table, 'part': prefix ~ 'nabla',
                                           'columns': own + ['_pdelta_flag']}}) -%}
    {%- do reads.extend([rel['delta']['name'], rel['nabla']['name']]) -%}
  {%- endfor -%}
  {%- set rule = 'scratch table: ' ~ reads | join(', ') ~ ', told apart by `_pdelta_part`' -%}
  {%- set term = pdelta.plan_term(name, rule, reads, selects | join('\nunion all\n'), 'table') -%}
  {%- do term.update({'table': table}) -%}
  {{ return(term) }}
{% endmacro %}

{#- One statement: `select <select> from <final>` with `final` and every inline or shared term it
    reads, directly or through other such terms, as a CTE (in plan order). A term stored in
    a scratch table is a CTE reading its rows from that table, not followed further, except in
    the statement that fills that table; `final` is computed here even when it is kept as a
    table (the statement that fills that table). -#}
{% macro plan_statement(plan, final, select='*') %}
  {%- set by_name = {} -%}
  {%- for term in plan -%}{%- do by_name.update({term['name']: term}) -%}{%- endfor -%}
  {%- set needed = [] -%}
  {%- set from_table = [] -%}
  {%- set todo = [final] -%}
  {%- for _ in range(plan | length + 1) -%}
    {%- set next = [] -%}
    {%- for name in todo if name in by_name and name not in needed
          and (by_name[name]['kept'] in ('inline', 'shared') or name == final) -%}
      {%- set stored = by_name[name]['stored'] -%}
      {%- do needed.append(name) -%}
      {%- if stored is not none and stored['term'] != final and name != final -%}
        {%- do from_table.append(name) -%}
      {%- else -%}
        {%- do next.extend(by_name[name]['reads']) -%}
      {%- endif -%}
    {%- endfor -%}
    {%- do todo.clear() -%}{%- do todo.extend(next) -%}
  {%- endfor -%}
  {%- set ctes = [] -%}
  {%- for term in plan if term['name'] in needed -%}
    {%- if term['name'] in from_table -%}
      {%- set stored = term['stored'] -%}
      {%- set term_sql = 'select ' ~ pdelta._cols(stored['columns']) ~ ' from ' ~ stored['table']
                         ~ " where `_pdelta_part` = '" ~ stored['part'] ~ "'" -%}
    {%- elif term['kept'] == 'shared' and term['name'] != final -%}
      {%- set term_sql = pdelta.shared_cte(term['sql']) -%}
    {%- else -%}
      {%- set term_sql = term['sql'] -%}
    {%- endif -%}
    {%- do ctes.append(term['name'] ~ ' as (\n  ' ~ term_sql ~ '\n)') -%}
  {%- endfor -%}
  {{ return(('with ' ~ ctes | join(',\n') ~ '\n' if ctes else '') ~ 'select ' ~ select ~ ' from ' ~ final) }}
{% endmacro %}
