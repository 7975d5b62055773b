{#- The inputs of one refresh, frozen before anything is read: alias -> {state, changes:
    relations; hi: upper bound of this refresh (rows that land later wait for the next one);
    rebuilt_at: batch id of the input's last full build when the input is another pdelta view;
    lo: none (the caller sets the consumed watermark)}.

    The upper bound is the position the input's state is known to reflect (DESIGN §4):
      - the change feed of another dimension view: that view's last committed batch (rows of
        an attempt that has not committed are never read);
      - a state that is a pdelta mirror of this feed: the mirror's last committed position
        (feed rows that landed after the mirror froze its range are not in its state yet);
      - a feed written by a pdelta capture: its last committed batch;
      - otherwise the feed's highest sequence now, read by feed_scans, which also counts what
        no refresh would ever read (feed_rows, through_lo, null_seq; `consumed`: alias -> the
        sequence consumed so far, from the batch log; see feeds_behind_watermark). -#}
{% macro freeze_inputs(view, consumed={}) %}
  {%- set inputs = {} -%}
  {%- set scans = [] -%}
  {%- for alias in view['order'] -%}
    {%- set r = view['relations'][alias] -%}
    {%- set changes = pdelta.resolve_relation(r['changes']) -%}
    {%- set state = pdelta.resolve_relation(r['state']) -%}
    {%- set inp = {'state': state, 'changes': changes, 'lo': none, 'rebuilt_at': none, 'bound_by': 'feed'} -%}
    {%- set suffix = '__pdelta_changes' -%}
    {%- set state_log = pdelta.meta_relation(state, 'batches') -%}
    {%- if changes.identifier.endswith(suffix) -%}
      {%- set owner_log = changes.incorporate(path={'identifier': changes.identifier[:-(suffix | length)] ~ '__pdelta_batches'}) -%}
      {%- set st = pdelta.batch_log_state(owner_log) if pdelta.relation_exists(owner_log) else none -%}
      {%- do inp.update({'hi': none if st is none or st['last'] < 0 else st['last'],
                         'rebuilt_at': none if st is none else st['last_full'], 'bound_by': 'view'}) -%}
    {%- elif pdelta.relation_exists(state_log) -%}
      {%- set r = run_query("select count(*), max(`hi`) from " ~ state_log ~ " where `input` = 'changes' and `mode` in ('full', 'incremental') and `changes` = " ~ pdelta.sql_literal(changes | string)) -%}
      {%- if r.rows[0][0] | int > 0 -%}
        {%- do inp.update({'hi': none if r.rows[0][1] is none else r.rows[0][1] | int, 'bound_by': 'mirror'}) -%}
      {%- else -%}
        {%- do inp.update({'hi': pdelta.feed_upper_bound(changes)}) -%}
      {%- endif -%}
    {%- elif changes is not string and pdelta.relation_exists(pdelta.meta_relation(changes, 'batches')) -%}
      {%- do inp.update({'hi': pdelta.feed_upper_bound(changes)}) -%}
    {%- else -%}
      {%- do scans.append([alias, changes, consumed.get(alias)]) -%}
    {%- endif -%}
    {%- do inputs.update({alias: inp}) -%}
  {%- endfor -%}
  {#- the plain feeds in one statement: one Spark job instead of one per feed -#}
  {%- for alias, found in pdelta.feed_scans(scans).items() -%}{%- do inputs[alias].update(found) -%}{%- endfor -%}
  {{ return(inputs) }}
{% endmacro %}

{#- the aliases whose feed holds rows this refresh consumes: sequence in (lo, hi] -#}
{% macro pending_inputs(view, inputs) %}
  {%- set pending = [] -%}
  {%- for alias in view['order'] -%}
    {%- set inp = inputs[alias] -%}
    {%- if inp['hi'] is not none and (inp['lo'] is none or inp['hi'] > inp['lo']) -%}{%- do pending.append(alias) -%}{%- endif -%}
  {%- endfor -%}
  {{ return(pending) }}
{% endmacro %}

{#- a state's columns as [[name, type]], the form refresh_plan takes -#}
{% macro state_columns(state) %}
  {%- set cols = [] -%}
  {%- for c in adapter.get_columns_in_relation(state) -%}{%- do cols.append([c.name, c.dtype]) -%}{%- endfor -%}
  {{ return(cols) }}
{% endmacro %}

{#- the feed rows a refresh consumes: sequence in (lo, hi] (lo none: from the start; hi none:
    nothing), with the given columns -#}
{% macro feed_range_sql(changes, cols, lo, hi) %}
  {%- set q = adapter.quote -%}
  select {% for c in cols %}{{ q(c) }}{% if not loop.last %}, {% endif %}{% endfor %}
  from {{ changes }}
  where {% if hi is none %}false{% else %}{% if lo is not none %}`_pdelta_seq` > {{ lo | int }} and {% endif %}`_pdelta_seq` <= {{ hi | int }}{% endif %}
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

{#- Feeds that are no pdelta relation's, each scanned once, all in one statement: `scans` is
    [[alias, feed, lo]]; returns alias -> {hi: the feed's highest sequence now (none when
    empty), feed_rows: rows with a sequence (all at or below hi), through_lo: rows at or below
    lo (none without lo), null_seq: rows without a sequence}. Rows at or below a sequence an
    earlier refresh consumed, or with none, are read by no refresh: feeds_behind_watermark
    compares these counts with the ones recorded when lo was consumed. -#}
{% macro feed_scans(scans) %}
  {%- set out = {} -%}
  {%- if not scans -%}{{ return(out) }}{%- endif -%}
  {%- set parts = [] -%}
  {%- for sc in scans -%}
    {%- set part -%}
      select {{ pdelta.sql_literal(sc[0]) }} as a, max(`_pdelta_seq`) as hi, count(`_pdelta_seq`) as n,
             {% if sc[2] is none %}cast(null as bigint){% else %}count_if(`_pdelta_seq` <= {{ sc[2] | int }}){% endif %} as through_lo,
             count_if(`_pdelta_seq` is null) as null_seq
      from {{ sc[1] }}
    {%- endset -%}
    {%- do parts.append(part) -%}
  {%- endfor -%}
  {%- for row in run_query(parts | join('\nunion all\n')).rows -%}
    {%- do out.update({row[0]: {'hi': none if row[1] is none else row[1] | int, 'feed_rows': row[2] | int,
                                'through_lo': none if row[3] is none else row[3] | int, 'null_seq': row[4] | int}}) -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#- Rows of the inputs' feeds that no refresh would ever read, as one message per input (empty:
    none). A row with a NULL sequence is never in a range (lo, hi]. A row appended with a
    sequence at or below what an earlier refresh consumed lies behind the watermark: the feed
    now holds more rows at or below lo than it did when lo was consumed: the feed_rows of the
    refresh that consumed lo, kept with its stage (`staged`: staged_batch; only when that is
    the last committed batch, `last`). The count is net: rows deleted from the feed meanwhile
    can hide as many late ones. -#}
{% macro feeds_behind_watermark(view, inputs, staged, last) %}
  {%- set recorded = {} -%}
  {%- if staged is not none and staged['batch_id'] == last -%}
    {%- for alias, r in staged['ranges'].items() if r.get('feed_rows') is not none -%}{%- do recorded.update({alias: r['feed_rows']}) -%}{%- endfor -%}
  {%- endif -%}
  {%- set out = [] -%}
  {%- for alias in view['order'] -%}
    {%- set inp = inputs[alias] -%}
    {%- set why = [] -%}
    {%- if inp.get('null_seq') -%}
      {%- do why.append(inp['null_seq'] ~ ' row(s) with a NULL `_pdelta_seq`') -%}
    {%- endif -%}
    {%- set before = recorded.get(alias) -%}
    {%- if before is not none and inp.get('through_lo') is not none and inp['through_lo'] > before | int -%}
      {%- do why.append((inp['through_lo'] - before | int) ~ ' row(s) that landed at or below `_pdelta_seq` ' ~ inp['lo'] ~ ', which an earlier refresh already consumed') -%}
    {%- endif -%}
    {%- if why -%}
      {%- do out.append('input `' ~ alias ~ '` (' ~ inp['changes'] ~ ') holds ' ~ why | join(' and ')) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}
