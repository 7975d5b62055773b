{#- Gives the current versions of a view's SCD2 history (`history`) the view's (`target`) values
    of the columns `names`, which the history has just gained (adapt_view_columns, or a rebuild
    under other columns: build_in_full). Without it the next batch would find every current
    version differing from its view row in those columns and open a new version of each row for
    a value that did not change; the versions before stay NULL in them (the column was not there).
    One MERGE matched by key, idempotent. Returns the name of the statement it ran. -#}
{% macro fill_history_columns(history, target, key, names) %}
  {%- set q = adapter.quote -%}
  {%- set sets = [] -%}
  {%- for name in names -%}{%- do sets.append('h.' ~ q(name) ~ ' = v.' ~ q(name)) -%}{%- endfor -%}
  {%- call statement('fill_history_columns') -%}
    merge into {{ history }} as h
    using (select {% for c in key + names %}{{ q(c) }}{% if not loop.last %}, {% endif %}{% endfor %}
           from {{ target }}) as v
    on {{ pdelta._key_join_on(key, 'h', 'v') }} and h.`_pdelta_is_current`
    when matched then update set {{ sets | join(', ') }}
  {%- endcall -%}
  {{ return('fill_history_columns') }}
{% endmacro %}

{#- Before a rebuild's batch of a view's SCD2 history: the columns renamed since the history last
    took the view's (`renamed`: history_renames) renamed in it, a column whose name is the view's in
    another case renamed to the view's (_recase_renames), then the view's columns it still
    lacks (`columns`: the rebuilt target's, as adapter columns) added and filled for the current
    versions (fill_history_columns); a column the view no longer has stays with its versions'
    values. Idempotent (each rename and add only where the history's columns still need it).
    Returns the names of the statements it ran. -#}
{% macro add_history_columns(history, target, key, columns, renamed=[]) %}
  {%- set named = pdelta._column_names('select * from ' ~ history ~ ' where false', lower=false) -%}
  {%- set present = named | map('lower') | list -%}
  {%- set statements = [] -%}
  {%- for pair in renamed if pair[0] | lower in present and pair[1] | lower not in present -%}
    {%- if not statements -%}{%- do statements.extend(pdelta._column_mapping_on(history, 'history')) -%}{%- endif -%}
    {%- call statement('rename_history_column') -%}
      alter table {{ history }} rename column {{ adapter.quote(pair[0]) }} to {{ adapter.quote(pair[1]) }}
    {%- endcall -%}
    {%- do statements.append('rename_history_column') -%}
    {%- set at = present.index(pair[0] | lower) -%}
    {%- do named.pop(at) -%}{%- do named.insert(at, pair[1]) -%}
    {%- do present.append(pair[1] | lower) -%}
  {%- endfor -%}
  {%- for c in columns -%}
    {%- for change in pdelta._recase_renames(named, c.name) -%}
      {%- if not statements -%}{%- do statements.extend(pdelta._column_mapping_on(history, 'history')) -%}{%- endif -%}
      {%- call statement('recase_history_column') -%}
        alter table {{ history }} {{ change }}
      {%- endcall -%}
      {%- do statements.append('recase_history_column') -%}
    {%- endfor -%}
  {%- endfor -%}
  {%- set adds = [] -%}
  {%- set names = [] -%}
  {%- for c in columns if c.name | lower not in present -%}
    {%- do adds.append(adapter.quote(c.name) ~ ' ' ~ c.dtype) -%}
    {%- do names.append(c.name) -%}
  {%- endfor -%}
  {%- if not adds -%}{{ return(statements) }}{%- endif -%}
  {%- call statement('add_history_columns') -%}
    alter table {{ history }} add columns ({{ adds | join(', ') }})
  {%- endcall -%}
  {{ return(statements + ['add_history_columns', pdelta.fill_history_columns(history, target, key, names)]) }}
{% endmacro %}

{#- The output columns renamed between the columns a view's SCD2 history last took and the
    declaration a rebuild builds (`declared`: declaration_record), as [old, new] pairs: from the
    declaration the view was built or adapted with, and from the one a stopped run was adapting
    to (batch log state `adapting_output`: it may have renamed the history's columns already).
    blog: batch_log_state, or none. -#}
{% macro history_renames(blog, declared) %}
  {%- set pairs = [] -%}
  {%- if blog is none -%}{{ return(pairs) }}{%- endif -%}
  {%- set earlier = [blog['declaration']['extent']['output']] if blog['declaration'] else [] -%}
  {%- if blog.get('adapting_output') -%}{%- do earlier.append(blog['adapting_output']) -%}{%- endif -%}
  {%- for output in earlier -%}
    {%- for pair in pdelta.output_column_changes(output, declared['extent']['output'])['renamed'] -%}
      {%- if pair not in pairs -%}{%- do pairs.append(pair) -%}{%- endif -%}
    {%- endfor -%}
  {%- endfor -%}
  {{ return(pairs) }}
{% endmacro %}
