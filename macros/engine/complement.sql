{#- Complement mode (issue #21; docs/complement-mode.md): a view declared `pdelta_complement: true` keeps,
    beside itself, the minimal complement of Laurent et al. (Theorem 2.2) for what its refreshes read of each
    relation: P_alias, the relation as the view reads it (its predicate applied, its key and carried columns:
    outputs and the columns its children join on). Two kinds of Delta tables:
      <view>__pdelta_hidden        one row per view row: the view's key and the columns of every P_alias the
                                   view does not output (a child's key is its parent's join column: kept once)
      <view>__pdelta_rest_<alias>  the rows of P_alias no view row holds (no qualifying root row reaches them)
    The view joined to `hidden` by its key gives each P_alias for the rows the view holds; `rest` the others
    (complement_reconstruction_sql: one union per relation, the paper's Equation (4)).

    Built so far: the tables, computed from the states as the run read them after each batch the view commits
    (complement_statements), and their check (the complement_reconstructs data test). Refreshes do not read them
    yet, nor keep them up from the batch: each batch rebuilds them from the states (a cost of the table). -#}

{#- How view + hidden give each relation's columns: {columns: alias -> [its key and carried columns],
    exprs: alias -> {column (lower-cased) -> SQL over `v` (the view) and `h` (hidden)}, hidden: [[name,
    alias, column]] (the hidden table's columns past the view's key, named `<alias>__<column>`)}. -#}
{% macro complement_layout(view) %}
  {%- set q = adapter.quote -%}
  {%- set rels = view['relations'] -%}
  {%- set shown = {} -%}
  {%- for o in view['output'] -%}
    {%- do shown.setdefault(o[1], {}) -%}
    {%- do shown[o[1]].setdefault(o[2] | lower, o[0]) -%}
  {%- endfor -%}
  {%- set columns, exprs, hidden = {}, {}, [] -%}
  {%- for alias in view['order'] -%}
    {%- set r = rels[alias] -%}
    {%- set cols = [] -%}
    {%- for c in r['key'] + r['carry'] if c | lower not in cols | map('lower') | list -%}{%- do cols.append(c) -%}
    {%- endfor -%}
    {%- set from_parent = {} -%}
    {%- for p in (r['join'] or {}).get('on', []) -%}{%- do from_parent.update({p[1] | lower: p[0]}) -%}{%- endfor -%}
    {%- set found = {} -%}
    {%- for c in cols -%}
      {%- if c | lower in shown.get(alias, {}) -%}
        {%- do found.update({c | lower: 'v.' ~ q(shown[alias][c | lower])}) -%}
      {%- elif c | lower in from_parent -%}
        {#- the join is along the child's whole key: the parent's join column is the child's key -#}
        {%- do found.update({c | lower: exprs[r['join']['to']][from_parent[c | lower] | lower]}) -%}
      {%- else -%}
        {%- set name = alias ~ '__' ~ c -%}
        {%- do hidden.append([name, alias, c]) -%}
        {%- do found.update({c | lower: 'h.' ~ q(name)}) -%}
      {%- endif -%}
    {%- endfor -%}
    {%- do columns.update({alias: cols}) -%}
    {%- do exprs.update({alias: found}) -%}
  {%- endfor -%}
  {{ return({'columns': columns, 'exprs': exprs, 'hidden': hidden}) }}
{% endmacro %}

{#- the complement's tables of `target`: {hidden: relation, rest: alias -> relation} -#}
{% macro complement_relations(target, view) %}
  {%- set rest = {} -%}
  {%- for alias in view['order'] -%}{%- do rest.update({alias: pdelta.meta_relation(target, 'rest_' ~ alias)}) -%}
  {%- endfor -%}
  {{ return({'hidden': pdelta.meta_relation(target, 'hidden'), 'rest': rest}) }}
{% endmacro %}

{#- P_alias from a relation `state` (a table or a parenthesized query): its predicate applied, its key and
    carried columns -#}
{% macro complement_state_sql(view, alias, state) %}
  {%- set r = view['relations'][alias] -%}
  {{ return('select ' ~ pdelta._cols(pdelta.complement_layout(view)['columns'][alias]) ~ ' from ' ~ state
            ~ (' where (' ~ r['where'] ~ ')' if r['where'] else '')) }}
{% endmacro %}

{#- The statements (name, sql) that build the complement of `target` from the states as `reads` gives them
    (alias -> a relation or parenthesized query: the states the view's batch `batch_id` was computed from), one
    CREATE OR REPLACE per table, each recording the batch it reflects (`pdelta.complement_batch`: a run finds
    a complement behind its view, after a stop between the view's commit and these, and rebuilds it) -#}
{% macro complement_statements(target, view, reads, batch_id) %}
  {%- set q = adapter.quote -%}
  {%- set layout = pdelta.complement_layout(view) -%}
  {%- set tables = pdelta.complement_relations(target, view) -%}
  {%- set rels = view['relations'] -%}
  {%- set props = "using delta tblproperties ('pdelta.complement_batch' = '" ~ batch_id | int ~ "')" -%}
  {%- set hidden_cols = [] -%}
  {%- for k in rels[view['root']]['key'] -%}
    {%- do hidden_cols.append(q(view['root']) ~ '.' ~ q(k) ~ ' as ' ~ q(view['key'][loop.index0])) -%}
  {%- endfor -%}
  {%- for h in layout['hidden'] -%}
    {%- do hidden_cols.append(q(h[1]) ~ '.' ~ q(h[2]) ~ ' as ' ~ q(h[0])) -%}
  {%- endfor -%}
  {%- set out = [{'name': 'complement_hidden', 'sql': 'create or replace table ' ~ tables['hidden'] ~ ' ' ~ props
                  ~ ' as\n' ~ pdelta.full_select_sql(view, reads, hidden_cols)}] -%}
  {%- for alias in view['order'] -%}
    {%- set key = rels[alias]['key'] -%}
    {%- set held_cols, on = [], [] -%}
    {%- for k in key -%}
      {%- do held_cols.append(q(alias) ~ '.' ~ q(k) ~ ' as ' ~ q('k' ~ loop.index0)) -%}
      {%- do on.append('s.' ~ q(k) ~ ' <=> held.' ~ q('k' ~ loop.index0)) -%}
    {%- endfor -%}
    {%- do out.append({'name': 'complement_rest_' ~ alias, 'sql': 'create or replace table ' ~ tables['rest'][alias]
          ~ ' ' ~ props ~ ' as\nselect s.* from (' ~ pdelta.complement_state_sql(view, alias, reads[alias]) ~ ') as s'
          ~ '\nleft anti join (' ~ pdelta.full_select_sql(view, reads, held_cols) ~ ') as held on '
          ~ on | join(' and ')}) -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#- P_alias from the view `target` and its complement (Equation (4)): the view's rows joined to `hidden` by
    the view's key, each relation row once however many view rows hold it, and the rows of `rest` -#}
{% macro complement_reconstruction_sql(target, view, alias) %}
  {%- set q = adapter.quote -%}
  {%- set layout = pdelta.complement_layout(view) -%}
  {%- set tables = pdelta.complement_relations(target, view) -%}
  {%- set cols, on = [], [] -%}
  {%- for c in layout['columns'][alias] -%}{%- do cols.append(layout['exprs'][alias][c | lower] ~ ' as ' ~ q(c)) -%}
  {%- endfor -%}
  {%- for k in view['key'] -%}{%- do on.append('v.' ~ q(k) ~ ' <=> h.' ~ q(k)) -%}{%- endfor -%}
  {{ return('select distinct ' ~ cols | join(', ') ~ ' from ' ~ target ~ ' as v join ' ~ tables['hidden']
            ~ ' as h on ' ~ on | join(' and ') ~ '\nunion all\nselect ' ~ pdelta._cols(layout['columns'][alias])
            ~ ' from ' ~ tables['rest'][alias]) }}
{% endmacro %}

{#- The batch `tables['hidden']` reflects (its `pdelta.complement_batch`), none when it is missing or has none -#}
{% macro complement_batch(hidden) %}
  {%- if not pdelta.relation_exists(hidden) -%}{{ return(none) }}{%- endif -%}
  {%- for row in run_query('show tblproperties ' ~ hidden).rows if row[0] == 'pdelta.complement_batch' -%}
    {{ return(row[1] | int) }}
  {%- endfor -%}
  {{ return(none) }}
{% endmacro %}

{#- After a run of a view in complement mode: the complement rebuilt from the states as the run read them
    (`inputs`, state_read) when the run committed batch `committed`, or, when it committed none, if it is
    behind the view's last batch `last` (a run stopped between the view's commit and the complement's).
    A retry of a staged batch (`retry`) leaves it behind: the batch was computed from bounds that the
    inputs, frozen anew, may have passed; the next run rebuilds it. Returns the statements' names. -#}
{% macro complement_upkeep(target, view, inputs, committed, last, retry=false) %}
  {%- if retry -%}{{ return([]) }}{%- endif -%}
  {%- set tables = pdelta.complement_relations(target, view) -%}
  {%- set batch_id = committed if committed is not none else last -%}
  {%- if committed is none and pdelta.complement_batch(tables['hidden']) == last -%}{{ return([]) }}{%- endif -%}
  {%- set reads = {} -%}
  {%- for alias in view['order'] -%}{%- do reads.update({alias: pdelta.state_read(inputs[alias])}) -%}{%- endfor -%}
  {%- set names = [] -%}
  {%- for st in pdelta.complement_statements(target, view, reads, batch_id) -%}
    {%- call statement(st['name']) -%}{{ st['sql'] }}{%- endcall -%}
    {%- do names.append(st['name']) -%}
  {%- endfor -%}
  {{ log('pdelta: ' ~ target.identifier ~ ': its complement rebuilt from the states (batch ' ~ batch_id ~ ')',
         info=true) }}
  {{ return(names) }}
{% endmacro %}

{#- The rows where view + complement do not give back a relation's P_alias as its state holds it now: one row
    per differing relation row (model, relation: its alias, side: `missing` from the reconstruction or `extra` in
    it, row: its columns as JSON); none when the complement is right. `view`: the normalized declaration. -#}
{% macro complement_mismatch_sql(target, view, model_name) %}
  {%- set parts = [] -%}
  {%- for alias in view['order'] -%}
    {#- the state from dbt's graph, not ref(): a data test's dependencies are known before it renders -#}
    {%- set spec = view['relations'][alias]['state'] -%}
    {%- set node = pdelta.graph_node_of(spec) -%}
    {%- if node is none -%}
      {{ exceptions.raise_compiler_error('pdelta: ' ~ model_name ~ ': the state of `' ~ alias ~ '` (' ~ tojson(spec)
            ~ ') is no model, seed, snapshot or source of this project: its complement cannot be checked') }}
    {%- endif -%}
    {%- set identifier = node.identifier if node.resource_type == 'source' else node.alias -%}
    {%- set state = api.Relation.create(database=node.database, schema=node.schema, identifier=identifier) -%}
    {%- set rebuilt = pdelta.complement_reconstruction_sql(target, view, alias) -%}
    {%- set actual = pdelta.complement_state_sql(view, alias, state) -%}
    {%- for side, left, right in [('missing', actual, rebuilt), ('extra', rebuilt, actual)] -%}
      {%- do parts.append('select ' ~ pdelta.sql_literal(model_name) ~ ' as model, ' ~ pdelta.sql_literal(alias)
            ~ ' as relation, ' ~ pdelta.sql_literal(side) ~ ' as side, to_json(struct(*)) as row from (('
            ~ left ~ ')\nexcept all\n(' ~ right ~ '))') -%}
    {%- endfor -%}
  {%- endfor -%}
  {{ return(parts | join('\nunion all\n')) }}
{% endmacro %}
