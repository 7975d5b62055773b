{#- The lag check carried by the diff plan's stage instead of a statement of its own (issue #17: a
    statement of its own cost 1.6–2.4 s of a 9–14 s refresh in `make bench`, much of it Delta choosing
    the files of the feeds and states the stage reads again).

    A user's state may lag its feed (pin_user_state): the refresh must then read it compensated for
    the batch's keys (compensated_state_sql), which costs a second read of the state wherever the plan
    reads it. So the stage is computed first with every such state read pinned alone, and the same
    statement runs the lag check (lag_check_terms) and adds one marker row per lagging state
    (`_pdelta_type` = lag_marker_type()). The stage's summary, read anyway before the batch is applied,
    counts the marker rows; a stage that has any is computed again (lag_guard_failed) with the lagging
    states compensated, the others still pinned alone: the check's answer depends only on the pinned
    versions and the feed rows in the ranges, which a second attempt reads unchanged. A marked stage is
    never applied: the run that wrote it stages the batch again before anything else, and a run that
    finds one left by a stopped run drops it and computes its batch afresh (marked_stage_dropped).

    lag_guard(inputs, aliases): the inputs among `aliases` that the check covers have their `compensate`
    set aside (`lag_guarded`), so that the plan built next reads them pinned alone. Returns
    {terms: lag_check_terms', aliases: the guarded inputs}; no terms when no state needs the check. -#}
{% macro lag_guard(inputs, aliases) %}
  {%- set terms = pdelta.lag_check_terms(inputs, aliases) -%}
  {%- set guarded = [] -%}
  {%- set checked = terms | map(attribute='name') | list -%}
  {%- for alias in aliases if terms and inputs[alias].get('compensate') -%}
    {#- the diff plan reads the batch's feed keys from the check's feed rows (`feed_rows_term`): one read -#}
    {%- do inputs[alias].update({'lag_guarded': inputs[alias]['compensate'], 'compensate': none,
                                 'feed_rows_term': alias ~ '__lag_feed' if alias ~ '__lag_feed' in checked
                                                   else none}) -%}
    {%- do guarded.append(alias) -%}
  {%- endfor -%}
  {{ return({'terms': terms, 'aliases': guarded}) }}
{% endmacro %}

{#- The `_pdelta_type` of the stage's marker rows: a state lags its feed (lag_guard). Never one of the
    six sets, so a marked stage cannot pass for a batch -#}
{% macro lag_marker_type() %}{{ return('lagging') }}{% endmacro %}

{#- The plan with lag_guard's check appended, and the name of its final term: `v__staged`, the rows of
    `final` (the stage's rows: columns `columns`, `_pdelta_type` last) and one marker row per lagging
    state, or `plan` and `final` as they are when the guard has no terms -#}
{% macro lag_guarded_plan(plan, final, guard, columns) %}
  {%- if guard is none or not guard['terms'] -%}{{ return({'plan': plan, 'final': final}) }}{%- endif -%}
  {#- The check reads each state at its feed keys itself, not the plan's `<alias>__reached` rows: with both
      union branches of v__staged reading one shared CTE, Spark 4.2 fails to plan the statement
      (CANNOT_MERGE_INCOMPATIBLE_DATA_TYPE from DeduplicateRelations, the bench smoke's tpch_d over mirrors) -#}
  {%- set check = guard['terms'] -%}
  {%- set marker = [] -%}
  {%- for c in columns if c != '_pdelta_type' -%}{%- do marker.append('null as ' ~ adapter.quote(c)) -%}{%- endfor -%}
  {%- do marker.append(pdelta.sql_literal(pdelta.lag_marker_type()) ~ ' as `_pdelta_type`') -%}
  {%- set staged = 'select * from ' ~ final ~ '\nunion all\nselect ' ~ marker | join(', ')
                   ~ ' from v__lagging where n > 0' -%}
  {%- set term = pdelta.plan_term('v__staged', 'SWEEP (DESIGN §4): the batch, and a marker row per user\'s state'
                                  ~ ' that lags its feed (lag_guard: the stage is then computed again)',
                                  [final, 'v__lagging'], staged) -%}
  {#- the check's feed rows first (the plan's key terms read them: lag_guard's `feed_rows_term`) -#}
  {{ return({'plan': check[:-1] + plan + check[-1:] + [term], 'final': 'v__staged'}) }}
{% endmacro %}

{#- After a guarded stage whose summary counted marker rows (`summary`: staged_summary's): the guarded
    inputs get their `compensate` back and the lag check runs on its own (keep_compensation_where_lagging),
    so that the lagging states are read compensated and the others pinned alone. Returns the lagging
    aliases; none when the summary has no marker row (nothing to do). -#}
{% macro lag_guard_failed(inputs, guard, summary) %}
  {%- if guard is none or not guard['aliases'] or not summary.get('lagging') -%}{{ return(none) }}{%- endif -%}
  {%- do pdelta.lag_guard_restore(inputs, guard) -%}
  {{ return(pdelta.keep_compensation_where_lagging(inputs, guard['aliases'])) }}
{% endmacro %}

{#- the guarded inputs' `compensate` back, as lag_guard found it (`guard` none: nothing) -#}
{% macro lag_guard_restore(inputs, guard) %}
  {%- for alias in (guard or {}).get('aliases', []) -%}
    {%- do inputs[alias].update({'compensate': inputs[alias]['lag_guarded'], 'feed_rows_term': none}) -%}
  {%- endfor -%}
{% endmacro %}

{#- A stage left by a stopped run holds marker rows (lag_guard): its batch was computed from a state that
    lags its feed and must not be applied. Dropped, so that the run computes its batch afresh, like a run
    stopped before its stage was written. One count of the stage, only where a staged batch would be
    retried. Returns whether it dropped the stage. -#}
{% macro marked_stage_dropped(stage) %}
  {%- set marked = run_query('select count(*) from ' ~ stage ~ ' where `_pdelta_type` = '
                             ~ pdelta.sql_literal(pdelta.lag_marker_type())).rows[0][0] | int -%}
  {%- if marked == 0 -%}{{ return(false) }}{%- endif -%}
  {%- do pdelta.drop_stage(stage, 'drop_marked_stage') -%}
  {{ return(true) }}
{% endmacro %}
