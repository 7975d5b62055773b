{#- Self-maintainability verdicts of a dimension view (issue #21): for each relation, in join order,
    and each change set its feed can hold, what applying that change needs besides the view and the
    change: `view` (nothing), `complement` (rows or columns of other relations the view does not
    hold) or `state` (a relation the view outputs no column of but its key) — and why.
    The rule is python/pdelta/maintainability.py's, read from the generated maintainability_rules();
    this macro computes the six features it looks at (an inclusion dependency of a join from the
    graph: declared_references). `view`: normalize_declaration's result;
    `plans`: view name -> its pdelta_plan, for relations fed by another view's change feed.
    Returns [{relation, change_set, reads, needs: [text], why}], as `pdelta explain` prints them. -#}
{% macro maintainability_verdicts(view, plans) %}
  {%- set table = pdelta.maintainability_rules() -%}
  {%- set rels = view['relations'] -%}
  {%- set outputs = [] -%}{%- for o in view['output'] -%}{%- do outputs.append(o[1] ~ '.' ~ o[2]) -%}{%- endfor -%}
  {#- shows: the view outputs a column of it besides its key; visible: its key, or the parent's
      foreign key equal to it, is an output column; join_key: the complement part that says which
      of its rows each view row joins (the parent's foreign key per view row) -#}
  {%- set shows, visible, join_key = {}, {}, {} -%}
  {%- for alias in view['order'] -%}
    {%- set values = [] -%}
    {%- for o in view['output'] if o[1] == alias and o[2] not in rels[alias]['key'] -%}
      {%- do values.append(o) -%}
    {%- endfor -%}
    {%- set hidden = [] -%}
    {%- set parent = rels[alias]['join']['to'] if rels[alias]['join'] else '' -%}
    {%- for p in (rels[alias]['join']['on'] if rels[alias]['join'] else [])
          if (parent ~ '.' ~ p[0]) not in outputs and (alias ~ '.' ~ p[1]) not in outputs -%}
      {%- do hidden.append(p) -%}
    {%- endfor -%}
    {%- set fk_cols = [] -%}
    {%- for p in (rels[alias]['join']['on'] if rels[alias]['join'] else []) -%}
      {%- do fk_cols.append(parent ~ '.' ~ p[0]) -%}
    {%- endfor -%}
    {%- do shows.update({alias: values | length > 0}) -%}
    {%- do visible.update({alias: hidden | length == 0}) -%}
    {%- do join_key.update({alias: 'the join key ' ~ fk_cols | join(', ') ~ " of the view's rows"}) -%}
  {%- endfor -%}
  {#- covered: the join is an inclusion dependency; transparent: covered, no predicate, no output
      column, and so for everything joined from it (it cannot matter to the view) -#}
  {%- set covered, transparent = {}, {} -%}
  {%- for alias in view['order'] | reverse -%}
    {%- set r = rels[alias] -%}
    {%- set on = r['join']['on'] if r['join'] else [] -%}
    {%- do covered.update({alias: on | length == 1 and pdelta.declared_references(rels[r['join']['to']]['state'],
                                                                                  on[0][0], r['state'], on[0][1])}) -%}
    {%- set opaque = [] -%}
    {%- for o in view['output'] if o[1] == alias -%}{%- do opaque.append(o) -%}{%- endfor -%}
    {%- for a in view['order'] if rels[a]['join'] and rels[a]['join']['to'] == alias and not transparent[a] -%}
      {%- do opaque.append(a) -%}
    {%- endfor -%}
    {%- do transparent.update({alias: covered[alias] and not r['where'] and opaque | length == 0}) -%}
  {%- endfor -%}
  {%- set out = [] -%}
  {%- for alias in view['order'] -%}
    {%- set r = rels[alias] -%}
    {%- set below = [] -%}
    {%- for a in view['order'] -%}
      {%- if rels[a]['join'] and (rels[a]['join']['to'] == alias or rels[a]['join']['to'] in below) -%}
        {%- do below.append(a) -%}
      {%- endif -%}
    {%- endfor -%}
    {%- set others = [] -%}{%- for a in view['order'] if a != alias -%}{%- do others.append(a) -%}{%- endfor -%}
    {%- set children = [] -%}
    {%- for a in view['order'] if rels[a]['join'] and rels[a]['join']['to'] == alias and not transparent[a] -%}
      {%- do children.append(a) -%}
    {%- endfor -%}
    {%- set parent = r['join']['to'] if r['join'] else '' -%}
    {%- set on = r['join']['on'] if r['join'] else [] -%}
    {%- set flags = [alias == view['root'], children | length > 0, r['where'] is not none and r['where'] != '',
                     visible[alias], shows[alias], covered[alias]] -%}
    {%- set bits = [] -%}{%- for f in flags -%}{%- do bits.append('1' if f else '0') -%}{%- endfor -%}
    {%- set join_eq, join_sides, fk, key = [], [], [], [] -%}
    {%- for p in on -%}
      {%- do fk.append(p[0]) -%}{%- do key.append(p[1]) -%}
      {%- do join_eq.append(parent ~ '.' ~ p[0] ~ ' = ' ~ alias ~ '.' ~ p[1]) -%}
      {%- do join_sides.append(parent ~ '.' ~ p[0] ~ ' / ' ~ alias ~ '.' ~ p[1]) -%}
    {%- endfor -%}
    {%- set names = {'{alias}': alias, '{parent}': parent, '{descendants}': below | join(', '),
                     '{join}': join_eq | join(' / '), '{join_sides}': join_sides | join(' nor '),
                     '{fk}': fk | join(', '), '{key}': key | join(', ')} -%}
    {%- set changes = r['changes'] -%}
    {%- if changes is mapping and 'feed_of' in changes -%}
      {%- set sets = table['view_feed_sets'][plans.get(changes['feed_of'], 'diff')] -%}
    {%- else -%}
      {%- set by_technique = pdelta.feed_contract()['technique_sets'] -%}
      {%- set sets = by_technique.get(r['technique'], by_technique['any']) -%}
    {%- endif -%}
    {%- for change_set in sets -%}
      {%- set found = table['rules'][change_set ~ '/' ~ bits | join('/')] -%}
      {%- set words, needed = [], [] -%}
      {%- for part in found['needs'] -%}
        {%- if part == 'join_key' -%}
          {%- do words.append(join_key[alias]) -%}
        {%- else -%}
          {%- for a in (below if part == 'descendants' else others) if not transparent[a] -%}
            {%- do needed.append(a) -%}
            {%- set held = ': its rows and columns the view does not hold' if shows[a] else ': its full state' -%}
            {%- set parts = [a ~ held] -%}
            {#- the view shows a's columns without its key: the parent's foreign key per view row says
                which row they belong to -#}
            {%- if shows[a] and not visible[a] -%}{%- do parts.append(join_key[a]) -%}{%- endif -%}
            {%- for word in parts if word not in words -%}{%- do words.append(word) -%}{%- endfor -%}
          {%- endfor -%}
        {%- endif -%}
      {%- endfor -%}
      {%- set bare = [] -%}{%- for a in needed if not shows[a] -%}{%- do bare.append(a) -%}{%- endfor -%}
      {%- set why = [] -%}
      {%- for w in found['why'] -%}
        {%- set text = namespace(value=table['why'][w]) -%}
        {%- for placeholder, value in names.items() -%}
          {%- set text.value = text.value.replace(placeholder, value) -%}
        {%- endfor -%}
        {%- do why.append(text.value) -%}
      {%- endfor -%}
      {%- do out.append({'relation': alias, 'change_set': change_set,
                         'reads': 'view' if not found['needs'] else ('state' if bare else 'complement'),
                         'needs': words, 'why': why | join('; ')}) -%}
    {%- endfor -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}
