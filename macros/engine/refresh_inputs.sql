{#- The inputs of one refresh, frozen before anything is read: alias -> {state, changes:
    relations; hi: upper bound of this refresh (rows that land later wait for the next one);
    rebuilt_at: batch id of the input's last full build when the input is another pdelta view;
    lo: none (the caller sets the consumed watermark); scan: what feed_scans checked}.

    The upper bound is the position the input's state is known to reflect (DESIGN §4):
      - the change feed of another dimension view: that view's last committed batch (rows of
        an attempt that has not committed are never read);
      - a feed written by a pdelta capture: its last committed batch (both are pdelta's own
        feeds, written by a refresh that checked its input);
      - a state that is a pdelta mirror of this feed: the mirror's last committed position
        (feed rows that landed after the mirror froze its range are not in its state yet);
      - otherwise the feed's highest sequence now.
    A state pdelta writes itself (the other view, of its own feed; a mirror) is read as of the bound:
    at the Delta version that table had when the batch the bound names committed (its log's
    `pdelta.version`, batch_log_state's `table_version`), so a commit of it during this refresh (its
    next batch, its feed rows still past the bound) is not half read (`version`, read through
    state_read; none: the state as it is, when the log kept no version or `pin` is false).
    A user's Delta state (a replicated table, the last two kinds) is pinned at its newest version
    taken before its feed's bound is (pin_user_state): a writer that commits each change to the
    feed no later than to the state can then not have put a change into the pinned state whose
    feed row lies past the bound; a state that lags its feed is compensated for the batch's keys
    (compensated_state_sql). `pin` false: read as it is.
    The last two are users' feeds: feed_scans reads them all in one statement, finding the bound
    and checking the feed contract on the rows past `consumed` (alias -> the sequence consumed
    so far, from the batch log) (macros/engine/feed_checks.sql); `positions` (alias -> the feed
    position the batch log recorded with it) lets that scan skip the consumed rows of a Delta
    feed that was only appended to since, once they reach `history_rows`
    (pdelta_feed_history_rows: rebuild_options). `scan` false: no statement; the
    caller runs scan_inputs once it knows what it needs of the feeds (a rebuild: bounds only). -#}
{% macro freeze_inputs(view, consumed, positions, history_rows, scan=true, pin=true) %}
  {%- set inputs = {} -%}
  {%- set scans = [] -%}
  {%- for alias in view['order'] -%}
    {%- set r = view['relations'][alias] -%}
    {%- set changes = pdelta.resolve_relation(r['changes']) -%}
    {%- set state = pdelta.resolve_relation(r['state']) -%}
    {%- set inp = {'state': state, 'changes': changes, 'lo': none, 'rebuilt_at': none, 'bound_by': 'feed',
                   'version': none} -%}
    {%- set suffix = '__pdelta_changes' -%}
    {%- set state_log = pdelta.meta_relation(state, 'batches') -%}
    {%- if changes.identifier.endswith(suffix) -%}
      {%- set owner_log = changes.incorporate(path={'identifier': changes.identifier[:-(suffix | length)]
          ~ '__pdelta_batches'}) -%}
      {%- set st = pdelta.batch_log_state(owner_log) if pdelta.relation_exists(owner_log) else none -%}
      {%- do inp.update({'hi': none if st is none or st['last'] < 0 else st['last'],
                         'rebuilt_at': none if st is none else st['last_full'], 'bound_by': 'view',
                         'published': none if st is none else st.get('published')}) -%}
      {#- the other view's own table as the state: read as of its batch the bound names -#}
      {%- set owner = changes.identifier[:-(suffix | length)] -%}
      {%- if pin and st is not none and state is not string and state.identifier | lower == owner | lower
            and (state.schema or '') | lower == (changes.schema or '') | lower -%}
        {%- do inp.update({'version': st.get('table_version')}) -%}
      {%- endif -%}
    {%- elif pdelta.relation_exists(state_log) -%}
      {#- a mirror of this feed: its last commit consumed the feed up to `mirror_hi` -#}
      {%- set st = pdelta.batch_log_state(state_log) -%}
      {%- set by_mirror = st['last'] >= 0 and st['feeds'].get('changes') == changes | string -%}
      {%- set mirror_hi = st['consumed'].get('changes') if by_mirror else none -%}
      {%- if by_mirror -%}
        {#- the source time the mirror's feed was cut at, when it is cut by one (cut_sources.sql) -#}
        {%- do inp.update({'bound_by': 'mirror', 'hi': mirror_hi,
                           'version': st.get('table_version') if pin else none,
                           'cut': (st['positions'].get('changes') or {}).get('cut')}) -%}
      {%- elif pin -%}
        {%- do pdelta.pin_user_state(inp, r) -%}
      {%- endif -%}
      {%- do scans.append(pdelta._feed_scan(alias, view, changes, state, consumed, mirror_hi if by_mirror else none,
                                            by_mirror, positions, history_rows)) -%}
    {%- elif changes is not string and pdelta.relation_exists(pdelta.meta_relation(changes, 'batches')) -%}
      {%- if pin -%}{%- do pdelta.pin_user_state(inp, r) -%}{%- endif -%}
      {%- do inp.update({'hi': pdelta.feed_upper_bound(changes)}) -%}
    {%- else -%}
      {%- if pin -%}{%- do pdelta.pin_user_state(inp, r) -%}{%- endif -%}
      {%- do scans.append(pdelta._feed_scan(alias, view, changes, state, consumed, none, false, positions,
                                            history_rows)) -%}
    {%- endif -%}
    {%- do inputs.update({alias: inp}) -%}
  {%- endfor -%}
  {%- for sc in scans -%}{%- do inputs[sc['alias']].update({'scan': sc}) -%}{%- endfor -%}
  {%- if scan -%}{%- do pdelta.scan_inputs(inputs) -%}{%- endif -%}
  {{ return(inputs) }}
{% endmacro %}

{#- The users' feeds of freeze_inputs' result (the inputs with a `scan`), in one statement
    (feed_scans), into the inputs: bounds, positions and, with check_rows, the feed contract's
    checks of the rows the refresh consumes (a rebuild reads no feed row: bounds only; the cost
    model's rebuild, hash_rows false, hashes none either). -#}
{% macro scan_inputs(inputs, check_rows=true, hash_rows=true) %}
  {%- set scans = [] -%}
  {%- for alias, inp in inputs.items() if inp.get('scan') -%}{%- do scans.append(inp['scan']) -%}{%- endfor -%}
  {%- for alias, found in pdelta.feed_scans(scans, check_rows, hash_rows).items() -%}
    {#- a mirror's bound stays its own, even where the mirror has none yet -#}
    {%- if inputs[alias]['bound_by'] == 'mirror' -%}{%- do found.pop('hi') -%}{%- endif -%}
    {%- do inputs[alias].update(found) -%}
  {%- endfor -%}
{% endmacro %}

{#- The SQL that reads an input's state (freeze_inputs' inputs, or any mapping with a `state`): the
    relation, as of its `version` when freeze_inputs pinned one (Delta time travel); a user's state
    that freeze_inputs marked `compensate`, with feed rows in the refresh's range (lo, hi]: that
    version with the batch's keys compensated (compensated_state_sql), a parenthesized query -#}
{% macro state_read(inp) %}
  {%- set pinned = pdelta._pinned_state(inp) -%}
  {%- if inp.get('compensate') and inp.get('hi') is not none and (inp.get('lo') is none or inp['hi'] > inp['lo']) -%}
    {%- if not inp.get('columns') -%}{%- do inp.update({'columns': pdelta.state_columns(inp['state'])}) -%}{%- endif -%}
    {{ return('(' ~ pdelta.compensated_state_sql(inp, pinned) ~ ')') }}
  {%- endif -%}
  {{ return(pinned) }}
{% endmacro %}

{#- an input's state as of its pinned `version` (Delta time travel), or as it is when none was pinned -#}
{% macro _pinned_state(inp) %}
  {{ return(inp['state'] ~ (' version as of ' ~ (inp['version'] | int) if inp.get('version') is not none else '')) }}
{% endmacro %}

{#- The last feed image of each key among an input's feed rows (`l`): its key columns and `last` = the
    struct of its last row's type and carried columns (`image`). `columns` ({key, attrs}): the input's
    `compensate` unless given; `rows`: the feed rows in the input's range (lo, hi] unless given. Returns
    {feed_rows, images (the query), keys (those rows' keys, repeated where a key has several: for semi and
    anti joins, which need no distinct and so no shuffle), present: the SQL condition that the last row
    leaves the key present (an insert or update, not a delete), same: [s.c <=> l's image of c, per carried
    column c], on: the key join of `s` and `l`, disagrees: the condition that the state's row `s` (null where
    the key is absent) is not what `l` leaves: present with other carried values, absent where `l` leaves
    it present, present where `l` deletes it or where `l` is null (no feed row: absent)}. -#}
{% macro _last_feed_images(inp, columns=none, rows=none) %}
  {%- set columns = columns or inp['compensate'] -%}
  {%- set key, attrs = columns['key'], columns['attrs'] -%}
  {%- set same = [] -%}
  {%- for c in attrs -%}
    {%- do same.append('s.' ~ adapter.quote(c) ~ ' <=> l.`last`.`image`.' ~ adapter.quote(c)) -%}
  {%- endfor -%}
  {%- set present = 'l.`last`.`type` in ' ~ pdelta._types_leaving_present() -%}
  {%- set is_present, found = 'coalesce(' ~ present ~ ', false)', 's.' ~ adapter.quote(key[0]) ~ ' is not null' -%}
  {%- set feed_rows = rows or pdelta.feed_range_sql(inp['changes'], key + attrs + ['_pdelta_type', '_pdelta_seq'],
                                                    inp.get('lo'), inp['hi'], inp.get('exclude')) -%}
  {{ return({'feed_rows': feed_rows,
             'images': 'select ' ~ pdelta._cols(key) ~ ", max_by(named_struct('type', `_pdelta_type`, 'image', struct("
                       ~ pdelta._cols(attrs) ~ ')), `_pdelta_seq`) as `last` from (' ~ feed_rows ~ ') as f group by '
                       ~ pdelta._cols(key),
             'keys': 'select ' ~ pdelta._cols(key) ~ ' from (' ~ feed_rows ~ ') as f',
             'present': present, 'same': same, 'on': pdelta._key_join_on(key, 's', 'l'),
             'disagrees': 'not ((' ~ is_present ~ ' and ' ~ found ~ ([''] + same) | join(' and ') ~ ') or (not '
                          ~ is_present ~ ' and not ' ~ found ~ '))'}) }}
{% endmacro %}

{#- the feed row types after which the key is present (the delta model's), as an SQL list: `('ins', ...)` -#}
{% macro _types_leaving_present() %}
  {%- set present = [] -%}
  {%- for t, after in pdelta.delta_model()['after'].items() if after == 'present' -%}
    {%- do present.append(pdelta.sql_literal(t)) -%}
  {%- endfor -%}
  {{ return('(' ~ present | join(', ') ~ ')') }}
{% endmacro %}

{#- The rows of a state (`state_sql`: a relation, e.g. _pinned_state's) whose key is among `keys_sql`'s (a
    query of the key columns `key`), as a parenthesized query: the state read once with the keys broadcast,
    never shuffled. A left join of the batch's few images with the whole state plans a sort-merge join that
    shuffles every row of it (an outer join cannot broadcast the state). -#}
{% macro _state_at_keys(state_sql, key, keys_sql) %}
  {{ return('(select /*+ BROADCAST(k) */ x.* from ' ~ state_sql ~ ' as x left semi join (' ~ keys_sql ~ ') as k on '
            ~ pdelta._key_join_on(key, 'x', 'k') ~ ')') }}
{% endmacro %}

{#- The batch's last feed images (`l`, `last`: _last_feed_images') each beside the state's row of
    its key (`s`, null where the state lacks the key), as a FROM clause: the state read at the
    images' keys only (_state_at_keys), never shuffled. `state_sql`: the state, e.g. _pinned_state's -#}
{% macro _images_beside_state(last, state_sql, key) %}
  {{ return('(' ~ last['images'] ~ ') as l left join ' ~ pdelta._state_at_keys(state_sql, key, last['keys'])
            ~ ' as s on ' ~ last['on']) }}
{% endmacro %}

{#- freeze_inputs' pin of a user's state (one that pdelta does not write, or not from this feed):
    a Delta table is read at the version it is at now, taken before its feed's bound (`version`),
    and its batch's keys are compensated (`compensate`: key and carried columns, compensated_state_sql;
    `user_state`: the same, kept when the lag check drops `compensate`).
    Any other relation (a view, parquet) is read as it is. -#}
{% macro pin_user_state(inp, relation) %}
  {%- set state = inp['state'] -%}
  {%- if state is string -%}{{ return(none) }}{%- endif -%}
  {%- set found = adapter.get_relation(database=state.database, schema=state.schema, identifier=state.identifier) -%}
  {%- if found is none or not found.is_delta -%}{{ return(none) }}{%- endif -%}
  {%- set columns = {'key': relation['key'], 'attrs': relation['carry']} -%}
  {%- do inp.update({'version': pdelta.table_version(state), 'compensate': columns, 'user_state': columns}) -%}
{% endmacro %}

{#- A user's state as of the refresh's bound (SWEEP's local compensation, DESIGN §4): the pinned
    version `pinned` holds every change whose feed row is at or below the bound (the writer commits
    the feed no later than the state), but may lag it: the writer has appended a change to the feed
    and not yet committed it to the state. So each key with feed rows in the range (lo, hi] reads
    the image of its last row there (absent after a delete), and every other key reads the pinned
    row: the relation exactly after the rows the refresh consumes, whether the state lags or not.
    Columns the feed does not carry (none of the view's outputs or join columns) keep the state's
    value. `inp`: freeze_inputs' input with `compensate`, `columns` ([[name, type]]), lo, hi and
    the rows quarantine leaves out (`exclude`). -#}
{% macro compensated_state_sql(inp, pinned) %}
  {%- set q = adapter.quote -%}
  {%- set key, attrs = inp['compensate']['key'], inp['compensate']['attrs'] -%}
  {%- set last = pdelta._last_feed_images(inp) -%}
  {%- set columns = [] -%}
  {%- set uncarried = [] -%}
  {%- set key_names, attr_names = key | map('lower') | list, attrs | map('lower') | list -%}
  {%- for c in inp['columns'] -%}
    {%- set name = c[0] | lower -%}
    {%- if name in key_names -%}
      {%- do columns.append('l.' ~ q(key[key_names.index(name)]) ~ ' as ' ~ q(c[0])) -%}
    {%- elif name in attr_names -%}
      {%- do columns.append('cast(l.`last`.`image`.' ~ q(attrs[attr_names.index(name)])
          ~ ' as ' ~ c[1] ~ ') as ' ~ q(c[0])) -%}
    {%- else -%}
      {%- do columns.append('s.' ~ q(c[0])) -%}
      {%- do uncarried.append(c[0]) -%}
    {%- endif -%}
  {%- endfor -%}
  select s.* from {{ pinned }} as s
  left anti join ({{ last['keys'] }}) as l on {{ last['on'] }}
  union all
  select {{ columns | join(', ') }}
  {#- the state's row beside each image only for the columns the feed does not carry: where it carries them
      all, the images alone give the keys' rows, and the state is read once instead of twice -#}
  {%- if uncarried %}
  from {{ pdelta._images_beside_state(last, pinned, key) }}
  {%- else %}
  from ({{ last['images'] }}) as l
  {%- endif %}
  where {{ last['present'] }}
{%- endmacro %}

{#- Which users' states actually lag their feeds in this refresh's ranges: one statement over every
    input marked `compensate` with feed rows in (lo, hi] (`aliases`: those the caller asks about)
    counts the keys whose pinned row is not the image of their last feed row there (lag_check_terms).
    An input whose state agrees on every such key reads the pinned version alone (its `compensate`
    dropped): compensation costs a read of the state per statement that reads it, this check one.
    The diff plan's stage carries the same check instead of a statement of its own (lag_guard).
    Returns the lagging aliases. -#}
{% macro keep_compensation_where_lagging(inputs, aliases) %}
  {%- set terms = pdelta.lag_check_terms(inputs, aliases) -%}
  {%- if not terms -%}{{ return([]) }}{%- endif -%}
  {%- set lagging = [] -%}
  {%- set check = pdelta.plan_statement(terms, 'v__lagging') -%}
  {%- for row in pdelta.read_query(check, pdelta.input_relations(inputs, aliases)).rows -%}
    {%- if row[1] | int > 0 -%}{%- do lagging.append(row[0]) -%}
    {%- else -%}{%- do inputs[row[0]].update({'compensate': none}) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(lagging) }}
{% endmacro %}

{#- The lag check as plan terms (plan_term records; none when no input in `aliases` is marked
    `compensate` with feed rows in (lo, hi]): per such input `<alias>__lag_feed`, its feed rows in the
    range (shared: read once for both the images and the keys that pick the state's rows), and
    `v__lagging`, one row per input (a: alias, n: how many keys of the batch its pinned state does not
    hold as their last feed image leaves them: present with other carried values, absent where the feed
    says present, present where it says deleted). Each state is read only at the batch's keys
    (_state_at_keys: the keys broadcast, the state never shuffled): a left join of the images with the
    whole state shuffles every row of it, 8.0–8.6 s of a 24–27 s refresh at 10M rows, 0.1 % (about even
    at 1M, where Delta's job per extra scan, ~0.2 s, weighs as much as the shuffle). -#}
{% macro lag_check_terms(inputs, aliases) %}
  {%- set terms = [] -%}
  {%- set parts = [] -%}
  {%- set feeds = [] -%}
  {%- for alias in aliases -%}
    {%- set inp = inputs[alias] -%}
    {%- if inp.get('compensate') and inp.get('hi') is not none and (inp.get('lo') is none or inp['hi'] > inp['lo']) -%}
      {%- do feeds.append(alias ~ '__lag_feed') -%}
      {%- do terms.append(pdelta.plan_term(alias ~ '__lag_feed', 'SWEEP (DESIGN §4): the feed rows of `' ~ alias
            ~ '` in the batch\'s range, for its state\'s lag check', [],
            pdelta._last_feed_images(inp)['feed_rows'], 'shared')) -%}
      {%- set last = pdelta._last_feed_images(inp, rows='select * from ' ~ alias ~ '__lag_feed') -%}
      {%- set beside = pdelta._images_beside_state(last, pdelta._pinned_state(inp), inp['compensate']['key']) -%}
      {%- do parts.append('select ' ~ pdelta.sql_literal(alias) ~ ' as a, count(*) as n from ' ~ beside
            ~ ' where ' ~ last['disagrees']) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if not parts -%}{{ return([]) }}{%- endif -%}
  {%- do terms.append(pdelta.plan_term('v__lagging', 'SWEEP (DESIGN §4): per user\'s state, the keys of the batch'
        ~ ' its pinned version does not hold as their last feed row leaves them', feeds,
        parts | join('\nunion all\n'))) -%}
  {{ return(terms) }}
{% endmacro %}

{#- The view's full SELECT over its states as this refresh reads them (state_read): what a full build
    of it computes, the model's own SQL with every pinned state read as of its bound; `sql` (the model's)
    itself when no state is pinned -#}
{% macro pinned_full_select(view, inputs, sql) %}
  {%- if not (inputs.values() | selectattr('version', 'ne', none) | list) -%}{{ return(sql) }}{%- endif -%}
  {%- set reads = {} -%}
  {%- for alias in view['order'] -%}{%- do reads.update({alias: pdelta.state_read(inputs[alias])}) -%}{%- endfor -%}
  {{ return(pdelta.full_select_sql(view, reads)) }}
{% endmacro %}

{#- The full SELECT a full build or rebuild runs (pinned_full_select) once it knows which users' states lag
    their feeds: those marked `compensate` are compensated for their feed rows past `since` (alias ->
    sequence; none: the inputs' own `lo`), where they lag them (keep_compensation_where_lagging, one
    statement), and read pinned alone where they do not -#}
{% macro full_select_as_of_bounds(view, inputs, sql, since=none) %}
  {%- for alias in view['order'] if since is not none and inputs[alias].get('compensate') -%}
    {%- do inputs[alias].update({'lo': since.get(alias)}) -%}
  {%- endfor -%}
  {%- do pdelta.keep_compensation_where_lagging(inputs, view['order']) -%}
  {{ return(pdelta.pinned_full_select(view, inputs, sql)) }}
{% endmacro %}

{#- what feed_scans reads of one input's feed; a mirror's bound is fixed (`fixed`), even when none -#}
{% macro _feed_scan(alias, view, changes, state, consumed, hi, fixed, positions, history_rows) %}
  {%- set r = view['relations'][alias] -%}
  {{ return({'alias': alias, 'changes': changes, 'lo': consumed.get(alias),
             'hi': hi if hi is not none else (-1 if fixed else none),
             'key': r['key'], 'attrs': r['carry'], 'state': state, 'technique': r['technique'],
             'required': pdelta.declared_not_null(r['state'], r['carry']), 'prior': positions.get(alias),
             'history_rows': history_rows}) }}
{% endmacro %}

{#- the aliases whose feed holds rows this refresh consumes: sequence in (lo, hi]. Another view's
    feed whose batches past the watermark published no row (adaptations of columns only, batches
    whose changes reached none of its rows: its log's `published` is at or below the watermark)
    is not pending: the refresh runs no plan over an empty range, and the watermark moves with
    the next batch that reads -#}
{% macro pending_inputs(view, inputs) %}
  {%- set pending = [] -%}
  {%- for alias in view['order'] -%}
    {%- set inp = inputs[alias] -%}
    {%- set nothing_published = inp.get('bound_by') == 'view' and inp['lo'] is not none
                                and inp.get('published') is not none and inp['published'] <= inp['lo'] -%}
    {%- if inp['hi'] is not none and (inp['lo'] is none or inp['hi'] > inp['lo']) and not nothing_published -%}
      {%- do pending.append(alias) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(pending) }}
{% endmacro %}

{#- a state's columns as [[name, type]], the form refresh_plan takes -#}
{% macro state_columns(state) %}
  {%- set cols = [] -%}
  {%- for c in adapter.get_columns_in_relation(state) -%}{%- do cols.append([c.name, c.dtype]) -%}{%- endfor -%}
  {{ return(cols) }}
{% endmacro %}

{#- A relation an adapting batch joins in (`joined`, declaration_adaptation): the view never read
    it, so none of its feed rows is pending. The batch reads its state as of the bound where the
    rows of its parent whose membership changes are found (the adaptation's disagreement filter)
    and consumes its feed through the bound: its first batch reads no row of that feed, and its
    keys do not widen the batch (the view's rows that join them and keep their membership do not
    change: a relation joined in adds no output column). Called once the feed's bound is known. -#}
{% macro consume_joined_through_bound(inp) %}
  {%- if inp.get('joined') and inp['hi'] is not none -%}{%- do inp.update({'lo': inp['hi']}) -%}{%- endif -%}
{% endmacro %}

{#- the feed rows a refresh consumes: sequence in (lo, hi] (lo none: from the start; hi none:
    nothing), with the given columns; `exclude` ({condition, key}: quarantine_bad_rows) leaves out
    the rows that break a row check or share their key and sequence with another row -#}
{% macro feed_range_sql(changes, cols, lo, hi, exclude=none) %}
  {%- set q = adapter.quote -%}
  {%- if hi is none -%}
  select {{ pdelta._cols(cols) }} from {{ changes }} where false
  {%- elif exclude -%}
  select {{ pdelta._cols(cols) }}
  from ({{ pdelta._numbered_feed_rows(changes, exclude['key'], lo, hi) }}) as f
  where `_pdelta_n` = 1 and not coalesce({{ exclude['condition'] }}, false)
  {%- else -%}
  select {{ pdelta._cols(cols) }}
  from {{ changes }}
  where {% if lo is not none %}`_pdelta_seq` > {{ lo | int }} and {% endif %}`_pdelta_seq` <= {{ hi | int }}
  {%- endif -%}
{%- endmacro %}

{#- the upper bound of a feed read on its own: a pdelta capture's last committed batch (its
    batch log sits beside it; rows of a batch it has not committed are never read), otherwise
    the feed's highest sequence now -#}
{% macro feed_upper_bound(changes) %}
  {%- set log = pdelta.meta_relation(changes, 'batches') -%}
  {%- if changes is not string and pdelta.relation_exists(log) -%}
    {%- set last = pdelta.batch_log_state(log)['last'] -%}
    {{ return(none if last < 0 else last) }}
  {%- endif -%}
  {{ return(pdelta.feed_high_watermark(changes)) }}
{% endmacro %}

