{#- capture: one raw CDC feed (a source, model or seed in one of the formats of
    normalize_capture) turned into the canonical change feed (docs/capture.md), batch by batch.

    A batch is the raw records whose position lies past the last committed batch's. Steps:
      1. stage <model>__pdelta_stage: every record of the batch parsed, typed, filled and given a
         quarantine reason or none (capture_parse_sql, capture_classify_sql);
      2. quarantine: the batch's rows in <model>__pdelta_quarantine are replaced by the records
         with a reason (raw record as a string, reason, detail, batch id); the run fails when
         their number passes quarantine_max_rows or their share quarantine_max_fraction — the
         batch then stays uncommitted and is read again by the next run;
      3. the feed: the batch's rows (`_pdelta_seq` = batch id) are deleted and the batch's net
         effect per key appended (capture_canonical_sql);
      4. commit: the batch log <model>__pdelta_batches gets the position range (`raw`) and the
         highest sequence seen (`seq`, for late events) in one insert, written last, with the
         count of raw records at or below the new position (`records_through_hi`, counted by
         the scan that found it): a later run that counts more there found records behind the
         watermark (`late_records`).
    A run that died before 4 left an uncommitted batch id; the next run reuses that id, finds it
    on the stage (1 marks the stage with its batch id before anything else is written) and clears
    the batch's quarantine and feed rows before writing them again, so it neither loses nor
    duplicates anything. -#}
{% materialization capture, adapter='spark' %}
  {%- set m = pdelta.normalize_capture(config.get('pdelta_capture'), model.name) -%}
  {#- a statement that failed while switched to the Kernel reader must not leave this model's writes under it -#}
  {%- do pdelta.kernel_reads_reset() -%}
  {%- set target = this.incorporate(type='table') -%}
  {%- set existed = pdelta.relation_exists(target) -%}
  {%- set batches = pdelta.meta_relation(this, 'batches') -%}
  {%- set stage = pdelta.meta_relation(this, 'stage') -%}
  {%- set quarantine = pdelta.meta_relation(this, 'quarantine') -%}
  {%- set raw = pdelta.resolve_relation(m['raw']) -%}
  {%- set current = pdelta.resolve_relation(m['current']) if m['current'] else none -%}
  {%- set q = adapter.quote -%}
  {%- do pdelta.capture_raw_columns(m, raw) -%}
  {%- set full = should_full_refresh() or not existed or not pdelta.relation_exists(batches)
                 or not pdelta.relation_exists(quarantine) -%}
  {#- what defines the feed's rows (the raw relation, the format and how records are parsed, the
      key, the columns with their types), kept with each full build: a capture declared otherwise
      since re-reads every raw record (a full build), or stops (on_schema_change: fail) -#}
  {%- set extent = {'raw': raw | string, 'columns': []} -%}
  {%- for c in m['key'] + m['attrs'] -%}{%- do extent['columns'].append([c, m['types'][c]]) -%}{%- endfor -%}
  {#- a cut by source time decides how far each batch reads, not what a record means -#}
  {%- set not_defining = ['raw', 'types', 'attrs', 'quarantine_max_rows', 'quarantine_max_fraction', 'late_records',
                          'source_time', 'source', 'heartbeats', 'heartbeat_time'] -%}
  {%- for part, value in m.items() if part not in not_defining -%}
    {%- do extent.update({part: value}) -%}
  {%- endfor -%}
  {%- set declared = pdelta.table_declaration_record(extent) -%}
  {#- a batch an earlier attempt staged: the log's kept state is current only when it is at least as
      new (batch_log_state), and this run's batch clears what such an attempt wrote (below) -#}
  {%- set staged = none if full else pdelta.staged_batch(stage) -%}
  {%- set blog = none if full else pdelta.batch_log_state(batches, staged) -%}
  {%- set changed = [] if full else pdelta.table_declaration_differences(blog['declaration'], declared) -%}
  {%- if pdelta.rebuild_on_declaration_change(changed, 'capture ' ~ model.name ~ ': its declaration changed since its'
        ~ ' feed was built', 'every raw record is read again, as with --full-refresh',
        'read every raw record again under the new declaration') -%}
    {%- set full = true -%}
  {%- endif -%}
  {{ run_hooks(pre_hooks) }}
  {%- if full -%}
    {#- dbt's model contract, when enforced, against the feed's columns: the model's SQL is the
        feed's typed, empty SELECT (pdelta.capture), checked before the quarantine, the stage or
        the feed is written; incremental runs keep the build's columns -#}
    {%- do pdelta.assert_contract(sql) -%}
    {#- batch ids (the feed's sequence) keep growing across a full refresh, so readers of the
        feed never see a sequence go back -#}
    {#- the log state, when the declaration check read it already -#}
    {%- set prior = blog if blog is not none
                    else (pdelta.batch_log_state(batches) if pdelta.relation_exists(batches) else none) -%}
    {%- set batch_id = prior['last'] + 1 if prior is not none else 1 -%}
    {%- call statement('create_quarantine') -%}
      create or replace table {{ quarantine }}
        (`batch_id` bigint, `reason` string, `detail` string, `raw_record` string, `position` bigint, `seq` bigint,
         `recorded_at` timestamp)
      using delta
    {%- endcall -%}
    {%- set wm = {} -%}{%- set batch_id = [batch_id, 1] | max -%}
  {%- else -%}
    {%- set wm = blog['consumed'] -%}
    {%- set batch_id = blog['last'] + 1 -%}
  {%- endif -%}
  {%- set lo, seq_lo = wm.get('raw'), wm.get('seq') -%}
  {#- a capture cut by source time (macros/engine/cut_sources.sql): its batch reads the raw records up to this
      run's cut of its source only (the cut's bound, a position), so that the captures of one source end their
      batches at one source time -#}
  {%- set cut = pdelta.run_cut(raw, model.name, m['source_time'],
                               config.get('pdelta_max_cut_lag', var('pdelta_max_cut_lag', none)), kind='capture')
                if m['source_time'] else none -%}
  {%- if cut is not none and not full and lo is not none and (cut['bound'] is none or cut['bound'] < lo) -%}
    {{ exceptions.raise_compiler_error(pdelta.cut_moved_back_message('capture', model.name, m['source_time'], cut,
                                                                     raw, 'position', lo)) }}
  {%- endif -%}
  {#- The same scan counts the raw records at or below the committed position: more than the
      last commit counted there means records landed behind the watermark, where no batch
      will read them (late_records: fail, the default, stops; warn logs and counts them) -#}
  {%- set pos = pdelta.capture_bigint_expr(m, m['position']) -%}
  {%- set through = 'count(*)' if cut is none else '0' if cut['bound'] is none
                    else 'count_if(' ~ pos ~ ' <= ' ~ cut['bound'] | int ~ ')' -%}
  {%- set r = run_query('select max(' ~ pos ~ '), '
                        ~ ('count_if(' ~ pos ~ ' <= ' ~ (lo | int) ~ ')' if lo is not none else '0')
                        ~ ', ' ~ through ~ ' from ' ~ raw ~ ' as r') -%}
  {%- set hi = r.rows[0][0] if cut is none else cut['bound'] -%}
  {%- set hi = none if hi is none else hi | int -%}
  {%- if cut is not none -%}
    {{ log('pdelta: capture ' ~ model.name ~ ': its raw records cut at source time ' ~ cut['t'] ~ ' (source `'
           ~ cut['source'] ~ '`; they reach ' ~ cut['w'] ~ ')', info=true) }}
  {%- endif -%}
  {%- set at_or_below, through_hi = r.rows[0][1] | int, r.rows[0][2] | int -%}
  {%- set seen_before = none if full else blog['last_counts'].get('raw', {}).get('records_through_hi') -%}
  {%- set behind = 0 if seen_before is none else [at_or_below - seen_before | int, 0] | max -%}
  {%- if behind > 0 -%}
    {%- set late_msg = 'pdelta: capture ' ~ model.name ~ ': ' ~ behind ~ ' raw record(s) of ' ~ raw
                        ~ ' landed at or below position ' ~ lo
                        ~ ', which batch ' ~ (batch_id - 1) ~ ' already consumed; no batch reads them' -%}
    {%- if m['late_records'] == 'fail' -%}
      {{ exceptions.raise_compiler_error(late_msg ~ '. Nothing was written. Read every raw record again with `dbt run'
                                         ~ ' --full-refresh --select ' ~ model.name ~ '+`, or set late_records: warn'
                                         ~ ' to count them and go on.') }}
    {%- endif -%}
    {{ log('WARNING ' ~ late_msg ~ ' (late_records: warn; counted as behind_watermark in ' ~ batches ~ ')',
           info=true) }}
  {%- endif -%}
  {%- if not full and (hi is none or (lo is not none and hi <= lo)) -%}
    {%- call statement('main') -%} select 'pdelta: no new raw records' {%- endcall -%}
    {{ log('pdelta: capture ' ~ model.name ~ ': no new raw records past position ' ~ lo, info=true) }}
    {#- nothing new up to this run's cut: the capture stands at it all the same (mirrors of its feed read that) -#}
    {%- if cut is not none -%}{%- do pdelta.record_cut_reached(batches, blog, cut, 'raw') -%}{%- endif -%}
  {%- else -%}
    {#- absent columns are filled from the committed batches only: rows of an uncommitted batch
        (a run that died before its commit) are about to be replaced -#}
    {%- set history = none if full
                      else '(select * from ' ~ target ~ ' where `_pdelta_seq` < ' ~ batch_id | int ~ ')' -%}
    {#- rows of this batch id in the quarantine or the feed can only come from an earlier attempt
        at it, and every attempt stages first, marking the stage with its batch id: only then are
        they cleared (two deletes fewer in every other run). A stage without a mark, or none at
        all, may hide such an attempt: cleared too. -#}
    {%- set earlier_attempt = not full and (staged is none or staged['batch_id'] == batch_id | int) -%}
    {%- do pdelta.create_stage(stage, pdelta.stage_properties(batch_id, {'raw': {'changes': raw, 'lo': lo, 'hi': hi}}),
          pdelta.capture_classify_sql(m, pdelta.capture_parse_sql(m, raw, current, lo, hi), history, seq_lo)) -%}
    {%- set tally = {'total': 0, 'ok': 0, 'duplicates': 0} -%}{%- set reasons = {} -%}
    {%- set res = run_query('select `_reason`, `_dup`, count(*), max(case when `_reason` is null then `_seq` end) from '
                            ~ stage ~ ' group by 1, 2') -%}
    {%- set ns = namespace(seq_hi=seq_lo) -%}
    {%- for row in res.rows -%}
      {%- do tally.update({'total': tally['total'] + row[2] | int}) -%}
      {%- if row[0] is none and row[1] -%}{%- do tally.update({'duplicates': tally['duplicates'] + row[2] | int}) -%}
      {%- elif row[0] is none -%}{%- do tally.update({'ok': tally['ok'] + row[2] | int}) -%}
      {%- else -%}{%- do reasons.update({row[0]: reasons.get(row[0], 0) + row[2] | int}) -%}{%- endif -%}
      {%- if row[3] is not none and (ns.seq_hi is none or row[3] | int > ns.seq_hi) -%}
        {%- set ns.seq_hi = row[3] | int -%}
      {%- endif -%}
    {%- endfor -%}
    {%- set n_bad = reasons.values() | sum -%}
    {%- if earlier_attempt -%}
      {%- call statement('quarantine_clear') -%}
        delete from {{ quarantine }} where `batch_id` = {{ batch_id | int }}
      {%- endcall -%}
    {%- endif -%}
    {%- if n_bad > 0 -%}
      {%- call statement('quarantine') -%}
        insert into {{ quarantine }}
        select cast({{ batch_id | int }} as bigint), `_reason`, `_detail`, `_raw`, `_pos`, `_seq`, current_timestamp()
        from {{ stage }} where `_reason` is not null
      {%- endcall -%}
    {%- endif -%}
    {%- set summary = 'batch ' ~ batch_id ~ ' (positions ' ~ (lo if lo is not none else '-') ~ '..' ~ hi ~ '): '
                      ~ tally['total'] ~ ' records, ' ~ tally['ok'] ~ ' applied, ' ~ tally['duplicates']
                      ~ ' exact duplicates, ' ~ n_bad ~ ' quarantined'
                      ~ ((' ' ~ tojson(reasons)) if reasons else '') -%}
    {%- set max_rows, max_frac = m['quarantine_max_rows'], m['quarantine_max_fraction'] -%}
    {%- if (max_rows is not none and n_bad > max_rows | int)
          or (max_frac is not none and tally['total'] > 0 and n_bad / tally['total'] > max_frac | float) -%}
      {{ exceptions.raise_compiler_error('pdelta: capture ' ~ model.name ~ ' ' ~ summary
                                         ~ ' — more than the threshold (quarantine_max_rows ' ~ max_rows
                                         ~ ', quarantine_max_fraction ' ~ max_frac
                                         ~ '); the batch is not committed. See ' ~ quarantine) }}
    {%- endif -%}
    {%- if full -%}
      {%- for st in pdelta.drop_view_at_target(target) -%}
        {%- call statement(st['name']) -%}{{ st['sql'] }}{%- endcall -%}
        {%- do adapter.cache_dropped(st['relation']) -%}
      {%- endfor -%}
      {%- call statement('main') -%}
        {{ pdelta.create_table_verb(target) }} {{ target }} using delta as
        {{ pdelta.capture_canonical_sql(m, stage, batch_id) }}
      {%- endcall -%}
    {%- else -%}
      {%- if earlier_attempt -%}
        {%- call statement('clear_batch') -%}
          delete from {{ target }} where `_pdelta_seq` = {{ batch_id | int }}
        {%- endcall -%}
      {%- endif -%}
      {%- call statement('main') -%}
        insert into {{ target }}
        {{ pdelta.capture_canonical_sql(m, stage, batch_id) }}
      {%- endcall -%}
    {%- endif -%}
    {%- set counts = pdelta.change_counts('(select `_pdelta_type` from ' ~ target ~ ' where `_pdelta_seq` = '
                                          ~ batch_id | int ~ ')') -%}
    {%- do counts.update({'quarantined': reasons, 'records': tally['total'], 'duplicates': tally['duplicates'],
                          'records_through_hi': through_hi, 'behind_watermark': behind}) -%}
    {#- the commit: one batch-log row per input (the raw positions, the feed's sequences), and the
        state the log now says kept in its table property (record_batch), which the next run, the
        mirror over this feed and the check for a rebuilt feed read instead of scanning the log.
        A new log is created by its first commit (one statement: table, rows and property). The
        declaration, with the full build it holds for, goes with the commit (a capture built by
        an earlier pdelta takes the one it runs now). -#}
    {%- set log_prior = 'empty' if not pdelta.relation_exists(batches) else (prior if full else blog) -%}
    {#- the cut the batch ends at, kept with the raw position: a mirror of the feed stands at it once it has
        consumed the batch -#}
    {%- set ranges = {'raw': {'changes': raw | string, 'lo': lo, 'hi': hi,
                              'position': {'cut': {'source': cut['source'], 't': cut['t']}} if cut is not none
                                          else none},
                      'seq': {'changes': m['seq'] | string, 'lo': seq_lo, 'hi': ns.seq_hi}} -%}
    {%- do pdelta.record_batch(batches, batch_id, ranges, counts, 'full' if full else 'incremental', prior=log_prior,
          declaration=declared if full or blog['declaration'] is none else none) -%}
    {{ log('pdelta: capture ' ~ model.name ~ ' [' ~ m['format'] ~ '] ' ~ summary ~ '; feed ' ~ tojson(counts),
           info=true) }}
  {%- endif -%}
  {#- persist_docs, when the model asks for it: nothing is written while the docs are unchanged -#}
  {%- do pdelta.persist_view_docs(target) -%}
  {%- do pdelta.apply_model_grants(target, existed, full) -%}
  {{ run_hooks(post_hooks) }}
  {{ return({'relations': [target]}) }}
{% endmaterialization %}
