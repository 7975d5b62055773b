{#- Checks a dimension-view declaration (the model's `pdelta` config) and returns it in the
    normal form the engine works on. A declaration that is not a dimension view (paper Def. 2,
    DESIGN.md §2) fails at compile time, naming the model and the offending part.

    Normal form:
      root: alias of the root relation
      order: aliases, root first, each after the alias it joins from (the join order)
      relations: alias -> {alias, state, changes, key, technique, where, columns: [[out, src]],
                           join: {to, on: [[parent_col, child_key_col]]} | none,
                           carry: [src columns kept past projection: outputs + join columns]}
      output: [[out_name, alias, src_col]]   (declaration order)
      key: [out names of the root key]  -#}
{% macro normalize_declaration(decl, model_name) %}
  {{ return(adapter.dispatch('normalize_declaration', 'pdelta')(decl, model_name)) }}
{% endmacro %}

{% macro default__normalize_declaration(decl, model_name) %}
  {%- set where_am_i = "dimension_view '" ~ model_name ~ "'" -%}
  {%- if decl is not mapping -%}
    {{ exceptions.raise_compiler_error(where_am_i
        ~ ": config `pdelta` must be a mapping with `root` and `relations`") }}
  {%- endif -%}
  {%- for k in decl.keys() if k not in ['root', 'relations', 'key', 'apply'] -%}
    {{ exceptions.raise_compiler_error(where_am_i ~ ": unknown declaration entry `" ~ k
        ~ "` (allowed: root, relations, key, apply)") }}
  {%- endfor -%}
  {%- set rels_in = decl.get('relations') -%}
  {%- if rels_in is not mapping or rels_in | length == 0 -%}
    {{ exceptions.raise_compiler_error(where_am_i ~ ": `relations` must map aliases to relation declarations") }}
  {%- endif -%}
  {%- set root = decl.get('root') -%}
  {%- if root not in rels_in -%}
    {{ exceptions.raise_compiler_error(where_am_i ~ ": root `" ~ root
        ~ "` is not one of the declared relations " ~ (rels_in.keys() | list)) }}
  {%- endif -%}
  {%- set allowed = ['state', 'changes', 'key', 'technique', 'columns', 'where', 'join', 'containment'] -%}
  {%- set rels = {} -%}
  {%- for alias, r in rels_in.items() -%}
    {%- set at = where_am_i ~ ", relation `" ~ alias ~ "`" -%}
    {%- if not (alias is string and alias | length > 0 and alias.replace('_', 'a').isalnum()) -%}
      {{ exceptions.raise_compiler_error(at ~ ": aliases are letters, digits and underscores") }}
    {%- endif -%}
    {%- for k in r.keys() if k not in allowed -%}
      {{ exceptions.raise_compiler_error(at ~ ": unknown entry `" ~ k
          ~ "` (allowed: " ~ (allowed | join(', ')) ~ ")") }}
    {%- endfor -%}
    {%- set containments = ['equal', 'subset', 'superset'] -%}
    {%- if r.get('containment') is not none and r.get('containment') not in containments -%}
      {{ exceptions.raise_compiler_error(at ~ ": `containment` is one of " ~ containments | join(', ')
            ~ " (how this relation's rows, as the view uses them, relate to those of the relation it replaces), got '"
            ~ r.get('containment') ~ "'") }}
    {%- endif -%}
    {%- for k in ['state', 'changes', 'key'] if not r.get(k) -%}
      {{ exceptions.raise_compiler_error(at ~ ": `" ~ k ~ "` is required") }}
    {%- endfor -%}
    {%- set key = [r['key']] if r['key'] is string else r['key'] | list -%}
    {%- set cols_in = r.get('columns', []) -%}
    {%- set columns = [] -%}
    {%- if cols_in is mapping -%}
      {%- for out, src in cols_in.items() -%}{%- do columns.append([out, src]) -%}{%- endfor -%}
    {%- else -%}
      {%- for c in cols_in -%}
        {%- if c is mapping -%}
          {%- for out, src in c.items() -%}{%- do columns.append([out, src]) -%}{%- endfor -%}
        {%- else -%}{%- do columns.append([c, c]) -%}{%- endif -%}
      {%- endfor -%}
    {%- endif -%}
    {%- set join = none -%}
    {%- if r.get('join') -%}
      {%- set j = r['join'] -%}
      {%- if j is not mapping or not j.get('to') or not j.get('on') -%}
        {{ exceptions.raise_compiler_error(at
            ~ ": `join` needs `to` (the parent alias) and `on` ({parent_column: key_column})") }}
      {%- endif -%}
      {%- if (j.get('type', 'inner') | lower) != 'inner' -%}
        {{ exceptions.raise_compiler_error(at ~ ": join " ~ j['to'] ~ " -> " ~ alias
            ~ " is a " ~ j['type'] ~ " join; a dimension view joins with inner joins only") }}
      {%- endif -%}
      {%- set on = [] -%}
      {%- for pc, kc in j['on'].items() -%}{%- do on.append([pc, kc]) -%}{%- endfor -%}
      {%- set on_keys = [] -%}{%- for p in on -%}{%- do on_keys.append(p[1]) -%}{%- endfor -%}
      {%- if (on_keys | sort) != (key | sort) -%}
        {{ exceptions.raise_compiler_error(at ~ ": join " ~ j['to'] ~ " -> " ~ alias ~ " on " ~ on_keys
            ~ " must equate the whole primary key " ~ key ~ " of `" ~ alias
            ~ "` (a dimension view joins foreign key to primary key only)") }}
      {%- endif -%}
      {%- set join = {'to': j['to'], 'on': on} -%}
    {%- elif alias != root -%}
      {{ exceptions.raise_compiler_error(at
          ~ ": every relation but the root needs a `join` (foreign key -> this relation's primary key)") }}
    {%- endif -%}
    {%- if alias == root and join is not none -%}
      {{ exceptions.raise_compiler_error(at ~ ": the root relation cannot have a `join`") }}
    {%- endif -%}
    {%- do rels.update({alias: {
          'alias': alias, 'state': r['state'], 'changes': r['changes'], 'key': key,
          'technique': r.get('technique', 'unknown'), 'where': r.get('where'),
          'columns': columns, 'join': join, 'children_on': [], 'containment': r.get('containment')}}) -%}
  {%- endfor -%}

  {#- join order: breadth first from the root; anything unreached is a cycle or a dangling join -#}
  {%- set order = [root] -%}
  {%- for _ in range(rels | length) -%}
    {%- for alias, r in rels.items() if alias not in order and r['join'] and r['join']['to'] in order -%}
      {%- do order.append(alias) -%}
    {%- endfor -%}
  {%- endfor -%}
  {%- for alias, r in rels.items() if alias not in order -%}
    {%- if r['join']['to'] not in rels -%}
      {{ exceptions.raise_compiler_error(where_am_i ~ ", relation `" ~ alias
          ~ "`: joins to unknown alias `" ~ r['join']['to'] ~ "`") }}
    {%- else -%}
      {{ exceptions.raise_compiler_error(where_am_i ~ ", relation `" ~ alias
          ~ "`: its joins form a cycle that never reaches the root `" ~ root ~ "`") }}
    {%- endif -%}
  {%- endfor -%}

  {#- columns each relation carries past its projection: its outputs and the columns its
      children join on (keys are always carried) -#}
  {%- for alias in order -%}
    {%- set r = rels[alias] -%}
    {%- set carry = [] -%}
    {%- for c in r['columns'] if c[1] not in r['key'] and c[1] not in carry
        -%}{%- do carry.append(c[1]) -%}{%- endfor -%}
    {%- for child in order if rels[child]['join'] and rels[child]['join']['to'] == alias -%}
      {%- for p in rels[child]['join']['on'] if p[0] not in r['key'] and p[0] not in carry
          -%}{%- do carry.append(p[0]) -%}{%- endfor -%}
    {%- endfor -%}
    {%- do r.update({'carry': carry}) -%}
  {%- endfor -%}

  {%- set output = [] -%}{%- set seen = [] -%}
  {%- for alias in rels.keys() -%}
    {%- for c in rels[alias]['columns'] -%}
      {%- if c[0] | lower in seen -%}
        {{ exceptions.raise_compiler_error(where_am_i ~ ", relation `" ~ alias
            ~ "`: output column `" ~ c[0] ~ "` is declared twice; rename one ({new_name: column})") }}
      {%- endif -%}
      {%- do seen.append(c[0] | lower) -%}
      {%- do output.append([c[0], alias, c[1]]) -%}
    {%- endfor -%}
  {%- endfor -%}
  {%- set key_out = [] -%}
  {%- for k in rels[root]['key'] -%}
    {%- set found = [] -%}
    {%- for o in output if o[1] == root and o[2] == k -%}{%- do found.append(o[0]) -%}{%- endfor -%}
    {%- if not found -%}
      {{ exceptions.raise_compiler_error(where_am_i ~ ": the root key column `" ~ root ~ "." ~ k
          ~ "` must be an output column (a dimension view keeps its root key)") }}
    {%- endif -%}
    {%- do key_out.append(found[0]) -%}
  {%- endfor -%}
  {{ return({'root': root, 'order': order, 'relations': rels, 'output': output, 'key': key_out,
             'apply': decl.get('apply', {})}) }}
{% endmacro %}
