{#- The rows a replaced leaf relation gives the view, under the kept declaration (`built`, the
    record's extent) and the running one (`now`), as the view uses them: its join columns, paired
    by the parent's column, and the output columns it gives under both, paired by output name, each
    relation under its own predicate. Returns a query of two counts: `added`, the rows only the new
    relation gives (none when it is declared a subset or equal), and `lost`, the rows only the
    replaced one gives (none for a superset or equal): `pdelta validate --live` runs it to verify a
    declared containment (the paper's PC constraints), which the adapting run trusts without
    reading the replaced relation. none when the replaced relation's state is no longer in the
    project or the warehouse (the paper's case of a relation gone: nothing to verify against). -#}
{% macro containment_check_sql(built, now, leaf) %}
  {%- set q = adapter.quote -%}
  {%- set old_r, new_r = built['relations'][leaf], now['relations'][leaf] -%}
  {%- set old_state = pdelta._recorded_relation(old_r['state']) -%}
  {%- if old_state is none or not pdelta.relation_exists(old_state) -%}{{ return(none) }}{%- endif -%}
  {%- set new_state = pdelta.resolve_relation(new_r['state']) -%}
  {%- set old_cols, new_cols = [], [] -%}
  {%- for pair in new_r['join']['on'] -%}
    {%- for old_pair in old_r['join']['on'] if old_pair[0] == pair[0] -%}
      {%- do old_cols.append(old_pair[1]) -%}{%- do new_cols.append(pair[1]) -%}
    {%- endfor -%}
  {%- endfor -%}
  {%- for o in now['output'] if o[1] == leaf -%}
    {%- for b in built['output'] if b[0] == o[0] and b[1] == leaf -%}
      {%- do old_cols.append(b[2]) -%}{%- do new_cols.append(o[2]) -%}
    {%- endfor -%}
  {%- endfor -%}
  {%- set sides = [] -%}
  {%- for state, r, cols in [(old_state, old_r, old_cols), (new_state, new_r, new_cols)] -%}
    {%- set listed = [] -%}
    {%- for c in cols -%}{%- do listed.append(q(c) ~ ' as ' ~ q('c' ~ loop.index0)) -%}{%- endfor -%}
    {%- do sides.append('select distinct ' ~ listed | join(', ') ~ ' from ' ~ state
                        ~ (' where (' ~ r['where'] ~ ')' if r['where'] else '')) -%}
  {%- endfor -%}
  {{ return('with old_rows as (' ~ sides[0] ~ '), new_rows as (' ~ sides[1] ~ ')\n'
            ~ 'select (select count(*) from (select * from new_rows except select * from old_rows) as n) as `added`, '
            ~ '(select count(*) from (select * from old_rows except select * from new_rows) as o) as `lost`') }}
{% endmacro %}
