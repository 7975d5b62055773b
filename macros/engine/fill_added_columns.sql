{#- Fills the output columns a view adaptation added (declaration_adaptation's `columns.added`,
    already in the table: adapt_view_columns) for every row the view holds, in one statement that
    rewrites the view: its rows joined by key to the states of the relations on the path from the
    root to each added column's relation (the view's own joins and predicates), no other state
    read. A row that path no longer reaches gets NULL; a pending change reaches it, and the batch
    after this recomputes it as ever.

    Idempotent (the run after a stop fills again from the states as they are then). `view`: the
    normalized declaration the view adapts to; `states`: alias -> relation; `history`: the view's
    SCD2 history table (none without), whose current versions then take the same values
    (fill_history_columns). Returns the names of the statements it ran. -#}
{% macro fill_added_columns(target, view, states, added, history=none) %}
  {%- if not added -%}{{ return([]) }}{%- endif -%}
  {%- set q = adapter.quote -%}
  {%- set rels = view['relations'] -%}
  {#- the relations on the paths from the root to the added columns' relations -#}
  {%- set path = [] -%}
  {%- for col in added -%}
    {%- set ns = namespace(alias=col[1]) -%}
    {%- for _ in view['order'] if ns.alias is not none -%}
      {%- if ns.alias not in path -%}{%- do path.append(ns.alias) -%}{%- endif -%}
      {%- set ns.alias = rels[ns.alias]['join']['to'] if rels[ns.alias]['join'] else none -%}
    {%- endfor -%}
  {%- endfor -%}
  {%- set root = view['root'] -%}
  {%- set joined = pdelta._joined_down(view, states, pdelta._relation_rows(rels[root], states[root]), path) -%}
  {%- set values = [] -%}
  {%- set on_key = [] -%}
  {%- for k in rels[root]['key'] -%}
    {%- do values.append(q(root ~ '__' ~ k) ~ ' as ' ~ q(view['key'][loop.index0])) -%}
    {%- do on_key.append('v.' ~ q(view['key'][loop.index0]) ~ ' = f.' ~ q(view['key'][loop.index0])) -%}
  {%- endfor -%}
  {%- set added_names = [] -%}
  {%- for col in added -%}
    {%- do values.append(q(col[1] ~ '__' ~ col[2]) ~ ' as ' ~ q(col[0])) -%}
    {%- do added_names.append(col[0] | lower) -%}
  {%- endfor -%}
  {#- the table's columns in its order (the added ones where adapt_view_columns put them) -#}
  {%- set columns = [] -%}
  {%- for c in pdelta._column_names('select * from ' ~ target ~ ' where false') -%}
    {%- do columns.append(('f.' if c in added_names else 'v.') ~ q(c)) -%}
  {%- endfor -%}
  {%- call statement('fill_added_columns') -%}
    insert overwrite table {{ target }}
    select {{ columns | join(', ') }}
    from {{ target }} as v
    left join (select {{ values | join(', ') }} from ({{ joined }}) as j) as f on {{ on_key | join(' and ') }}
  {%- endcall -%}
  {%- if history is not none -%}
    {%- set filled = pdelta.fill_history_columns(history, target, view['key'], added | map('first') | list) -%}
    {{ return(['fill_added_columns', filled]) }}
  {%- endif -%}
  {{ return(['fill_added_columns']) }}
{% endmacro %}
