{#- The feed contract enforced by every refresh (python/pdelta/contract.py, generated into
    feed_contract()): the rows a refresh is about to consume are checked in the one statement
    that also freezes the feeds' bounds (feed_scans), so a clean batch costs no extra statement.
    On a bad row the refresh stops before writing anything (`pdelta_bad_rows: stop`, the
    default), or copies the bad rows into <model>__pdelta_quarantine with their rule and leaves
    them out of the batch (`quarantine`); the watermark never moves past a row silently. -#}

{#- `pdelta_bad_rows` and `pdelta_unexpected_sets` from the model's config or the project var of
    the same name: {bad_rows, unexpected_sets}; a bad value fails the run with the message
    `pdelta validate` gives (python/pdelta/options.py contract_option_errors) -#}
{% macro contract_options(cfg) %}
  {%- set eff = {'pdelta_bad_rows': cfg.get('pdelta_bad_rows', var('pdelta_bad_rows', 'stop')),
                 'pdelta_unexpected_sets': cfg.get('pdelta_unexpected_sets', var('pdelta_unexpected_sets', 'stop'))} -%}
  {%- set errors = pdelta.contract_option_errors(eff) -%}
  {%- if errors -%}{{ exceptions.raise_compiler_error(errors | join('; ')) }}{%- endif -%}
  {{ return({'bad_rows': eff['pdelta_bad_rows'], 'unexpected_sets': eff['pdelta_unexpected_sets']}) }}
{% endmacro %}

{% macro contract_option_errors(cfg) %}
  {%- set out = [] -%}
  {%- for name, o in pdelta.feed_contract()['options'].items() -%}
    {%- set value = cfg.get(name, o['values'][0]) -%}
    {%- if value not in o['values']
        -%}{%- do out.append(name ~ ': expected ' ~ o['expected'] ~ ", got '" ~ value ~ "'") -%}{%- endif -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#- the row checks for one feed as [{rule, condition}]: key and attribute columns fill the
    templates; `technique`'s check only when it is declared and cannot emit every set; checks of
    the attributes the state declares not null (`required`) only where there are such -#}
{% macro feed_row_checks(key, attrs, technique, required=[]) %}
  {%- set c = pdelta.feed_contract() -%}
  {%- set allowed = c['technique_sets'].get(technique) -%}
  {%- set sets = [] -%}{%- for s in pdelta.delta_model()['six_sets']
      -%}{%- do sets.append("'" ~ s ~ "'") -%}{%- endfor -%}
  {%- set key_null = [] -%}{%- for k in key -%}{%- do key_null.append(adapter.quote(k) ~ ' is null') -%}{%- endfor -%}
  {%- set attrs_nn = [] -%}{%- for a in attrs
      -%}{%- do attrs_nn.append(adapter.quote(a) ~ ' is not null') -%}{%- endfor -%}
  {%- set allowed_sql = [] -%}{%- for s in allowed or [] -%}{%- do allowed_sql.append("'" ~ s ~ "'") -%}{%- endfor -%}
  {%- set required_null = [] -%}{%- for a in required
      -%}{%- do required_null.append(adapter.quote(a) ~ ' is null') -%}{%- endfor -%}
  {%- set out = [] -%}
  {%- for check in c['row_checks'] if ('{allowed_sets}' not in check['condition']
            or (allowed is not none and allowed | length < sets | length))
        and ('{required_null}' not in check['condition'] or required) -%}
    {%- do out.append({'rule': check['rule'], 'condition': check['condition']
          | replace('{required_null}', required_null | join(' or ') or 'false')
          | replace('{key_null}', key_null | join(' or ') or 'false')
          | replace('{attrs_not_null}', attrs_nn | join(' or ') or 'false')
          | replace('{six_sets}', sets | join(', '))
          | replace('{allowed_sets}', allowed_sql | join(', '))}) -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#- rows of a feed a refresh consumes: sequence in (lo, hi]; hi none: every sequence -#}
{% macro _pending_condition(lo, hi) %}
  {%- set parts = ['`_pdelta_seq` is not null'] -%}
  {%- if lo is not none -%}{%- do parts.append('`_pdelta_seq` > ' ~ (lo | int)) -%}{%- endif -%}
  {%- if hi is not none -%}{%- do parts.append('`_pdelta_seq` <= ' ~ (hi | int)) -%}{%- endif -%}
  {{ return('(' ~ parts | join(' and ') ~ ')') }}
{% endmacro %}

{#- a feed row for the position check: every column hashed into [0, 2^31), so that a consumed row
    edited later counts as a different row -#}
{% macro _row_hash() %}
  {{ return('pmod(xxhash64(f.*), 2147483647)') }}
{% endmacro %}

{#- Feeds that are no pdelta relation's, each scanned once, all in one statement. `scans`: list
    of {alias, changes, lo (the sequence consumed so far or none), hi (a bound fixed elsewhere,
    e.g. by a mirror of the feed; none: the feed's highest sequence now), key, attrs (the feed's
    attribute columns the refresh reads), state (for the type check; none: no check),
    technique, prior (the position the batch log recorded for the rows at or below lo),
    history_rows}. A Delta feed whose consumed rows reach `history_rows` is read at the
    version `describe history` gives (feed_history); when every commit since the prior position's
    version only appended rows, the rows at or below lo are the ones recorded then: only their
    sequences are read (for the counts; one column), and the pending rows in full, so the scan
    costs what the batch brings rather than the feed's age. Returns alias -> {
      hi           the bound: `hi` or the highest sequence now (none when empty)
      position     {rows, sum[, version, at]}: the rows at or below hi, their count and hash sum,
                   which the batch log keeps so that the next refresh sees rewritten feeds, and
                   the Delta commit read (feed_history)
      through_lo   rows at or below lo now, sum_lo: their hash sum (none without lo)
      null_seq     rows without a sequence
      checks       rule -> {n, ex}: pending rows (in (lo, hi]) breaking each row check and one
                   of them as JSON; `feed-disjoint`: (key, sequence) groups with more than one row.
                   The examples come from a second statement, sent only when a check failed: in
                   the scan they were a third of its SQL, planned every refresh, and a JSON
                   document per pending (key, sequence) group
      types        {feed: [type of each key/attr column], state: [the same in the state],
                    before: the type of `_pdelta_before`}, read from the schemas (no rows)
      read         none, or the feed's history: {version, at, appends_only, appended_only: the
                   scan read only the pending rows in full}}.
    check_rows false: bounds and positions only (a full build, a rebuild the cost model chose):
    no row check and no (key, sequence) grouping, so the rows are read once and summed per feed
    without a shuffle of them; `checks` comes back empty.
    hash_rows false (a rebuild the cost model chose, with check_rows false): no row is hashed, so
    only the sequences are read. The rebuild read the states, not these rows, and supersedes what
    refreshes applied since the rows its position hashes last: the position keeps the hash sum of
    the rows up to where the feed's first unhashed rows start and records the rows it did not
    hash, `unhashed` = {after, through, sum}: the rows in (after, through] are counted (late or
    missing rows still show) but in no hash sum, `sum` is the hash sum of the rows at or below
    `after`. A later refresh hashes every row outside that range and carries it on; a full build
    hashes every row again. -#}
{% macro feed_scans(scans, check_rows=true, hash_rows=true) %}
  {%- set out = {} -%}
  {%- if not scans -%}{{ return(out) }}{%- endif -%}
  {%- set q = adapter.quote -%}
  {%- set parts = [] -%}
  {%- set hits = {} -%}
  {%- set histories = {} -%}
  {%- set appended = {} -%}
  {%- set unhashed_ranges = {} -%}
  {#- each feed's row checks; the aggregation has a flag column for as many as the feed with most -#}
  {%- set row_checks = {} -%}
  {%- for sc in scans -%}
    {%- do row_checks.update({sc['alias']: pdelta.feed_row_checks(sc['key'], sc['attrs'], sc['technique'],
                                                                   sc.get('required', [])) if check_rows else []}) -%}
  {%- endfor -%}
  {%- set width = row_checks.values() | map('length') | max -%}
  {%- for sc in scans -%}
    {%- set bound = '`_pdelta_seq` is not null' if sc['hi'] is none else '`_pdelta_seq` <= ' ~ (sc['hi'] | int) -%}
    {%- set at_or_below_lo = 'false' if sc['lo'] is none else 'f.`_pdelta_seq` <= ' ~ (sc['lo'] | int) -%}
    {%- set pending = pdelta._pending_condition(sc['lo'], sc['hi']) -%}
    {%- set prior = sc.get('prior') or {} -%}
    {#- rows a cost-based rebuild left unhashed, excluded from every hash sum until a full build -#}
    {%- set unhashed = prior.get('unhashed') if sc['lo'] is not none and (check_rows or not hash_rows) else none -%}
    {%- if not hash_rows -%}
      {%- set row_hash = 'cast(null as bigint)' -%}
    {%- elif unhashed -%}
      {%- set row_hash = 'case when ' ~ ('f.`_pdelta_seq` <= ' ~ (unhashed['after'] | int) ~ ' or '
            if unhashed['after'] is not none else '') ~ 'f.`_pdelta_seq` > ' ~ (unhashed['through'] | int)
            ~ ' then ' ~ pdelta._row_hash() ~ ' end' -%}
    {%- else -%}
      {%- set row_hash = pdelta._row_hash() -%}
    {%- endif -%}
    {%- do unhashed_ranges.update({sc['alias']: unhashed}) -%}
    {%- set history = pdelta.feed_history(sc['changes'], prior if prior.get('version') is not none else none)
          if pdelta._history_pays(sc['changes'], prior, sc['history_rows']) else none -%}
    {#- the feed as of the version the history gave, so that no commit slips in between -#}
    {%- set pinned = history is not none and history['version'] is not none -%}
    {%- set source = sc['changes'] ~ (' version as of ' ~ (history['version'] | int) if pinned else '') -%}
    {#- the consumed rows are the ones recorded: only the pending rows are read in full -#}
    {%- set appended_only = history is not none and history['appends_only'] and sc['lo'] is not none
          and prior.get('rows') is not none and (sc['hi'] is none or sc['hi'] | int >= sc['lo'] | int) -%}
    {%- do histories.update({sc['alias']: history}) -%}
    {%- do appended.update({sc['alias']: (prior['sum'] | int) if appended_only else none}) -%}
    {%- if history is not none -%}{%- do history.update({'appended_only': appended_only}) -%}{%- endif -%}
    {%- do hits.update({sc['alias']: {}}) -%}
    {%- if not check_rows -%}
      {#- bounds and positions only: each feed (each of its two reads) aggregated on its own, no
          column but the sequence (and the hash) read, no grouping by (key, sequence) and no
          types (no check reads them): half the time of the checking form at 10M rows -#}
      {%- set flat -%}
        select {{ pdelta.sql_literal(sc['alias']) }} as a, max(f.`_pdelta_seq`) as seq_max,
               count_if({{ bound }}) as n, count_if({{ at_or_below_lo }}) as through_lo,
               count_if(f.`_pdelta_seq` is null) as null_seq,
               sum(case when {{ bound }} then {{ row_hash }} end) as sum_hi,
               sum(case when {{ at_or_below_lo }} then {{ row_hash }} end) as sum_lo
        from {{ source }} as f
        {%- if appended_only %}
        where {{ pending }}
        union all
        select {{ pdelta.sql_literal(sc['alias']) }}, max(f.`_pdelta_seq`), count_if({{ bound }}),
               count_if({{ at_or_below_lo }}), count_if(f.`_pdelta_seq` is null), cast(null as bigint),
               cast(null as bigint)
        from {{ source }} as f
        where not {{ pending }}
        {%- endif %}
      {%- endset -%}
      {%- do parts.append(flat) -%}
    {%- else -%}
      {%- set flags = [] -%}
      {%- for check in row_checks[sc['alias']] -%}
        {%- set hit = pending ~ ' and (' ~ check['condition'] ~ ')' -%}
        {%- do hits[sc['alias']].update({check['rule']: hit}) -%}
        {%- do flags.append('coalesce(' ~ hit ~ ', false) as c' ~ loop.index) -%}
      {%- endfor -%}
      {%- for i in range(flags | length, width) -%}{%- do flags.append('false as c' ~ (i + 1)) -%}{%- endfor -%}
      {%- set key_nn = [] -%}
      {%- for k in sc['key'] -%}{%- do key_nn.append('f.' ~ q(k) ~ ' is not null') -%}{%- endfor -%}
      {#- the rows `feed-disjoint` groups by (key, sequence); its examples read the same rows -#}
      {%- set grouped_rows = pending ~ ' and ' ~ key_nn | join(' and ') -%}
      {%- do hits[sc['alias']].update({'feed-disjoint': grouped_rows}) -%}
      {#- keys as text, so that feeds with keys of other types and widths share one grouping; a cast
          to string keeps every value of the types a key has (numbers, text, dates, timestamps) -#}
      {%- set key_text = [] -%}
      {%- for k in sc['key'] -%}{%- do key_text.append('cast(f.' ~ q(k) ~ ' as string)') -%}{%- endfor -%}
      {%- set cols = sc['key'] + sc['attrs'] -%}
      {%- set feed_types = [] -%}{%- set state_types = [] -%}
      {%- for c in cols -%}
        {%- do feed_types.append('typeof(f.' ~ q(c) ~ ')') -%}
        {%- do state_types.append('typeof(s.`_pdelta_s' ~ loop.index ~ '`)') -%}
      {%- endfor -%}
      {#- the state joins as an empty relation, only for its column types, which Spark folds away
          without reading it -#}
      {%- set state_join -%}
        {%- if sc['state'] is not none %}
          left join (select {% for c in cols %}{{ q(c) }} as `_pdelta_s{{ loop.index }}`{{ ', ' if not loop.last }}
                            {%- endfor %} from {{ sc['state'] }} where false) as s on false
        {%- endif -%}
      {%- endset -%}
      {%- set types -%}
        to_json(array({{ feed_types | join(', ') }})) as tf,
               {% if sc['state'] is none %}cast(null as string)
               {%- else %}to_json(array({{ state_types | join(', ') }})){% endif %} as ts,
               typeof(f.`_pdelta_before`) as tb
      {%- endset -%}
      {%- set part -%}
        select {{ pdelta.sql_literal(sc['alias']) }} as a, f.`_pdelta_seq` as seq, {{ bound }} as in_bound,
               {{ at_or_below_lo }} as at_lo,
               {{ row_hash }} as h,
               case when {{ grouped_rows }} then array({{ key_text | join(', ') }}) end as gk,
               case when {{ grouped_rows }} then f.`_pdelta_seq` end as gs,
               {{ flags | join(', ') ~ ',' if flags }}
               {{ types }}
        from {{ source }} as f{{ state_join }}
        {%- if appended_only %}
        where {{ pending }}
        union all
        select {{ pdelta.sql_literal(sc['alias']) }}, f.`_pdelta_seq`, {{ bound }}, {{ at_or_below_lo }},
               cast(null as bigint), cast(null as array<string>), cast(null as bigint),
               {% for _ in range(width) %}false, {% endfor %}
               {{ types }}
        from {{ source }} as f{{ state_join }}
        where not {{ pending }}
        {%- endif %}
      {%- endset -%}
      {%- do parts.append(part) -%}
    {%- endif -%}
  {%- endfor -%}
  {#- one aggregation for every feed: per (feed, key, sequence) group of pending rows, then per
      feed (every other row of a feed falls into its one group of NULLs); a shuffle per level
      instead of two per feed -#}
  {%- set counts = [] -%}{%- set sums = [] -%}
  {%- for i in range(width) -%}
    {%- do counts.append('count_if(c' ~ (i + 1) ~ ') as c' ~ (i + 1)) -%}
    {%- do sums.append('sum(c' ~ (i + 1) ~ ') as c' ~ (i + 1)) -%}
  {%- endfor -%}
  {%- set scan -%}
    {%- if not check_rows %}
    select a, max(seq_max) as hi, sum(n) as n, sum(through_lo) as through_lo, sum(null_seq) as null_seq,
           coalesce(sum(sum_hi), 0) as sum_hi, coalesce(sum(sum_lo), 0) as sum_lo, 0 as disjoint,
           cast(null as string) as tf, cast(null as string) as ts, cast(null as string) as tb
    from (
      {{ parts | join('\n      union all\n') }}
    ) as r
    {#- a feed without rows has no row here either, as in the checking form #}
    group by a
    having max(seq_max) is not null or sum(null_seq) > 0
    {%- else %}
    select a, max(seq_max) as hi, sum(n) as n, sum(through_lo) as through_lo, sum(null_seq) as null_seq,
           coalesce(sum(sum_hi), 0) as sum_hi, coalesce(sum(sum_lo), 0) as sum_lo,
           count_if(group_rows > 1) as disjoint, max(tf) as tf, max(ts) as ts, max(tb) as tb
           {{- ', ' ~ sums | join(', ') if sums }}
    from (
      select a, max(seq) as seq_max, count_if(in_bound) as n, count_if(at_lo) as through_lo,
             count_if(seq is null) as null_seq, sum(case when in_bound then h end) as sum_hi,
             sum(case when at_lo then h end) as sum_lo, count_if(gs is not null) as group_rows,
             max(tf) as tf, max(ts) as ts, max(tb) as tb{{ ', ' ~ counts | join(', ') if counts }}
      from (
        {{ parts | join('\n      union all\n') }}
      ) as r
      group by a, gk, gs
    ) as g
    group by a
    {%- endif %}
  {%- endset -%}
  {%- set found = {} -%}
  {%- for row in pdelta.read_query(scan, pdelta._scanned_relations(scans)).rows -%}
    {%- do found.update({row[0]: row}) -%}
  {%- endfor -%}
  {%- for sc in scans -%}
    {%- set alias = sc['alias'] -%}
    {#- a feed without rows has no group: it reads as the aggregates of nothing -#}
    {%- set row = found.get(alias) or {'hi': none, 'n': none, 'through_lo': none, 'null_seq': none, 'sum_hi': 0,
                                       'sum_lo': 0, 'tf': none, 'ts': none, 'tb': none} -%}
    {%- set prior_sum = appended[alias] -%}
    {%- set checks = {} -%}
    {%- if alias in found and check_rows -%}
      {%- for check in row_checks[alias] -%}
        {%- do checks.update({check['rule']: {'n': row['c' ~ loop.index] | int}}) -%}
      {%- endfor -%}
      {%- do checks.update({'feed-disjoint': {'n': row['disjoint'] | int}}) -%}
    {%- endif -%}
    {%- set width_cols = (sc['key'] + sc['attrs']) | length -%}
    {%- set types = {'feed': fromjson(row['tf']) if row['tf'] else [none] * width_cols,
                     'state': none if sc['state'] is none
                              else (fromjson(row['ts']) if row['ts'] else [none] * width_cols),
                     'before': row['tb']} -%}
    {%- set sum_hi = (row['sum_hi'] | int) + (prior_sum or 0) -%}
    {%- set sum_lo = none if sc['lo'] is none else (prior_sum if prior_sum is not none else row['sum_lo'] | int) -%}
    {%- set hi = sc['hi'] if sc['hi'] is not none else row['hi'] -%}
    {%- set position = pdelta._scanned_position(row['n'], sum_hi, histories[alias]) -%}
    {%- do pdelta._record_unhashed(position, sc, unhashed_ranges[alias], hi, hash_rows) -%}
    {%- do out.update({alias: {'hi': none if hi is none else hi | int,
                               'position': position,
                               'through_lo': none if sc['lo'] is none or row['through_lo'] is none
                                             else row['through_lo'] | int,
                               'sum_lo': sum_lo,
                               'null_seq': (row['null_seq'] or 0) | int, 'checks': checks, 'types': types,
                               'read': histories[alias]}}) -%}
  {%- endfor -%}
  {%- do pdelta._add_check_examples(scans, out, hits) -%}
  {{ return(out) }}
{% endmacro %}

{#- One example (JSON) of each check a feed scan found broken, into `found[alias]['checks'][rule]['ex']`,
    from one statement over the feeds with a broken check (none when every check passed): a
    row's key, type and sequence for a row check, a (key, sequence) group with its row count for
    `feed-disjoint` (`hits`: alias -> rule -> the condition of the rows the scan counted). -#}
{% macro _add_check_examples(scans, found, hits) %}
  {%- set q = adapter.quote -%}
  {%- set parts = [] -%}
  {%- for sc in scans -%}
    {%- set checks = found.get(sc['alias'], {}).get('checks') or {} -%}
    {#- rows that landed after the scan are not this batch's: bounded by the sequence it froze -#}
    {%- set frozen = ' and f.`_pdelta_seq` <= ' ~ (found[sc['alias']]['hi'] | int)
          if sc['hi'] is none and found.get(sc['alias'], {}).get('hi') is not none else '' -%}
    {%- set shown = [] -%}
    {%- for c in sc['key'] + ['_pdelta_type', '_pdelta_seq'] -%}
      {%- do shown.append(pdelta.sql_literal(c) ~ ', f.' ~ q(c)) -%}
    {%- endfor -%}
    {%- for rule, hit in hits.get(sc['alias'], {}).items() if (checks.get(rule, {}).get('n') or 0) | int > 0 -%}
      {%- if rule == 'feed-disjoint' -%}
        {%- set grouped = [] -%}{%- set keys = [] -%}
        {%- for c in sc['key'] + ['_pdelta_seq'] -%}
          {%- do grouped.append(pdelta.sql_literal(c) ~ ', f.' ~ q(c)) -%}{%- do keys.append('f.' ~ q(c)) -%}
        {%- endfor -%}
        {%- do parts.append('select ' ~ pdelta.sql_literal(sc['alias']) ~ " as a, 'feed-disjoint' as r, min(ex) as ex "
              ~ 'from (select to_json(named_struct(' ~ grouped | join(', ') ~ ", 'rows', count(*))) as ex "
              ~ 'from ' ~ sc['changes'] ~ ' as f where ' ~ hit ~ frozen ~ ' group by ' ~ keys | join(', ')
              ~ ' having count(*) > 1) as d') -%}
      {%- else -%}
        {%- do parts.append('select ' ~ pdelta.sql_literal(sc['alias']) ~ ' as a, ' ~ pdelta.sql_literal(rule)
              ~ ' as r, min(to_json(named_struct(' ~ shown | join(', ') ~ '))) as ex from ' ~ sc['changes']
              ~ ' as f where ' ~ hit ~ frozen) -%}
      {%- endif -%}
    {%- endfor -%}
  {%- endfor -%}
  {%- if parts -%}
    {%- for row in pdelta.read_query(parts | join('\nunion all\n'), pdelta._scanned_relations(scans)).rows -%}
      {%- do found[row[0]]['checks'][row[1]].update({'ex': row[2]}) -%}
    {%- endfor -%}
  {%- endif -%}
{% endmacro %}

{#- the relations a feed scan reads: each feed, and its state (for its column types) -#}
{% macro _scanned_relations(scans) %}
  {%- set out = [] -%}
  {%- for sc in scans -%}
    {%- do out.extend([sc['changes']] + ([sc['state']] if sc['state'] is not none else [])) -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#- the position feed_scans records: {rows, sum} at or below the bound, and the Delta commit it
    read ({version, at}) when it read the feed's history -#}
{% macro _scanned_position(rows, hash_sum, history) %}
  {%- set position = {'rows': (rows or 0) | int, 'sum': hash_sum | int} -%}
  {%- if history and history['version'] is not none -%}
    {%- do position.update({'version': history['version'], 'at': history['at']}) -%}
  {%- endif -%}
  {{ return(position) }}
{% endmacro %}

{#- The rows `position` leaves out of its hash sum (feed_scans' `unhashed`): a refresh carries the
    range it read with; a rebuild that hashed no row (hash_rows false) extends it to the bound `hi`,
    starting where the rows hashed so far end (the watermark, or where an earlier rebuild's range
    starts), and its sum is theirs. -#}
{% macro _record_unhashed(position, scan, unhashed, hi, hash_rows) %}
  {%- if hash_rows -%}
    {%- if unhashed -%}{%- do position.update({'unhashed': unhashed}) -%}{%- endif -%}
    {{ return(position) }}
  {%- endif -%}
  {%- set prior = scan.get('prior') or {} -%}
  {%- if hi is none -%}{{ return(position) }}{%- endif -%}
  {%- if unhashed -%}
    {%- set below = {'after': unhashed['after'], 'sum': unhashed['sum'] | int,
                     'through': [unhashed['through'] | int, hi | int] | max} -%}
  {%- elif scan['lo'] is not none and prior.get('sum') is not none -%}
    {%- set below = {'after': scan['lo'] | int, 'sum': prior['sum'] | int, 'through': hi} -%}
  {%- else -%}
    {%- set below = {'after': none, 'sum': 0, 'through': hi} -%}
  {%- endif -%}
  {%- do position.update({'sum': below['sum']}) -%}
  {%- if below['after'] is none or below['through'] | int > below['after'] -%}
    {%- do position.update({'unhashed': {'after': below['after'], 'through': below['through'] | int,
                                         'sum': below['sum']}}) -%}
  {%- endif -%}
  {{ return(position) }}
{% endmacro %}

{#- whether feed_scans reads `changes` through its Delta history: a Delta table whose consumed rows
    (`prior` position) reach `history_rows` (pdelta_feed_history_rows); below that, hashing them
    costs less than the `describe history` statement -#}
{% macro _history_pays(changes, prior, history_rows) %}
  {%- if changes is string or (prior.get('rows') or 0) | int < history_rows | int -%}
    {{ return(false) }}
  {%- endif -%}
  {%- set relation = adapter.get_relation(database=changes.database, schema=changes.schema,
                                          identifier=changes.identifier) -%}
  {{ return(relation is not none and relation.is_delta) }}
{% endmacro %}

{#- Integral and floating types a feed column may widen to in the state without losing a value -#}
{% macro _type_fits(feed_type, state_type) %}
  {%- if feed_type == state_type or feed_type == 'void' -%}{{ return(true) }}{%- endif -%}
  {%- set ladders = [['tinyint', 'smallint', 'int', 'bigint'], ['float', 'double']] -%}
  {%- for ladder in ladders if feed_type in ladder and state_type in ladder -%}
    {{ return(ladder.index(feed_type) <= ladder.index(state_type)) }}
  {%- endfor -%}
  {{ return(false) }}
{% endmacro %}

{#- What the scan found wrong with the rows each input is about to consume, as a list of
    {alias, changes, rule, n, example, problem, hint, action} in input order; action is
    `stop` (pdelta_bad_rows: stop, or a check no quarantine can fix), `quarantine` or `warn`
    (`feed-technique` under pdelta_unexpected_sets: warn). The inputs checked are those with the
    `scan` feed_scans read; `positions`: alias -> the feed position the batch log recorded when
    the consumed sequence was read (feed-seq-behind, feed-rewritten). -#}
{% macro feed_contract_violations(inputs, positions, opts) %}
  {%- set c = pdelta.feed_contract() -%}
  {%- set info = {} -%}
  {%- for o in c['row_checks'] + c['other_checks'] -%}{%- do info.update({o['rule']: o}) -%}{%- endfor -%}
  {%- set out = [] -%}
  {%- for alias, inp in inputs.items() if inp.get('scan') -%}
    {%- set sc = inp['scan'] -%}
    {%- set found = [] -%}
    {%- if inp.get('null_seq') -%}
      {%- do found.append(['feed-seq-null', inp['null_seq'], none]) -%}
    {%- endif -%}
    {%- set pos = positions.get(alias) -%}
    {%- if pos and inp.get('through_lo') is not none -%}
      {%- if inp['through_lo'] > pos['rows'] | int -%}
        {%- do found.append(['feed-seq-behind', inp['through_lo'] - pos['rows'] | int,
              'the consumed `_pdelta_seq` is ' ~ inp['lo']]) -%}
      {%- elif inp['through_lo'] < pos['rows'] | int or inp['sum_lo'] != pos['sum'] | int -%}
        {%- do found.append(['feed-rewritten', none,
              pos['rows'] ~ ' row(s) at or below `_pdelta_seq` ' ~ inp['lo']
              ~ ' when consumed, ' ~ inp['through_lo'] ~ ' now']) -%}
      {%- endif -%}
    {%- endif -%}
    {%- set types = inp.get('types') or {} -%}
    {%- set cols = sc['key'] + sc['attrs'] -%}
    {%- if types.get('state') -%}
      {%- for col in cols -%}
        {%- set ft, st = types['feed'][loop.index0], types['state'][loop.index0] -%}
        {%- if ft is not none and st is not none and not pdelta._type_fits(ft, st) -%}
          {%- do found.append(['feed-column-type', none,
                'column `' ~ col ~ '` is ' ~ ft ~ ' in the feed, ' ~ st ~ ' in the state ' ~ inp['state']]) -%}
        {%- endif -%}
        {%- if col not in sc['key'] and types.get('before') -%}
          {%- set field = ('`' ~ col ~ '`' if not modules.re.match('^[A-Za-z_][A-Za-z0-9_]*$', col) else col) ~ ':' -%}
          {%- set b = types['before'] -%}
          {%- if ('<' ~ field) not in b and (',' ~ field) not in b -%}
            {%- do found.append(['feed-column-type', none,
                  '`_pdelta_before` (' ~ b ~ ') has no field `' ~ col ~ '`']) -%}
          {%- endif -%}
        {%- endif -%}
      {%- endfor -%}
    {%- endif -%}
    {#- to_json leaves out NULL fields: an empty feed has no counts -#}
    {%- for rule, hit in (inp.get('checks') or {}).items() if (hit.get('n') or 0) | int > 0 -%}
      {%- do found.append([rule, hit['n'] | int, hit.get('ex')]) -%}
    {%- endfor -%}
    {%- for f in found -%}
      {%- set rule = f[0] -%}
      {%- set action = 'stop' -%}
      {%- if rule == 'feed-technique' and opts['unexpected_sets'] == 'warn' -%}{%- set action = 'warn' -%}
      {%- elif rule in c['quarantinable'] and opts['bad_rows'] == 'quarantine' -%}{%- set action = 'quarantine' -%}
      {%- endif -%}
      {%- do out.append({'alias': alias, 'changes': sc['changes'], 'rule': rule, 'n': f[1], 'example': f[2],
                         'problem': info[rule]['problem'], 'hint': info[rule]['hint'], 'action': action}) -%}
    {%- endfor -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#- one line per violation: input, feed, rule, count, example -#}
{% macro describe_violation(v) %}
  {%- set unit = '(key, `_pdelta_seq`) group(s) with ' if v['rule'] == 'feed-disjoint' else 'row(s) with ' -%}
  {{ return('input `' ~ v['alias'] ~ '` (' ~ v['changes'] ~ '): ' ~ v['rule'] ~ ': '
            ~ (v['n'] ~ ' ' ~ unit if v['n'] is not none else '') ~ v['problem']
            ~ ('; e.g. ' ~ v['example'] if v['example'] else '') ~ ' (' ~ v['hint'] ~ ')') }}
{% endmacro %}

{#- Stops the run on any violation whose action is `stop`, logs the `warn` ones, and returns the
    ones to quarantine. Nothing has been written when it stops. -#}
{% macro enforce_feed_contract(model_name, violations) %}
  {%- set by = pdelta.violations_by_action(violations) -%}
  {%- for v in by['warn'] -%}
    {{ log('pdelta: ' ~ model_name ~ ': warning: ' ~ pdelta.describe_violation(v)
          ~ '; applied (pdelta_unexpected_sets: warn)', info=true) }}
  {%- endfor -%}
  {%- if by['stop'] -%}
    {%- set stops = [] -%}{%- for v in by['stop'] -%}{%- do stops.append(pdelta.describe_violation(v)) -%}{%- endfor -%}
    {{ exceptions.raise_compiler_error('pdelta: ' ~ model_name
          ~ ': the batch breaks the feed contract, so nothing was written: '
          ~ stops | join('; ')
          ~ '. Fix or remove those rows (or set pdelta_bad_rows: quarantine to set them aside) and run again;'
          ~ ' see docs/dimension-views.md, "The feed contract".') }}
  {%- endif -%}
  {{ return(by['quarantine']) }}
{% endmacro %}

{#- violations grouped by what a refresh does with them: {stop, quarantine, warn} -#}
{% macro violations_by_action(violations) %}
  {%- set by = {'stop': [], 'quarantine': [], 'warn': []} -%}
  {%- for v in violations -%}{%- do by[v['action']].append(v) -%}{%- endfor -%}
  {{ return(by) }}
{% endmacro %}

{#- Marks the inputs whose bad rows are quarantined: inputs[alias]['exclude'] = {condition, key},
    the rows feed_range_sql then leaves out (those breaking a row check that is not only warned
    about, and those sharing their key and sequence). Returns the aliases marked. No statement. -#}
{% macro exclude_bad_rows(inputs, quarantined, opts) %}
  {%- set aliases = [] -%}
  {%- for v in quarantined if v['alias'] not in aliases -%}{%- do aliases.append(v['alias']) -%}{%- endfor -%}
  {%- for alias in aliases -%}
    {%- set sc = inputs[alias]['scan'] -%}
    {%- set conds = [] -%}{%- set cases = [] -%}
    {%- for ch in pdelta.feed_row_checks(sc['key'], sc['attrs'], sc['technique'], sc.get('required', []))
          if not (ch['rule'] == 'feed-technique' and opts['unexpected_sets'] == 'warn') -%}
      {%- do conds.append('(' ~ ch['condition'] ~ ')') -%}
      {%- do cases.append('when ' ~ ch['condition'] ~ ' then ' ~ pdelta.sql_literal(ch['rule'])) -%}
    {%- endfor -%}
    {%- do inputs[alias].update({'exclude': {'condition': conds | join(' or ') or 'false',
                                            'key': sc['key'], 'cases': cases}}) -%}
  {%- endfor -%}
  {{ return(aliases) }}
{% endmacro %}

{#- Copies the rows exclude_bad_rows marked, of each input in `aliases`, into `quarantine` under
    `batch_id` (a retry of the batch replaces them) with their rule and its reason. Returns the
    number of rows per alias. -#}
{% macro quarantine_bad_rows(quarantine, batch_id, inputs, aliases) %}
  {%- call statement('create_quarantine') -%}
    create table if not exists {{ quarantine }}
      (`batch_id` bigint, `input` string, `changes` string, `rule` string, `reason` string,
       `_pdelta_seq` bigint, `row` string, `quarantined_at` timestamp)
    using delta
  {%- endcall -%}
  {%- do adapter.cache_added(quarantine) -%}
  {%- set c = pdelta.feed_contract() -%}
  {%- set reasons = {} -%}{%- for o in c['row_checks'] + c['other_checks']
      -%}{%- do reasons.update({o['rule']: o['problem']}) -%}{%- endfor -%}
  {%- set parts = [] -%}
  {%- for alias in aliases -%}
    {%- set inp = inputs[alias] -%}
    {%- set part -%}
      select {{ batch_id | int }}, {{ pdelta.sql_literal(alias) }}, {{ pdelta.sql_literal(inp['changes'] | string) }},
             `rule`,
             case `rule` {% for r, why in reasons.items() %}when {{ pdelta.sql_literal(r) }}
               then {{ pdelta.sql_literal(why) }} {% endfor %}end,
             `_pdelta_seq`, `row`, current_timestamp()
      from (
        select case {{ inp['exclude']['cases'] | join(' ') }} when `_pdelta_n` > 1 then 'feed-disjoint' end as `rule`,
               `_pdelta_seq`, `_pdelta_row` as `row`
        from ({{ pdelta._numbered_feed_rows(inp['changes'], inp['exclude']['key'],
              inp['lo'], inp['hi'], row_json=true) }}) as f
      ) as r
      where `rule` is not null
    {%- endset -%}
    {%- do parts.append(part) -%}
  {%- endfor -%}
  {%- call statement('quarantine_clear') -%}
    delete from {{ quarantine }} where `batch_id` = {{ batch_id | int }}
  {%- endcall -%}
  {%- call statement('quarantine') -%}
    insert into {{ quarantine }} {{ parts | join('\nunion all\n') }}
  {%- endcall -%}
  {%- set counts = {} -%}
  {%- for row in run_query('select `input`, count(*) from ' ~ quarantine
        ~ ' where `batch_id` = ' ~ (batch_id | int) ~ ' group by 1').rows -%}
    {%- do counts.update({row[0]: row[1] | int}) -%}
  {%- endfor -%}
  {{ return(counts) }}
{% endmacro %}

{#- a feed's rows in (lo, hi], each with `_pdelta_n`: how many rows share its key and sequence -#}
{% macro _numbered_feed_rows(changes, key, lo, hi, row_json=false) %}
  {#- row_json: also `_pdelta_row`, the feed row as JSON (computed before `_pdelta_n` is added) -#}
  {%- set rows = 'select *'
        ~ (", to_json(struct(*), map('ignoreNullFields', 'false')) as `_pdelta_row`" if row_json else '')
        ~ ' from ' ~ changes ~ ' where ' ~ pdelta._pending_condition(lo, hi) -%}
  {{ return('select *, count(*) over (partition by ' ~ pdelta._cols(key + ['_pdelta_seq']) ~ ') as `_pdelta_n` from ('
            ~ rows ~ ') as j') }}
{% endmacro %}

{#- The states of a view's inputs that hold a primary key more than once, as one message each
    with an example key (one statement; only run when a batch came out with two changes for one
    key, which the feed contract leaves no other cause for) -#}
{% macro duplicate_key_report(view, inputs) %}
  {%- set parts = [] -%}
  {%- for alias in view['order'] -%}
    {%- set r = view['relations'][alias] -%}
    {%- set shown = [] -%}{%- for k in r['key']
        -%}{%- do shown.append(pdelta.sql_literal(k) ~ ', ' ~ adapter.quote(k)) -%}{%- endfor -%}
    {%- do parts.append('select ' ~ pdelta.sql_literal(alias)
          ~ ' as a, count(*) as n, min(ex) as ex from (select to_json(named_struct('
          ~ shown | join(', ') ~ ', \'rows\', count(*))) as ex from ' ~ pdelta.state_read(inputs[alias])
          ~ ' group by ' ~ pdelta._cols(r['key'])
          ~ ' having count(*) > 1) as d') -%}
  {%- endfor -%}
  {%- set out = [] -%}
  {%- for row in run_query(parts | join('\nunion all\n')).rows if row[1] | int > 0 -%}
    {%- do out.append('state-duplicate-key: state ' ~ inputs[row[0]]['state']
          ~ ' (input `' ~ row[0] ~ '`) holds ' ~ row[1]
          ~ ' primary key value(s) in more than one row, e.g. ' ~ row[2]) -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}
