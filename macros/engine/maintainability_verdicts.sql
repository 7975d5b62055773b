{#- Self-maintainability verdicts of a dimension view (issue #21): for each relation, in join order,
    and each change set its feed can hold, what applying that change needs besides the view and the
    change: `view` (nothing), `complement` (rows or columns of other relations the view does not
    hold) or `state` (a relation the view holds no column of) — and why, in the papers' terms.
    The rule is python/pdelta/maintainability.py's, read from the generated maintainability_rules();
    this macro computes the five features it looks at. `view`: normalize_declaration's result;
    `plans`: view name -> its pdelta_plan, for relations fed by another view's change feed.
    Returns [{relation, change_set, reads, needs: [text], why}], as `pdelta explain` prints them. -#}
{% macro maintainability_verdicts(view, plans) %}
  {%- set table = pdelta.maintainability_rules() -%}
  {%- set rels = view['relations'] -%}
  {%- set outputs = [] -%}{%- for o in view['output'] -%}{%- do outputs.append(o[1] ~ '.' ~ o[2]) -%}{%- endfor -%}
  {%- set shows = {} -%}
  {%- for alias in view['order'] -%}
    {%- set values = [] -%}
    {%- for o in view['output'] if o[1] == alias and o[2] not in rels[alias]['key'] -%}
      {%- do values.append(o) -%}
    {%- endfor -%}
    {%- do shows.update({alias: values | length > 0}) -%}
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
    {%- for a in view['order'] if rels[a]['join'] and rels[a]['join']['to'] == alias -%}
      {%- do children.append(a) -%}
    {%- endfor -%}
    {%- set parent = r['join']['to'] if r['join'] else '' -%}
    {%- set on = r['join']['on'] if r['join'] else [] -%}
    {%- set hidden = [] -%}
    {%- for p in on if (parent ~ '.' ~ p[0]) not in outputs and (alias ~ '.' ~ p[1]) not in outputs -%}
      {%- do hidden.append(p) -%}
    {%- endfor -%}
    {%- set flags = [alias == view['root'], children | length > 0, r['where'] is not none and r['where'] != '',
                     alias == view['root'] or hidden | length == 0, shows[alias]] -%}
    {%- set bits = [] -%}{%- for f in flags -%}{%- do bits.append('1' if f else '0') -%}{%- endfor -%}
    {%- set join_cols, join_eq, join_sides = [], [], [] -%}
    {%- for p in on -%}
      {%- do join_cols.append(parent ~ '.' ~ p[0]) -%}
      {%- do join_eq.append(parent ~ '.' ~ p[0] ~ ' = ' ~ alias ~ '.' ~ p[1]) -%}
      {%- do join_sides.append(parent ~ '.' ~ p[0] ~ ' / ' ~ alias ~ '.' ~ p[1]) -%}
    {%- endfor -%}
    {%- set names = {'{alias}': alias, '{parent}': parent, '{descendants}': below | join(', '),
                     '{join}': join_eq | join(' / '), '{join_sides}': join_sides | join(' nor ')} -%}
    {%- set changes = r['changes'] -%}
    {%- if changes is mapping and 'feed_of' in changes -%}
      {%- set sets = table['view_feed_sets'][plans.get(changes['feed_of'], 'diff')] -%}
    {%- else -%}
      {%- set sets = table['technique_sets'].get(r['technique'], table['technique_sets']['any']) -%}
    {%- endif -%}
    {%- for change_set in sets -%}
      {%- set found = table['rules'][change_set ~ '/' ~ bits | join('/')] -%}
      {%- set words, needed = [], [] -%}
      {%- for part in found['needs'] -%}
        {%- if part == 'join_key' -%}
          {%- do words.append('the join key ' ~ join_cols | join(', ') ~ " of the view's rows") -%}
        {%- else -%}
          {%- for a in (below if part == 'descendants' else others) -%}
            {%- do needed.append(a) -%}
            {%- set held = 'its rows and columns the view does not hold' if shows[a] else 'its full state' -%}
            {%- set word = a ~ ': ' ~ held -%}
            {%- if word not in words -%}{%- do words.append(word) -%}{%- endif -%}
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
