{#- Whether a view whose declaration changed since it was built can be brought to the new one by
    its next refresh instead of a rebuild (issue #19; Nica & Rundensteiner, view adaptation after
    view synchronization: the old extent plus what is known about how the definition changed).

    Adapted: a change of predicates — a relation's `where` added, dropped, narrowed, widened or
    rewritten, on any relation, any number of them at once — with the root, key, relations,
    joins, states and feeds as they were built. The old and the new view then join the same rows;
    a row can be in one and not the other only
    where the two predicates disagree on a row of a relation whose predicate changed (NULL counts
    as false, as in a WHERE). The refresh's diff plan adds those rows' keys to the keys its batch
    reaches (diff_plan `adapt`), walks them up to the root like pending feed keys, recomputes the
    rows under the new declaration and diffs them with the view's: one batch, with the pending
    changes, published on the view's feed with before-images (`del` for rows that leave, `ins`
    for rows that come in), so views downstream refresh incrementally. Reading only those rows of
    the changed relation's state is what containment would save too: no predicate's SQL is parsed
    here, so a narrowing is not told from a rewrite, and both read the same rows.

    Output columns dropped or renamed (a relation column now output under another name): the
    rows keep their values, so no state is read and no row is written. On a Delta view the refresh
    drops and renames the columns of the view and of its change feed (the feed's before-image
    fields too) in the table metadata (adapt_view_columns: Delta column mapping), before its batch;
    an SCD2 history renames them too and keeps the dropped ones with their values; the batch, with
    the pending changes and a changed
    predicate's rows, then runs as above and takes the new declaration in its commit.

    A column whose name changes its case only (cname -> CName: the same column to Spark) is renamed the
    same way, in two steps through a transient name, which Spark requires (adapt_view_columns).

    Output columns reordered (alone or with the changes above): the rows keep their values, so no state
    is read and no row is written either. On a Delta view the refresh moves the columns of the view and
    of its change feed (the before-image's fields too) into the declared order in the table metadata
    (adapt_view_columns: `alter column ... first | after`), before its batch; an SCD2 history keeps its
    column order (it holds columns the view dropped, and its columns are matched by name).

    Output columns added from a relation the view joins already: on a Delta view the refresh adds
    them to the view, to its change feed (the before-image's fields too) and to its SCD2 history,
    if kept, in the table metadata, then fills them in one statement that rewrites the view: its rows joined by
    key to the states along the path from the root to that relation, no other state read
    (adapt_view_columns, fill_added_columns). The values are the states' at the bound; the rows a
    pending change reaches are recomputed by the batch as ever. The fill publishes nothing: views
    downstream never read the new columns, and the feed's rows before the batch hold NULL in them,
    as do the history's versions before the current ones (fill_history_columns).

    A leaf relation removed (no relation joined to it; its output columns dropped with it) or
    joined in (a leaf: a filter, with output columns or none), with the rest of the joins as they were:
    the rows of its parent's state that join a row of it (its predicate applied) pass the old
    declaration and not the new one, or the other way round; each parent relation's `disagree`
    condition compares the two with an EXISTS over that leaf's state (the states of the leaves
    removed or joined in: `states`). A removed relation's state is read once more, by the batch
    that removes it, with the keys of its feed rows past its watermark (the view holds it as of
    those: parent rows that join such a key are recomputed too); where it is gone, the view
    rebuilds. A relation joined in has no watermark yet, and none of its feed rows is pending: the
    view never read them, and a row of its parent that joins a changed key of it either changes
    membership (the disagreement filter, reading its state as of the bound, finds it) or keeps
    its row, whose columns from it, if any, are added and filled from its state as above; the batch
    consumes its feed through the bound (consume_joined_through_bound).

    A leaf relation replaced: its state (and change feed) changed under its alias, as when a source
    moves to another table, with its join from the same parent columns (its key and columns may
    have other names: its output columns keep theirs, and take their values from the columns the
    new declaration names; the paper's relation replacement, with the replaced relation's state
    never read, so it may be gone). The batch recomputes the view rows where the replacement's rows
    (its predicate applied) give another answer than the view holds, found from the view and the
    replacement alone (diff_plan's replacement terms):
      delete side: the view rows whose columns from the leaf no row of the replacement matches by
                   the parent's join columns (read from the view where it outputs them, the
                   paper's inclusion assumption, else from the root's state when the leaf joins the
                   root): rows that leave or change;
      insert side: the parent's rows that join a row of the replacement and no row of the view
                   (the root's rows not in the view; another parent's rows whose join columns no
                   view row holds): rows that may come in.
    The relation's declared `containment` (equal, subset or superset: the replacement's rows, as
    the view uses them, are those of the replaced relation, some of them, or more; the paper's PC
    constraints) spares a side where the replaced relation's feed can still be read: subset needs
    the delete side only, superset the insert side only, equal neither, and the parent rows that
    join a key changed in the replaced relation's feed since the view consumed it are recomputed
    too (the view holds the replaced relation as of its watermark, the containment is of its rows
    now). Without a containment, or without that feed, both sides run, and need nothing else.
    A new change feed starts with no watermark, like a relation joined in (`joined`).

    An output column re-sourced: its name kept, its values taken from another column of the same relation
    (customer_name from c.full_name where it was c.name), of the same type in its state. The view's value
    changes only where the state row holds another value in the new column than in the old one: those rows
    (`not (x.old <=> x.new)`) join the batch's keys like a changed predicate's disagreeing rows, are recomputed
    and diffed, and go out on the view's feed as `upd` with their before-images, so views downstream
    refresh incrementally; the others are not read (the relation's state is, once, by that condition).

    Not adapted (the view rebuilds, as before): an output column re-sourced from another relation (every
    row's value may change), or to a column of another type (the view's column would change its type) or
    as a key column, the last attribute dropped, columns
    changed on a view that is not Delta, a column added back that its SCD2 history holds from before,
    a relation removed, joined in or replaced with relations joined to it, a relation replaced whose
    rows the view cannot locate (its parent is not the root, and the view does not output the
    parent's join columns), a changed join, key, the root, or the root's state or feed.

    built_with: the declaration_record the batch log kept (none: not kept); running: the current
    one; table: the view's apply options (apply_options: its `format` and `history`; with
    `history_columns`, the lower-cased columns of its SCD2 history table: adaptation_table), none
    to leave the table out; states: {alias: {state, changes, consumed}} of the relations removed or
    joined in (adaptation_states: a removed one's feed and watermark too; a missing one: the view
    rebuilds; a replaced one: adaptation_states, `changes` none where its feed is gone; one with a
    column re-sourced: `types` too; the containment comes from `running`'s). Returns {adapt: {alias:
    {old, new, change, resourced, removed, joined, replaced, disagree}} or none,
    columns: {dropped: [name], renamed: [[old, new]], added: [[name, alias, source column, the output
    column before it or none]]} or none, joined: [alias], why: the reason
    when adapt and columns are none and the declarations differ}; `change` is what happened to the
    relation's own predicate (added, dropped, changed, kept), `resourced` its output columns taking another
    of its columns ([name, old column, new column]; `states` gives its state's `types`: adaptation_states),
    `removed` / `joined` the leaves
    removed from it or joined to it, `replaced` its leaves replaced ({leaf, old, new: the states as
    recorded, containment, sides: delete and/or insert, fk_out: the view's columns holding the join
    columns or none, compare: [[output column, the replacement's column]]}), and `disagree` the SQL
    condition on its state's rows (aliased `x`) that holds where the old and new declaration disagree
    on whether the row joins the view, or none. `joined` also lists the relations replaced with a new
    change feed. -#}
{% macro declaration_adaptation(built_with, running, table=none, states=none) %}
  {%- set none_adapted = {'adapt': none, 'columns': none, 'joined': [], 'why': none} -%}
  {%- if built_with is none -%}{{ return(none_adapted) }}{%- endif -%}
  {%- set built, now = built_with['extent'], running['extent'] -%}
  {%- set removed = built['relations'].keys() | reject('in', now['relations']) | list -%}
  {%- set joined = now['relations'].keys() | reject('in', built['relations']) | list -%}
  {%- set kept = built['relations'].keys() | select('in', now['relations']) | list -%}
  {%- set replaced = pdelta.replaced_relations(built, now) -%}
  {%- if pdelta._rows_defined(built, kept, replaced) != pdelta._rows_defined(now, kept, replaced) -%}
    {%- do none_adapted.update({'why': 'a change of predicates, output columns added, dropped or renamed and leaf'
                                       ~ ' relations removed, joined in or replaced are adapted, and this one changes'
                                       ~ ' more (joins, keys,'
                                       ~ ' the root, its state or feed)'}) -%}
    {{ return(none_adapted) }}
  {%- endif -%}
  {%- set refused = [] -%}
  {%- for alias in removed + joined -%}
    {%- set extent = built if alias in removed else now -%}
    {%- set below = pdelta._children(extent, alias) -%}
    {%- if below -%}
      {%- do refused.append('relation ' ~ alias ~ ' is ' ~ ('removed' if alias in removed else 'joined in')
                            ~ ' with relations joined to it (' ~ below | join(', ')
                            ~ '): one leaf at a time is adapted') -%}
    {%- elif extent['relations'][alias]['join']['to'] not in kept -%}
      {%- do refused.append('relation ' ~ alias ~ ' joins to a relation that is ' ~ ('removed' if alias in removed
                            else 'joined in') ~ ' too') -%}
    {%- elif (states or {}).get(alias) is none or (alias in removed and states[alias]['changes'] is none) -%}
      {%- do refused.append('the state' ~ (' and change feed' if alias in removed else '') ~ ' of relation ' ~ alias
                            ~ ' (' ~ extent['relations'][alias]['state'] ~ ') are not available to read which rows '
                            ~ ('it removes from' if alias in removed else 'it adds to') ~ ' the view') -%}
    {%- endif -%}
  {%- endfor -%}
  {%- for alias in replaced -%}
    {%- set below = pdelta._children(built, alias) + pdelta._children(now, alias) -%}
    {%- set parent = now['relations'][alias]['join']['to'] -%}
    {%- if below -%}
      {%- do refused.append('relation ' ~ alias ~ ' is replaced with relations joined to it ('
                            ~ below | unique | join(', ') ~ '): a leaf relation is replaced at a time') -%}
    {%- elif (states or {}).get(alias) is none -%}
      {%- do refused.append('what relation ' ~ alias ~ ' replaces is not known') -%}
    {%- elif parent != now['root'] and pdelta._join_columns_output(built, now, alias) is none -%}
      {%- do refused.append('relation ' ~ alias ~ ' is replaced, and the view can find the rows it reaches only'
                            ~ ' where it outputs the columns its parent ' ~ parent ~ ' joins it on or that parent'
                            ~ ' is the root') -%}
    {%- endif -%}
  {%- endfor -%}
  {#- a replaced relation's output columns keep their names and take their values from the replacement's columns
      the new declaration names: not re-sourced -#}
  {%- set built_output = [] -%}
  {%- for b in built['output'] -%}
    {%- set source = namespace(column=b[2]) -%}
    {%- for o in now['output'] if b[1] in replaced and o[1] == b[1] and o[0] | lower == b[0] | lower -%}
      {%- set source.column = o[2] -%}
    {%- endfor -%}
    {%- do built_output.append([b[0], b[1], source.column]) -%}
  {%- endfor -%}
  {%- set changes = pdelta.output_column_changes(built_output, now['output']) -%}
  {%- set attrs_now = now['output'] | map('first') | reject('in', now['key']) | list -%}
  {#- an added column is filled from the state of the relation it comes from, joined along the view's
      path to each row: that relation must be one the view joined already -#}
  {%- set added = [] -%}
  {%- for o in now['output'] -%}
    {%- if o[0] in changes['added'] -%}
      {%- do added.append([o[0], o[1], o[2], now['output'][loop.index0 - 1][0] if not loop.first else none]) -%}
    {%- endif -%}
  {%- endfor -%}
  {#- a column kept by name that takes another column of the same relation: the view's value changes on the rows
      whose state row holds another value in the new column than in the old one (null-safe), which join the
      batch's keys like a changed predicate's; the state's types say whether the view's column keeps its type -#}
  {%- set resourced = {} -%}
  {%- set elsewhere = [] -%}
  {%- for o in now['output'] if o[0] in changes['resourced'] -%}
    {%- set found = namespace(built=none) -%}
    {%- for candidate in built_output if candidate[0] | lower == o[0] | lower and found.built is none -%}
      {%- set found.built = candidate -%}
    {%- endfor -%}
    {%- set b = found.built -%}
    {%- set types = ((states or {}).get(o[1]) or {}).get('types') -%}
    {%- if b[1] != o[1] -%}
      {%- do elsewhere.append(o[0]) -%}
    {%- elif o[0] in now['key'] -%}
      {%- do refused.append('key column ' ~ o[0] ~ ' takes another column of relation ' ~ o[1]) -%}
    {%- elif types is none -%}
      {%- do refused.append('column ' ~ o[0] ~ ' takes ' ~ o[1] ~ '.' ~ o[2] ~ ' (was ' ~ o[1] ~ '.' ~ b[2]
                            ~ '), and the column types of its state are not known') -%}
    {%- elif types.get(o[2] | lower) is none or types.get(o[2] | lower) != types.get(b[2] | lower) -%}
      {%- do refused.append('column ' ~ o[0] ~ ' takes ' ~ o[1] ~ '.' ~ o[2] ~ ' ('
                            ~ (types.get(o[2] | lower) or 'not in its state') ~ ') where it took '
                            ~ o[1] ~ '.' ~ b[2] ~ ' (' ~ (types.get(b[2] | lower) or 'not in its state')
                            ~ '): a rebuild gives it its type') -%}
    {%- else -%}
      {%- do resourced.update({o[1]: resourced.get(o[1], []) + [[o[0], b[2], o[2]]]}) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if elsewhere -%}
    {%- do refused.append('columns taken from another relation (' ~ elsewhere | join(', ') ~ ') change every row') -%}
  {%- endif -%}
  {%- set columns = {'dropped': changes['dropped'], 'renamed': changes['renamed'], 'added': added}
                    if changes['dropped'] or changes['renamed'] or added or changes['recased']
                       or not changes['order_kept'] else none -%}
  {#- names whose case alone changed: renamed in place too -#}
  {%- if changes['recased'] -%}
    {%- do columns.update({'recased': changes['recased']}) -%}
  {%- endif -%}
  {#- the columns the view keeps change their order: every output column's place, the key's included -#}
  {%- if not changes['order_kept'] -%}
    {%- do columns.update({'order': now['output'] | map('first') | list}) -%}
  {%- endif -%}
  {%- if columns and not attrs_now -%}
    {%- do refused.append('the view would keep its key only') -%}
  {%- endif -%}
  {#- a column the SCD2 history holds from before (dropped from the view since): its current versions hold
      the value they had then, which a fill in place would overwrite; a rebuild opens new versions where
      the value changed instead -#}
  {%- set history_columns = (table or {}).get('history_columns') or [] -%}
  {%- set held_before = added | map(attribute=0) | map('lower') | select('in', history_columns) | list -%}
  {%- if held_before -%}
    {%- do refused.append('columns added that the SCD2 history holds from before (' ~ held_before | join(', ')
                          ~ '): a rebuild opens new versions where their values changed') -%}
  {%- endif -%}
  {%- if columns and table is not none and table['format'] != 'delta' -%}
    {%- do refused.append('columns are added, dropped, renamed or reordered in place on Delta views only (this one is '
                          ~ table['format'] ~ ')') -%}
  {%- endif -%}
  {%- if refused -%}
    {%- do none_adapted.update({'why': refused | join('; ')}) -%}
    {{ return(none_adapted) }}
  {%- endif -%}
  {%- set adapt = {} -%}
  {%- set added_names = added | map('first') | list -%}
  {#- a replaced relation's own predicate is the replacement's: its sides read it -#}
  {%- for alias in kept if alias not in replaced -%}
    {%- set old, new = built['relations'][alias]['where'], now['relations'][alias]['where'] -%}
    {%- set gone = removed | select('in', pdelta._children(built, alias)) | list -%}
    {%- set came = joined | select('in', pdelta._children(now, alias)) | list -%}
    {%- set swapped = replaced | select('in', pdelta._children(now, alias)) | list -%}
    {%- if old != new or gone or came or swapped or alias in resourced -%}
      {%- set old_passes = [pdelta._passes(old)] -%}
      {%- set leaf_changed = [] -%}
      {%- for leaf in gone -%}
        {%- do old_passes.append(pdelta._joins_leaf(built['relations'][leaf], states[leaf]['state'])) -%}
        {#- the view holds the leaf as of its consumed feed rows, the EXISTS reads it as it is now: rows
            joining a key changed since are recomputed too -#}
        {%- do leaf_changed.append(pdelta._references_changed_leaf_key(
              built['relations'][leaf], states[leaf]['changes'], states[leaf]['consumed'])) -%}
      {%- endfor -%}
      {%- set new_passes = [pdelta._passes(new)] -%}
      {%- for leaf in came -%}
        {%- do new_passes.append(pdelta._joins_leaf(now['relations'][leaf], states[leaf]['state'])) -%}
      {%- endfor -%}
      {%- set replacements = [] -%}
      {%- for leaf in swapped -%}
        {%- set containment = (running.get('containment') or {}).get(leaf) -%}
        {%- set old_feed = states[leaf]['changes'] -%}
        {#- the containment holds of the replaced relation as it is now: the view holds it as of its
            watermark, so the rows joining a key changed since are recomputed; without its feed, both sides -#}
        {%- set sides = {'equal': [], 'subset': ['delete'], 'superset': ['insert']}[containment]
                        if containment and old_feed is not none else ['delete', 'insert'] -%}
        {%- if containment and old_feed is not none -%}
          {%- do leaf_changed.append(pdelta._references_changed_leaf_key(
                built['relations'][leaf], old_feed, states[leaf]['consumed'])) -%}
        {%- endif -%}
        {%- set compare = [] -%}
        {%- for o in now['output'] if o[1] == leaf and o[0] not in added_names -%}
          {%- do compare.append([o[0], o[2]]) -%}
        {%- endfor -%}
        {%- do replacements.append({'leaf': leaf, 'old': built['relations'][leaf]['state'],
              'new': now['relations'][leaf]['state'], 'containment': containment, 'sides': sides,
              'fk_out': pdelta._join_columns_output(built, now, leaf), 'compare': compare}) -%}
      {%- endfor -%}
      {%- set disagree = (['(' ~ old_passes | join(' and ') ~ ') <> (' ~ new_passes | join(' and ') ~ ')']
                          if old != new or gone or came else []) + leaf_changed -%}
      {%- for column in resourced.get(alias, []) -%}
        {%- do disagree.append('not (x.' ~ adapter.quote(column[1]) ~ ' <=> x.' ~ adapter.quote(column[2]) ~ ')') -%}
      {%- endfor -%}
      {%- do adapt.update({alias: {'old': old, 'new': new, 'removed': gone, 'joined': came, 'replaced': replacements,
            'resourced': resourced.get(alias, []),
            'change': 'kept' if old == new else ('added' if not old else ('dropped' if not new else 'changed')),
            'disagree': disagree | join(' or ') if disagree else none}}) -%}
    {%- endif -%}
  {%- endfor -%}
  {#- a replacement's new feed is read from its bound on, like a relation joined in -#}
  {{ return({'adapt': adapt or none, 'columns': columns,
             'joined': joined + pdelta.replaced_relations(built, now, feeds_only=true), 'why': none}) }}
{% endmacro %}

{#- The relations a declaration replaces: the aliases of `now` (a declaration_record's extent or a
    normalized declaration) that `built` (the extent the view was built with) joins too, but the root,
    whose state or change feed changed (feeds_only: whose change feed changed; its watermark is the
    replaced feed's). -#}
{% macro replaced_relations(built, now, feeds_only=false) %}
  {%- set out = [] -%}
  {%- for alias, r in now['relations'].items() if alias in built['relations'] and alias != now['root'] -%}
    {%- set b = built['relations'][alias] -%}
    {%- if (r['changes'] | string) != b['changes'] or (not feeds_only and (r['state'] | string) != b['state']) -%}
      {%- do out.append(alias) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#- the output columns that hold, in the view under both declarations, the columns a replaced
    relation's parent joins it on (in the join's order), or none where one is not output -#}
{% macro _join_columns_output(built, now, alias) %}
  {%- set j = now['relations'][alias]['join'] -%}
  {%- set out = [] -%}
  {%- for pair in j['on'] -%}
    {%- set found = [] -%}
    {%- for o in now['output'] if o[1] == j['to'] and o[2] == pair[0] -%}
      {%- for b in built['output'] if b[0] == o[0] and b[1] == o[1] and b[2] == o[2] -%}
        {%- do found.append(o[0]) -%}
      {%- endfor -%}
    {%- endfor -%}
    {%- if not found -%}{{ return(none) }}{%- endif -%}
    {%- do out.append(found[0]) -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#- the aliases joined to `alias` in a declaration_record's extent -#}
{% macro _children(extent, alias) %}
  {%- set out = [] -%}
  {%- for other, r in extent['relations'].items() if r['join'] and r['join']['to'] == alias -%}
    {%- do out.append(other) -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#- whether a parent's state row (aliased `x`) joins a row of the leaf relation `leaf` (its record),
    read from `state`, its predicate applied: an EXISTS, never NULL -#}
{% macro _joins_leaf(leaf, state) %}
  {{ return('exists (select 1 from ' ~ state ~ ' as l where ' ~ pdelta._leaf_join_condition(leaf)
            ~ (' and (' ~ leaf['where'] ~ ')' if leaf['where'] else '') ~ ')') }}
{% endmacro %}

{#- whether a parent's state row (aliased `x`) references a key of the leaf's change feed `feed` in
    a row past the sequence `consumed` (none: any row): a leaf row that changed since the view
    consumed it -#}
{% macro _references_changed_leaf_key(leaf, feed, consumed) %}
  {{ return('exists (select 1 from ' ~ feed ~ ' as l where ' ~ pdelta._leaf_join_condition(leaf)
            ~ (' and l.`_pdelta_seq` > ' ~ (consumed | int) if consumed is not none else '') ~ ')') }}
{% endmacro %}

{#- the leaf's join to its parent, the leaf's rows aliased `l` and the parent's `x` -#}
{% macro _leaf_join_condition(leaf) %}
  {%- set on = [] -%}
  {%- for pair in leaf['join']['on'] -%}
    {%- do on.append('l.' ~ adapter.quote(pair[1]) ~ ' = x.' ~ adapter.quote(pair[0])) -%}
  {%- endfor -%}
  {{ return(on | join(' and ')) }}
{% endmacro %}

{#- a declaration_record's extent without what adaptation handles (each relation's predicate and
    output columns, the view's output list; the relations not in `aliases`; of the relations
    `replaced`, all but the parent and its join columns), as JSON: what must stay for the view to be
    adapted -#}
{% macro _rows_defined(extent, aliases, replaced=[]) %}
  {%- set relations = {} -%}
  {%- for alias, r in extent['relations'].items() if alias in aliases -%}
    {%- set kept = {} -%}
    {%- for part, value in r.items() if part not in ['where', 'columns'] -%}
      {%- do kept.update({part: value}) -%}
    {%- endfor -%}
    {%- if alias in replaced -%}
      {%- set kept = {'join': {'to': r['join']['to'], 'from': r['join']['on'] | map('first') | list}} -%}
    {%- endif -%}
    {%- do relations.update({alias: kept}) -%}
  {%- endfor -%}
  {%- set rest = {} -%}
  {%- for part, value in extent.items() if part != 'output' -%}{%- do rest.update({part: value}) -%}{%- endfor -%}
  {%- do rest.update({'relations': relations}) -%}
  {{ return(tojson(rest, sort_keys=true)) }}
{% endmacro %}

{#- whether a state row passes a relation's predicate (none: every row does), NULL as false -#}
{% macro _passes(where) %}
  {{ return('true' if not where else 'coalesce((' ~ where ~ '), false)') }}
{% endmacro %}
