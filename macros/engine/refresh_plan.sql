{#- Composes the rules into the incremental plan of one refresh: a list of [cte_name, sql]
    pairs, one per rule term, in dependency order. The last three are the view's
    `v__delta`, `v__nabla` (ΔV/∇V) and `v__changes` (six sets, canonical feed shape).

    view:   normalized declaration (normalize_declaration)
    inputs: alias -> {state, changes: relation names; columns: [[name, type]] of the state;
                      lo: last consumed sequence or none; hi: upper bound of this refresh}

    Per relation X: X__changes (feed range) -> X__net_effect -> X__delta/X__nabla (Fig. 4)
    -> X__sel_* (selection rule, if X has a predicate) -> X__prj_* (projection rule, renaming
    columns to `X__col`). Then one join step per non-root relation, root first (jN__*), and
    the view's projection (v__delta, v__nabla), Fig. 6 (v__changes) and v__effective (without
    update pairs that change no output column). -#}
{% macro refresh_plan(view, inputs, prefix='') %}
  {{ return(adapter.dispatch('refresh_plan', 'pdelta')(view, inputs, prefix)) }}
{% endmacro %}

{% macro default__refresh_plan(view, inputs, prefix='') %}
  {%- set q = adapter.quote -%}
  {%- set P = prefix -%}
  {%- set ctes = [] -%}
  {%- set prj = {} -%}
  {%- for alias in view['order'] -%}
    {%- set r = view['relations'][alias] -%}
    {%- set inp = inputs[alias] -%}
    {%- set key = r['key'] -%}
    {%- set attrs = [] -%}
    {%- for c in inp['columns'] if c[0] not in key -%}{%- do attrs.append(c[0]) -%}{%- endfor -%}
    {%- set feed_cols = key + attrs + ['_pdelta_before', '_pdelta_type', '_pdelta_seq'] -%}
    {%- do ctes.append([P ~ alias ~ '__changes', pdelta.feed_range_sql(inp['changes'], feed_cols, inp['lo'], inp['hi'])]) -%}
    {%- do ctes.append([P ~ alias ~ '__net_effect', pdelta.net_effect_sql(P ~ alias ~ '__changes', key, attrs)]) -%}
    {%- do ctes.append([P ~ alias ~ '__delta', pdelta.six_sets_to_delta_sql(P ~ alias ~ '__net_effect', key, attrs)]) -%}
    {%- do ctes.append([P ~ alias ~ '__nabla', pdelta.six_sets_to_nabla_sql(P ~ alias ~ '__net_effect', key, attrs)]) -%}
    {%- set new_sql -%}select {% for c in key + attrs %}{{ q(c) }}{% if not loop.last %}, {% endif %}{% endfor %} from {{ inp['state'] }}{%- endset -%}
    {%- do ctes.append([P ~ alias ~ '__new', new_sql]) -%}
    {%- set cur = P ~ alias ~ '__' -%}
    {%- if r['where'] -%}
      {%- do ctes.append([P ~ alias ~ '__sel_delta', pdelta.rule_selection_delta_sql(P ~ alias ~ '__delta', r['where'])]) -%}
      {%- do ctes.append([P ~ alias ~ '__sel_nabla', pdelta.rule_selection_nabla_sql(P ~ alias ~ '__nabla', key + attrs, r['where'])]) -%}
      {%- do ctes.append([P ~ alias ~ '__sel_new', 'select * from ' ~ P ~ alias ~ '__new where (' ~ r['where'] ~ ')']) -%}
      {%- set cur = P ~ alias ~ '__sel_' -%}
    {%- endif -%}
    {%- set cols = [] -%}{%- set names = [] -%}
    {%- for c in key + r['carry'] -%}{%- do cols.append([q(c), alias ~ '__' ~ c]) -%}{%- do names.append(alias ~ '__' ~ c) -%}{%- endfor -%}
    {%- do ctes.append([P ~ alias ~ '__prj_delta', pdelta.rule_projection_delta_sql(cur ~ 'delta', cur ~ 'nabla', cols)]) -%}
    {%- do ctes.append([P ~ alias ~ '__prj_nabla', pdelta.rule_projection_nabla_sql(cur ~ 'delta', cur ~ 'nabla', cols)]) -%}
    {%- do ctes.append([P ~ alias ~ '__prj_new', pdelta.projection_sql(cur ~ 'new', cols)]) -%}
    {%- do prj.update({alias: {'name': P ~ alias ~ '__prj', 'cols': names, 'key': names[:key | length]}}) -%}
  {%- endfor -%}

  {%- set root = view['root'] -%}
  {%- set s = {'name': prj[root]['name'], 'cols': prj[root]['cols'], 'key': prj[root]['key']} -%}
  {#- S's relations as the key-first join terms walk them -#}
  {%- set tree = {} -%}
  {%- for alias in view['order'] -%}
    {%- set j = view['relations'][alias]['join'] -%}
    {%- set on = [] -%}
    {%- if j -%}{%- for p in j['on'] -%}{%- do on.append([j['to'] ~ '__' ~ p[0], alias ~ '__' ~ p[1]]) -%}{%- endfor -%}{%- endif -%}
    {%- do tree.update({alias: {'new': prj[alias]['name'] ~ '_new', 'cols': prj[alias]['cols'], 'to': j['to'] if j else none, 'on': on}}) -%}
  {%- endfor -%}
  {%- for alias in view['order'][1:] -%}
    {%- set n = P ~ 'j' ~ loop.index -%}
    {%- set r = view['relations'][alias] -%}
    {%- set t = prj[alias] -%}
    {%- set on = tree[alias]['on'] -%}
    {%- do ctes.append([s['name'] ~ '_old', pdelta.old_state_sql(s['name'] ~ '_new', s['name'] ~ '_delta', s['name'] ~ '_nabla', s['key'], s['cols'])]) -%}
    {%- do ctes.append([t['name'] ~ '_old', pdelta.old_state_sql(t['name'] ~ '_new', t['name'] ~ '_delta', t['name'] ~ '_nabla', t['key'], t['cols'])]) -%}
    {%- do ctes.append([n ~ '__new', pdelta.join_new_sql(s['name'] ~ '_new', t['name'] ~ '_new', s['cols'], t['cols'], on)]) -%}
    {%- set s_order = view['order'][:loop.index] -%}
    {%- do ctes.append([n ~ '__delta_s_new_x_t_delta', pdelta.rule_join_delta_s_new_term_sql(t['name'] ~ '_delta', s['cols'], t['cols'], tree, s_order, r['join']['to'], on)]) -%}
    {%- do ctes.append([n ~ '__delta_s_delta_x_t_new', pdelta.rule_join_delta_term_sql(s['name'] ~ '_delta', t['name'] ~ '_new', s['cols'], t['cols'], on)]) -%}
    {%- do ctes.append([n ~ '__delta', 'select * from ' ~ n ~ '__delta_s_new_x_t_delta union select * from ' ~ n ~ '__delta_s_delta_x_t_new']) -%}
    {%- do ctes.append([n ~ '__nabla_s_old_x_t_nabla', pdelta.rule_join_nabla_s_old_term_sql(s['name'] ~ '_delta', s['name'] ~ '_nabla', t['name'] ~ '_nabla', s['cols'], t['cols'], s['key'], tree, s_order, r['join']['to'], on)]) -%}
    {%- do ctes.append([n ~ '__nabla_s_nabla_x_t_old', pdelta.rule_join_nabla_t_old_term_sql(s['name'] ~ '_nabla', t['name'] ~ '_old', s['cols'], t['cols'], on)]) -%}
    {%- do ctes.append([n ~ '__nabla_s_partial', pdelta.rule_join_nabla_partial_term_sql(s['name'] ~ '_nabla', s['cols'], t['cols'])]) -%}
    {%- do ctes.append([n ~ '__nabla', 'select * from ' ~ n ~ '__nabla_s_old_x_t_nabla union select * from ' ~ n ~ '__nabla_s_nabla_x_t_old union select * from ' ~ n ~ '__nabla_s_partial']) -%}
    {#- a loop-local `set` would not outlive the loop; update the composite in place -#}
    {%- do s.update({'name': n ~ '_', 'cols': s['cols'] + t['cols']}) -%}
  {%- endfor -%}

  {%- set out_cols = [] -%}{%- set attrs_out = [] -%}
  {%- for o in view['output'] -%}
    {%- do out_cols.append([q(o[1] ~ '__' ~ o[2]), o[0]]) -%}
    {%- if o[0] not in view['key'] -%}{%- do attrs_out.append(o[0]) -%}{%- endif -%}
  {%- endfor -%}
  {%- do ctes.append([P ~ 'v__delta', pdelta.rule_projection_delta_sql(s['name'] ~ '_delta', s['name'] ~ '_nabla', out_cols)]) -%}
  {%- do ctes.append([P ~ 'v__nabla', pdelta.rule_projection_nabla_sql(s['name'] ~ '_delta', s['name'] ~ '_nabla', out_cols)]) -%}
  {%- do ctes.append([P ~ 'v__changes', pdelta.delete_insert_to_six_sets_sql(P ~ 'v__delta', P ~ 'v__nabla', view['key'], attrs_out)]) -%}
  {#- an update pair whose images agree on every output column is no change of the view -#}
  {%- set effective -%}
    select * from {{ P }}v__changes
    {%- if attrs_out %}
    where not (`_pdelta_type` = 'upd' and `_pdelta_before` <=> struct({% for c in attrs_out %}{{ q(c) }}{% if not loop.last %}, {% endif %}{% endfor %}))
    {%- endif %}
  {%- endset -%}
  {%- do ctes.append([P ~ 'v__effective', effective]) -%}
  {#- Mark the terms worth materializing when the plan runs as separate statements: the small
      delta-sized results that later terms read more than once. States stay lazy views. -#}
  {#- (each relation's net effect and the view's v__delta/v__nabla are read by one or two
      statements only: inlining them is cheaper than a scratch table) -#}
  {%- set small = [] -%}
  {%- for alias in view['order'] -%}
    {%- do small.extend([P ~ alias ~ '__prj_delta', P ~ alias ~ '__prj_nabla']) -%}
    {%- if not loop.first -%}{%- do small.extend([P ~ 'j' ~ (loop.index - 1) ~ '__delta', P ~ 'j' ~ (loop.index - 1) ~ '__nabla']) -%}{%- endif -%}
  {%- endfor -%}
  {%- for c in ctes -%}{%- do c.append('cache' if c[0] in small else 'view') -%}{%- endfor -%}
  {{ return(ctes) }}
{% endmacro %}

{#- Runs the plan. Each small, delta-sized term that later terms read more than once is
    written to a scratch table `<schema>.<term>` (parquet; names carry the model's prefix so
    they cannot clash); every other term is inlined as a CTE into the statements that read it.
    Neither one big WITH statement nor cached temp views work on Spark: both make it
    re-analyze and re-optimize every shared term inside each reader (on the paper's example
    20-60 s for four rows); a scratch table is a plain scan. Returns the statement that reads
    `final` (a SELECT with the CTEs it needs). -#}
{% macro run_plan(ctes, final, schema) %}
  {%- set lazy = {} -%}
  {%- set order = [] -%}
  {%- set written = [] -%}
  {%- for c in ctes -%}
    {%- set sql = pdelta._qualify_scratch(c[1], written, schema) -%}
    {%- if c[2] == 'cache' -%}
      {%- call statement('pdelta_scratch') -%}
        create table {{ schema }}.{{ c[0] }} using parquet as {{ pdelta._with_needed(lazy, order, sql) }}
      {%- endcall -%}
      {%- do written.append(c[0]) -%}
    {%- else -%}
      {%- do lazy.update({c[0]: sql}) -%}{%- do order.append(c[0]) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(pdelta._with_needed(lazy, order, pdelta._qualify_scratch('select * from ' ~ final, written, schema))) }}
{% endmacro %}

{#- references to scratch tables written so far, qualified with their schema -#}
{% macro _qualify_scratch(sql, written, schema) %}
  {%- set ns = namespace(out=sql) -%}
  {%- for name in written -%}
    {%- set ns.out = modules.re.sub('(?<![.\\w])' ~ name ~ '(?!\\w)', schema ~ '.' ~ name, ns.out) -%}
  {%- endfor -%}
  {{ return(ns.out) }}
{% endmacro %}

{#- `sql` prefixed with the lazy terms it reads, directly or through each other -#}
{% macro _with_needed(lazy, order, sql) %}
  {%- set needed = [] -%}
  {%- set todo = [sql] -%}
  {%- for _ in range(order | length + 1) -%}
    {%- set tokens = (todo | join(' ')).replace('(', ' ').replace(')', ' ').replace(',', ' ').split() -%}
    {%- do todo.clear() -%}
    {%- for name in order if name in tokens and name not in needed -%}
      {%- do needed.append(name) -%}{%- do todo.append(lazy[name]) -%}
    {%- endfor -%}
  {%- endfor -%}
  {%- if needed -%}
with {% for name in order if name in needed %}{{ name }} as (
  {{ lazy[name] | trim }}
){% if not loop.last %},
{% endif %}{% endfor %}
{{ sql }}
  {%- else -%}{{ sql }}{%- endif -%}
{% endmacro %}

{#- drops the plan's scratch tables; with check_first, only those that exist (a crashed run's
    leftovers), found with one listing instead of one DROP per term -#}
{% macro drop_plan(ctes, schema, check_first=false) %}
  {%- set names = [] -%}
  {%- for c in ctes if c[2] == 'cache' -%}{%- do names.append(c[0] | lower) -%}{%- endfor -%}
  {%- if check_first and names -%}
    {%- set found = [] -%}
    {%- set listed = run_query('show tables in ' ~ schema ~ " like '" ~ names[0].split('__pdelta_t_')[0] ~ "__pdelta_t_*'") -%}
    {%- for row in listed.rows -%}{%- do found.append(row['tableName'] | lower) -%}{%- endfor -%}
    {%- set names = names | select('in', found) | list -%}
  {%- endif -%}
  {%- for name in names | reverse -%}
    {%- call statement('pdelta_drop') -%} drop table if exists {{ schema }}.{{ name }} {%- endcall -%}
  {%- endfor -%}
{% endmacro %}

{#- WITH … SELECT <select> FROM <cte>: the plan as one statement ending in one of its CTEs -#}
{% macro render_plan(ctes, final='v__changes', select='*') %}
with
{%- for c in ctes %}
{{ c[0] }} as (
  {{ c[1] | trim }}
){% if not loop.last %},{% endif %}
{%- endfor %}
select {{ select }} from {{ final }}
{%- endmacro %}
