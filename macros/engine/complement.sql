{#- Complement mode (issue #21; docs/complement-mode.md): a view declared `pdelta_complement: true` keeps,
    beside itself, the minimal complement of Laurent et al. (Theorem 2.2) for what its refreshes read of each
    relation: P_alias, the relation as the view reads it (its predicate applied, its key and carried columns:
    outputs and the columns its children join on). One Delta table, `<view>__pdelta_complement`, of two parts:
      hidden rows (`_pdelta_rest` null)   one per view row: the view's key and the columns of every P_alias the
                                          view does not output, as `<alias>__<column>` (a child's key is its
                                          parent's join column: kept once)
      rest rows (`_pdelta_rest` = alias)  the rows of P_alias no view row holds, as `<alias>__<column>`
    One table, so that a batch keeps it with one statement, not one per relation. The view joined to the hidden
    rows by its key gives each P_alias for the rows the view holds; the rest rows the others
    (complement_reconstruction_parts: two parts per relation, the paper's Equation (4)).

    Built so far: the table, rebuilt from the states as the run read them after each batch the view commits
    (complement_statement; the default, `pdelta_complement_upkeep: rebuild`) or kept from the rows the batch
    touches (complement_batch.sql; `batch`), and its check (the data test complements_reconstruct_states).
    Refreshes do not read it yet: they read the states. -#}

{#- How the view and the complement give each relation's columns: {columns: alias -> [its key and carried
    columns], exprs: alias -> {column (lower-cased) -> SQL over `v` (the view) and `h` (a hidden row)}, hidden:
    [[name, alias, column]] (the hidden part's columns past the view's key), stored: [[name, alias, column]] (every
    `<alias>__<column>` of the table, in order)}. -#}
{% macro complement_layout(view) %}
  {%- set q = adapter.quote -%}
  {%- set rels = view['relations'] -%}
  {%- set shown = {} -%}
  {%- for o in view['output'] -%}
    {%- do shown.setdefault(o[1], {}) -%}
    {%- do shown[o[1]].setdefault(o[2] | lower, o[0]) -%}
  {%- endfor -%}
  {%- set columns, exprs, hidden, stored = {}, {}, [], [] -%}
  {%- for alias in view['order'] -%}
    {%- set r = rels[alias] -%}
    {%- set cols = [] -%}
    {%- for c in r['key'] + r['carry'] if c | lower not in cols | map('lower') | list -%}{%- do cols.append(c) -%}
    {%- endfor -%}
    {%- set from_parent = {} -%}
    {%- for p in (r['join'] or {}).get('on', []) -%}{%- do from_parent.update({p[1] | lower: p[0]}) -%}{%- endfor -%}
    {%- set found = {} -%}
    {%- for c in cols -%}
      {%- set name = alias ~ '__' ~ c -%}
      {%- if name | lower in view['key'] | map('lower') | list -%}
        {{ exceptions.raise_compiler_error('pdelta: complement mode names a column of its table ' ~ name
              ~ ', which is also the name of a key column of the view: rename that output column') }}
      {%- endif -%}
      {%- do stored.append([name, alias, c]) -%}
      {%- if c | lower in shown.get(alias, {}) -%}
        {%- do found.update({c | lower: 'v.' ~ q(shown[alias][c | lower])}) -%}
      {%- elif c | lower in from_parent -%}
        {#- the join is along the child's whole key: the parent's join column is the child's key -#}
        {%- do found.update({c | lower: exprs[r['join']['to']][from_parent[c | lower] | lower]}) -%}
      {%- else -%}
        {%- do hidden.append([name, alias, c]) -%}
        {%- do found.update({c | lower: 'h.' ~ q(name)}) -%}
      {%- endif -%}
    {%- endfor -%}
    {%- do columns.update({alias: cols}) -%}
    {%- do exprs.update({alias: found}) -%}
  {%- endfor -%}
  {{ return({'columns': columns, 'exprs': exprs, 'hidden': hidden, 'stored': stored}) }}
{% endmacro %}

{#- the complement's table beside `target` -#}
{% macro complement_relation(target) %}
  {{ return(pdelta.meta_relation(target, 'complement')) }}
{% endmacro %}

{#- P_alias from a relation `state` (a table or a parenthesized query): its predicate applied, its key and
    carried columns -#}
{% macro complement_state_sql(view, alias, state) %}
  {%- set r = view['relations'][alias] -%}
  {{ return('select ' ~ pdelta._cols(pdelta.complement_layout(view)['columns'][alias]) ~ ' from ' ~ state
            ~ (' where (' ~ r['where'] ~ ')' if r['where'] else '')) }}
{% endmacro %}

{#- The statement that builds the complement of `target` from the states as `reads` gives them (alias -> a
    relation or parenthesized query: the states the view's batch `batch_id` was computed from): one CREATE OR
    REPLACE, recording the batch it reflects (`pdelta.complement_batch`: a run finds a complement behind its view,
    after a stop between the view's commit and this statement, and rebuilds it). The view's join is written once
    (`joined`: its key and every stored column): the hidden rows are its projection, and each relation's rest rows
    its P_alias without the keys `joined` holds (at 10M customers: 72.7 s at the build and 59.4 s at a refresh,
    where writing the join once per part took 104.9 and 71.2 s in the run before; Spark ran as many jobs). The
    parts are one union: a column a part does not fill is NULL there, typed by the part that fills it. -#}
{% macro complement_statement(target, view, reads, batch_id) %}
  {%- set q = adapter.quote -%}
  {%- set layout = pdelta.complement_layout(view) -%}
  {%- set rels = view['relations'] -%}
  {%- set hidden_names = layout['hidden'] | map(attribute=0) | list -%}
  {%- set joined_cols = [] -%}
  {%- for k in rels[view['root']]['key'] -%}
    {%- do joined_cols.append(q(view['root']) ~ '.' ~ q(k) ~ ' as ' ~ q(view['key'][loop.index0])) -%}
  {%- endfor -%}
  {%- for s in layout['stored'] -%}
    {%- do joined_cols.append(q(s[1]) ~ '.' ~ q(s[2]) ~ ' as ' ~ q(s[0])) -%}
  {%- endfor -%}
  {%- set hidden_cols = ['cast(null as string) as `_pdelta_rest`'] -%}
  {%- for k in view['key'] -%}{%- do hidden_cols.append(q(k)) -%}{%- endfor -%}
  {%- for s in layout['stored'] -%}
    {%- do hidden_cols.append((q(s[0]) if s[0] in hidden_names else 'null as ' ~ q(s[0]))) -%}
  {%- endfor -%}
  {%- set parts = ['select ' ~ hidden_cols | join(', ') ~ ' from joined'] -%}
  {%- for alias in view['order'] -%}
    {%- set rest_cols = [pdelta.sql_literal(alias) ~ ' as `_pdelta_rest`'] -%}
    {%- for k in view['key'] -%}{%- do rest_cols.append('null as ' ~ q(k)) -%}{%- endfor -%}
    {%- for s in layout['stored'] -%}
      {%- do rest_cols.append(('s.' ~ q(s[2]) if s[1] == alias else 'null') ~ ' as ' ~ q(s[0])) -%}
    {%- endfor -%}
    {%- set held_cols, on = [], [] -%}
    {%- for k in rels[alias]['key'] -%}
      {%- do held_cols.append(q(alias ~ '__' ~ k) ~ ' as ' ~ q('k' ~ loop.index0)) -%}
      {%- do on.append('s.' ~ q(k) ~ ' <=> held.' ~ q('k' ~ loop.index0)) -%}
    {%- endfor -%}
    {%- do parts.append('select ' ~ rest_cols | join(', ') ~ ' from (' ~ pdelta.complement_state_sql(view, alias,
          reads[alias]) ~ ') as s\nleft anti join (select ' ~ held_cols | join(', ') ~ ' from joined) as held on '
          ~ on | join(' and ')) -%}
  {%- endfor -%}
  {#- the batch it reflects: a row of its own (`#batch:<id>`, complement_batch), which the upkeep from the batch
      deletes and writes anew with the rows (complement_batch_source) -#}
  {%- set marker = [pdelta.sql_literal(pdelta.complement_marker(batch_id)) ~ ' as `_pdelta_rest`'] -%}
  {%- for k in view['key'] -%}{%- do marker.append('null as ' ~ q(k)) -%}{%- endfor -%}
  {%- for s in layout['stored'] -%}{%- do marker.append('null as ' ~ q(s[0])) -%}{%- endfor -%}
  {%- do parts.append('select ' ~ marker | join(', ')) -%}
  {#- deletion vectors: the upkeep's DELETE marks the rows it replaces instead of rewriting every file a batch's
      keys touch (spread keys touch them all) -#}
  {{ return('create or replace table ' ~ pdelta.complement_relation(target)
            ~ " using delta tblproperties ('delta.enableDeletionVectors' = 'true') as\nwith joined as ("
            ~ pdelta.full_select_sql(view, reads, joined_cols) ~ ')\n' ~ parts | join('\nunion all\n')) }}
{% endmacro %}

{#- The two parts of P_alias's reconstruction from the view `target` and its complement (Equation (4)): {held:
    the view's rows joined to the hidden rows by the view's key, a relation row once per view row that holds it;
    rest: the rest rows of `alias`}. Disjoint by the relation's key. -#}
{% macro complement_reconstruction_parts(target, view, alias) %}
  {%- set q = adapter.quote -%}
  {%- set layout = pdelta.complement_layout(view) -%}
  {%- set table = pdelta.complement_relation(target) -%}
  {%- set cols, rest, on = [], [], [] -%}
  {%- for c in layout['columns'][alias] -%}
    {%- do cols.append(layout['exprs'][alias][c | lower] ~ ' as ' ~ q(c)) -%}
    {%- do rest.append(q(alias ~ '__' ~ c) ~ ' as ' ~ q(c)) -%}
  {%- endfor -%}
  {%- for k in view['key'] -%}{%- do on.append('v.' ~ q(k) ~ ' <=> h.' ~ q(k)) -%}{%- endfor -%}
  {{ return({'held': 'select ' ~ cols | join(', ') ~ ' from ' ~ target ~ ' as v join (select * from ' ~ table
                     ~ ' where `_pdelta_rest` is null) as h on ' ~ on | join(' and '),
             'rest': 'select ' ~ rest | join(', ') ~ ' from ' ~ table ~ ' where `_pdelta_rest` = '
                     ~ pdelta.sql_literal(alias)}) }}
{% endmacro %}

{#- The batch the complement `table` reflects (its marker row, `_pdelta_rest` = `#batch:<id>`), none when it is
    missing or has none (a complement built before the marker: rebuilt). A row, not a table property: the upkeep's
    DELETE and INSERT move it with the rows, and a stop between them leaves none (rebuilt). -#}
{% macro complement_batch(table) %}
  {%- if not pdelta.relation_exists(table) -%}{{ return(none) }}{%- endif -%}
  {%- set prefix = pdelta.complement_marker() -%}
  {%- set rows = pdelta.read_query('select `_pdelta_rest` from ' ~ table ~ ' where `_pdelta_rest` like '
                                    ~ pdelta.sql_literal(prefix ~ '%'), [table]).rows -%}
  {%- if rows | length != 1 -%}{{ return(none) }}{%- endif -%}
  {{ return(rows[0][0][prefix | length:] | int) }}
{% endmacro %}

{#- The `_pdelta_rest` of the complement's marker row for batch `batch_id` (`#batch:<id>`: no relation's alias
    starts with `#`), or with no batch the prefix every marker starts with -#}
{% macro complement_marker(batch_id=none) %}
  {{ return('#batch:' ~ (batch_id | int if batch_id is not none else '')) }}
{% endmacro %}

{#- After a run of a view in complement mode: the complement rebuilt from the states as the run read them
    (`inputs`, state_read) when the run committed batch `committed`, or, when it committed none, if it is
    behind the view's last batch `last` (a run stopped between the view's commit and the complement's).
    A retry of a staged batch (`retry`) leaves it behind: the batch was computed from bounds that the
    inputs, frozen anew, may have passed; the next run rebuilds it. Returns whether it rebuilt it. -#}
{% macro complement_upkeep(target, view, inputs, committed, last, retry=false, kept=false) %}
  {%- if retry or kept -%}{{ return(false) }}{%- endif -%}
  {%- set batch_id = committed if committed is not none else last -%}
  {%- if committed is none and pdelta.complement_batch(pdelta.complement_relation(target)) == last -%}
    {{ return(false) }}
  {%- endif -%}
  {%- set reads = {} -%}
  {%- for alias in view['order'] -%}{%- do reads.update({alias: pdelta.state_read(inputs[alias])}) -%}{%- endfor -%}
  {#- its SELECT through Delta's Kernel reader where the states are tables (Delta's CTAS stays the classic writer,
      as in build_in_full): the classic reader plans each scan of a state with a Spark job of its own -#}
  {%- set switched = pdelta.kernel_reads_on(pdelta.input_relations(inputs, view['order'])) -%}
  {%- call statement('complement') -%}{{ pdelta.complement_statement(target, view, reads, batch_id) }}{%- endcall -%}
  {%- do pdelta.kernel_reads_off(switched) -%}
  {{ log('pdelta: ' ~ target.identifier ~ ': its complement rebuilt from the states (batch ' ~ batch_id ~ ')',
         info=true) }}
  {{ return(true) }}
{% endmacro %}

{#- A view whose complement mode is off: the complement a run kept while it was on is dropped (were the mode
    switched on again, the first run would find none and build it). dbt's relation cache answers whether it
    exists: no statement for a view that never kept one. -#}
{% macro complement_drop(target) %}
  {%- set table = pdelta.complement_relation(target) -%}
  {%- if pdelta.relation_exists(table) -%}
    {%- do adapter.drop_relation(table) -%}
    {{ log('pdelta: ' ~ target.identifier ~ ': complement mode is off: its complement ' ~ table.identifier
           ~ ' dropped', info=true) }}
  {%- endif -%}
  {#- and the rows its last upkeep from a batch staged (complement_keep_from_batch) -#}
  {%- set stage = pdelta.meta_relation(target, 'complement_stage') -%}
  {%- if pdelta.relation_exists(stage) -%}{%- do pdelta.drop_stage(stage) -%}{%- endif -%}
{% endmacro %}

{#- The parts of the complement check of one view (complement_mismatches_sql aggregates them): per relation, its
    P_alias as its state holds it now (`part` 'state') and the two parts of its reconstruction from the view and
    complement ('held', 'rest'; complement_reconstruction_parts), each row as JSON with its model and relation.
    `view`: the normalized declaration. -#}
{% macro complement_check_rows(target, view, model_name) %}
  {%- set parts = [] -%}
  {%- for alias in view['order'] -%}
    {#- the state from dbt's graph, not ref(): a data test's dependencies are known before it renders -#}
    {%- set spec = view['relations'][alias]['state'] -%}
    {%- set state = pdelta.graph_relation(spec) -%}
    {%- if state is none -%}
      {{ exceptions.raise_compiler_error('pdelta: ' ~ model_name ~ ': the state of `' ~ alias ~ '` (' ~ tojson(spec)
            ~ ') is no model, seed, snapshot or source of this project: its complement cannot be checked') }}
    {%- endif -%}
    {%- set rebuilt = pdelta.complement_reconstruction_parts(target, view, alias) -%}
    {%- for part, rows in [('state', pdelta.complement_state_sql(view, alias, state)),
                           ('held', rebuilt['held']), ('rest', rebuilt['rest'])] -%}
      {%- do parts.append('select ' ~ pdelta.sql_literal(model_name) ~ ' as model, ' ~ pdelta.sql_literal(alias)
            ~ ' as relation, ' ~ pdelta.sql_literal(part) ~ ' as part, to_json(struct(*)) as row'
            ~ ' from (' ~ rows ~ ')') -%}
    {%- endfor -%}
  {%- endfor -%}
  {{ return(parts) }}
{% endmacro %}
