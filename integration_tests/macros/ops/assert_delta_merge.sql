{#- Foundation check (run by the test suite through `dbt run-operation`): the relation is a real
    Delta table and a MERGE with delete, update and insert clauses works on it. The source
    holds id 1 (delete), 2 (update) and 9 (insert); afterwards the table must hold exactly
    the expected rows, or the operation raises. -#}
{% macro assert_delta_merge(model_name) %}
  {%- set relation = ref(model_name) -%}
  {%- set detail = run_query('describe detail ' ~ relation) -%}
  {%- set fmt = detail.columns['format'].values()[0] -%}
  {%- if fmt != 'delta' -%}
    {{ exceptions.raise_compiler_error(relation ~ ' is stored as ' ~ fmt ~ ', not delta') }}
  {%- endif -%}
  {%- call statement('merge') -%}
    merge into {{ relation }} as t
    using (select * from values (1, 'x', 'del'), (2, 'B', 'upd'), (9, 'i', 'ins') as s(id, v, op)) as s
    on t.id = s.id
    when matched and s.op = 'del' then delete
    when matched and s.op = 'upd' then update set v = s.v
    when not matched and s.op = 'ins' then insert (id, v) values (s.id, s.v)
  {%- endcall -%}
  {%- set rows = run_query('select id, v from ' ~ relation ~ ' order by id') -%}
  {%- set got = [] -%}
  {%- for r in rows.rows -%}{%- do got.append([r[0] | int, r[1]]) -%}{%- endfor -%}
  {%- set want = [[2, 'B'], [3, 'c'], [9, 'i']] -%}
  {%- if got != want -%}
    {{ exceptions.raise_compiler_error('MERGE on ' ~ relation ~ ' left ' ~ got ~ ', expected ' ~ want) }}
  {%- endif -%}
  {{ log('pdelta: ' ~ relation ~ ' is a Delta table; MERGE delete/update/insert gave ' ~ got, info=true) }}
{% endmacro %}
