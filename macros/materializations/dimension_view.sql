{#- dimension_view: a dimension table maintained from partial change data.
    First run / --full-refresh / an input rebuilt in full / changes the cost model finds dearer
    than a rebuild: build the view in full from the states and record each input's upper bound
    (build_in_full). Later runs: consume every input feed past its
    watermark, derive ΔV/∇V with the generalized delta rules (refresh_plan), convert to the six
    sets, stage them, apply them with the cheapest correct statements (apply_changes), extend
    the SCD2 history if configured, append them to the view's own change feed and commit the
    batch in the batch log.

    Crash safety: nothing is written to the target, history or feed before the batch is staged,
    and the batch log row is written last. A rerun after a stop anywhere finds the staged,
    uncommitted batch and applies that same batch again with idempotent statements (MERGE, the
    history undone first, the feed rows of the batch replaced), then commits it. -#}
{% materialization dimension_view, adapter='spark' %}
  {#- refreshes and rebuilds are timed for the learned cost model (pdelta_rebuild_ratio: learned) -#}
  {%- set run_started = modules.datetime.datetime.now() -%}
  {%- set view = pdelta.normalize_declaration(config.get('pdelta'), model.name) -%}
  {#- the full build runs the model's SQL and refreshes run the declaration: they must agree -#}
  {%- set declared_sql = pdelta.full_select_sql(view, pdelta.resolved_states(view)) -%}
  {#- SQL comments around the call are the user's (pdelta validate accepts them too) -#}
  {%- set body = modules.re.sub('(?s)/\\*.*?\\*/', '', modules.re.sub('(?m)^\\s*--[^\\n]*$', '', sql)) -%}
  {%- if modules.re.sub('\\s+', '', body) != modules.re.sub('\\s+', '', declared_sql) -%}
    {{ exceptions.raise_compiler_error("dimension_view '" ~ model.name
          ~ "': its body is not {{ pdelta.dimension_view(<declaration>) }}; refreshes compute the declaration, so"
          ~ " the body must be what it renders (run `pdelta validate` for details)") }}
  {%- endif -%}
  {%- set target = this.incorporate(type='table') -%}
  {%- set existed = pdelta.relation_exists(target) -%}
  {%- set feed = pdelta.meta_relation(this, 'changes') -%}
  {%- set batches = pdelta.meta_relation(this, 'batches') -%}
  {%- set stage = pdelta.meta_relation(this, 'stage') -%}
  {%- set history = pdelta.meta_relation(this, 'history') -%}
  {%- set q = adapter.quote -%}
  {%- set key = view['key'] -%}
  {%- set attrs_out = [] -%}
  {%- for o in view['output'] if o[0] not in key -%}{%- do attrs_out.append(o[0]) -%}{%- endfor -%}
  {%- set opts = pdelta.apply_options(config, attrs_out) -%}
  {#- a bad cost-model or plan setting fails every run, not only the first with pending changes -#}
  {%- set refresh_opts = pdelta.rebuild_options(config) -%}
  {#- complement mode (issue #21, macros/engine/complement.sql): the view keeps its complement beside it -#}
  {%- set complement = refresh_opts['complement'] -%}
  {#- a statement that failed while switched to the Kernel reader must not leave this model's writes under it -#}
  {%- do pdelta.kernel_reads_reset() -%}
  {#- what defines the view's rows, kept with each full build: a refresh under another declaration
      would mix rows of both, so it rebuilds (or stops: on_schema_change = fail) -#}
  {%- set declared = pdelta.declaration_record(view) -%}
  {%- set contract_opts = pdelta.contract_options(config) -%}
  {%- set feed_cols = [] -%}
  {%- for c in key + attrs_out + ['_pdelta_before', '_pdelta_type', '_pdelta_seq'] -%}
    {%- do feed_cols.append(q(c)) -%}
  {%- endfor -%}

  {#- a batch staged by an earlier run (its retry, below) tells batch_log_state whether the log's kept state
      is current -#}
  {%- set staged = pdelta.staged_batch(stage) -%}
  {%- set blog = pdelta.batch_log_state(batches, staged) if pdelta.relation_exists(batches) else none -%}
  {#- a batch staged from a state that lags its feed, by a run stopped before it staged it again (lag_guard):
      never applied; the run computes its batch afresh -#}
  {%- if staged is not none and blog is not none and staged['batch_id'] == blog['last'] + 1
        and pdelta.marked_stage_dropped(stage) -%}
    {{ log('pdelta: ' ~ model.name ~ ': batch ' ~ staged['batch_id'] ~ ' was staged from a state that lags its feed'
           ~ ' by a run that stopped before staging it again; computing it afresh', info=true) }}
    {%- set staged = none -%}
  {%- endif -%}
  {#- Freeze each input's upper bound before reading any input: rows that land later belong
      to the next refresh. Users' feeds are read below (scan_inputs), once it is known what the
      run needs of them: a retry nothing, a full build their bounds, a refresh their bounds and
      the feed contract's checks. -#}
  {%- set watermarks = pdelta.built_watermarks(blog) -%}
  {%- set consumed, positions = watermarks['consumed'], watermarks['positions'] -%}
  {%- set built_consumed = pdelta.without_replaced_feeds(blog, view, consumed, positions) -%}
  {%- set inputs = pdelta.freeze_inputs(view, consumed, positions, refresh_opts['history_rows'], scan=false,
                                        pin=refresh_opts['pin_states']) -%}
  {#- each commit keeps the view's Delta version with its batch (record_batch) when a view reads it as
      its state: that view reads it as of the batch its bound names -#}
  {%- set versioned = target if opts['format'] == 'delta' and pdelta.read_as_state(model.name) else none -%}
  {%- set cost_model_on = refresh_opts['ratio'] is not none or refresh_opts['learned'] -%}
  {%- set why_full = [] -%}
  {#- a change of predicates, output columns added, dropped or renamed, a leaf relation removed or joined in
      as a filter: the refresh adapts the view in its batch (declaration_adaptation) -#}
  {%- set adaptation = {'adapt': none, 'columns': none, 'joined': [], 'why': none} -%}
  {%- if should_full_refresh() -%}{%- do why_full.append('--full-refresh') -%}
  {%- elif blog is none or blog['last'] < 0 or not existed or not pdelta.relation_exists(feed) -%}
    {%- do why_full.append('first build') -%}
  {%- elif blog['full_pending'] -%}{%- do why_full.append('an earlier full build did not finish') -%}
  {%- elif opts['history'] and not pdelta.relation_exists(history) -%}{%- do why_full.append('history requested') -%}
  {%- elif blog['adapting'] and blog['adapting'] != declared['fingerprint'] -%}
    {%- if refresh_opts['on_schema_change'] == 'fail' -%}
      {{ exceptions.raise_compiler_error('pdelta: ' ~ model.name ~ ': ' ~ pdelta.stopped_adapting_phrase()
            ~ ', and on_schema_change is fail, so nothing was written. Run it with --full-refresh.') }}
    {%- endif -%}
    {%- do why_full.append(pdelta.stopped_adapting_phrase()) -%}
  {%- else -%}
    {%- set changed = pdelta.declaration_differences(blog['declaration'], declared) -%}
    {%- if changed and refresh_opts['on_schema_change'] == 'fail' -%}
      {{ exceptions.raise_compiler_error('pdelta: ' ~ model.name
            ~ ': its declaration changed since the view was built (' ~ changed | join('; ')
            ~ ') and on_schema_change is fail, so nothing was written. Run it with --full-refresh'
            ~ ' to rebuild it under the new declaration (or set on_schema_change to another value:'
            ~ ' the run then rebuilds it by itself).') }}
    {%- elif changed -%}
      {%- set view_tables = pdelta.adaptation_table(opts, history, blog, declared) -%}
      {%- set adaptation = pdelta.declaration_adaptation(blog['declaration'], declared, view_tables,
                                                         pdelta.adaptation_states(blog['declaration'], view,
                                                                                  built_consumed)) -%}
      {%- if adaptation['adapt'] is none and adaptation['columns'] is none -%}
        {%- do why_full.append('its declaration changed since the last full build: ' ~ changed | join('; ')
                               ~ ' (' ~ adaptation['why'] ~ ')') -%}
      {%- elif adaptation['columns'] and staged is not none and staged['batch_id'] == blog['last'] + 1 -%}
        {#- a batch staged under other columns cannot be applied to these (one staged by a stopped run that
            adapted to this declaration can: its retry below) -#}
        {%- do pdelta.staged_ranges(stage, staged) -%}
        {%- if (staged['declaration'] or {}).get('fingerprint') != declared['fingerprint'] -%}
          {%- do why_full.append('its columns changed (' ~ changed | join('; ') ~ ') while batch ' ~ staged['batch_id']
                                 ~ ', staged under other ones, was not committed') -%}
        {%- endif -%}
      {%- endif -%}
    {%- endif -%}
    {%- do why_full.extend(pdelta.inputs_rebuilt_since(view, inputs, consumed)) -%}
  {%- endif -%}
  {#- a history that cannot take the new declaration's column types stops the run before it writes -#}
  {%- if opts['history'] -%}
    {%- do pdelta.refuse_history_type_change(model.name, history, sql,
                                             blog['declaration'] if blog is not none else none, declared) -%}
  {%- endif -%}
  {{ run_hooks(pre_hooks) }}
  {%- set run_state = namespace(full=false, waiting=false, guard=none, guard_failed=false, summary=none,
                                committed=none, retry=false, complement_kept=[]) -%}
  {#- mirrors of one source cut by source time at different cuts (cut_sources.sql): a batch over them would show
      a state the source was never in. A refresh waits, writing nothing, for a run that refreshes them together
      (a staged batch from an earlier run is applied as it is); a full build stops -#}
  {%- set mixed = pdelta.mixed_cuts(inputs, view['order']) -%}
  {%- if mixed and why_full -%}
    {{ exceptions.raise_compiler_error('pdelta: ' ~ model.name ~ ': ' ~ mixed ~ ', so nothing was written.'
          ~ ' Refresh them in one run (their cut is taken once per run), then build it.') }}
  {%- elif mixed and not (staged is not none and staged['batch_id'] == blog['last'] + 1) -%}
    {{ log('pdelta: ' ~ model.name ~ ': waiting, nothing written: ' ~ mixed
           ~ ' (the next run that refreshes them together catches up)', info=true) }}
    {%- call statement('main') -%} select 'pdelta: waiting for its mirrors to be cut together' {%- endcall -%}
    {{ run_hooks(post_hooks) }}
    {{ return({'relations': [target]}) }}
  {%- endif -%}

  {%- if why_full -%}
    {#- a full build reads the states, not the feed rows: their bounds and positions only -#}
    {%- do pdelta.scan_inputs(inputs, check_rows=false) -%}
    {#- a full build reads the states as the refresh does (full_select_as_of_bounds): a user's state is
        compensated for the feed rows past what the view consumed (all of them at its first build) where it
        lags them: it holds the ones consumed before, as every refresh takes it to -#}
    {%- set full_sql = pdelta.full_select_as_of_bounds(view, inputs, sql, since=consumed) -%}
    {%- set batch_id = 0 if blog is none else blog['last'] + 1 -%}
    {%- set ranges = {} -%}
    {%- for alias in view['order'] -%}
      {%- do ranges.update({alias: {'changes': inputs[alias]['changes'], 'lo': none, 'hi': inputs[alias]['hi'],
                                    'position': pdelta.recorded_position(inputs[alias])}}) -%}
    {%- endfor -%}
    {%- set timing = {'started': run_started, 'costs': {} if blog is none else blog['costs'], 'rows': none}
                     if refresh_opts['learned'] else none -%}
    {%- do pdelta.build_in_full(target, full_sql, key, attrs_out, opts, batch_id, ranges, why_full,
          'empty' if blog is none else blog, timing, declared, versioned=versioned,
              reads=pdelta.input_relations(inputs)) -%}
    {%- set run_state.committed = batch_id -%}
  {%- else -%}
    {%- set batch_id = blog['last'] + 1 -%}
    {%- set retry = staged is not none and staged['batch_id'] == batch_id -%}
    {%- set run_state.retry = retry -%}
    {#- a retry applies its staged batch as it is: the run after it adapts (an adapted view diffs equal) -#}
    {%- set adapt = adaptation['adapt'] if not retry else none -%}
    {#- columns added, dropped or renamed (a retry's stage holds the view's columns already: see above) -#}
    {%- set columns = adaptation['columns'] if not retry else none -%}
    {%- set column_statements = [] -%}
    {%- if adapt or columns -%}
      {{ log('pdelta: ' ~ model.name ~ ': its declaration changed since it was built (' ~ changed | join('; ')
             ~ '): this batch adapts the view'
             ~ (', its columns added, dropped or renamed in place' if columns else '')
             ~ (', the rows where the old and new declaration disagree recomputed' if adapt else ''), info=true) }}
    {%- endif -%}
    {%- set ranges = {} -%}
    {%- set staged_declaration = none -%}
    {%- if retry -%}
      {%- do ranges.update(pdelta.staged_ranges(stage, staged)) -%}
      {#- the declaration an adapting batch was computed under: its commit records it -#}
      {%- set staged_declaration = staged['declaration'] -%}
      {{ log('pdelta: ' ~ model.name ~ ': batch ' ~ batch_id
             ~ ' was staged but not committed by an earlier run; applying it again', info=true) }}
    {%- else -%}
      {%- for alias in view['order'] -%}
        {#- a relation the batch joins in (adaptation) has no watermark (consume_joined_through_bound) -#}
        {%- if alias not in consumed and alias not in adaptation['joined'] -%}
          {{ exceptions.raise_compiler_error("pdelta: " ~ model.name ~ ": input `" ~ alias
                ~ "` has no watermark; run with --full-refresh after adding a relation") }}
        {%- endif -%}
        {%- do inputs[alias].update({'lo': consumed.get(alias), 'joined': alias in adaptation['joined']}) -%}
      {%- endfor -%}
      {#- cost-based choice (macros/engine/cost_model.sql): when the changes reach more of the view
          than `pdelta_rebuild_ratio` (or the learned model predicts a rebuild faster), rebuild
          instead of refreshing. It comes first, from counts the Delta log answers: a plain rebuild
          (`pdelta_rebuild_feed: reset`) reads the states and no feed row, so its scan of the
          users' feeds takes their bounds only, without the feed contract's checks of the rows -#}
      {%- set choice = pdelta.refresh_cost_choice(view, inputs, none, costs=blog['costs'], adapt=adapt,
                                                  column_changes=columns,
                                                  target=target, model_name=model.name)
                       if cost_model_on else {'mode': 'refresh'} -%}
      {%- if choice['mode'] == 'refresh' and choice.get('predicted_with_downstream') -%}
        {{ log('pdelta: ' ~ model.name ~ ': refreshing, not rebuilding: ' ~ pdelta.rebuild_reason(choice), info=true) }}
      {%- endif -%}
      {%- set plain_rebuild = choice['mode'] == 'rebuild' and choice['feed'] == 'reset' -%}
      {%- do pdelta.scan_inputs(inputs, check_rows=not plain_rebuild, hash_rows=not plain_rebuild) -%}
      {%- for alias in view['order'] -%}
        {%- set inp = inputs[alias] -%}
        {%- do pdelta.consume_joined_through_bound(inp) -%}
        {%- if inp['hi'] is none or (inp['lo'] is not none and inp['hi'] < inp['lo']) -%}
          {%- do inp.update({'hi': inp['lo']}) -%}
        {%- endif -%}
        {%- do ranges.update({alias: {'changes': inp['changes'], 'lo': inp['lo'], 'hi': inp['hi'],
                                      'position': pdelta.recorded_position(inp)}}) -%}
      {%- endfor -%}
      {#- the feed contract (macros/engine/feed_checks.sql): a bad row stops the run before anything
          is written, or is quarantined and left out of the batch -#}
      {%- set violations = [] if plain_rebuild
                           else pdelta.feed_contract_violations(inputs, positions, contract_opts) -%}
      {#- a feed its pdelta capture rebuilt after this view consumed it (feeds_rebuilt_by_capture): the
          view rebuilds in full, when nothing else stops the run -#}
      {%- set rebuilt_feeds = pdelta.feeds_rebuilt_by_capture(violations, consumed) -%}
      {%- set other_stops = pdelta.violations_by_action(violations)['stop']
                            | reject('in', rebuilt_feeds['violations']) | list -%}
      {%- if plain_rebuild -%}
        {#- a plain rebuild: the feed keeps its rows and views reading it rebuild too (the `full` batch);
            under changed columns it starts over, like any full build. A user's state is compensated
            past the watermark where it lags. -#}
        {%- set full_sql = pdelta.full_select_as_of_bounds(view, inputs, sql) -%}
        {%- set timing = {'started': run_started, 'costs': blog['costs'], 'rows': choice['view_rows']}
                         if refresh_opts['learned'] else none -%}
        {%- do pdelta.build_in_full(target, full_sql, key, attrs_out, opts, batch_id, ranges,
              [pdelta.rebuild_reason(choice) ~ '; readers of the change feed rebuild'], blog, timing, declared,
              keep_feed=columns is none, versioned=versioned,
              reads=pdelta.input_relations(inputs)) -%}
        {%- set run_state.full = true -%}
        {%- set run_state.committed = batch_id -%}
      {%- elif rebuilt_feeds['reasons'] and not other_stops -%}
        {%- set pending = [] -%}
        {#- the rebuilt feeds' rows are all new to the view: a user's state compensated over them where it lags -#}
        {%- set full_sql = pdelta.full_select_as_of_bounds(view, inputs, sql, since={}) -%}
        {%- set full_ranges = {} -%}
        {%- for alias in view['order'] -%}
          {%- do full_ranges.update({alias: {'changes': inputs[alias]['changes'], 'lo': none, 'hi': inputs[alias]['hi'],
                                             'position': pdelta.recorded_position(inputs[alias])}}) -%}
        {%- endfor -%}
        {%- set timing = {'started': run_started, 'costs': blog['costs'], 'rows': none}
                         if refresh_opts['learned'] else none -%}
        {%- do pdelta.build_in_full(target, full_sql, key, attrs_out, opts, batch_id, full_ranges,
              rebuilt_feeds['reasons'], blog, timing, declared, versioned=versioned,
              reads=pdelta.input_relations(inputs)) -%}
        {%- set run_state.full = true -%}
        {%- set run_state.committed = batch_id -%}
      {%- else -%}
        {%- set bad_aliases = pdelta.exclude_bad_rows(inputs, pdelta.enforce_feed_contract(model.name, violations),
                                                      contract_opts) -%}
        {#- a user's state ahead of its feed (pdelta_state_ahead): the run stops, or waits for the feed
            rows and writes nothing -#}
        {%- if refresh_opts['state_ahead'] != 'ignore' -%}
          {%- set ahead = pdelta.states_ahead_of_feeds(inputs, view['order'], positions) -%}
          {%- set ahead_phrases = pdelta.states_ahead_phrases(ahead, inputs) -%}
          {%- if ahead and refresh_opts['state_ahead'] == 'stop' -%}
            {{ exceptions.raise_compiler_error('pdelta: ' ~ model.name ~ ': ' ~ ahead_phrases | join('; ')
                  ~ ': a state ahead of its feed (its writer commits the state before the feed), so nothing was'
                  ~ ' written (pdelta_state_ahead: stop). Run again once the feed has those rows, or set'
                  ~ ' pdelta_state_ahead to wait.') }}
          {%- elif ahead -%}
            {{ log('pdelta: ' ~ model.name ~ ': waiting, nothing written: ' ~ ahead_phrases | join('; ')
                   ~ ' (pdelta_state_ahead: wait; the next run tries again)', info=true) }}
            {%- set run_state.waiting = true -%}
          {%- endif -%}
        {%- endif -%}
        {%- if columns and not run_state.waiting -%}
          {#- after the cost model's choice and the feed contract's checks (a stop writes nothing), before
              the batch, which reads and writes the view under its new columns; the log says so first,
              for a run after a stop in between -#}
          {%- do pdelta.mark_adapting(batches, batch_id, declared, view_tables.get('history_columns')) -%}
          {%- do column_statements.append('record_batch_state') -%}
          {%- set states = {} -%}
          {%- for alias in view['order'] -%}{%- do states.update({alias: inputs[alias]['state']}) -%}{%- endfor -%}
          {%- set kept_history = history if opts['history'] else none -%}
          {%- do column_statements.extend(pdelta.adapt_view_columns(target, feed, columns, states, kept_history)) -%}
          {#- added columns get their values before the batch, whose diff compares the rows it reaches -#}
          {%- do column_statements.extend(pdelta.fill_added_columns(target, view, states, columns['added'],
                                                                    kept_history)) -%}
        {%- endif -%}
        {%- set pending = pdelta.pending_inputs(view, inputs) if not run_state.waiting else [] -%}
        {%- if bad_aliases and not run_state.waiting -%}
          {%- set quarantined = pdelta.quarantine_bad_rows(pdelta.meta_relation(this, 'quarantine'), batch_id, inputs,
                                                           bad_aliases) -%}
          {{ log('pdelta: ' ~ model.name ~ ': quarantined ' ~ quarantined
                 ~ ' feed row(s) breaking the feed contract (pdelta_bad_rows: quarantine) into '
                 ~ pdelta.meta_relation(this, 'quarantine') ~ ' with batch ' ~ batch_id, info=true) }}
        {%- endif -%}
        {#- the rules plan has no term for a changed predicate: an adapting batch runs the diff plan -#}
        {%- set rules = choice['mode'] != 'rebuild' and refresh_opts['plan'] == 'rules'
                        and not adapt and not columns -%}
        {%- set staging = (pending or adapt) and not run_state.waiting -%}
        {#- a user's state read pinned alone unless it lags its feed for a key of the batch: the diff plan's
            stage checks that itself (lag_guard), the other plans in a statement first -#}
        {%- set guarded = staging and choice['mode'] != 'rebuild' and not rules -%}
        {%- set run_state.guard = pdelta.lag_guard(inputs, pending) if guarded else none -%}
        {%- set lagging = [] if guarded else pdelta.keep_compensation_where_lagging(inputs, pending) -%}
        {%- if lagging -%}
          {{ log('pdelta: ' ~ model.name ~ ': the state of ' ~ lagging | join(', ') ~ ' lags its feed; read with the'
                 ~ ' batch\'s keys from their feed rows', info=true) }}
        {%- endif -%}
        {%- if staging -%}
          {%- if choice['mode'] == 'rebuild' -%}
            {#- `pdelta_rebuild_feed: diff`: the batch is the difference between the full SELECT
                and the view, so the feed stays an exact, complete change feed -#}
            {%- set changes_sql = pdelta.rebuild_diff_sql(target, pdelta.pinned_full_select(view, inputs, sql),
                                                           key, attrs_out) -%}
          {%- elif not rules -%}
            {#- the diff plan: one statement, the rows the batch reaches recomputed and compared, and the lag
                check (lag_guard); staged again, the lagging states compensated, when the check finds any -#}
            {%- set stage_columns = key + attrs_out + ['_pdelta_before', '_pdelta_type'] -%}
            {%- for attempt in range(2) -%}
              {%- if attempt == 0 or run_state.guard_failed -%}
                {%- set guarded_plan = pdelta.lag_guarded_plan(pdelta.diff_plan(view, inputs, target, pending, adapt),
                                                               'v__changes', run_state.guard, stage_columns) -%}
                {%- do pdelta.create_stage(stage, pdelta.stage_properties(batch_id, ranges, declared if adapt or columns
                                                                                            else none),
                                           pdelta.plan_statement(guarded_plan['plan'], guarded_plan['final']),
                                           pdelta.input_relations(inputs) + [target]) -%}
                {%- set run_state.summary = pdelta.staged_summary(stage, key, check=false, name=model.name,
                      key_type=blog['key_type'] if opts['prune'] else none) -%}
                {%- set lagging = pdelta.lag_guard_failed(inputs, run_state.guard, run_state.summary) -%}
                {%- set run_state.guard_failed = lagging is not none -%}
                {%- if lagging is not none -%}
                  {%- set run_state.guard = none -%}
                  {{ log('pdelta: ' ~ model.name ~ ': the state of ' ~ lagging | join(', ') ~ ' lags its feed;'
                         ~ ' staging the batch again with their batch\'s keys read from their feed rows', info=true) }}
                {%- endif -%}
              {%- endif -%}
            {%- endfor -%}
          {%- else -%}
            {%- for alias in view['order'] -%}
              {%- do inputs[alias].update({'columns': pdelta.state_columns(inputs[alias]['state'])}) -%}
            {%- endfor -%}
            {%- set prefix = this.identifier ~ '__pdelta_t_' -%}
            {%- set plan = pdelta.refresh_plan(view, inputs, prefix, target) -%}
            {%- do pdelta.drop_plan(plan, target, check_first=true, cached=true) -%}
            {%- set changes_sql = pdelta.run_plan(plan, prefix ~ 'v__effective', pdelta.input_relations(inputs)) -%}
          {%- endif -%}
          {%- if rules or choice['mode'] == 'rebuild' -%}
            {%- set stage_declaration = declared if adapt or columns else none -%}
            {%- do pdelta.create_stage(stage, pdelta.stage_properties(batch_id, ranges, stage_declaration), changes_sql,
                                       pdelta.input_relations(inputs) + [target]) -%}
          {%- endif -%}
          {%- if rules -%}{%- do pdelta.drop_plan(plan, target) -%}{%- endif -%}
        {%- endif -%}
      {%- endif -%}
    {%- endif -%}
    {%- if run_state.full -%}
      {#- build_in_full ran the statements, the `main` one included -#}
    {%- elif run_state.waiting -%}
      {%- call statement('main') -%} select 'pdelta: waiting for feed rows' {%- endcall -%}
    {%- elif not retry and not pending and not adapt and columns -%}
      {#- columns added, dropped or renamed, nothing else: a batch without rows takes the new declaration -#}
      {%- call statement('main') -%} select 'pdelta: columns adapted' {%- endcall -%}
      {%- do pdelta.record_batch(batches, batch_id, ranges, {}, 'adapted',
            {'strategy': 'none', 'statements': column_statements, 'rows_written': {}}, false, blog, none,
            blog['key_type'], declared, table=versioned) -%}
      {%- set run_state.committed = batch_id -%}
      {{ log('pdelta: ' ~ model.name ~ ' batch ' ~ batch_id ~ ' (adapted to the new declaration): '
             ~ pdelta.adapted_columns_phrase(columns) ~ ' in place; no new changes in any input', info=true) }}
    {%- elif not retry and not pending and not adapt -%}
      {%- call statement('main') -%} select 'pdelta: no new changes' {%- endcall -%}
      {{ log('pdelta: ' ~ model.name ~ ': no new changes in any input', info=true) }}
    {%- else -%}
      {#- the counts per set, and the type of the view's first key column for the key-range variable -#}
      {#- one scan of the stage when the key's type is known from an earlier refresh; into the
          key-range variable only when the apply prunes by it (else one plain query) -#}
      {%- set summary = run_state.summary or pdelta.staged_summary(stage, key, check=false, name=model.name,
                                                                   key_type=blog['key_type'] if opts['prune']
                                                                            else none) -%}
      {%- if summary.get('lagging') -%}
        {#- never reached: a marked stage is staged again (above) or dropped before a retry (marked_stage_dropped) -#}
        {{ exceptions.raise_compiler_error('pdelta: ' ~ model.name ~ ': ' ~ stage ~ ' holds a batch computed from a'
              ~ ' state that lags its feed; nothing was applied: run again') }}
      {%- endif -%}
      {%- if summary['keys'] != summary['counts'].values() | sum -%}
        {#- two changes for one key: a state holds a key twice (the contract leaves nothing else).
            The stage goes, so that the run after the fix computes the batch afresh -#}
        {%- do pdelta.drop_stage(stage) -%}
        {{ exceptions.raise_compiler_error('pdelta: ' ~ model.name ~ ': the batch holds '
              ~ (summary['counts'].values() | sum) ~ ' changes for ' ~ summary['keys']
              ~ ' keys, so nothing was written: '
              ~ (pdelta.duplicate_key_report(view, inputs) | join('; ')
                 or 'no state holds a duplicate key now; run again')
              ~ '. Fix the state and run again; no --full-refresh is needed.') }}
      {%- endif -%}
      {%- set counts = summary['counts'] -%}
      {#- the rules plan derives `ins` from feed rows: no blind append (choose_apply_strategy) -#}
      {%- do opts.update({'append_ins': refresh_opts['plan'] != 'rules' or adapt or columns
                                        or (not retry and choice['mode'] == 'rebuild')}) -%}
      {#- complement mode, `pdelta_complement_upkeep: batch`: the complement kept from the batch (its rows staged,
          deleted and inserted) before the view's rows change (it reads them as they were); a retry, an adapting
          batch or a rebuild leaves it to complement_upkeep -#}
      {%- if complement and refresh_opts['complement_upkeep'] == 'batch' and not retry and not adapt and not columns
             and choice['mode'] != 'rebuild' -%}
        {%- set run_state.complement_kept = pdelta.complement_keep_from_batch(target, view, inputs, pending, batch_id,
                                                                              blog['last']) -%}
      {%- endif -%}
      {%- set applied = pdelta.apply_changes(target, stage, key, attrs_out, counts, opts, retry, model.name,
                                            summary['key_type'] or 'string', summary['range_var'],
                                            summary['keys_listed']) -%}
      {%- do applied.update({'statements': column_statements + summary['statements']
                                           + run_state.complement_kept
                                           + applied['statements']}) -%}
      {%- if opts['history'] -%}
        {%- if retry -%}
          {%- for st in pdelta.history_undo_statements(history, batch_id) -%}
            {%- call statement(st['name']) -%}{{ st['sql'] }}{%- endcall -%}
            {%- do applied['statements'].append(st['name']) -%}
          {%- endfor -%}
        {%- endif -%}
        {%- if counts -%}
          {%- call statement('history') -%}
            {{ pdelta.apply_history_scd2_sql(history, stage, key, attrs_out, opts['history']['tracked'], batch_id) }}
          {%- endcall -%}
          {%- do applied['statements'].append('history') -%}
        {%- endif -%}
      {%- endif -%}
      {#- rows of this batch id in the feed can only come from the attempt being retried -#}
      {%- if retry -%}
        {%- call statement('feed_retry_cleanup') -%}
          delete from {{ feed }} where `_pdelta_seq` = {{ batch_id | int }}
        {%- endcall -%}
        {%- do applied['statements'].append('feed_retry_cleanup') -%}
      {%- endif -%}
      {%- if counts -%}
        {%- call statement('append_feed') -%}
          insert into {{ feed }} ({{ feed_cols | join(', ') }})
          select {% for c in key + attrs_out %}{{ q(c) }}, {% endfor %}`_pdelta_before`, `_pdelta_type`,
                 cast({{ batch_id | int }} as bigint)
          from {{ stage }}
        {%- endcall -%}
        {%- do applied['statements'].append('append_feed') -%}
      {%- endif -%}
      {%- set rebuilt = not retry and choice['mode'] == 'rebuild' -%}
      {#- the learned cost model's timing of this run (a retry's time says nothing about either) -#}
      {%- set costs = none -%}
      {#- (an adapting batch's time has a filtered scan of a whole state in it, which a refresh reaching
          as many rows does not: it is no sample of either) -#}
      {%- if refresh_opts['learned'] and not retry and 'reached' in choice and not adapt and not columns -%}
        {%- set costs = pdelta.add_cost_sample(blog['costs'], 'rebuild' if rebuilt else 'refresh',
              [choice['view_rows'] if rebuilt else choice['reached'], pdelta.seconds_since(run_started)]) -%}
      {%- endif -%}
      {#- a view built before its declaration was kept: the one it runs now is taken as its own; an
          adapted one takes the new declaration in the commit of the batch that adapted it -#}
      {%- do pdelta.record_batch(batches, batch_id, ranges, counts,
            'rebuild' if rebuilt
            else ('adapted' if adapt or columns or (retry and staged_declaration) else 'incremental'),
            applied, retry, blog, costs, summary['key_type'],
            (staged_declaration if retry and staged_declaration else none)
            or (declared if blog['declaration'] is none or adapt or columns else none), table=versioned) -%}
      {%- set run_state.committed = batch_id -%}
      {%- set described = [] -%}
      {%- for t in pdelta.delta_model()['six_sets'] if counts.get(t) -%}
        {%- do described.append(t ~ ' ' ~ counts[t]) -%}
      {%- endfor -%}
      {%- set written = [] -%}
      {%- for k, v in applied['rows_written'].items() if k in ['inserted', 'updated', 'deleted', 'copied'] -%}
        {%- do written.append(k ~ ' ' ~ v) -%}
      {%- endfor -%}
      {{ log('pdelta: ' ~ model.name ~ ' batch ' ~ batch_id ~ (' (retry)' if retry else '')
             ~ (' (' ~ ('diff plan, adapted to the new declaration' ~ ('; ' ~ pdelta.adapted_columns_phrase(columns)
                                                                       if columns else '')
                        if adapt or columns else refresh_opts['plan'] ~ ' plan') ~ ')'
                if not retry and not rebuilt else '')
             ~ (' (rebuilt and diffed: ' ~ pdelta.rebuild_reason(choice) ~ ')' if rebuilt else '') ~ ': '
             ~ (described | join(', ') if described else 'no effective change')
             ~ ' -> ' ~ applied['strategy'] ~ (' [' ~ written | join(', ') ~ ']' if written else ''), info=true) }}
    {%- endif -%}
  {%- endif -%}

  {#- the complement after the batch (complement_upkeep: rebuilt from the states the batch was computed from) -#}
  {%- if complement and not run_state.waiting -%}
    {%- do pdelta.complement_upkeep(target, view, inputs, run_state.committed,
                                    run_state.committed if run_state.committed is not none else blog['last'],
                                    run_state.retry, run_state.complement_kept) -%}
  {%- elif not complement -%}
    {%- do pdelta.complement_drop(target) -%}
  {%- endif -%}

  {#- persist_docs, when the model asks for it: nothing is written while the docs are unchanged;
      their fingerprint is kept in the batch log, whose properties this run read at its start -#}
  {%- set built_in_full = why_full | length > 0 or run_state.full -%}
  {%- do pdelta.persist_view_docs(target, key + attrs_out,
        kept={'log': batches, 'docs': none if blog is none or built_in_full else blog['docs'],
              'since_full': batch_id if built_in_full else blog['last_full']}) -%}
  {%- do pdelta.apply_model_grants(target, existed, built_in_full) -%}
  {{ run_hooks(post_hooks) }}
  {{ return({'relations': [target]}) }}
{% endmaterialization %}
