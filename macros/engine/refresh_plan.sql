{#- The rules plan of one refresh (`pdelta_plan: rules`): the paper's generalized delta rules
    composed term by term, as a list of plan_term records in dependency order. The last four
    are the view's `v__delta`, `v__nabla` (ΔV/∇V), `v__changes` (six sets, canonical feed
    shape) and `v__effective` (without update pairs that change no output column).

    view:   normalized declaration (normalize_declaration)
    inputs: alias -> {state, changes: relation names; columns: [[name, type]] of the state;
                      lo: last consumed sequence or none; hi: upper bound of this refresh}
    home:   the view's relation: the terms worth materializing are kept as scratch tables beside
            it, in its catalog and schema (the small, delta-sized results that later terms read
            more than once: every pending relation's projected Δ/∇ in one table, `prj__sets`,
            each join level's Δ/∇ in `jN__sets`); none keeps every term inline (one statement: explain,
            plan_preview). A view of one relation keeps every term inline too: the stage is the
            only statement that reads its relation's Δ/∇, and computing them there costs less
            than a scratch table's CTAS and DROP (the randomized `single` view's two refreshes:
            7 -> 3 plan statements, 4.0 s -> 3.35 s, two runs each; a four-level chain's
            relations inlined into its join levels cost more, 23.7 s -> 30.1 s, so they stay
            tables). Every term is referenced by its own name; plan_statement reads a stored one
            from its table.

    Per relation X: X__changes (feed range) -> X__net_effect -> X__delta/X__nabla (Fig. 4)
    -> X__sel_* (selection rule, if X has a predicate) -> X__prj_* (projection rule, renaming
    columns to `X__col`). Then one join step per non-root relation, root first (jN__*), and
    the view's projection (v__delta, v__nabla), Fig. 6 (v__changes) and v__effective. -#}
{% macro refresh_plan(view, inputs, prefix='', home=none) %}
  {{ return(adapter.dispatch('refresh_plan', 'pdelta')(view, inputs, prefix, home)) }}
{% endmacro %}

{% macro default__refresh_plan(view, inputs, prefix='', home=none) %}
  {%- set q = adapter.quote -%}
  {%- set P = prefix -%}
  {%- set plan = [] -%}
  {#- The scratch tables (each keeps one level's Δ and ∇). A relation with nothing pending reads
      no feed row (`where false`): Spark drops its empty terms and every join term they empty,
      and none of them is worth a scratch table. A join level's Δ/∇ can be non-empty only when
      a relation joined so far has pending rows. -#}
  {%- set pending = pdelta.pending_inputs(view, inputs) -%}
  {%- set tables = [] -%}
  {%- if home is not none and view['order'] | length > 1 -%}
    {%- set reached = namespace(any=false) -%}
    {%- for alias in view['order'] -%}
      {%- if alias in pending -%}
        {%- if not reached.any -%}{%- do tables.append(P ~ 'prj__sets') -%}{%- endif -%}
        {%- set reached.any = true -%}
      {%- endif -%}
      {%- if not loop.first and reached.any
          -%}{%- do tables.append(P ~ 'j' ~ (loop.index - 1) ~ '__sets') -%}{%- endif -%}
    {%- endfor -%}
  {%- endif -%}
  {%- set prj = {} -%}
  {#- the pending relations' projected Δ/∇ terms, kept together in `prj__sets` -#}
  {%- set projected = [] -%}
  {%- for alias in view['order'] -%}
    {%- set r = view['relations'][alias] -%}
    {%- set inp = inputs[alias] -%}
    {%- set key = r['key'] -%}
    {%- set attrs = [] -%}
    {%- for c in inp['columns'] if c[0] not in key -%}{%- do attrs.append(c[0]) -%}{%- endfor -%}
    {%- set feed_cols = key + attrs + ['_pdelta_before', '_pdelta_type', '_pdelta_seq'] -%}
    {%- set X = P ~ alias ~ '__' -%}
    {%- do plan.append(pdelta.plan_term(X ~ 'changes', 'feed rows of `' ~ alias ~ '` in (lo, hi]'
          ~ ('' if alias in pending else ': none pending'), [],
          pdelta.feed_range_sql(inp['changes'], feed_cols, inp['lo'],
            inp['hi'] if alias in pending else none, inp.get('exclude')))) -%}
    {%- do plan.append(pdelta.plan_term(X ~ 'net_effect', '§5.3 net effect per key', [X ~ 'changes'],
          pdelta.net_effect_sql(X ~ 'changes', key, attrs))) -%}
    {%- do plan.append(pdelta.plan_term(X ~ 'delta', 'Fig. 4: ΔR, the new images', [X ~ 'net_effect'],
          pdelta.six_sets_to_delta_sql(X ~ 'net_effect', key, attrs))) -%}
    {%- do plan.append(pdelta.plan_term(X ~ 'nabla', 'Fig. 4: ∇R, old images or flagged keys', [X ~ 'net_effect'],
          pdelta.six_sets_to_nabla_sql(X ~ 'net_effect', key, attrs))) -%}
    {%- do plan.append(pdelta.plan_term(X ~ 'new', 'R_new, the state', [],
          'select ' ~ pdelta._cols(key + attrs) ~ ' from ' ~ pdelta.state_read(inp))) -%}
    {%- set cur = X -%}
    {%- if r['where'] -%}
      {%- do plan.append(pdelta.plan_term(X ~ 'sel_delta', '§5.5 selection: Δσ = σ_p(ΔS)', [X ~ 'delta'],
            pdelta.rule_selection_delta_sql(X ~ 'delta', r['where']))) -%}
      {%- do plan.append(pdelta.plan_term(X ~ 'sel_nabla', '§5.5 selection: ∇σ = σ_{p ∨ flag≠comp}(π_{s(flag)} ∇S)',
            [X ~ 'nabla'],
            pdelta.rule_selection_nabla_sql(X ~ 'nabla', key + attrs, r['where']))) -%}
      {%- do plan.append(pdelta.plan_term(X ~ 'sel_new', '§5.5 selection of the state', [X ~ 'new'],
            'select * from ' ~ X ~ 'new where (' ~ r['where'] ~ ')')) -%}
      {%- set cur = X ~ 'sel_' -%}
    {%- endif -%}
    {%- set cols = [] -%}{%- set names = [] -%}
    {%- for c in key + r['carry']
        -%}{%- do cols.append([q(c), alias ~ '__' ~ c]) -%}{%- do names.append(alias ~ '__' ~ c) -%}{%- endfor -%}
    {%- set pd, pn = X ~ 'prj_delta', X ~ 'prj_nabla' -%}
    {%- set delta_term = pdelta.plan_term(pd, '§5.4 projection: Δπ = π(ΔS) − π(σ_{flag=comp} ∇S)',
          [cur ~ 'delta', cur ~ 'nabla'],
          pdelta.rule_projection_delta_sql(cur ~ 'delta', cur ~ 'nabla', cols)) -%}
    {%- set nabla_term = pdelta.plan_term(pn, '§5.4 projection: ∇π = π(∇S) − π_{comp}(ΔS)',
          [cur ~ 'delta', cur ~ 'nabla'],
          pdelta.rule_projection_nabla_sql(cur ~ 'delta', cur ~ 'nabla', cols)) -%}
    {%- do plan.extend([delta_term, nabla_term]) -%}
    {%- if alias in pending and (P ~ 'prj__sets') in tables -%}
      {%- set types = {} -%}
      {%- for c in inp['columns'] -%}{%- do types.update({c[0] | lower: c[1]}) -%}{%- endfor -%}
      {%- set typed = [] -%}
      {%- for c in key + r['carry'] -%}{%- do typed.append([alias ~ '__' ~ c, types[c | lower]]) -%}{%- endfor -%}
      {%- do projected.append({'alias': alias, 'delta': delta_term, 'nabla': nabla_term, 'columns': typed}) -%}
    {%- endif -%}
    {%- do plan.append(pdelta.plan_term(X ~ 'prj_new', '§5.4 projection of the state', [cur ~ 'new'],
          pdelta.projection_sql(cur ~ 'new', cols))) -%}
    {%- do prj.update({alias: {'name': X ~ 'prj', 'cols': names, 'key': names[:key | length]}}) -%}
  {%- endfor -%}

  {%- if projected -%}
    {%- set relations_table = pdelta.scratch_relation(home, P ~ 'prj__sets') -%}
    {%- do plan.append(pdelta.stored_relations(P ~ 'prj__sets', relations_table, projected)) -%}
  {%- endif -%}

  {%- set root = view['root'] -%}
  {%- set s = {'name': prj[root]['name'], 'cols': prj[root]['cols'], 'key': prj[root]['key']} -%}
  {#- S's relations as the key-first join terms walk them -#}
  {%- set tree = {} -%}
  {%- for alias in view['order'] -%}
    {%- set j = view['relations'][alias]['join'] -%}
    {%- set on = [] -%}
    {%- if j -%}{%- for p in j['on']
        -%}{%- do on.append([j['to'] ~ '__' ~ p[0], alias ~ '__' ~ p[1]]) -%}{%- endfor -%}{%- endif -%}
    {%- do tree.update({alias: {'new': prj[alias]['name'] ~ '_new', 'cols': prj[alias]['cols'],
                               'to': j['to'] if j else none, 'on': on}}) -%}
  {%- endfor -%}
  {%- for alias in view['order'][1:] -%}
    {%- set n = P ~ 'j' ~ loop.index -%}
    {%- set r = view['relations'][alias] -%}
    {%- set t = prj[alias] -%}
    {%- set on = tree[alias]['on'] -%}
    {%- set s_order = view['order'][:loop.index] -%}
    {%- set s_news = [] -%}{%- for a in s_order -%}{%- do s_news.append(tree[a]['new']) -%}{%- endfor -%}
    {#- the terms this level reads, as names (reads) and as references (SQL) -#}
    {%- set sn, sd, sb, so = s['name'] ~ '_new', s['name'] ~ '_delta', s['name'] ~ '_nabla', s['name'] ~ '_old' -%}
    {%- set tn, td, tb, to = t['name'] ~ '_new', t['name'] ~ '_delta', t['name'] ~ '_nabla', t['name'] ~ '_old' -%}
    {%- do plan.append(pdelta.plan_term(so, '§5.6 old state: S_old = π_{pre}(S_new − ΔS) ∪ ∇S', [sn, sd, sb],
          pdelta.old_state_sql(sn, sd, sb, s['key'], s['cols']))) -%}
    {%- do plan.append(pdelta.plan_term(to, '§5.6 old state: T_old = π_{pre}(T_new − ΔT) ∪ ∇T', [tn, td, tb],
          pdelta.old_state_sql(tn, td, tb, t['key'], t['cols']))) -%}
    {%- do plan.append(pdelta.plan_term(n ~ '__new', 'S_new ⋈ T_new', [sn, tn],
          pdelta.join_new_sql(sn, tn, s['cols'], t['cols'], on))) -%}
    {%- do plan.append(pdelta.plan_term(n ~ '__delta_s_new_x_t_delta', '§5.6 join Δ: S_new ⋈ ΔT (key-first)',
          [td] + s_news,
          pdelta.rule_join_delta_s_new_term_sql(td, s['cols'], t['cols'], tree, s_order, r['join']['to'], on))) -%}
    {%- do plan.append(pdelta.plan_term(n ~ '__delta_s_delta_x_t_new', '§5.6 join Δ: ΔS ⋈ T_new', [sd, tn],
          pdelta.rule_join_delta_term_sql(sd, tn, s['cols'], t['cols'], on))) -%}
    {%- set parts = [n ~ '__delta_s_new_x_t_delta', n ~ '__delta_s_delta_x_t_new'] -%}
    {%- set delta_term = pdelta.plan_term(n ~ '__delta', '§5.6 join: Δ(S ⋈ T), the union of its Δ terms', parts,
          'select * from ' ~ parts | join(' union select * from ')) -%}
    {%- do plan.append(delta_term) -%}
    {%- do plan.append(pdelta.plan_term(n ~ '__nabla_s_old_x_t_nabla', '§5.6 join ∇: S_old ⋈ ∇T (key-first)',
          [tb, sd, sb] + s_news,
          pdelta.rule_join_nabla_s_old_term_sql(sd, sb, tb, s['cols'], t['cols'], s['key'],
            tree, s_order, r['join']['to'], on))) -%}
    {%- do plan.append(pdelta.plan_term(n ~ '__nabla_s_nabla_x_t_old', '§5.6 join ∇: ∇S ⋈ T_old', [sb, to],
          pdelta.rule_join_nabla_t_old_term_sql(sb, to, s['cols'], t['cols'], on))) -%}
    {%- do plan.append(pdelta.plan_term(n ~ '__nabla_s_partial', '§5.6 join ∇: partial rows of ∇S, T NULL', [sb],
          pdelta.rule_join_nabla_partial_term_sql(sb, s['cols'], t['cols']))) -%}
    {%- set parts = [n ~ '__nabla_s_old_x_t_nabla', n ~ '__nabla_s_nabla_x_t_old', n ~ '__nabla_s_partial'] -%}
    {%- set nabla_term = pdelta.plan_term(n ~ '__nabla', '§5.6 join: ∇(S ⋈ T), the union of its ∇ terms', parts,
          'select * from ' ~ parts | join(' union select * from ')) -%}
    {%- do plan.append(nabla_term) -%}
    {%- if (n ~ '__sets') in tables -%}
      {%- do plan.append(pdelta.stored_pair(n ~ '__sets', pdelta.scratch_relation(home, n ~ '__sets'),
                                            delta_term, nabla_term, s['cols'] + t['cols'])) -%}
    {%- endif -%}
    {#- a loop-local `set` would not outlive the loop; update the composite in place -#}
    {%- do s.update({'name': n ~ '_', 'cols': s['cols'] + t['cols']}) -%}
  {%- endfor -%}

  {%- set out_cols = [] -%}{%- set attrs_out = [] -%}
  {%- for o in view['output'] -%}
    {%- do out_cols.append([q(o[1] ~ '__' ~ o[2]), o[0]]) -%}
    {%- if o[0] not in view['key'] -%}{%- do attrs_out.append(o[0]) -%}{%- endif -%}
  {%- endfor -%}
  {%- set sd, sb = s['name'] ~ '_delta', s['name'] ~ '_nabla' -%}
  {%- do plan.append(pdelta.plan_term(P ~ 'v__delta', '§5.4 projection to the view: ΔV', [sd, sb],
        pdelta.rule_projection_delta_sql(sd, sb, out_cols))) -%}
  {%- do plan.append(pdelta.plan_term(P ~ 'v__nabla', '§5.4 projection to the view: ∇V', [sd, sb],
        pdelta.rule_projection_nabla_sql(sd, sb, out_cols))) -%}
  {%- do plan.append(pdelta.plan_term(P ~ 'v__changes', 'Fig. 6: ΔV/∇V to the six sets',
        [P ~ 'v__delta', P ~ 'v__nabla'],
        pdelta.delete_insert_to_six_sets_sql(P ~ 'v__delta', P ~ 'v__nabla', view['key'], attrs_out))) -%}
  {#- an update pair whose images agree on every output column is no change of the view -#}
  {%- set effective -%}
    select * from {{ P }}v__changes
    {%- if attrs_out %}
    where not (`_pdelta_type` = 'upd' and `_pdelta_before` <=> struct({{ pdelta._cols(attrs_out) }}))
    {%- endif %}
  {%- endset -%}
  {%- do plan.append(pdelta.plan_term(P ~ 'v__effective', 'update pairs that change no output column dropped',
        [P ~ 'v__changes'], effective)) -%}
  {{ return(plan) }}
{% endmacro %}

{#- A scratch table of the plan of the view `home`: beside it, in its catalog and schema (under
    Unity Catalog's three-part names too), rendered as its qualified name -#}
{% macro scratch_relation(home, name) %}
  {{ return(home.incorporate(path={'identifier': name}, type='table') | string) }}
{% endmacro %}

{#- Runs the plan: each term kept as a table is written to its scratch table (parquet; names
    carry the model's prefix so they cannot clash) by one statement, with the inline terms it
    reads as CTEs; returns the statement that reads `final`. Neither one WITH statement nor
    cached temp views suit the rules plan on Spark: both make it re-analyze and re-optimize
    every shared term inside each reader; a scratch table is a plain scan. `reads`: the relations the
    plan reads, when its scratch tables may be written through Delta's Kernel reader (kernel_reads_on). -#}
{% macro run_plan(plan, final, reads=none) %}
  {%- set kept = plan | selectattr('kept', 'eq', 'table') | list -%}
  {%- set switched = pdelta.kernel_reads_on(reads) if kept else false -%}
  {%- for term in kept -%}
    {%- call statement('pdelta_scratch') -%}
      create table {{ term['table'] }} using parquet as {{ pdelta.plan_statement(plan, term['name']) }}
    {%- endcall -%}
  {%- endfor -%}
  {%- do pdelta.kernel_reads_off(switched) -%}
  {{ return(pdelta.plan_statement(plan, final)) }}
{% endmacro %}

{#- drops the scratch tables of the plan of the view `home`; with check_first, only those that
    exist (a crashed run's leftovers): from dbt's relation cache when `cached` (a `dbt run` lists
    the model's schema once at its start, so this costs no statement), else found with one
    listing (run-operation has no cache) -#}
{% macro drop_plan(plan, home, check_first=false, cached=false) %}
  {%- set kept = [] -%}
  {%- for term in plan if term['kept'] == 'table' -%}{%- do kept.append(term) -%}{%- endfor -%}
  {%- if check_first and kept and cached -%}
    {%- set found = [] -%}
    {%- for term in kept -%}
      {%- set name = term['name'] | lower -%}
      {%- if adapter.get_relation(database=home.database, schema=home.schema, identifier=name) is not none -%}
        {%- do found.append(term) -%}
      {%- endif -%}
    {%- endfor -%}
    {%- set kept = found -%}
  {%- elif check_first and kept -%}
    {%- set found = [] -%}
    {%- set listed = run_query('show tables in ' ~ home.include(identifier=false) ~ " like '"
                               ~ kept[0]['name'].split('__pdelta_')[0] ~ "__pdelta_*'") -%}
    {%- for row in listed.rows -%}{%- do found.append(row['tableName'] | lower) -%}{%- endfor -%}
    {%- set still = [] -%}
    {%- for term in kept if (term['name'] | lower) in found -%}{%- do still.append(term) -%}{%- endfor -%}
    {%- set kept = still -%}
  {%- endif -%}
  {%- for term in kept | reverse -%}
    {%- call statement('pdelta_drop') -%} drop table if exists {{ term['table'] }} {%- endcall -%}
  {%- endfor -%}
{% endmacro %}
