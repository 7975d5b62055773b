{#- dimension_view: a dimension table maintained from partial change data.
    First run / --full-refresh: build the view in full from the states and record each input
    feed's current high watermark. Later runs: consume every input feed past its watermark,
    derive ΔV/∇V with the generalized delta rules (refresh_plan), convert to the six sets,
    apply them to the target, append them to the view's own change feed (so another
    dimension view can consume it) and record the new watermarks. -#}
{% materialization dimension_view, adapter='spark' %}
  {%- set view = pdelta.normalize_declaration(config.get('pdelta'), model.name) -%}
  {#- the full build runs the model's SQL and refreshes run the declaration: they must agree -#}
  {%- set declared_sql = pdelta.full_select_sql(view, pdelta.resolved_states(view)) -%}
  {%- if modules.re.sub('\\s+', '', sql) != modules.re.sub('\\s+', '', declared_sql) -%}
    {{ exceptions.raise_compiler_error("dimension_view '" ~ model.name ~ "': its body is not {{ pdelta.dimension_view(<declaration>) }}; refreshes compute the declaration, so the body must be what it renders (run `pdelta validate` for details)") }}
  {%- endif -%}
  {%- set target = this.incorporate(type='table') -%}
  {%- set feed = pdelta.meta_relation(this, 'changes') -%}
  {%- set batches = pdelta.meta_relation(this, 'batches') -%}
  {%- set stage = pdelta.meta_relation(this, 'stage') -%}
  {%- set q = adapter.quote -%}
  {%- set attrs_out = [] -%}
  {%- for o in view['output'] if o[0] not in view['key'] -%}{%- do attrs_out.append(o[0]) -%}{%- endfor -%}

  {#- Freeze each input's upper bound before reading anything: rows that land later belong
      to the next refresh. -#}
  {%- set inputs = pdelta.freeze_inputs(view) -%}

  {%- set full = should_full_refresh() or not pdelta.relation_exists(target)
                 or not pdelta.relation_exists(batches) or not pdelta.relation_exists(feed) -%}
  {{ run_hooks(pre_hooks) }}

  {%- if full -%}
    {%- call statement('main') -%}
      create or replace table {{ target }} using delta as {{ sql }}
    {%- endcall -%}
    {%- call statement('create_feed') -%}
      create or replace table {{ feed }} using delta as
      select *, {% if attrs_out %}struct({% for c in attrs_out %}{{ q(c) }}{% if not loop.last %}, {% endif %}{% endfor %}){% else %}cast(null as struct<`_`: int>){% endif %} as `_pdelta_before`,
             cast(null as string) as `_pdelta_type`, cast(null as bigint) as `_pdelta_seq`
      from {{ target }} where false
    {%- endcall -%}
    {%- do pdelta.create_batch_log(batches) -%}
    {%- call statement('record_batch') -%}
      insert into {{ batches }} values
      {% for alias in view['order'] -%}
        (0, {{ pdelta.sql_literal(alias) }}, {{ pdelta.sql_literal(inputs[alias]['changes'] | string) }}, null, {{ pdelta.sql_literal(inputs[alias]['hi']) }}, null, 'full', current_timestamp()){% if not loop.last %},{% endif %}
      {% endfor %}
    {%- endcall -%}
    {{ log('pdelta: ' ~ model.name ~ ' built in full', info=true) }}
  {%- else -%}
    {%- set consumed = pdelta.consumed_watermarks(batches) -%}
    {%- set batch_id = pdelta.last_batch_id(batches) + 1 -%}
    {%- set pending = [] -%}
    {%- for alias in view['order'] -%}
      {%- set inp = inputs[alias] -%}
      {%- do inp.update({'lo': consumed.get(alias)}) -%}
      {%- if inp['lo'] is none and alias not in consumed -%}
        {{ exceptions.raise_compiler_error("pdelta: " ~ model.name ~ ": input `" ~ alias ~ "` has no watermark; run with --full-refresh after adding a relation") }}
      {%- endif -%}
      {%- if inp['hi'] is none -%}{%- do inp.update({'hi': inp['lo']}) -%}{%- endif -%}
      {%- if inp['hi'] is not none and (inp['lo'] is none or inp['hi'] > inp['lo']) -%}{%- do pending.append(alias) -%}{%- endif -%}
      {%- do inp.update({'columns': pdelta.state_columns(inp['state'])}) -%}
    {%- endfor -%}
    {%- if not pending -%}
      {%- call statement('main') -%} select 'pdelta: no new changes' {%- endcall -%}
      {{ log('pdelta: ' ~ model.name ~ ': no new changes in any input', info=true) }}
    {%- else -%}
      {#- cost-based choice (macros/engine/cost_model.sql): a rebuild that stages the old/new difference -#}
      {%- set choice = pdelta.refresh_cost_choice(view, inputs, pending) -%}
      {%- if choice['mode'] == 'rebuild' -%}{%- set changes_sql = pdelta.rebuild_with_diff(target, sql, view['key'], attrs_out) -%}{%- else -%}
      {%- set prefix = this.identifier ~ '__pdelta_t_' -%}
      {%- set plan = pdelta.refresh_plan(view, inputs, prefix) -%}
      {%- do pdelta.drop_plan(plan, this.schema, check_first=true) -%}
      {%- set changes_sql = pdelta.run_plan(plan, prefix ~ 'v__changes', this.schema) -%}
      {%- endif -%}
      {%- call statement('stage') -%}
        create or replace table {{ stage }} using delta as {{ changes_sql }}
      {%- endcall -%}
      {%- if choice['mode'] != 'rebuild' -%}{%- do pdelta.drop_plan(plan, this.schema) -%}{%- endif -%}
      {%- set counts = pdelta.change_counts(stage) -%}
      {%- if choice['mode'] != 'rebuild' -%}
      {%- call statement('main') -%}
        {{ pdelta.apply_changes(target, stage, view['key'], attrs_out) }}
      {%- endcall -%}
      {%- endif -%}
      {#- rows of this batch id can only be left by an earlier attempt that stopped before
          recording the batch: remove them so the feed holds each change once -#}
      {%- if run_query('select count(*) from ' ~ feed ~ ' where `_pdelta_seq` = ' ~ (batch_id | int)).columns[0].values()[0] > 0 -%}
        {%- call statement('feed_retry_cleanup') -%}
          delete from {{ feed }} where `_pdelta_seq` = {{ batch_id | int }}
        {%- endcall -%}
      {%- endif -%}
      {%- call statement('append_feed') -%}
        insert into {{ feed }}
        select {% for c in view['key'] + attrs_out %}{{ q(c) }}, {% endfor %}`_pdelta_before`, `_pdelta_type`, cast({{ batch_id | int }} as bigint)
        from {{ stage }}
      {%- endcall -%}
      {%- call statement('record_batch') -%}
        insert into {{ batches }} values
        {% for alias in view['order'] -%}
          ({{ batch_id | int }}, {{ pdelta.sql_literal(alias) }}, {{ pdelta.sql_literal(inputs[alias]['changes'] | string) }}, {{ pdelta.sql_literal(inputs[alias]['lo']) }}, {{ pdelta.sql_literal(inputs[alias]['hi']) }}, {{ pdelta.sql_literal(tojson(counts)) }}, {{ pdelta.sql_literal('rebuild' if choice['mode'] == 'rebuild' else 'incremental') }}, current_timestamp()){% if not loop.last %},{% endif %}
        {% endfor %}
      {%- endcall -%}
      {%- set summary = [] -%}
      {%- for t in pdelta.delta_model()['six_sets'] if counts.get(t) -%}{%- do summary.append(t ~ ' ' ~ counts[t]) -%}{%- endfor -%}
      {{ log('pdelta: ' ~ model.name ~ ' batch ' ~ batch_id ~ (' (rebuilt: changes reach ~' ~ ((choice['fraction'] * 100) | round(1)) ~ '% > pdelta_rebuild_ratio)' if choice['mode'] == 'rebuild' else '') ~ ': ' ~ (summary | join(', ') if summary else 'no effective change'), info=true) }}
    {%- endif -%}
  {%- endif -%}

  {{ run_hooks(post_hooks) }}
  {{ return({'relations': [target]}) }}
{% endmaterialization %}
