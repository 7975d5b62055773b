{#- The batch log <x>__pdelta_batches is the commit point and the run log of a maintained
    relation: one row per input per refresh (the feed range consumed, the six-set counts, the
    apply strategy and statements, the rows Delta wrote). A refresh's row is written last; a
    full build first writes a `full-started` row, so a build that stopped half way is redone. -#}
{#- the batch log's columns and types, in order: its one definition (the rows batch_log_rows_sql
    writes, by the CREATE TABLE ... AS that starts a log and by every insert) -#}
{% macro batch_log_columns() %}
  {{ return([('batch_id', 'bigint'), ('input', 'string'), ('changes', 'string'), ('lo', 'bigint'),
             ('hi', 'bigint'), ('counts', 'string'), ('mode', 'string'), ('recorded_at', 'timestamp'),
             ('strategy', 'string'), ('statements', 'string'), ('rows_written', 'string'), ('retried', 'boolean'),
             ('feed_position', 'string')]) }}
{% endmacro %}

{#- A SELECT of batch-log rows, each a mapping from column name to value (a missing column is
    NULL, `recorded_at` is the current time), every column cast to its type: what an insert into
    the log or the CREATE TABLE ... AS that starts one writes. Values are SQL literals. -#}
{% macro batch_log_rows_sql(rows) %}
  {%- set selects = [] -%}
  {%- for row in rows -%}
    {%- set cols = [] -%}
    {%- for name, type in pdelta.batch_log_columns() -%}
      {%- set value = row.get(name) -%}
      {%- set value = 'current_timestamp()' if name == 'recorded_at' else (value | string | lower)
            if value is sameas true or value is sameas false else pdelta.sql_literal(value) -%}
      {%- do cols.append('cast(' ~ value ~ ' as ' ~ type ~ ') as ' ~ adapter.quote(name)) -%}
    {%- endfor -%}
    {%- do selects.append('select ' ~ cols | join(', ')) -%}
  {%- endfor -%}
  {{ return(selects | join('\nunion all ')) }}
{% endmacro %}

{#- Writes batch-log rows (batch_log_rows_sql, none: no insert) and table properties (a mapping
    of name to SQL literal, none: no change): into an existing log one insert, then one property
    change; with `create`, the log does not exist yet and one CREATE TABLE ... AS writes it, its
    rows and its properties in a single Delta commit (two statements fewer on every first build). -#}
{% macro write_batch_log(batches, rows, properties={}, create=false) %}
  {%- set props = [] -%}
  {%- for name, literal in properties.items() -%}
    {%- do props.append(pdelta.sql_literal(name) ~ ' = ' ~ literal) -%}
  {%- endfor -%}
  {%- set columns = [] -%}
  {%- for name, type in pdelta.batch_log_columns() -%}{%- do columns.append(adapter.quote(name)) -%}{%- endfor -%}
  {%- if create -%}
    {%- for name, value in pdelta.own_table_properties().items() if name not in properties -%}
      {%- do props.append(pdelta.sql_literal(name) ~ ' = ' ~ pdelta.sql_literal(value)) -%}
    {%- endfor -%}
    {%- call statement('create_batches') -%}
      create table {{ batches }} using delta
      {%- if props %} tblproperties ({{ props | join(', ') }}){% endif %} as
      {{ pdelta.batch_log_rows_sql(rows) }}
    {%- endcall -%}
    {%- do adapter.cache_added(batches.incorporate(type='table')) -%}
  {%- else -%}
    {%- if rows -%}
      {%- call statement('record_batch') -%}
        insert into {{ batches }} ({{ columns | join(', ') }})
        {{ pdelta.batch_log_rows_sql(rows) }}
      {%- endcall -%}
    {%- endif -%}
    {%- if props -%}
      {%- call statement('record_batch_state') -%}
        alter table {{ batches }} set tblproperties ({{ props | join(', ') }})
      {%- endcall -%}
    {%- endif -%}
  {%- endif -%}
{% endmacro %}

{#- What the batch log says: {last: last committed batch id (-1: none),
    consumed: {input: highest hi consumed since the last full build}, full_pending: a full build started after the last
    commit, last_full: batch id of the last full build, last_counts: {input: counts of its
    last committed row}, positions: {input: the feed's position ({rows, sum} at or below the
    consumed sequence) its newest row since the last full build recorded, when it has one},
    feeds: {input: the feed its newest row consumed}, published: the newest batch that published
    a row or was a full build (none: none yet), so a view reading this one's feed knows whether
    the batches past its watermark hold any row}.

    Each commit keeps this state in the log's table property `pdelta.state` (record_batch), so a
    refresh reads one property (no Spark job) instead of scanning the log, a Delta table whose
    every new version costs snapshot jobs to read (~1 s here). The rows stay the definition
    (_scanned_log_state): the property is used only when it is at least as new as the staged
    batch beside the log, so a run stopped between a commit's row and its property, or a log
    written before the property existed, is read from the rows; the declaration such a commit of
    an adapting batch recorded is then the one its stage kept (stage_properties). -#}
{% macro batch_log_state(batches, staged='read') %}
  {%- set props = pdelta._log_properties(batches) -%}
  {#- a state kept before it had `published` is read from the rows (and kept again by the next commit) -#}
  {%- set kept = props['state'] if props['state'] is not none and 'published' in props['state'] else none -%}
  {%- set state = none -%}
  {%- if kept is not none -%}
    {#- `staged`: staged_batch of the stage beside the log, when the caller has read it already -#}
    {%- set staged = pdelta.staged_batch(pdelta._log_stage(batches)) if staged == 'read' else staged -%}
    {%- if staged is none or staged['batch_id'] <= kept['last'] -%}{%- set state = kept -%}{%- endif -%}
  {%- endif -%}
  {%- set scanned = state is none -%}
  {%- set state = pdelta._scanned_log_state(batches) if state is none else state -%}
  {#- the timed refreshes and rebuilds of the learned cost model, and the type of the view's first
      key column: hints kept beside the state, not part of it (the rows do not define them; losing
      one only restarts the learning, or costs one more scan of the next batch, staged_summary).
      The key's type holds until the next full build, and only a plain type is taken (it is
      written into a variable's declaration) -#}
  {%- set key_hint = props['key'] or {} -%}
  {%- set key_type = key_hint.get('type') if key_hint.get('since_full') == state['last_full'] else none -%}
  {%- set plain = key_type is string and modules.re.fullmatch('[a-z_]+(\\(\\d+(,\\s*\\d+)?\\))?', key_type) -%}
  {#- the declaration the view was last built with (declaration_record), when it is this build's -#}
  {%- set built_with = props['declaration'] or {} -%}
  {%- set declaration = built_with
        if built_with.get('since_full') == state['last_full'] and built_with.get('fingerprint') else none -%}
  {#- a commit stopped between its rows and its properties (the state read from the rows above): the
      declaration an adapting batch committed is the one its stage kept, not the property's older one -#}
  {%- if scanned and staged is mapping and staged['batch_id'] <= state['last'] -%}
    {%- if 'declaration' not in staged
        -%}{%- do pdelta.staged_ranges(pdelta._log_stage(batches), staged) -%}{%- endif -%}
    {%- if staged['declaration'] -%}{%- set declaration = staged['declaration'] -%}{%- endif -%}
  {%- endif -%}
  {#- a run that changed the view's columns for a declaration (mark_adapting) and stopped before its
      batch committed: the fingerprint of that declaration, and its output columns -#}
  {%- set adapting = props['adapting'] or {} -%}
  {%- set stopped = adapting.get('batch') == state['last'] + 1 -%}
  {%- do state.update({'adapting': adapting.get('fingerprint') if stopped else none,
                       'adapting_output': adapting.get('output') if stopped else none,
                       'adapting_history_columns': adapting.get('history_columns') if stopped else none}) -%}
  {#- the Delta version of the log's table after its last committed batch (record_batch `table`): none
      when the log's last batch kept none (a commit stopped before its properties, a parquet view) -#}
  {%- set version_hint = props['version'] or {} -%}
  {%- set table_version = version_hint.get('table_version') if version_hint.get('batch') == state['last'] else none -%}
  {#- the docs persist_view_docs last wrote on the view, with the full build they hold for -#}
  {%- do state.update({'costs': props['costs'], 'key_type': key_type if plain else none,
                       'declaration': declaration, 'docs': props['docs'], 'table_version': table_version}) -%}
  {{ return(state) }}
{% endmacro %}

{#- Marks the log, before a refresh changes its view's columns in place (adapt_view_columns), with the
    declaration it adapts to and the batch that will commit it: until that batch commits, a run
    under another declaration must rebuild the view (its columns are no longer the recorded ones).
    Kept with it: the declaration's output columns (a rebuild renames the history's columns from
    them: history_renames) and the SCD2 history's columns before any change (adaptation_table). -#}
{% macro mark_adapting(batches, batch_id, declaration, history_columns=none) %}
  {%- do pdelta.write_batch_log(batches, [], {'pdelta.adapting': pdelta.sql_literal(tojson(
        {'v': 1, 'fingerprint': declaration['fingerprint'], 'batch': batch_id | int,
         'output': declaration['extent']['output'], 'history_columns': history_columns}))}) -%}
{% endmacro %}

{#- the state record_batch kept in the log's table property, or none (one metadata read); one kept
    before the state had `published` is none too: the log's rows give it -#}
{% macro _kept_log_state(batches) %}
  {%- set kept = pdelta._log_properties(batches)['state'] -%}
  {{ return(kept if kept is not none and 'published' in kept else none) }}
{% endmacro %}

{#- the log's table properties `pdelta.state` (or none), `pdelta.costs` (or {}), `pdelta.key`,
    `pdelta.declaration`, `pdelta.docs`, `pdelta.adapting` and `pdelta.version` (or none), in one read -#}
{% macro _log_properties(batches) %}
  {%- set out = {'state': none, 'costs': {}, 'key': none, 'declaration': none, 'docs': none, 'adapting': none,
                 'version': none} -%}
  {%- set kept_names = ['pdelta.state', 'pdelta.costs', 'pdelta.key', 'pdelta.declaration', 'pdelta.docs',
                        'pdelta.adapting', 'pdelta.version'] -%}
  {%- for row in run_query('show tblproperties ' ~ batches).rows if row[0] in kept_names -%}
    {%- set value = fromjson(row[1]) -%}
    {%- if value is mapping and value.get('v') == 1 -%}{%- do out.update({row[0][7:]: value}) -%}{%- endif -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#- the stage beside a log: <x>__pdelta_batches -> <x>__pdelta_stage -#}
{% macro _log_stage(batches) %}
  {%- set suffix = '__pdelta_batches' -%}
  {{ return(batches.incorporate(path={'identifier': batches.identifier[:-(suffix | length)] ~ '__pdelta_stage'})) }}
{% endmacro %}

{#- The log's state from its rows, in one query (what the table property must equal) -#}
{% macro _scanned_log_state(batches) %}
  {%- set scanned = pdelta._fold_log_rows(run_query(pdelta._log_rows_sql(batches)).rows) -%}
  {%- if scanned['rows'] and not scanned['has_position'] -%}
    {%- call statement('upgrade_batch_log') -%}
      alter table {{ batches }} add columns (`feed_position` string)
    {%- endcall -%}
  {%- endif -%}
  {{ return(scanned['state']) }}
{% endmacro %}

{#- The log's rows grouped per input and mode, the columns _fold_log_rows reads (a union of these
    over several logs, each labelled, reads them all in one query: batch_log_state_drift_sql).
    consumed: the highest bound since the last full build only; a full build records each feed's
    position anew (a feed that restarted its sequences with it is read again) -#}
{% macro _log_rows_sql(batches) %}
  {%- set sql -%}
    select `input`, `mode`, max(`batch_id`), max(case when `batch_id` >= `last_full` then `hi` end),
           max_by(`counts`, `batch_id`),
           max_by(case when `batch_id` >= `last_full` then get_json_object(`row`, '$.feed_position') end, `batch_id`),
           max(`row` like '%"feed_position":%'), max_by(`changes`, `batch_id`),
           max(case when `mode` = 'full' or coalesce(`counts`, 'null') not in ('{}', 'null') then `batch_id` end)
    {#- `feed_position` through the row's JSON: a log written before the column existed reads as
        none (and is upgraded by _scanned_log_state) instead of failing the query; the last full
        build through a window, not a join (half the Spark jobs) -#}
    from (select *, to_json(struct(*), map('ignoreNullFields', 'false')) as `row`,
                 coalesce(max(case when `mode` = 'full' then `batch_id` end) over (), -1) as `last_full`
          from {{ batches }}) as b
    group by `input`, `mode`
  {%- endset -%}
  {{ return(sql) }}
{% endmacro %}

{#- The state a log's grouped rows (_log_rows_sql) give: {state, rows: the log has rows,
    has_position: it has the `feed_position` column} -#}
{% macro _fold_log_rows(rows) %}
  {%- set st = pdelta.empty_log_state() -%}
  {%- set started = [] -%}
  {%- set newest = {} -%}
  {%- set ns = namespace(rows=false, has_position=false) -%}
  {%- for row in rows -%}
    {%- set ns.rows = true -%}{%- if row[6] -%}{%- set ns.has_position = true -%}{%- endif -%}
    {%- set b = row[2] | int -%}
    {%- if row[1] == 'full-started' -%}{%- do started.append(b) -%}
    {%- else -%}
      {%- if b > st['last'] -%}{%- do st.update({'last': b}) -%}{%- endif -%}
      {%- if row[1] == 'full' and (st['last_full'] is none or b > st['last_full'])
          -%}{%- do st.update({'last_full': b}) -%}{%- endif -%}
      {%- if row[0] not in newest or b > newest[row[0]] -%}
        {%- do newest.update({row[0]: b}) -%}
        {%- do st['last_counts'].update({row[0]: fromjson(row[4]) if row[4] else {}}) -%}
        {%- do st['feeds'].update({row[0]: row[7]}) -%}
        {%- if row[5]
            -%}{%- do st['positions'].update({row[0]: fromjson(row[5])})
            -%}{%- else -%}{%- do st['positions'].pop(row[0], none) -%}{%- endif -%}
      {%- endif -%}
      {%- if row[8] is not none and (st['published'] is none or row[8] | int > st['published']) -%}
        {%- do st.update({'published': row[8] | int}) -%}
      {%- endif -%}
      {%- set prev = st['consumed'].get(row[0]) -%}
      {%- if row[0] not in st['consumed'] or (row[3] is not none and (prev is none or row[3] | int > prev)) -%}
        {%- do st['consumed'].update({row[0]: none if row[3] is none else row[3] | int}) -%}
      {%- endif -%}
    {%- endif -%}
  {%- endfor -%}
  {%- do st.update({'full_pending': (started | select('gt', st['last']) | list | length) > 0}) -%}
  {{ return({'state': st, 'rows': ns.rows, 'has_position': ns.has_position}) }}
{% endmacro %}

{#- The state after one more commit of the log (what _scanned_log_state would read after it):
    `prior` the state before it -#}
{% macro next_log_state(prior, batch_id, ranges, counts, mode) %}
  {%- set st = {'v': 1, 'last': prior['last'], 'consumed': {}, 'full_pending': prior['full_pending'],
                'last_full': prior['last_full'],
                'last_counts': {}, 'positions': {}, 'feeds': {}, 'published': prior.get('published')} -%}
  {%- for k in ['consumed', 'last_counts', 'positions', 'feeds'] -%}{%- do st[k].update(prior[k]) -%}{%- endfor -%}
  {%- if mode == 'full-started' -%}
    {%- do st.update({'full_pending': st['full_pending'] or batch_id > st['last']}) -%}
    {{ return(st) }}
  {%- endif -%}
  {%- if mode == 'full' and (st['last_full'] is none or batch_id >= st['last_full']) -%}
    {#- consumed and positions count from the last full build on -#}
    {%- do st.update({'last_full': batch_id}) -%}
    {%- for alias in st['consumed'].keys() | list -%}{%- do st['consumed'].update({alias: none}) -%}{%- endfor -%}
    {%- do st['positions'].clear() -%}
  {%- endif -%}
  {%- do st.update({'last': [st['last'], batch_id] | max, 'full_pending': false}) -%}
  {%- if mode == 'full' or counts -%}
    {%- do st.update({'published': batch_id if st['published'] is none else [st['published'], batch_id] | max}) -%}
  {%- endif -%}
  {%- for alias, r in ranges.items() -%}
    {%- set prev = st['consumed'].get(alias) -%}
    {%- if alias not in st['consumed'] or (r['hi'] is not none and (prev is none or r['hi'] | int > prev)) -%}
      {%- do st['consumed'].update({alias: none if r['hi'] is none else r['hi'] | int}) -%}
    {%- endif -%}
    {%- do st['last_counts'].update({alias: counts}) -%}
    {%- do st['feeds'].update({alias: r['changes'] | string}) -%}
    {%- if r.get('position')
        -%}{%- do st['positions'].update({alias: r['position']})
        -%}{%- else -%}{%- do st['positions'].pop(alias, none) -%}{%- endif -%}
  {%- endfor -%}
  {{ return(st) }}
{% endmacro %}

{#- the state of a log without rows -#}
{% macro empty_log_state() %}
  {{ return({'v': 1, 'last': -1, 'consumed': {}, 'full_pending': false, 'last_full': none,
             'last_counts': {}, 'positions': {},
             'feeds': {}, 'published': none}) }}
{% endmacro %}

{#- One batch-log insert for every input of a refresh: the commit point. Then the state the log
    now says is kept in its table property, where the next run reads it without a scan
    (batch_log_state). `prior`: the log's state before this commit, as the caller read it
    (batch_log_state, or what an earlier record_batch of this run returned; 'empty' for a log
    that does not exist yet: this record creates it, rows and properties in one statement);
    without it, or when it is older than the batch before this one, the new state is read from
    the rows. `costs`: when given, the learned cost model's timings (add_cost_sample), kept in
    property `pdelta.costs` by the same statement; `key_type`: the type of the view's first key
    column, kept in `pdelta.key` with the full build it holds for; `declaration`: the view's
    declaration_record, kept in `pdelta.declaration` the same way; `table`: the Delta table this batch
    wrote (the view or mirror), whose version now is kept in `pdelta.version` with the batch id, so that
    a view reading it as its state reads it as of the batch its bound names (state_read). Returns the
    new state. -#}
{% macro record_batch(batches, batch_id, ranges, counts, mode, applied={}, retried=false, prior=none, costs=none,
                      key_type=none, declaration=none, table=none) %}
  {%- set create = prior == 'empty' -%}
  {%- set rows = [] -%}
  {%- for alias, r in ranges.items() -%}
    {%- do rows.append({'batch_id': batch_id | int, 'input': alias, 'changes': r['changes'] | string,
          'lo': r['lo'], 'hi': r['hi'], 'counts': tojson(counts), 'mode': mode, 'strategy': applied.get('strategy'),
          'statements': tojson(applied.get('statements', [])), 'rows_written': tojson(applied.get('rows_written', {})),
          'retried': retried, 'feed_position': tojson(r['position']) if r.get('position') else none}) -%}
  {%- endfor -%}
  {%- set prior = pdelta.empty_log_state() if create else prior -%}
  {#- without a current prior state the new one is read from the rows, so they go first (a log
      this record creates has no earlier rows, whatever its first batch id: a capture's is 1) -#}
  {%- set rows_first = prior is none or (not create and prior['last'] < (batch_id | int) - 1) -%}
  {%- if rows_first -%}
    {%- do pdelta.write_batch_log(batches, rows, create=create) -%}
    {%- set state = pdelta._scanned_log_state(batches) -%}
  {%- else -%}
    {%- set state = pdelta.next_log_state(prior, batch_id | int, ranges, counts, mode) -%}
  {%- endif -%}
  {%- set props = {'pdelta.state': pdelta.sql_literal(tojson(state))} -%}
  {%- if costs is not none -%}{%- do props.update({'pdelta.costs': pdelta.sql_literal(tojson(costs))}) -%}{%- endif -%}
  {%- if key_type -%}
    {%- set kept_key = {'v': 1, 'type': key_type, 'since_full': state['last_full']} -%}
    {%- do props.update({'pdelta.key': pdelta.sql_literal(tojson(kept_key))}) -%}
  {%- endif -%}
  {%- if table is not none -%}
    {%- set kept_version = {'v': 1, 'batch': batch_id | int, 'table_version': pdelta.table_version(table)} -%}
    {%- do props.update({'pdelta.version': pdelta.sql_literal(tojson(kept_version))}) -%}
  {%- endif -%}
  {%- if declaration -%}
    {%- set kept_declaration = {'v': 1, 'fingerprint': declaration['fingerprint'], 'extent': declaration['extent'],
                                'since_full': state['last_full']} -%}
    {%- do props.update({'pdelta.declaration': pdelta.sql_literal(tojson(kept_declaration))}) -%}
  {%- endif -%}
  {%- do pdelta.write_batch_log(batches, [] if rows_first else rows, props, create=create and not rows_first) -%}
  {{ return(state) }}
{% endmacro %}

{#- A full build's `full-started` row, written before the build touches anything: until its
    `full` row follows, reruns build in full again. A log that does not exist yet (prior 'empty')
    gets none: until the `full` row creates it, every run builds in full anyway (two statements
    less per first build). Returns the state the `full` row's record_batch takes as its prior. -#}
{% macro mark_full_build_started(batches, batch_id, prior) %}
  {%- if prior == 'empty' -%}{{ return('empty') }}{%- endif -%}
  {{ return(pdelta.record_batch(batches, batch_id, {'*': {'changes': '', 'lo': none, 'hi': none}}, {}, 'full-started',
                                prior=prior)) }}
{% endmacro %}

{#- Staged changes carry the batch they belong to and the ranges they were computed from as
    table properties. A staged batch that the batch log has not committed is the sign of an
    attempt that stopped after staging: the retry applies that same stage again (the feeds
    may have grown since; recomputing from a wider range could miss what the first attempt
    already wrote). Returns {batch_id, ranges, declaration} or none; `ranges` is none when the
    batch id came from dbt's relation cache (staged_ranges reads them: only a retry needs them);
    `declaration` is the declaration_record a batch that adapts its view was computed under
    (stage_properties), which its retry records, none for any other batch. -#}
{% macro staged_batch(stage) %}
  {%- set cached = adapter.get_relation(database=stage.database, schema=stage.schema, identifier=stage.identifier) -%}
  {%- if cached is none -%}{{ return(none) }}{%- endif -%}
  {%- set listed = pdelta._listed_stage_mark(cached) -%}
  {%- if listed is not none -%}{{ return(listed['staged']) }}{%- endif -%}
  {%- set props = pdelta.table_properties(stage) -%}
  {%- if 'pdelta.batch' not in props or 'pdelta.ranges' not in props -%}{{ return(none) }}{%- endif -%}
  {{ return({'batch_id': props['pdelta.batch'] | int, 'ranges': fromjson(props['pdelta.ranges']),
             'declaration': fromjson(props['pdelta.declaration']) if 'pdelta.declaration' in props else none}) }}
{% endmacro %}

{#- The ranges of a staged batch (staged_batch), read from the stage when the batch id came from
    the relation cache -#}
{% macro staged_ranges(stage, staged) %}
  {%- if staged['ranges'] is not none -%}{{ return(staged['ranges']) }}{%- endif -%}
  {%- set props = pdelta.table_properties(stage) -%}
  {#- read with the ranges: the staged batch's declaration (staged_batch) -#}
  {%- do staged.update({'declaration': fromjson(props['pdelta.declaration'])
                                       if 'pdelta.declaration' in props else none}) -%}
  {%- if props.get('pdelta.batch') | string != staged['batch_id'] | string or 'pdelta.ranges' not in props -%}
    {{ exceptions.raise_compiler_error('pdelta: ' ~ stage ~ ' no longer holds batch ' ~ staged['batch_id']
          ~ ' (another run changed it during this one?); nothing was written: run again') }}
  {%- endif -%}
  {#- kept: a second call (the materialization's check of a stage under other columns, then its
      retry) reads nothing -#}
  {%- do staged.update({'ranges': fromjson(props['pdelta.ranges'])}) -%}
  {{ return(staged['ranges']) }}
{% endmacro %}

{#- a table's properties, name -> value (one metadata read) -#}
{% macro table_properties(relation) %}
  {%- set props = {} -%}
  {%- for row in run_query('show tblproperties ' ~ relation).rows
      -%}{%- do props.update({row[0]: row[1]}) -%}{%- endfor -%}
  {{ return(props) }}
{% endmacro %}

{#- The stage's mark from dbt's relation cache: dbt-spark lists each schema once per run with
    `show table extended` (or `describe table extended`), whose text holds the table's properties,
    so a refresh learns its stage's batch id without a statement of its own. The cache is current
    for the stage: pdelta writes it only through create_stage, which replaces its cache entry with
    one holding the properties it wrote, in the same form (a model downstream in the same run
    reads them there too). Returns {'staged': staged_batch's value} when the text answers, none
    when it is not there (a relation another macro added during the run, an adapter that lists
    differently) or not to be trusted: a Delta table's listed properties are the metastore's
    copy, which Delta does not keep in step with its log (unless create_stage wrote the entry). -#}
{% macro _listed_stage_mark(cached) %}
  {%- set information = cached.information if cached.information is defined else none -%}
  {%- set written_here = information is string and information.startswith(pdelta._stage_cache_note()) -%}
  {%- if information is not string or 'Provider:' not in information
        or ('Provider: delta' in information and not written_here) -%}
    {{ return(none) }}
  {%- endif -%}
  {%- set listed = modules.re.search('(?m)^Table Properties: \\[(.*)\\]\\s*$', information) -%}
  {%- set props_text = listed.group(1) if listed else '' -%}
  {#- Spark lists the properties sorted by name: pdelta.batch comes before pdelta.ranges, whose JSON
      text can hold anything -#}
  {%- set batch = modules.re.match('(?:.*?, )?pdelta\\.batch=(\\d+)(?:, |$)', props_text) -%}
  {%- if not batch or 'pdelta.ranges=' not in props_text -%}{{ return({'staged': none}) }}{%- endif -%}
  {{ return({'staged': {'batch_id': batch.group(1) | int, 'ranges': none}}) }}
{% endmacro %}

{#- declaration: the declaration_record of a batch that adapts its view (declaration_adaptation), so
    that a retry records the declaration its batch was computed under, whatever the model says by
    then (a declaration changed back after a stop must not leave the adapted rows unnoticed) -#}
{% macro stage_properties(batch_id, ranges, declaration=none) %}
  {%- set plain = {} -%}
  {#- position: what a retry records in the batch log for the next refresh's rewritten-feed check -#}
  {%- for alias, r in ranges.items()
      -%}{%- do plain.update({alias: {'changes': r['changes'] | string, 'lo': r['lo'], 'hi': r['hi'],
                                      'position': r.get('position')}}) -%}{%- endfor -%}
  {%- set props = {'pdelta.batch': (batch_id | int) | string, 'pdelta.ranges': tojson(plain)} -%}
  {%- if declaration -%}
    {%- do props.update({'pdelta.declaration': tojson(declaration)}) -%}
  {%- endif -%}
  {{ return(props) }}
{% endmacro %}

{#- the first line of the listing text create_stage keeps in dbt's cache for a stage it wrote -#}
{% macro _stage_cache_note() %}{{ return('Written by pdelta.create_stage in this run') }}{% endmacro %}

{#- The batch log's watermarks and feed positions (batch_log_state's `consumed`, `positions`) of
    the relations in the declaration the view was last built or adapted with: a relation joined
    in since has consumed nothing of its feed (one removed earlier and joined in again starts
    over). Returns {consumed, positions}; both empty without a log (blog none). -#}
{% macro built_watermarks(blog) %}
  {%- set out = {'consumed': {}, 'positions': {}} -%}
  {%- if blog is none -%}{{ return(out) }}{%- endif -%}
  {%- set relations = (blog['declaration'] or {'extent': {'relations': blog['consumed']}})['extent']['relations'] -%}
  {%- for part in ['consumed', 'positions'] -%}
    {%- for alias, value in blog[part].items() if alias in relations -%}
      {%- do out[part].update({alias: value}) -%}
    {%- endfor -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}
