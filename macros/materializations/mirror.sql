{#- mirror: a keyed table kept from a change feed (a base relation's new state).
    First run / --full-refresh: the snapshot with the whole feed's net effect applied. Later
    runs: the net effect of the feed rows past the watermark, staged, then applied with the
    cheapest correct statements (apply_changes). The batch log <model>__pdelta_batches records
    the consumed range, so a view reading this mirror bounds its feed range by it.
    Crash safety as in dimension_view: the staged batch carries its range; a rerun finds it
    uncommitted and applies it again idempotently before committing. -#}
{% materialization mirror, adapter='spark' %}
  {%- set m = pdelta.normalize_mirror(config.get('pdelta_mirror'), model.name) -%}
  {#- a statement that failed while switched to the Kernel reader must not leave this model's writes under it -#}
  {%- do pdelta.kernel_reads_reset() -%}
  {%- set target = this.incorporate(type='table') -%}
  {%- set existed = pdelta.relation_exists(target) -%}
  {%- set batches = pdelta.meta_relation(this, 'batches') -%}
  {%- set stage = pdelta.meta_relation(this, 'stage') -%}
  {%- set changes = pdelta.resolve_relation(m['changes']) -%}
  {%- set snapshot = pdelta.resolve_relation(m['snapshot']) if m['snapshot'] else none -%}
  {%- set feed_columns = pdelta.state_columns(changes) -%}
  {%- set attrs = pdelta.mirror_attrs(changes, m['key'], feed_columns, skip=m['source_time']) -%}
  {%- set key_type = [] -%}
  {%- for c in feed_columns if c[0] == m['key'][0] -%}{%- do key_type.append(c[1]) -%}{%- endfor -%}
  {%- set opts = pdelta.apply_options(config, attrs) -%}
  {#- each commit keeps the mirror's Delta version with its batch when a view reads it as its state -#}
  {%- set versioned = target if opts['format'] == 'delta' and pdelta.read_as_state(model.name) else none -%}
  {%- set q = adapter.quote -%}
  {%- set contract_opts = pdelta.contract_options(config) -%}
  {%- set staged = pdelta.staged_batch(stage) -%}
  {%- set blog = pdelta.batch_log_state(batches, staged) if pdelta.relation_exists(batches) else none -%}
  {%- set full = should_full_refresh() or not existed or blog is none or blog['last'] < 0 or blog['full_pending'] -%}
  {#- what defines the mirror's rows (its feed's columns and types, key, feed, snapshot), kept with
      each full build: a feed that gained, lost or retyped a column since rebuilds the mirror, or
      stops the run (on_schema_change: fail), before anything is read or written -#}
  {%- set declared_columns = [] -%}
  {%- for c in m['key'] + attrs -%}
    {%- for f in feed_columns if f[0] == c -%}{%- do declared_columns.append([c, f[1]]) -%}{%- endfor -%}
  {%- endfor -%}
  {%- set declared = pdelta.table_declaration_record({'changes': changes | string, 'key': m['key'],
        'columns': declared_columns, 'snapshot': none if snapshot is none else snapshot | string}) -%}
  {%- set changed = [] if full else pdelta.table_declaration_differences(blog['declaration'], declared) -%}
  {%- if pdelta.rebuild_on_declaration_change(changed, 'mirror ' ~ model.name ~ ': its feed changed since the mirror'
        ~ ' was built', 'rebuilt in full from the snapshot and the whole feed',
        'rebuild it from the feed as it is now') -%}
    {%- set full = true -%}
  {%- endif -%}
  {#- the bound, and the feed contract on the rows this run consumes (macros/engine/feed_checks.sql),
      in one scan; a feed a pdelta capture writes is checked by the capture -#}
  {%- set lo = none if full else blog['consumed'].get('changes') -%}
  {%- set inputs = {'changes': {'changes': changes, 'state': none, 'lo': lo}} -%}
  {%- set checked = not (changes is not string and pdelta.relation_exists(pdelta.meta_relation(changes, 'batches'))) -%}
  {#- a feed cut by source time (macros/engine/cut_sources.sql): consumed up to this run's cut of its source
      only; the scan checks the rows up to it (none at or below the cut: nothing new, or nothing at all) -#}
  {%- set cut = none -%}
  {%- if m['source_time'] -%}
    {%- if not checked -%}
      {{ exceptions.raise_compiler_error('pdelta: mirror ' ~ model.name ~ ' declares source_time, but its feed '
            ~ changes ~ ' is a pdelta capture\'s, whose rows are each a batch\'s net effect: declare `source_time`'
            ~ ' (and `source`) on the capture instead, which cuts its raw records (Debezium: \'$.source.ts_ms\'),'
            ~ ' and the mirror stands at the cut of the batches it consumed') }}
    {%- endif -%}
    {%- set cut = pdelta.run_cut(changes, model.name, m['source_time'],
                                 config.get('pdelta_max_cut_lag', var('pdelta_max_cut_lag', none))) -%}
  {%- endif -%}
  {%- set cut_hi = none if cut is none else (cut['bound'] if cut['bound'] is not none else lo) -%}
  {%- if checked -%}
    {%- set scan = {'alias': 'changes', 'changes': changes, 'lo': lo,
                    'hi': none if cut is none else (cut_hi if cut_hi is not none else -9223372036854775808),
                    'key': m['key'], 'attrs': attrs,
                    'state': none, 'technique': m['technique'],
                    'required': pdelta.not_null_columns(model, attrs),
                    'prior': none if full else blog['positions'].get('changes'),
                    'history_rows': pdelta.rebuild_options(config)['history_rows']} -%}
    {%- do inputs['changes'].update({'scan': scan}) -%}
    {%- do inputs['changes'].update(pdelta.feed_scans([scan])['changes']) -%}
    {%- set hi = inputs['changes']['hi'] if cut is none else cut_hi -%}
    {%- if cut is not none -%}
      {%- do inputs['changes'].update({'position': dict(inputs['changes'].get('position') or {},
                                                         cut={'source': cut['source'], 't': cut['t']})}) -%}
      {{ log('pdelta: mirror ' ~ model.name ~ ': its feed cut at source time ' ~ cut['t'] ~ ' (source `'
             ~ cut['source'] ~ '`; the feed holds rows up to ' ~ cut['w'] ~ ')', info=true) }}
    {%- endif -%}
  {%- else -%}
    {#- a capture's feed: through its last committed batch; a capture cut by source time kept the cut that batch
        ends at with it, and the mirror stands at that cut once it has consumed the batch (a view over mirrors
        of one source reads them at one cut: mixed_cuts) -#}
    {%- set feed_log = pdelta.batch_log_state(pdelta.meta_relation(changes, 'batches')) -%}
    {%- set hi = none if feed_log['last'] < 0 else feed_log['last'] -%}
    {%- set capture_cut = (feed_log['positions'].get('raw') or {}).get('cut') -%}
    {%- if capture_cut -%}
      {%- set cut = {'source': capture_cut['source'], 't': capture_cut['t']} -%}
      {%- do inputs['changes'].update({'position': {'cut': cut}}) -%}
      {{ log('pdelta: mirror ' ~ model.name ~ ': its feed (a capture\'s) cut at source time ' ~ cut['t']
             ~ ' (source `' ~ cut['source'] ~ '`)', info=true) }}
    {%- endif -%}
  {%- endif -%}
  {%- do inputs['changes'].update({'hi': hi}) -%}
  {%- set staged = none if full else staged -%}
  {%- set retry = staged is not none and staged['batch_id'] == blog['last'] + 1 -%}
  {%- set bad_aliases = [] -%}
  {%- if checked and not retry -%}
    {%- set violations = pdelta.feed_contract_violations(inputs, {} if full else blog['positions'], contract_opts) -%}
    {%- set bad_aliases = pdelta.exclude_bad_rows(inputs,
                                                  pdelta.enforce_feed_contract('mirror ' ~ model.name, violations),
                                                  contract_opts) -%}
  {%- endif -%}
  {#- a cut whose bound is below what the mirror consumed: its group's cut moved back (a feed joined the group, a
      heartbeat table went, the source time column changed). The mirror holds rows past it, so recording that it
      stands at it would let a view read a state its source was never in. After the feed contract: a rewritten
      feed (its sequences restarted) says so first -#}
  {%- if cut is not none and checked and not full and not retry and lo is not none
        and (cut['bound'] is none or cut['bound'] < lo) -%}
    {{ exceptions.raise_compiler_error(pdelta.cut_moved_back_message('mirror', model.name, m['source_time'], cut,
                                                                     changes, 'sequence', lo)) }}
  {%- endif -%}
  {%- set exclude = inputs['changes'].get('exclude') -%}
  {{ run_hooks(pre_hooks) }}
  {%- if full -%}
    {%- set gaps = pdelta.mirror_snapshot_gaps(snapshot, attrs, feed_columns) if snapshot is not none else {} -%}
    {%- set rebuild_sql = pdelta.mirror_rebuild_sql(changes, snapshot, m['key'], attrs, hi, exclude, gaps) -%}
    {%- do pdelta.assert_contract(rebuild_sql) -%}
    {%- set batch_id = 0 if blog is none else blog['last'] + 1 -%}
    {%- set started = pdelta.mark_full_build_started(batches, batch_id, 'empty' if blog is none else blog) -%}
    {%- if bad_aliases -%}
      {%- do pdelta.quarantine_bad_rows(pdelta.meta_relation(this, 'quarantine'), batch_id, inputs, bad_aliases) -%}
    {%- endif -%}
    {%- for st in pdelta.create_target_statements(target, rebuild_sql, m['key'], opts) -%}
      {%- call statement(st['name']) -%}{{ st['sql'] }}{%- endcall -%}
    {%- endfor -%}
    {%- do pdelta.record_batch(batches, batch_id,
          {'changes': {'changes': changes, 'lo': none, 'hi': hi, 'position': inputs['changes'].get('position')}}, {},
          'full', {'strategy': 'rebuild', 'statements': ['create_target']}, prior=started, declaration=declared,
          table=versioned) -%}
    {{ log('pdelta: mirror ' ~ model.name ~ ' built in full, batch ' ~ batch_id, info=true) }}
  {%- else -%}
    {%- set batch_id = blog['last'] + 1 -%}
    {%- if retry -%}
      {%- set ranges = pdelta.staged_ranges(stage, staged) -%}
      {{ log('pdelta: mirror ' ~ model.name ~ ': batch ' ~ batch_id
             ~ ' was staged but not committed by an earlier run; applying it again', info=true) }}
    {%- else -%}
      {%- if hi is none or (lo is not none and hi <= lo) -%}{%- set hi = lo -%}{%- endif -%}
      {%- set ranges = {'changes': {'changes': changes, 'lo': lo, 'hi': hi,
                                    'position': inputs['changes'].get('position')}} -%}
    {%- endif -%}
    {%- set r = ranges['changes'] -%}
    {%- if not retry and (r['hi'] is none or (r['lo'] is not none and r['hi'] <= r['lo'])) -%}
      {%- call statement('main') -%} select 'pdelta: no new changes' {%- endcall -%}
      {{ log('pdelta: mirror ' ~ model.name ~ ': no new changes', info=true) }}
      {#- nothing new up to this run's cut: the mirror stands at it all the same (views over it read that) -#}
      {%- if cut is not none -%}{%- do pdelta.record_cut_reached(batches, blog, cut) -%}{%- endif -%}
    {%- else -%}
      {%- if not retry -%}
        {%- if bad_aliases -%}
          {%- do inputs['changes'].update({'hi': r['hi']}) -%}
          {%- set quarantined = pdelta.quarantine_bad_rows(pdelta.meta_relation(this, 'quarantine'), batch_id, inputs,
                                                           bad_aliases) -%}
          {{ log('pdelta: mirror ' ~ model.name ~ ': quarantined ' ~ quarantined
                 ~ ' feed row(s) breaking the feed contract into '
                 ~ pdelta.meta_relation(this, 'quarantine'), info=true) }}
        {%- endif -%}
        {%- set net_sql -%}
          with feed as (
            {{ pdelta.feed_range_sql(changes, m['key'] + attrs + ['_pdelta_before', '_pdelta_type', '_pdelta_seq'],
                                     r['lo'], r['hi'], exclude) }}
          ), net as (
            {{ pdelta.net_effect_sql('feed', m['key'], attrs) }}
          )
          select {% for k in m['key'] %}{{ q(k) }}, {% endfor %}
                 {% for c in attrs %}last_image.{{ q(c) }} as {{ q(c) }}, {% endfor %}`_pdelta_type`
          from net where `_pdelta_type` is not null
        {%- endset -%}
        {%- do pdelta.create_stage(stage, pdelta.stage_properties(batch_id, ranges), net_sql, [changes]) -%}
      {%- endif -%}
      {#- into the key-range variable only when the apply prunes by it (else one plain query) -#}
      {%- set summary = pdelta.staged_summary(stage, m['key'], name=model.name,
                                              key_type=(key_type + [none])[0] if opts['prune'] else none) -%}
      {%- set counts = summary['counts'] -%}
      {%- set applied = pdelta.apply_changes(target, stage, m['key'], attrs, counts, opts, retry, model.name,
                                            (key_type + ['string'])[0], summary['range_var'],
                                            summary['keys_listed']) -%}
      {%- do applied.update({'statements': summary['statements'] + applied['statements']}) -%}
      {#- a mirror built before its columns were kept takes the ones it runs now as its own -#}
      {%- do pdelta.record_batch(batches, batch_id, ranges, counts, 'incremental', applied, retry, blog,
            declaration=declared if blog['declaration'] is none else none,
            table=versioned) -%}
      {{ log('pdelta: mirror ' ~ model.name ~ ' batch ' ~ batch_id ~ (' (retry)' if retry else '') ~ ': '
             ~ (counts if counts else 'no effective change') ~ ' -> ' ~ applied['strategy'], info=true) }}
    {%- endif -%}
  {%- endif -%}
  {#- persist_docs, when the model asks for it: nothing is written while the docs are unchanged;
      their fingerprint is kept in the batch log, whose properties this run read at its start -#}
  {%- do pdelta.persist_view_docs(target, m['key'] + attrs,
        kept={'log': batches, 'docs': none if blog is none or full else blog['docs'],
              'since_full': batch_id if full else blog['last_full']}) -%}
  {%- do pdelta.apply_model_grants(target, existed, full) -%}
  {{ run_hooks(post_hooks) }}
  {{ return({'relations': [target]}) }}
{% endmaterialization %}
