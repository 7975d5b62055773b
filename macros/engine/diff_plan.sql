{#- The diff plan of one refresh (`pdelta_plan: diff`, the default): one statement that finds
    the view rows the batch can reach, recomputes them from the states and compares them with
    the view's own rows. A dimension view is keyed by its root key and joins foreign key to
    primary key (DESIGN.md §2), so each view row depends on one row per relation along its join
    path, and a view row can differ between the old and the new states only if its root row, or
    a row its path reaches, has a change in the batch. Walking from each changed key up to the
    root through the new states finds every such root key: an unchanged row has the same
    foreign key before and after, so the old path and the new one agree up to the first changed
    row, whose key is in a feed.

    Terms, leaves first:
      <alias>__keys   the keys of relation <alias> whose view rows the batch may change: the
                      keys in its pending feed rows, and the rows of its state that join a key
                      of a child's `__keys` (a key-first semi-join, the small side broadcast).
                      Relations with nothing pending below them have no term. A key
                      may repeat: these terms are read only by semi-joins, which a repeated
                      key does not change, and making them distinct cost a shuffle each (35
                      against 25 Spark jobs for the chain's stage at 1M rows).
      v__affected     the root's keys under the view's key names.
      v__new_rows     the view's SELECT restricted to those root keys (key-first joins).
      v__old_rows     the view's current rows for those keys.
      v__changes      their difference: complete changes, `ins`, `upd` with the before-image,
                      `del` with the old row (rebuild_diff_sql); unchanged rows drop out.

    Only the keys of the feed rows are read, so the plan is exact for any of the six sets
    (partial images included); it relies, like the rules, on each state being the relation
    after the consumed feed rows. Returns a list of plan_term records, all in one statement:
    inline, but v__affected shared (read twice, computed once: shared_cte).

    adapt: the relations whose predicate changed, or that lost or gained a leaf relation, since the
    view was built (declaration_adaptation's `adapt`). A relation's rows where the old and new
    declaration disagree on whether the row joins the view are keys the batch reaches like its
    pending feed keys: the rows of every other key are in the view as the new declaration has
    them (the view held them under the old one, and a key whose path no pending row reaches joins
    the same rows under both).

    A leaf replaced (adapt's `replaced`) adds keys from its sides (replacement_key_queries): the
    root's keys of the view rows its replacement does not match, the parent's keys of rows that join
    the replacement and no view row.

    held_as: {output column: the view's column that holds it} for columns a batch renames that the
    view does not have under their new names yet (`pdelta explain` before the run: only the run
    renames them, adapt_view_columns); none for a column the run adds that the view does not have
    yet (read as NULL and not compared: the run fills it before its batch, fill_added_columns). -#}
{% macro diff_plan(view, inputs, target, pending, adapt=none, held_as=none) %}
  {{ return(adapter.dispatch('diff_plan', 'pdelta')(view, inputs, target, pending, adapt, held_as)) }}
{% endmacro %}

{% macro default__diff_plan(view, inputs, target, pending, adapt=none, held_as=none) %}
  {%- set adapt = adapt or {} -%}
  {%- set q = adapter.quote -%}
  {%- set rels = view['relations'] -%}
  {%- set plan = [] -%}
  {%- set has_keys = [] -%}
  {%- set replacement_keys = pdelta.replacement_key_queries(view, inputs, target, adapt, held_as) -%}
  {#- leaves first: the reverse of the join order puts every child before its parent -#}
  {%- set root = view['root'] -%}
  {%- for alias in view['order'] | reverse -%}
    {%- set r = rels[alias] -%}
    {%- set parts = [] -%}
    {%- set reads = [] -%}
    {%- set feed_keys = none -%}
    {%- set feed_reads = [] -%}
    {%- if alias in pending and inputs[alias].get('feed_rows_term') -%}
      {#- the same feed rows as the lag check's term (lag_guard): the feed read once for both -#}
      {%- set feed_keys = 'select ' ~ pdelta._cols(r['key']) ~ ' from ' ~ inputs[alias]['feed_rows_term'] -%}
      {%- do feed_reads.append(inputs[alias]['feed_rows_term']) -%}
      {%- do reads.append(inputs[alias]['feed_rows_term']) -%}
    {%- elif alias in pending -%}
      {%- set feed_keys = 'select ' ~ pdelta._cols(r['key']) ~ ' from ('
            ~ pdelta.feed_range_sql(inputs[alias]['changes'], r['key'], inputs[alias]['lo'], inputs[alias]['hi'],
                                    inputs[alias].get('exclude')) ~ ') as f' -%}
    {%- endif -%}
    {%- if feed_keys is not none -%}{%- do parts.append(feed_keys) -%}{%- endif -%}
    {#- the children whose keys the batch reaches, each with its join to this relation (`x`) from its keys (`c`) -#}
    {%- set children = [] -%}
    {%- set child_on = {} -%}
    {%- for child in view['order'] if rels[child]['join'] and rels[child]['join']['to'] == alias
                                     and child in has_keys -%}
      {%- do children.append(child) -%}
      {%- set on = [] -%}
      {%- for p in rels[child]['join']['on'] -%}{%- do on.append('x.' ~ q(p[0]) ~ ' = c.' ~ q(p[1])) -%}{%- endfor -%}
      {%- do child_on.update({child: on | join(' and ')}) -%}
      {%- do reads.append(child ~ '__keys') -%}
    {%- endfor -%}
    {#- The state rows the batch reaches, in one read (`<alias>__reached`): those of its pending feed keys and
        those joining a child's keys, each found by a broadcast existence join. Made where the plan reads the
        state for them: a relation with children reached, and the root, whose rows v__new_rows starts from
        (they are its affected rows). The keys term then takes their keys and the pending feed keys (a deleted
        key has no row). A relation whose declaration a batch adapts, or that a replaced leaf's keys reach,
        keeps one semi-join per part (below). -#}
    {%- set reached = (children or alias == root) and (feed_keys is not none or children)
                      and alias not in adapt and not replacement_keys.get(alias) -%}
    {%- if reached -%}
      {%- set found = [] -%}
      {%- if feed_keys is not none -%}
        {%- do found.append('exists (select /*+ BROADCAST(f) */ 1 from (' ~ feed_keys ~ ') as f where '
                            ~ pdelta._key_join_on(r['key'], 'f', 'x') ~ ')') -%}
      {%- endif -%}
      {%- for child in children -%}
        {%- do found.append('exists (select /*+ BROADCAST(c) */ 1 from ' ~ child ~ '__keys as c where '
                            ~ child_on[child] ~ ')') -%}
      {%- endfor -%}
      {#- shared (shared_cte): the root's are read by its keys term and by v__new_rows; a non-root level's by its
          keys term alone, which Spark inlines as any CTE read once -#}
      {%- do plan.append(pdelta.plan_term(alias ~ '__reached',
            'diff: state rows of `' ~ alias ~ '` the batch reaches (its pending feed keys; rows joining a child\'s'
            ~ ' keys)',
            reads | list, 'select x.* from ' ~ pdelta.state_read(inputs[alias]) ~ ' as x where '
                          ~ found | join('\n   or '), 'shared')) -%}
      {%- set parts = ([feed_keys] if feed_keys is not none else [])
                      + ['select ' ~ pdelta._cols(r['key']) ~ ' from ' ~ alias ~ '__reached'] -%}
      {%- set reads = feed_reads + [alias ~ '__reached'] -%}
    {%- else -%}
      {%- if alias in adapt and adapt[alias]['disagree'] -%}
        {%- do parts.append('select ' ~ pdelta._cols(r['key'], 'x.') ~ ' from ' ~ pdelta.state_read(inputs[alias])
              ~ ' as x where ' ~ adapt[alias]['disagree']) -%}
      {%- endif -%}
      {%- do parts.extend(replacement_keys.get(alias, [])) -%}
      {%- for child in children -%}
        {%- do parts.append('select /*+ BROADCAST(c) */ ' ~ pdelta._cols(r['key'], 'x.') ~ ' from '
              ~ pdelta.state_read(inputs[alias]) ~ ' as x left semi join ' ~ child ~ '__keys as c on '
              ~ child_on[child]) -%}
      {%- endfor -%}
    {%- endif -%}
    {%- if parts -%}
      {%- do has_keys.append(alias) -%}
      {%- do plan.append(pdelta.plan_term(alias ~ '__keys',
            'diff: keys of `' ~ alias ~ '` the batch reaches (pending feed keys; state rows joining a child\'s keys'
            ~ ('; state rows its old and new declaration disagree on' if alias in adapt else '')
            ~ ('; rows a replaced relation\'s replacement answers otherwise' if alias in replacement_keys else '')
            ~ ')',
            reads, parts | join('\nunion all\n'))) -%}
    {%- endif -%}
  {%- endfor -%}

  {%- set root = view['root'] -%}
  {%- set root_key = rels[root]['key'] -%}
  {#- view['key'] names the root key's columns (root_key) in the same order -#}
  {%- set attrs_out = [] -%}
  {%- for o in view['output'] if o[0] not in view['key'] -%}{%- do attrs_out.append(o[0]) -%}{%- endfor -%}
  {%- set renamed = [] -%}
  {%- for k in root_key -%}{%- do renamed.append(q(k) ~ ' as ' ~ q(view['key'][loop.index0])) -%}{%- endfor -%}
  {%- set affected = 'select ' ~ renamed | join(', ') ~ ' from ' ~ root ~ '__keys' -%}
  {#- read by v__new_rows and v__old_rows: shared, so the key walk runs once (shared_cte) -#}
  {%- do plan.append(pdelta.plan_term('v__affected', 'diff: the root keys whose view rows may change',
                                      [root ~ '__keys'], affected, 'shared')) -%}

  {#- the view's SELECT from the affected root rows out: each step's small side broadcast -#}
  {%- set on_root = [] -%}
  {%- for k in root_key
      -%}{%- do on_root.append('r.' ~ q(root ~ '__' ~ k) ~ ' = a.' ~ q(view['key'][loop.index0])) -%}{%- endfor -%}
  {%- set states = {} -%}
  {%- for alias in view['order'] -%}{%- do states.update({alias: pdelta.state_read(inputs[alias])}) -%}{%- endfor -%}
  {#- the root's reached rows are its affected rows: every root key of v__affected is a pending feed key
      (whose state row, if any, is reached) or the key of a reached row -#}
  {%- set root_reached = (root ~ '__reached') in (plan | map(attribute='name') | list) -%}
  {%- set affected_root = pdelta._relation_rows(rels[root], root ~ '__reached') if root_reached
                          else 'select /*+ BROADCAST(a) */ r.* from (' ~ pdelta._relation_rows(rels[root], states[root])
                               ~ ') as r left semi join v__affected as a on ' ~ on_root | join(' and ') -%}
  {%- set new_rows -%}
    select {% for o in view['output'] %}{{ q(o[1] ~ '__' ~ o[2]) }} as {{ q(o[0]) }}{% if not loop.last %},
           {% endif %}{% endfor %}
    from ({{ pdelta._joined_down(view, states, affected_root, view['order'][1:], 'BROADCAST(k)') }}) as j
  {%- endset -%}
  {%- do plan.append(pdelta.plan_term('v__new_rows', 'diff: the affected rows recomputed from the new states',
                                      [root ~ '__reached' if root_reached else 'v__affected'], new_rows)) -%}

  {%- set held = [] -%}
  {%- set compared = [] -%}
  {%- for c in view['key'] + attrs_out -%}
    {%- if c in (held_as or {}) and held_as[c] is none -%}
      {#- a column the run adds (and fills) before its batch: not in the view yet, so not compared -#}
      {%- do held.append('null as ' ~ q(c)) -%}
    {%- else -%}
      {%- do held.append('v.' ~ q((held_as or {}).get(c, c)) ~ ' as ' ~ q(c)) -%}
      {%- if c in attrs_out -%}{%- do compared.append(c) -%}{%- endif -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set old_rows -%}
    select /*+ BROADCAST(a) */ {{ held | join(', ') }}
    from {{ target }} as v left semi join v__affected as a on {{ pdelta._key_join_on(view['key'], 'v', 'a') }}
  {%- endset -%}
  {%- do plan.append(pdelta.plan_term('v__old_rows', 'diff: the affected rows as the view holds them',
        ['v__affected'], old_rows)) -%}
  {%- do plan.append(pdelta.plan_term('v__changes',
        'diff: new rows against old rows, as complete changes (ins, upd, del)',
        ['v__new_rows', 'v__old_rows'],
        pdelta.rebuild_diff_sql('v__old_rows', 'select * from v__new_rows', view['key'], attrs_out, compared))) -%}
  {{ return(plan) }}
{% endmacro %}

{#- The key queries of the leaves a batch replaces (adapt's `replaced`, declaration_adaptation),
    alias -> [SQL selecting that relation's key columns], from the view (`target`, its columns as
    `held_as` has them) and the replacement's state (its predicate applied) only:
      delete side, root keys: the view rows whose columns from the leaf (`compare`) no replacement row
        matches by the parent's join columns, read from the view (`fk_out`) or else from the root's
        state (the leaf joins the root);
      insert side, parent keys: the parent's state rows that join a replacement row and no view row
        (the root's rows not in the view; another parent's rows whose join columns no view row holds).
    The batch recomputes those rows like any reached by a pending change. -#}
{% macro replacement_key_queries(view, inputs, target, adapt, held_as=none) %}
  {%- set q = adapter.quote -%}
  {%- set rels = view['relations'] -%}
  {%- set root = view['root'] -%}
  {%- set held_as = held_as or {} -%}
  {%- set out = {} -%}
  {%- for parent, entry in (adapt or {}).items() -%}
    {%- for swap in entry.get('replaced') or [] -%}
      {%- set leaf = rels[swap['leaf']] -%}
      {%- set rows = 'select * from ' ~ pdelta.state_read(inputs[swap['leaf']])
                     ~ (' where (' ~ leaf['where'] ~ ')' if leaf['where'] else '') -%}
      {%- set view_key = [] -%}
      {%- for k in view['key'] -%}{%- do view_key.append(q(held_as.get(k, k))) -%}{%- endfor -%}
      {%- if 'insert' in swap['sides'] -%}
        {%- set unheld = [] -%}
        {%- if parent == root -%}
          {%- for k in rels[root]['key'] -%}
            {%- do unheld.append('v.' ~ view_key[loop.index0] ~ ' = x.' ~ q(k)) -%}
          {%- endfor -%}
          {%- set held_rows = target -%}
        {%- else -%}
          {%- set fk = [] -%}
          {%- for name in swap['fk_out'] -%}
            {%- do fk.append(q(held_as.get(name, name))) -%}
            {%- do unheld.append('v.' ~ q(held_as.get(name, name)) ~ ' = x.'
                                 ~ q(leaf['join']['on'][loop.index0][0])) -%}
          {%- endfor -%}
          {%- set held_rows = '(select distinct ' ~ fk | join(', ') ~ ' from ' ~ target ~ ')' -%}
        {%- endif -%}
        {%- do out.setdefault(parent, []).append('select ' ~ pdelta._cols(rels[parent]['key'], 'x.') ~ ' from '
              ~ pdelta.state_read(inputs[parent]) ~ ' as x left semi join (' ~ rows ~ ') as l on '
              ~ pdelta._leaf_join_condition(leaf) ~ ' left anti join '
              ~ held_rows ~ ' as v on ' ~ unheld | join(' and ')) -%}
      {%- endif -%}
      {%- if 'delete' in swap['sides'] -%}
        {%- set match = [] -%}
        {%- set keys = [] -%}
        {%- if swap['fk_out'] -%}
          {%- for name in swap['fk_out'] -%}
            {%- do match.append('l.' ~ q(leaf['join']['on'][loop.index0][1]) ~ ' = v.' ~ q(held_as.get(name, name))) -%}
          {%- endfor -%}
          {%- for k in rels[root]['key'] -%}
            {%- do keys.append('v.' ~ view_key[loop.index0] ~ ' as ' ~ q(k)) -%}
          {%- endfor -%}
          {%- set located = target ~ ' as v' -%}
        {%- else -%}
          {#- the leaf joins the root: the root's row gives each view row's join columns -#}
          {%- do match.append(pdelta._leaf_join_condition(leaf)) -%}
          {%- set on_root = [] -%}
          {%- for k in rels[root]['key'] -%}
            {%- do keys.append('x.' ~ q(k)) -%}
            {%- do on_root.append('x.' ~ q(k) ~ ' = v.' ~ view_key[loop.index0]) -%}
          {%- endfor -%}
          {%- set located = target ~ ' as v join ' ~ pdelta.state_read(inputs[root]) ~ ' as x on '
                            ~ on_root | join(' and ') -%}
        {%- endif -%}
        {%- for pair in swap['compare'] if not (pair[0] in held_as and held_as[pair[0]] is none) -%}
          {%- do match.append('l.' ~ q(pair[1]) ~ ' <=> v.' ~ q(held_as.get(pair[0], pair[0]))) -%}
        {%- endfor -%}
        {%- do out.setdefault(root, []).append('select ' ~ keys | join(', ') ~ ' from ' ~ located
              ~ ' left anti join (' ~ rows ~ ') as l on ' ~ match | join(' and ')) -%}
      {%- endif -%}
    {%- endfor -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#- `rows` (a root rows' query, columns named `<alias>__<column>`) joined by key to the rows of the
    relations `aliases` (each joined to one before it), in the view's join order, `hint` (a join
    hint such as BROADCAST(k), or none) on each join: the view's SELECT from those root rows out -#}
{% macro _joined_down(view, states, rows, aliases, hint=none) %}
  {%- set q = adapter.quote -%}
  {%- set rels = view['relations'] -%}
  {%- set joined = namespace(sql=rows) -%}
  {%- for alias in view['order'][1:] if alias in aliases -%}
    {%- set j = rels[alias]['join'] -%}
    {%- set on = [] -%}
    {%- for p in j['on'] -%}
      {%- do on.append('k.' ~ q(j['to'] ~ '__' ~ p[0]) ~ ' = r.' ~ q(alias ~ '__' ~ p[1])) -%}
    {%- endfor -%}
    {%- set joined.sql = 'select ' ~ ('/*+ ' ~ hint ~ ' */ ' if hint else '') ~ 'k.*, r.* from (' ~ joined.sql
          ~ ') as k join (' ~ pdelta._relation_rows(rels[alias], states[alias]) ~ ') as r on ' ~ on | join(' and ') -%}
  {%- endfor -%}
  {{ return(joined.sql) }}
{% endmacro %}

{#- a relation's rows as the view reads them: its predicate applied, its key and carried
    columns renamed `<alias>__<column>` so that names stay unique across the joins -#}
{% macro _relation_rows(r, state) %}
  {%- set q = adapter.quote -%}
  {%- set cols = [] -%}
  {%- for c in r['key'] + r['carry'] -%}{%- do cols.append(q(c) ~ ' as ' ~ q(r['alias'] ~ '__' ~ c)) -%}{%- endfor -%}
  {{ return('select ' ~ cols | join(', ') ~ ' from ' ~ state ~ (' where (' ~ r['where'] ~ ')' if r['where'] else '')) }}
{% endmacro %}
