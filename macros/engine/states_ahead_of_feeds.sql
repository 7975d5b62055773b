{#- Users' Delta states ahead of their feeds (issue #20: a writer that commits a change to the state
    before it appends the change's feed row). The refresh reads such a state pinned at a version taken
    before its feed's bound (pin_user_state); a key the state changed by then whose feed row lands
    after the bound would be read ahead of the bound, beside rows of the view that still show its
    earlier value: a state the source was never in. Found from the state's change data feed
    (`delta.enableChangeDataFeed`): the keys it changed since the version the last batch pinned
    (`state_version` in the batch log's position of the input, recorded_position) through the one
    pinned now, less the keys with feed rows in this refresh's range (lo, hi] (the lag check,
    keep_compensation_where_lagging, holds those to their last feed image). Each remaining key must
    agree with the image of its last feed row at or below lo (absent after a delete or without any
    row): a key that does not is ahead. One statement for every input checked (each: a user's Delta
    state with a version recorded by the last batch, and changed since); `positions` the batch log's
    (alias -> recorded position). Returns [{alias, keys: how many are ahead, example: one as JSON}].
    A state without the change data feed on stops the run, saying so. -#}
{% macro states_ahead_of_feeds(inputs, aliases, positions) %}
  {%- set q = adapter.quote -%}
  {%- set parts = [] -%}
  {%- for alias in aliases -%}
    {%- set inp = inputs[alias] -%}
    {%- set since = (positions.get(alias) or {}).get('state_version') -%}
    {%- if inp.get('user_state') and inp.get('version') is not none and since is not none
          and (inp['version'] | int) > (since | int) -%}
      {%- do pdelta._require_change_data_feed(inp['state'], alias) -%}
      {%- set key = inp['user_state']['key'] -%}
      {%- set shown = [] -%}
      {%- for k in key -%}{%- do shown.append(pdelta.sql_literal(k) ~ ', o.' ~ q(k)) -%}{%- endfor -%}
      {%- set batch_rows = pdelta.feed_range_sql(inp['changes'], key, inp.get('lo'), inp['hi']) -%}
      {%- set changed = 'select distinct ' ~ pdelta._cols(key) ~ ' from table_changes('
            ~ pdelta.sql_literal(inp['state'] | string) ~ ', ' ~ ((since | int) + 1) ~ ', '
            ~ (inp['version'] | int) ~ ')' -%}
      {#- the feed rows at or below lo of the keys the state changed: their last images -#}
      {%- set before_rows = 'select x.* from ' ~ inp['changes'] ~ ' as x left semi join (' ~ changed ~ ') as o on '
            ~ pdelta._key_join_on(key, 'x', 'o') ~ ' where '
            ~ ('x.`_pdelta_seq` <= ' ~ (inp['lo'] | int) if inp.get('lo') is not none else 'false') -%}
      {%- set last = pdelta._last_feed_images(inp, inp['user_state'], before_rows) -%}
      {%- set part -%}
        select {{ pdelta.sql_literal(alias) }} as a, count(*) as n,
               min(to_json(named_struct({{ shown | join(', ') }}))) as ex
        from (select c.* from ({{ changed }}) as c
              left anti join (select distinct {{ pdelta._cols(key) }} from ({{ batch_rows }}) as b) as x
              on {{ pdelta._key_join_on(key, 'c', 'x') }}) as o
        left join {{ pdelta._state_at_keys(pdelta._pinned_state(inp), key, changed) }} as s
          on {{ pdelta._key_join_on(key, 's', 'o') }}
        left join ({{ last['images'] }}) as l on {{ pdelta._key_join_on(key, 'l', 'o') }}
        where {{ last['disagrees'] }}
      {%- endset -%}
      {%- do parts.append(part) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if not parts -%}{{ return([]) }}{%- endif -%}
  {%- set ahead = [] -%}
  {%- for row in run_query(parts | join('\nunion all\n')).rows if (row[1] or 0) | int > 0 -%}
    {%- do ahead.append({'alias': row[0], 'keys': row[1] | int, 'example': row[2]}) -%}
  {%- endfor -%}
  {{ return(ahead) }}
{% endmacro %}

{#- what the log, the error and `pdelta explain` say of states_ahead_of_feeds' result, one phrase per input -#}
{% macro states_ahead_phrases(ahead, inputs) %}
  {%- set phrases = [] -%}
  {%- for a in ahead -%}
    {%- do phrases.append('the state of `' ~ a['alias'] ~ '` is ahead of its feed on ' ~ a['keys'] ~ ' key(s) ('
                          ~ inputs[a['alias']]['state'] ~ ': changed since the last batch with no feed row up to the'
                          ~ ' bound), e.g. ' ~ a['example']) -%}
  {%- endfor -%}
  {{ return(phrases) }}
{% endmacro %}

{#- a state whose change data feed is off cannot say which keys it changed: the run stops and says so -#}
{% macro _require_change_data_feed(state, alias) %}
  {%- set props = run_query('show tblproperties ' ~ state) -%}
  {%- for row in props.rows if row[0] == 'delta.enableChangeDataFeed' and row[1] | lower == 'true' -%}
    {{ return(true) }}
  {%- endfor -%}
  {{ exceptions.raise_compiler_error('pdelta: input `' ~ alias
        ~ '`: pdelta_state_ahead is set, which reads the keys its'
        ~ ' state ' ~ state ~ ' changed from its change data feed, but that table has `delta.enableChangeDataFeed` off.'
        ~ ' Turn it on (alter table ... set tblproperties (\'delta.enableChangeDataFeed\' = \'true\')) or set'
        ~ ' pdelta_state_ahead to ignore; nothing was written.') }}
{% endmacro %}

{#- The feed position the batch log records for an input (freeze_inputs' input): the scan's, with the
    Delta version a user's state was pinned at (`state_version`), from which the next refresh's
    states_ahead_of_feeds reads the state's changes -#}
{% macro recorded_position(inp) %}
  {%- if not inp.get('user_state') or inp.get('version') is none -%}{{ return(inp.get('position')) }}{%- endif -%}
  {%- set position = dict(inp.get('position') or {}) -%}
  {%- do position.update({'state_version': inp['version'] | int}) -%}
  {{ return(position) }}
{% endmacro %}
