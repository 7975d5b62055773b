{#- What the next refresh of a built dimension view will run, for `pdelta explain`: the
    declaration in normal form, each input's pending feed range, the cost model's choice
    (refresh or rebuild), how the declaration changed since the last full build (the run then
    adapts the view in its batch when predicates changed or output columns were dropped or
    renamed, else rebuilds; or stops on on_schema_change: fail), the plan (diff or rules) as its
    records (name, rule, terms read, SQL, how it is kept),
    the statement that reads the six-set result and the apply statement.
    Logged as one JSON line prefixed `pdelta-explain:`; nothing is written. Each step that queries
    the warehouse logs `pdelta-progress: <step>` as it starts, which `pdelta explain` prints with
    the seconds elapsed (a dry run on a slow cluster takes minutes).

    declaration_only: what the run does about the view's declaration alone (for `pdelta validate
    --live`): the same record without the inputs' ranges, the cost model or the plan; no feed is read.

      dbt run-operation pdelta.explain_refresh --args '{model_name: paper_d}' -#}
{% macro explain_refresh(model_name, declaration_only=false) %}
  {%- set nodes = [] -%}
  {%- for n in graph.nodes.values() if n.resource_type == 'model' and n.name == model_name
      -%}{%- do nodes.append(n) -%}{%- endfor -%}
  {%- if not nodes or nodes[0].config.materialized != 'dimension_view' -%}
    {{ exceptions.raise_compiler_error("pdelta explain: `" ~ model_name
        ~ "` is not a dimension_view model of this project") }}
  {%- endif -%}
  {%- set node = nodes[0] -%}
  {%- set view = pdelta.normalize_declaration(node.config.get('pdelta'), model_name) -%}
  {%- set this_rel = api.Relation.create(database=node.database, schema=node.schema,
                                         identifier=node.alias, type='table') -%}
  {%- set batches = pdelta.meta_relation(this_rel, 'batches') -%}
  {%- do pdelta.explain_progress('reading the batch log ' ~ batches) -%}
  {%- set built = pdelta.relation_exists(this_rel) and pdelta.relation_exists(batches) -%}
  {%- set blog = pdelta.batch_log_state(batches) if built else none -%}
  {%- set watermarks = pdelta.built_watermarks(blog) -%}
  {%- set consumed, positions = watermarks['consumed'], watermarks['positions'] -%}
  {%- set built_consumed = pdelta.without_replaced_feeds(blog, view, consumed, positions) -%}
  {#- a declaration that changed since the last full build: the run adapts the view or rebuilds it
      (declaration_adaptation), or stops on on_schema_change: fail -#}
  {%- set declared = pdelta.declaration_record(view) -%}
  {%- set changed = pdelta.declaration_differences(blog['declaration'] if built else none, declared) -%}
  {%- set refresh_opts = pdelta.rebuild_options(node.config) -%}
  {%- set attrs_out = [] -%}
  {%- for o in view['output'] if o[0] not in view['key'] -%}{%- do attrs_out.append(o[0]) -%}{%- endfor -%}
  {%- set opts = pdelta.apply_options(node.config, attrs_out) -%}
  {#- a run that stopped after changing the view's columns for another declaration: the next one
      rebuilds (or stops: on_schema_change fail), whatever changed -#}
  {%- set stopped_adapting = built and blog['adapting'] and blog['adapting'] != declared['fingerprint'] -%}
  {%- set history = pdelta.meta_relation(this_rel, 'history') -%}
  {%- set adaptation = pdelta.declaration_adaptation(blog['declaration'], declared,
                                                     pdelta.adaptation_table(opts, history, blog, declared),
                                                     pdelta.adaptation_states(blog['declaration'], view,
                                                                              built_consumed))
                       if changed and refresh_opts['on_schema_change'] != 'fail' and not stopped_adapting
                       else {'adapt': none, 'columns': none, 'joined': [],
                             'why': pdelta.stopped_adapting_phrase() if stopped_adapting else none} -%}
  {%- set adapt = adaptation['adapt'] -%}
  {%- set columns = adaptation['columns'] -%}
  {#- the run renames columns before its batch: until then the view holds them under their old names -#}
  {%- set held_as = {} -%}
  {%- if columns and (columns['renamed'] or columns['added']) -%}
    {%- set present = pdelta._column_names('select * from ' ~ this_rel ~ ' where false') -%}
    {%- for pair in columns['renamed'] if pair[1] | lower not in present -%}
      {%- do held_as.update({pair[1]: pair[0]}) -%}
    {%- endfor -%}
    {#- ... and adds and fills these before it: not held yet -#}
    {%- for col in columns['added'] if col[0] | lower not in present -%}
      {%- do held_as.update({col[0]: none}) -%}
    {%- endfor -%}
  {%- endif -%}
  {#- a view with SCD2 history whose new declaration gives a column another type: the run stops -#}
  {%- set history_stop = pdelta.history_type_stop(history, pdelta.full_select_sql(view, pdelta.resolved_states(view)),
                                                  blog['declaration'], declared)
                         if built and opts['history'] else none -%}
  {#- after a stopped adaptation the run rebuilds, or stops under on_schema_change: fail -#}
  {%- set stopped_fail = stopped_adapting and refresh_opts['on_schema_change'] == 'fail' -%}
  {%- set adapting_stops = [pdelta.stopped_adapting_phrase()
                            ~ ' and on_schema_change is fail: run it with --full-refresh'] if stopped_fail else [] -%}
  {%- set adapting_rebuilds = [pdelta.stopped_adapting_phrase()] if stopped_adapting and not stopped_fail else [] -%}
  {%- if declaration_only -%}
    {#- each declared containment of a replaced relation, for `pdelta validate --live` to verify -#}
    {%- for pred in (adapt or {}).values() -%}
      {%- for swap in pred['replaced'] if swap['containment'] -%}
        {%- do swap.update({'containment_check': pdelta.containment_check_sql(blog['declaration']['extent'],
                                                                              declared['extent'], swap['leaf'])}) -%}
      {%- endfor -%}
    {%- endfor -%}
    {{ log('pdelta-explain:' ~ tojson({
        'model': model_name, 'relation': this_rel | string, 'built': built, 'declaration_changed': changed,
        'adaptation': adapt, 'column_adaptation': columns, 'not_adapted_because': adaptation['why'],
        'on_schema_change': refresh_opts['on_schema_change'], 'history': opts['history'] is not none,
        'history_conflicts': history_stop,
        'stops': adapting_stops, 'rebuilt_inputs': adapting_rebuilds}),
        info=true) }}
    {{ return(none) }}
  {%- endif -%}
  {%- do pdelta.explain_progress("each input's pending range (a scan of its change feed)") -%}
  {%- set inputs = pdelta.freeze_inputs(view, consumed, positions,
                                        refresh_opts['history_rows'], pin=refresh_opts['pin_states']) -%}
  {%- set ranges = {} -%}
  {%- for alias, inp in inputs.items() -%}
    {%- do inp.update({'lo': consumed.get(alias), 'joined': alias in adaptation['joined']}) -%}
    {%- do pdelta.consume_joined_through_bound(inp) -%}
    {%- do ranges.update({alias: {'state': inp['state'] | string, 'changes': inp['changes'] | string,
                                  'lo': inp['lo'], 'hi': inp['hi'], 'read': inp.get('read'),
                                  'state_version': inp.get('version'),
                                  'user_state': inp.get('user_state') is not none, 'state_lags': false,
                                  'joined': inp['joined'], 'cut': inp.get('cut')}}) -%}
    {%- do inp.update({'hi': inp['hi'] if inp['hi'] is not none else inp['lo']}) -%}
  {%- endfor -%}
  {#- feed rows the refresh would stop on or quarantine, as the materialization finds them -#}
  {%- set stops = [] -%}{%- set quarantine = [] -%}{%- set rebuilt_inputs = [] -%}
  {%- if built -%}
    {%- set contract_opts = pdelta.contract_options(node.config) -%}
    {%- do pdelta.explain_progress('the pending feed rows against the feed contract') -%}
    {%- set violations = pdelta.feed_contract_violations(inputs, positions, contract_opts) -%}
    {%- set by = pdelta.violations_by_action(violations) -%}
    {#- feeds their captures rebuilt: the run rebuilds the view instead of stopping, when nothing else stops it -#}
    {%- set rebuilt_feeds = pdelta.feeds_rebuilt_by_capture(violations, consumed) -%}
    {%- set other_stops = by['stop'] | reject('in', rebuilt_feeds['violations']) | list -%}
    {%- if rebuilt_feeds['reasons'] and not other_stops -%}
      {%- do rebuilt_inputs.extend(rebuilt_feeds['reasons']) -%}
      {%- do by.update({'stop': []}) -%}
    {%- endif -%}
    {%- do stops.extend(adapting_stops) -%}
    {%- do rebuilt_inputs.extend(adapting_rebuilds) -%}
    {#- an input view rebuilt in full after what this view consumed: the run rebuilds (dimension_view) -#}
    {%- do rebuilt_inputs.extend(pdelta.inputs_rebuilt_since(view, inputs, consumed)) -%}
    {%- for v in by['stop'] -%}{%- do stops.append(pdelta.describe_violation(v)) -%}{%- endfor -%}
    {%- for v in by['quarantine'] -%}{%- do quarantine.append(pdelta.describe_violation(v)) -%}{%- endfor -%}
    {%- do pdelta.exclude_bad_rows(inputs, by['quarantine'], contract_opts) -%}
  {%- endif -%}
  {%- set q = adapter.quote -%}
  {#- the rules plan has no term for a changed predicate: an adapting batch runs the diff plan -#}
  {#- (after a stopped adaptation, or under a declaration changed and not adapted, the view's columns
      may not be the declaration's: the run rebuilds, or stops, so no plan is dry-run) -#}
  {%- set no_refresh = stopped_adapting or history_stop or (changed and not adapt and not columns) -%}
  {%- set plan_kind = 'diff' if adapt or columns or no_refresh else refresh_opts['plan'] -%}
  {%- set pending = pdelta.pending_inputs(view, inputs) -%}
  {#- a user's state ahead of its feed (pdelta_state_ahead): the run stops, or waits writing nothing -#}
  {%- set waits = [] -%}
  {#- mirrors of one source cut by source time at different cuts: the run waits (a full build stops) -#}
  {%- set mixed = pdelta.mixed_cuts(inputs, view['order']) -%}
  {%- if mixed -%}{%- do (waits if built else stops).append(mixed) -%}{%- endif -%}
  {%- if built and not no_refresh and refresh_opts['state_ahead'] != 'ignore' -%}
    {%- do pdelta.explain_progress("which users' states are ahead of their feeds") -%}
    {%- set ahead = pdelta.states_ahead_of_feeds(inputs, view['order'], positions) -%}
    {%- for phrase in pdelta.states_ahead_phrases(ahead, inputs) -%}
      {%- do (stops if refresh_opts['state_ahead'] == 'stop' else waits).append(
            phrase ~ ' (pdelta_state_ahead: ' ~ refresh_opts['state_ahead'] ~ ')') -%}
    {%- endfor -%}
  {%- endif -%}
  {#- users' states that lag their feeds on the batch's keys are read compensated, the others pinned alone.
      The run's diff plan checks that in its stage (lag_guard) and stages again with the lagging ones
      compensated; explain runs the check on its own to say which lag, and shows the plan the run ends with:
      the guarded one when none lags -#}
  {%- set guard = pdelta.lag_guard(inputs, pending) if plan_kind == 'diff' and built and not no_refresh else none -%}
  {%- if built and not no_refresh -%}
    {%- do pdelta.explain_progress("which users' states lag their feeds") -%}
    {%- do pdelta.lag_guard_restore(inputs, guard) -%}
    {%- set lagging = pdelta.keep_compensation_where_lagging(inputs, pending) -%}
    {%- for alias in lagging -%}
      {%- do ranges[alias].update({'state_lags': true}) -%}
    {%- endfor -%}
    {%- if lagging -%}{%- set guard = none -%}{%- endif -%}
  {%- endif -%}
  {%- if plan_kind == 'diff' -%}
    {%- set plan = pdelta.diff_plan(view, inputs, this_rel, pending, adapt, held_as)
                   if (pending or adapt) and not no_refresh else [] -%}
    {%- set guarded = pdelta.lag_guarded_plan(plan, 'v__changes', guard if plan else none,
                                              view['key'] + attrs_out + ['_pdelta_before', '_pdelta_type']) -%}
    {%- set plan = guarded['plan'] -%}
    {%- set changes_sql = pdelta.plan_statement(plan, guarded['final']) if plan else '' -%}
  {%- else -%}
    {%- for alias, inp in inputs.items()
        -%}{%- do inp.update({'columns': pdelta.state_columns(inp['state'])}) -%}{%- endfor -%}
    {%- set plan = pdelta.refresh_plan(view, inputs) -%}
    {%- set changes_sql = pdelta.plan_statement(plan, 'v__effective') -%}
  {%- endif -%}
  {%- set terms = [] -%}
  {%- for term in plan -%}
    {%- do terms.append({'name': term['name'], 'rule': term['rule'], 'reads': term['reads'], 'sql': term['sql'],
                         'kept_as': {'inline': 'inline CTE', 'shared': 'shared CTE'}.get(term['kept'],
                                                                                  'scratch table')}) -%}
  {%- endfor -%}
  {%- set out = {
      'model': model_name, 'relation': this_rel | string, 'built': built, 'plan': plan_kind,
      'order': view['order'], 'key': view['key'], 'inputs': ranges, 'terms': terms,
      'stops': stops, 'quarantine': quarantine,
      'rebuilt_inputs': rebuilt_inputs, 'waits': waits,
      'changes_sql': changes_sql, 'apply_sql': '', 'declaration_changed': changed,
      'adaptation': adapt, 'column_adaptation': columns, 'not_adapted_because': adaptation['why'],
      'on_schema_change': refresh_opts['on_schema_change'], 'history': opts['history'] is not none,
      'history_conflicts': history_stop, 'source_cuts': pdelta.explained_cuts(inputs)} -%}
  {%- do opts.update({'append_ins': plan_kind != 'rules'}) -%}
  {%- if built -%}
    {#- a dry run: only the six-set counts are read (the rules plan with its own scratch prefix) -#}
    {%- do pdelta.explain_progress('dry run of the ' ~ plan_kind ~ ' plan (its six-set counts)') -%}
    {%- if plan_kind == 'diff' -%}
      {%- set counts = pdelta.change_counts('(' ~ changes_sql ~ ')') if plan else {} -%}
    {%- else -%}
      {%- set dry_prefix = this_rel.identifier ~ '__pdelta_x_' -%}
      {%- set dry = pdelta.refresh_plan(view, inputs, dry_prefix, this_rel) -%}
      {%- do pdelta.drop_plan(dry, this_rel, check_first=true) -%}
      {%- set final_sql = pdelta.run_plan(dry, dry_prefix ~ 'v__effective') -%}
      {%- set counts = pdelta.change_counts('(' ~ final_sql ~ ')') -%}
      {%- do pdelta.drop_plan(dry, this_rel) -%}
    {%- endif -%}
    {%- set input_counts = {} -%}
    {%- do pdelta.explain_progress("counting each input's pending rows") -%}
    {%- for alias in view['order'] -%}
      {%- set inp = inputs[alias] -%}
      {%- set pending_rows = '(' ~ pdelta.feed_range_sql(inp['changes'], ['_pdelta_type'],
          inp['lo'], inp['hi'], inp.get('exclude')) ~ ')' -%}
      {%- do input_counts.update({alias: pdelta.change_counts(pending_rows) if inp['hi'] is not none else {}}) -%}
    {%- endfor -%}
    {%- do out.update({'pending_counts': counts, 'input_counts': input_counts}) -%}
    {#- what the cost model makes of the pending changes (macros/engine/cost_model.sql) -#}
    {%- do pdelta.explain_progress('the cost model (pdelta_rebuild_ratio)') -%}
    {%- set choice = pdelta.refresh_cost_choice(view, inputs, pending, node.config, blog['costs'], adapt, columns,
                                                this_rel, held_as, model_name) -%}
    {%- if choice['mode'] == 'rebuild' and choice['feed'] == 'reset' -%}
      {#- a plain rebuild reads no feed row: the run checks none (dimension_view) -#}
      {%- do out.update({'stops': [], 'quarantine': []}) -%}
    {%- endif -%}
    {%- do out.update({'cost_choice': {'mode': choice['mode'], 'feed': choice['feed'],
                                       'fraction': choice.get('fraction'),
                                       'ratio': choice.get('ratio'), 'reason': choice.get('reason'),
                                       'predicted': choice.get('predicted'), 'samples': blog['costs'],
                                       'reached': choice.get('reached'), 'view_rows': choice.get('view_rows'),
                                       'rewrites_view': choice.get('rewrites_view', false),
                                       'downstream': choice.get('downstream') or [],
                                       'predicted_with_downstream': choice.get('predicted_with_downstream')}}) -%}
  {%- endif -%}
  {#- the apply statements for the pending batch (a merge when nothing is pending to count) -#}
  {%- set strategy = pdelta.choose_apply_strategy(out.get('pending_counts', {'upd': 1}), opts) -%}
  {%- set stmts = [] -%}
  {%- set stage_rel = pdelta.meta_relation(this_rel, 'stage') -%}
  {%- set key_type = blog['key_type'] if built else none -%}
  {%- set range_var = none -%}
  {%- set lists_keys = false -%}
  {%- if key_type and opts['prune'] -%}
    {#- the summary's scan that also sets the key range (staged_summary) -#}
    {%- set summary = pdelta.batch_summary_statements(stage_rel, view['key'], model_name, key_type) -%}
    {%- for st in summary['statements'] -%}{%- do stmts.append(st['sql']) -%}{%- endfor -%}
    {%- set range_var = summary['var'] -%}
    {%- set lists_keys = summary['lists_keys'] -%}
  {%- endif -%}
  {%- for st in pdelta.apply_statements(strategy, this_rel, stage_rel, view['key'],
        attrs_out, opts, model_name, 'string', range_var) -%}
    {%- do stmts.append((st.get('sql') or
        ('-- then, for each bucket this returns: alter table ... drop partition\n' ~ st['query'])) | trim) -%}
  {%- endfor -%}
  {%- if lists_keys and strategy in ['delete_insert', 'delete_by_key'] -%}
    {%- set listed = pdelta.apply_delete_listed_keys_sql(this_rel, view['key'], range_var) | trim -%}
    {%- do stmts.append('-- a batch of at most ' ~ pdelta.key_list_limit()
                        ~ ' rows (the summary\'s key_list) deletes them with '
                        ~ 'this instead of the merge:\n' ~ listed) -%}
  {%- endif -%}
  {%- do out.update({'apply_strategy': strategy, 'apply_sql': stmts | join(';\n')}) -%}
  {{ log('pdelta-explain:' ~ tojson(out), info=true) }}
{% endmacro %}

{#- a step of explain_refresh starting; `pdelta explain` prints it with the seconds elapsed -#}
{% macro explain_progress(step) %}
  {%- do log('pdelta-progress:' ~ step, info=true) -%}
{% endmacro %}
