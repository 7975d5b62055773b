{#- The full build of a dimension view: the target from the compiled SELECT, an empty change
    feed, the SCD2 history carried over (the build is one more batch of it), and each input's
    upper bound recorded as consumed. Runs on the first build, on --full-refresh, after an
    input view was rebuilt in full, and when the cost model finds a refresh dearer than a
    rebuild (`pdelta_rebuild_feed: reset`, the default).

    The feed starts over (keep_feed, below: it keeps its rows), and a view that reads it sees this
    `full` batch past its watermark and rebuilds in full too instead of missing changes. Crash
    safety: a `full-started` row goes first into an existing log; until the `full` row follows,
    reruns build in full again (a first build writes only the `full` row, which creates the log:
    without a log every run builds).

    timing: none, or {started, costs, rows} when the learned cost model times this build (a
    rebuild of `rows` view rows, none when unknown); declaration: the view's declaration_record,
    kept in the batch log with the build (later refreshes compare theirs with it).

    keep_feed: the cost model's rebuild under the same declaration: the feed keeps the rows of
    earlier batches instead of starting over (no statement for it). Its readers still rebuild:
    they go by the `full` batch in this view's log, and read no feed row below their watermark;
    the key's type comes from the log (`prior`), so the target is not described either.

    versioned: the target, when views read it as their state: its Delta version after the build is
    kept with the batch (record_batch `table`). reads: the relations select_sql reads, when it may read
    them through Delta's Kernel reader (kernel_reads_on); none: the classic reader. -#}
{% macro build_in_full(target, select_sql, key, attrs_out, opts, batch_id, ranges, why, prior='empty', timing=none,
                       declaration=none, keep_feed=false, versioned=none, reads=none) %}
  {%- set q = adapter.quote -%}
  {%- set feed = pdelta.meta_relation(target, 'changes') -%}
  {%- set batches = pdelta.meta_relation(target, 'batches') -%}
  {%- set history = pdelta.meta_relation(target, 'history') -%}
  {%- do pdelta.assert_contract(select_sql) -%}
  {%- set started = pdelta.mark_full_build_started(batches, batch_id, prior) -%}
  {%- for st in pdelta.create_target_statements(target, select_sql, key, opts) -%}
    {#- the build's SELECT reads `reads` through the Kernel reader where it may: Delta's CTAS stays the
        classic writer under the switch (measured), and each state's new version costs no snapshot jobs -#}
    {%- set switched = pdelta.kernel_reads_on(reads) if st['name'] == 'main' else false -%}
    {%- call statement(st['name']) -%}{{ st['sql'] }}{%- endcall -%}
    {%- do pdelta.kernel_reads_off(switched) -%}
  {%- endfor -%}
  {#- the type of the first key column, kept in the log (record_batch `key_type`) so that every
      refresh of this build scans its staged batch once (staged_summary): one metadata read -#}
  {%- set key_types = [] -%}
  {%- set keep_feed = keep_feed and prior is mapping and prior.get('key_type') and pdelta.relation_exists(feed) -%}
  {%- if keep_feed -%}
    {%- do key_types.append(prior['key_type']) -%}
  {%- else -%}
    {%- set columns = adapter.get_columns_in_relation(target) -%}
    {%- for c in columns if c.name | lower == key[0] | lower -%}{%- do key_types.append(c.dtype) -%}{%- endfor -%}
    {%- call statement('create_feed') -%}
      {{ pdelta.create_table_verb(feed) }} {{ feed }} {{ pdelta.view_feed_definition(target, key, attrs_out, columns) }}
    {%- endcall -%}
    {%- do adapter.cache_added(feed) -%}
  {%- endif -%}
  {%- if opts['history'] -%}
    {%- if pdelta.relation_exists(history) -%}
      {#- the history outlives a rebuild: the rebuild is one more batch of it, under the view's columns -#}
      {%- if not keep_feed -%}
        {%- do pdelta.add_history_columns(history, target, key, columns,
                                          pdelta.history_renames(prior if prior is mapping else none, declaration)
                                          if declaration is not none else []) -%}
      {%- endif -%}
      {%- for st in pdelta.history_undo_statements(history, batch_id) -%}
        {%- call statement(st['name']) -%}{{ st['sql'] }}{%- endcall -%}
      {%- endfor -%}
      {%- call statement('history') -%}
        {{ pdelta.apply_history_scd2_sql(history,
            '(' ~ pdelta.history_rebuild_source_sql(history, target, key, attrs_out) ~ ')',
            key, attrs_out, opts['history']['tracked'], batch_id) }}
      {%- endcall -%}
    {%- else -%}
      {%- call statement('history')
          -%}{{ pdelta.create_history_sql(history, target, key, attrs_out, batch_id) }}{%- endcall -%}
      {%- do adapter.cache_added(history) -%}
    {%- endif -%}
  {%- endif -%}
  {%- set full_ranges = {} -%}
  {%- for alias, r in ranges.items()
      -%}{%- do full_ranges.update({alias: {'changes': r['changes'], 'lo': none, 'hi': r['hi'],
                                            'position': r.get('position')}}) -%}{%- endfor -%}
  {%- set costs = none if timing is none else pdelta.add_cost_sample(timing['costs'], 'rebuild',
      [timing['rows'], pdelta.seconds_since(timing['started'])]) -%}
  {%- do pdelta.record_batch(batches, batch_id, full_ranges, {}, 'full',
        {'strategy': 'rebuild', 'statements': ['create_target']}, prior=started, costs=costs,
        key_type=(key_types + [none])[0], declaration=declaration, table=versioned) -%}
  {{ log('pdelta: ' ~ target.identifier ~ ' built in full (' ~ why | join('; ') ~ '), batch ' ~ batch_id, info=true) }}
{% endmacro %}
