{#- The cost model's settings (macros/engine/cost_model.sql), each from the model's config or
    else the project var of the same name:
      pdelta_rebuild_ratio  the share of the view a batch may reach before the refresh rebuilds
                            instead; 'learned': rebuild when the view's own timed refreshes and
                            rebuilds predict that a rebuild is faster; unset or false: never rebuild
      pdelta_rebuild_feed   reset (default) or diff: what a rebuild does to the view's feed
      pdelta_plan           how an incremental refresh computes its batch: diff (default; one
                            statement, complete changes: macros/engine/diff_plan.sql) or rules
                            (the paper's generalized delta rules term by term, which publish
                            partial changes: macros/engine/refresh_plan.sql)
      on_schema_change      dbt's setting (the model's config only): when the view's declaration
                            changed since its last full build, `fail` stops the run; the other
                            values (ignore, append_new_columns, sync_all_columns) rebuild the view
      pdelta_feed_history_rows  the consumed rows from which a user's Delta feed is read through
                            its Delta history (100,000; macros/engine/feed_history.sql)
      pdelta_pin_states     true (default): a state pdelta writes (another view, a mirror) is read
                            as of the batch the refresh's bound names, a user's Delta state at its
                            version before the bound, compensated for the batch's keys (freeze_inputs);
                            false: as it is when the refresh reads it (a commit during the refresh is read)
      pdelta_state_ahead    what a refresh does about a user's Delta state that is ahead of its feed
                            (a key the state changed since the last batch, with no feed row to
                            explain it: macros/engine/states_ahead_of_feeds.sql): ignore (default: not
                            checked, no statement), stop (the run fails, nothing written) or wait (the
                            run writes nothing and succeeds; the next run tries again)
      pdelta_delta_reader   kernel (default): the statements of a refresh that only read read Delta
                            tables through Delta's Kernel reader (macros/engine/delta_reader.sql);
                            classic: every statement through Delta's classic reader
      pdelta_complement     true: the view keeps its complement beside it (a Delta view only;
                            docs/complement-mode.md, macros/engine/complement.sql); false (default)
      pdelta_complement_upkeep  how a refresh keeps the complement: rebuild (default: from the states, after
                            the batch) or batch (from the rows its batch touches, staged, deleted and inserted
                            before the view's rows change; macros/engine/complement_batch.sql)
    rebuild_options returns {ratio: float or none, learned: bool, feed, plan, on_schema_change,
    history_rows: int, pin_states: bool, state_ahead, delta_reader, complement: bool, complement_upkeep} and refuses
    a bad value with the
    message of rebuild_option_errors, which `pdelta validate` reports too
    (python/pdelta/options.py; tests/test_options.py keeps the two in step). -#}
{% macro rebuild_options(cfg) %}
  {%- set eff = {'pdelta_rebuild_ratio': cfg.get('pdelta_rebuild_ratio', var('pdelta_rebuild_ratio', none)),
                 'pdelta_rebuild_feed': cfg.get('pdelta_rebuild_feed', var('pdelta_rebuild_feed', 'reset')),
                 'pdelta_plan': cfg.get('pdelta_plan', var('pdelta_plan', 'diff')),
                 'on_schema_change': cfg.get('on_schema_change') or 'ignore',
                 'pdelta_feed_history_rows': cfg.get('pdelta_feed_history_rows',
                                                     var('pdelta_feed_history_rows', 100000)),
                 'pdelta_pin_states': cfg.get('pdelta_pin_states', var('pdelta_pin_states', true)),
                 'pdelta_state_ahead': cfg.get('pdelta_state_ahead', var('pdelta_state_ahead', 'ignore')),
                 'pdelta_delta_reader': cfg.get('pdelta_delta_reader', var('pdelta_delta_reader', 'kernel')),
                 'pdelta_complement': cfg.get('pdelta_complement', false),
                 'pdelta_complement_upkeep': cfg.get('pdelta_complement_upkeep',
                                                     var('pdelta_complement_upkeep', 'rebuild')),
                 'file_format': cfg.get('file_format') or 'delta'} -%}
  {%- set errors = pdelta.rebuild_option_errors(eff) -%}
  {%- if errors -%}{{ exceptions.raise_compiler_error(errors | join('; ')) }}{%- endif -%}
  {%- set r = eff['pdelta_rebuild_ratio'] -%}
  {%- set learned = r == 'learned' -%}
  {{ return({'ratio': none if r is none or r is false or r == 'false' or learned else r | float, 'learned': learned,
             'feed': eff['pdelta_rebuild_feed'], 'plan': eff['pdelta_plan'],
             'on_schema_change': eff['on_schema_change'], 'history_rows': eff['pdelta_feed_history_rows'] | int,
             'pin_states': eff['pdelta_pin_states'] in [true, 'true'], 'state_ahead': eff['pdelta_state_ahead'],
             'delta_reader': eff['pdelta_delta_reader'], 'complement': eff['pdelta_complement'] is sameas true,
             'complement_upkeep': eff['pdelta_complement_upkeep']}) }}
{% endmacro %}

{#- messages for bad values of the two settings (`cfg` holds them), empty when they are fine -#}
{% macro rebuild_option_errors(cfg) %}
  {%- set out = [] -%}
  {%- set r = cfg.get('pdelta_rebuild_ratio') -%}
  {%- set off = r is none or r is false or r == 'false' -%}
  {%- set number = (r is number and r is not boolean and r >= 0)
                   or (r is string and modules.re.match('^[0-9]+(\\.[0-9]+)?$', r)) -%}
  {%- if not off and not number and r != 'learned' -%}
    {%- do out.append("pdelta_rebuild_ratio: expected a number of at least 0 (the share of the view a batch may reach"
                      ~ " before the refresh rebuilds instead), 'learned' (rebuild when the view's own timed refreshes"
                      ~ " and rebuilds predict a rebuild is faster) or false, got " ~ r) -%}
  {%- endif -%}
  {%- set feed = cfg.get('pdelta_rebuild_feed', 'reset') -%}
  {%- if feed not in ['reset', 'diff'] -%}
    {%- do out.append("pdelta_rebuild_feed: expected 'reset' (a plain rebuild, readers of the view's feed rebuild too)"
                      ~ " or 'diff' (the feed gets the rebuild's exact difference), got '" ~ feed ~ "'") -%}
  {%- endif -%}
  {%- set plan = cfg.get('pdelta_plan', 'diff') -%}
  {%- if plan not in ['diff', 'rules'] -%}
    {%- do out.append("pdelta_plan: expected 'diff' (recompute the rows the batch reaches and compare them"
                      ~ " with the view; complete changes) or 'rules' (the paper's delta rules term by term;"
                      ~ " partial changes), got '" ~ plan ~ "'") -%}
  {%- endif -%}
  {%- set change = cfg.get('on_schema_change') or 'ignore' -%}
  {%- if change not in ['ignore', 'fail', 'append_new_columns', 'sync_all_columns'] -%}
    {%- do
        out.append("on_schema_change: expected 'ignore', 'append_new_columns' or 'sync_all_columns' (a dimension view"
                      ~ " whose declaration changed is rebuilt) or 'fail' (the run stops), got '" ~ change ~ "'") -%}
  {%- endif -%}
  {%- set rows = cfg.get('pdelta_feed_history_rows', 100000) -%}
  {%- if not ((rows is number and rows is not boolean and rows >= 0 and rows == rows | int)
              or (rows is string and modules.re.match('^[0-9]+$', rows))) -%}
    {%- do out.append('pdelta_feed_history_rows: expected a whole number of at least 0 (the consumed rows from which a'
                      ~ " user's Delta feed is read through its Delta history), got " ~ rows) -%}
  {%- endif -%}
  {%- set pin = cfg.get('pdelta_pin_states', true) -%}
  {%- if pin not in [true, false, 'true', 'false'] -%}
    {%- do out.append("pdelta_pin_states: expected true (a state pdelta writes is read as of the batch the refresh's"
                      ~ " bound names) or false (as it is when read), got " ~ pin) -%}
  {%- endif -%}
  {%- set ahead = cfg.get('pdelta_state_ahead', 'ignore') -%}
  {%- if ahead not in ['ignore', 'stop', 'wait'] -%}
    {%- do out.append("pdelta_state_ahead: expected 'ignore' (a user's state ahead of its feed is not checked), 'stop'"
                      ~ " (the run fails, writing nothing) or 'wait' (the run writes nothing; the next one tries"
                      ~ " again), got " ~ ahead) -%}
  {%- endif -%}
  {%- set reader = cfg.get('pdelta_delta_reader', 'kernel') -%}
  {%- if reader not in ['kernel', 'classic'] -%}
    {%- do out.append("pdelta_delta_reader: expected 'kernel' (a refresh's reading statements read Delta tables"
                      ~ " through Delta's Kernel reader) or 'classic' (through Delta's classic reader), got "
                      ~ reader) -%}
  {%- endif -%}
  {%- set complement = cfg.get('pdelta_complement', false) -%}
  {%- set file_format = (cfg.get('file_format') or 'delta') | lower -%}
  {%- if complement is not sameas true and complement is not sameas false -%}
    {%- do out.append("pdelta_complement: expected true (the view keeps its complement beside it,"
                      ~ " docs/complement-mode.md) or false, got " ~ complement) -%}
  {%- elif complement and file_format != 'delta' -%}
    {%- do out.append("pdelta_complement: true needs a Delta view (its complement is kept in a Delta table), got"
                      ~ " file_format " ~ file_format) -%}
  {%- endif -%}
  {%- set upkeep = cfg.get('pdelta_complement_upkeep', 'rebuild') -%}
  {%- if upkeep not in ['rebuild', 'batch'] -%}
    {%- do out.append("pdelta_complement_upkeep: expected 'rebuild' (after each batch the complement is rebuilt from"
                      ~ " the states) or 'batch' (a refresh keeps it from the rows its batch touches), got "
                      ~ upkeep) -%}
  {%- endif -%}
  {{ return(out) }}
{% endmacro %}
