{#- Cost-based choice between an incremental refresh and a rebuild of a dimension view.

    The refresh's data-dependent work grows with the view rows the pending changes reach; a
    rebuild costs one pass over the states whatever changed. A change of relation R reaches on
    average |root| / |R| view rows (a key of R is referenced that often down the join path), so
    the pending changes reach about

        f = sum over inputs R of  pending(R) / |R|      (as a fraction of the view)

    view rows. The refresh also pays its fixed cost (about forty statements, each scanning the
    states it joins) and a MERGE that rewrites every file holding a touched row; a rebuild
    writes the whole view once. With the threshold r = config `pdelta_rebuild_ratio` (or the
    project var of that name), the predicted costs in units of one rebuild are

        refresh ≈ f / r        rebuild ≈ 1

    and the view is rebuilt when refresh > rebuild, i.e. f > r. r is a measured constant: the
    change fraction at which a refresh and a rebuild took the same time in `make bench`
    (docs/bench/). Unset (the default) or false: never rebuild — the incremental path only.

    r = 'learned': the view's own history sets the break-even (learned_cost_prediction): each
    refresh and each rebuild of the view is timed and kept in its batch log's table property
    `pdelta.costs`, so the fixed cost of a refresh on this machine and target (statements,
    commits, snapshot jobs) is measured rather than assumed; the view is rebuilt when the
    predicted rebuild is faster than the predicted refresh. Until both have been timed at
    least once (the first build times a rebuild), it refreshes.

    A batch that adapts the view to columns added rewrites every row first (fill_added_columns:
    about a rebuild's cost), so the whole view counts as reached on top of the batch's changes:
    with r < 1 such a run rebuilds, and the learned model compares the same. Only under `reset`
    (below): a plain rebuild builds the new columns with the rest and fills nothing, while a
    rebuild under `diff` fills them first like the adaptation, so the fill costs both the same.

    The views that read the view's change feed pay for its choice too: after a plain rebuild
    (`reset`, below) each of them rebuilds, after a refresh or an adaptation each refreshes from
    the published rows. When the learned model would rebuild, it adds its readers' own learned
    predictions to both sides (downstream_view_costs) and rebuilds only if the sum still says so:
    an adaptation that rewrites the view (columns added) but changes few rows spares every reader
    a rebuild.

    The inputs are cheap to get: a run chooses before it reads any feed row, from one statement
    that counts each state and each user's feed (Delta answers count(*) of a table from its log)
    less the rows the batch log recorded at or below the watermark (estimated_pending_sql), and
    the pending range of any other feed (another view's, a capture's). A refresh then scans the
    feeds with the contract's checks, a rebuild only for their bounds (no (key, sequence)
    grouping of its many pending rows: 4.6 -> 1.3 s at 750,000 of them, docs/bench/). `pdelta
    explain`, which scans first, passes the pending rows that scan counted. A state is counted as
    pinned (_pinned_state), never compensated: an estimate needs no join with its feed's rows.

    What a rebuild does with the view's change feed, config `pdelta_rebuild_feed` (or the var):
      reset (default): a plain rebuild (build_in_full, keep_feed): a `full` batch; views that
                       read the feed see it and rebuild too, as after --full-refresh. Costs
                       about one rebuild: the feeds are scanned for their bounds only (no
                       contract check; the rebuild reads no feed row).
      diff:            the batch is the difference between the full SELECT and the view
                       (rebuild_diff_sql), staged, applied and appended to the feed like any
                       batch, so views downstream keep refreshing from an exact feed. Costs one
                       evaluation of the SELECT, a join with the view, and applying the
                       difference: several rebuilds (docs/bench/README.md). -#}
{% macro refresh_cost_choice(view, inputs, pending, model_config=none, costs=none, adapt=none, column_changes=none,
                             target=none, held_as=none, model_name=none) %}
  {#- the materialization reads its model's `config`; `pdelta explain` passes the node's.
      costs: the view's timed refreshes and rebuilds (batch_log_state's `costs`), for 'learned'.
      pending: the aliases with rows in (lo, hi], or none before the users' feeds were scanned
      (the run chooses first, so that a rebuild reads no feed row): each input's pending rows
      are then estimated (estimated_pending_sql) and those without any left out.
      adapt: the predicates a batch adapts (declaration_adaptation): the rows of a relation's
      state where its old and new predicates disagree count as pending rows of it (one count of
      the state with that filter in the same statement).
      column_changes: the view's column changes (adapt_view_columns' plan) or none. With columns
      added, the batch rewrites every row of the view first (fill_added_columns): the whole view
      counts as reached, on top of what the batch reaches, since the fill costs about a rebuild
      (it reads and writes every row); under pdelta_rebuild_feed reset only, whose plain rebuild
      fills nothing.
      target, held_as: the view and its columns (diff_plan's held_as), for the key queries of the
      leaves an adapting batch replaces (replacement_key_queries): the rows they find count as
      pending rows of their relation (one count each, in the same statement).
      model_name: the view's model, whose readers' timings the learned model adds when it would
      rebuild under `reset` (downstream_view_costs); none: the view alone is priced -#}
  {%- set opts = pdelta.rebuild_options(config if model_config is none else model_config) -%}
  {%- set r, feed = opts['ratio'], opts['feed'] -%}
  {%- set off = r is none and not opts['learned'] -%}
  {#- a rebuild under `diff` fills the added columns too (its batch is the difference from the view) -#}
  {%- set rewrites_view = column_changes is not none and column_changes['added'] | length > 0 and feed == 'reset' -%}
  {%- set adapt = adapt or {} -%}
  {%- if off or (pending is not none and not pending and not adapt and not rewrites_view) -%}
    {{ return({'mode': 'refresh', 'feed': feed, 'reason': 'cost model off' if off else 'nothing pending'}) }}
  {%- endif -%}
  {%- set root = view['root'] -%}
  {%- set parts = [] -%}
  {%- set scanned = {} -%}
  {%- set replacement = pdelta.replacement_key_queries(view, inputs, target, adapt, held_as)
                        if target is not none else {} -%}
  {%- set candidates = view['order'] if pending is none
                       else pending + ((adapt.keys() | list) + (replacement.keys() | list)) | unique
                                      | reject('in', pending) | list -%}
  {%- for alias in candidates -%}
    {%- set inp = inputs[alias] -%}
    {%- set scanned_rows = pdelta.scanned_pending_rows(inp) -%}
    {%- if pending is not none and alias not in pending -%}
      {#- a relation only an adaptation reaches -#}
      {%- set pending_sql = '0' -%}
    {%- elif scanned_rows is none and pending is none -%}
      {%- set pending_sql = pdelta.estimated_pending_sql(inp) -%}
    {%- elif scanned_rows is none -%}
      {%- set pending_rows = pdelta.feed_range_sql(inp['changes'], ['_pdelta_seq'], inp['lo'], inp['hi'],
                                                   inp.get('exclude')) -%}
      {%- set pending_sql = '(select count(*) from (' ~ pending_rows ~ '))' -%}
    {%- else -%}
      {%- do scanned.update({alias: scanned_rows}) -%}
      {%- set pending_sql = 'cast(null as bigint)' -%}
    {%- endif -%}
    {%- set adapted_rows = ['(select count(*) from ' ~ pdelta._pinned_state(inp) ~ ' as x where '
                            ~ adapt[alias]['disagree'] ~ ')']
                           if alias in adapt and adapt[alias]['disagree'] else [] -%}
    {%- for sql in replacement.get(alias, []) -%}
      {%- do adapted_rows.append('(select count(*) from (' ~ sql ~ '))') -%}
    {%- endfor -%}
    {%- set disagree_sql = adapted_rows | join(' + ') or '0' -%}
    {%- do parts.append("select " ~ pdelta.sql_literal(alias) ~ " as a, " ~ pending_sql ~ " as p, "
                        ~ "(select count(*) from " ~ pdelta._pinned_state(inp) ~ ") as s, "
                        ~ disagree_sql ~ " as d") -%}
  {%- endfor -%}
  {#- the learned model scales with the view's size: about the root's rows -#}
  {%- if opts['learned'] and root not in candidates -%}
    {%- do parts.append("select " ~ pdelta.sql_literal(root) ~ " as a, 0 as p, (select count(*) from "
                        ~ pdelta._pinned_state(inputs[root]) ~ ") as s, 0 as d") -%}
  {%- endif -%}
  {%- set ns = namespace(f=0.0, pending=0) -%}
  {%- set counts = {} -%}
  {#- through the Kernel reader where it may: nearly every state and feed counted has a new version here, which
      the classic reader would first rebuild with Spark jobs (a replacement's SQL reads other relations) -#}
  {%- set counted = candidates + ([root] if opts['learned'] and root not in candidates else []) -%}
  {%- set reads = none if replacement else pdelta.input_relations(inputs, counted) -%}
  {%- set counting = parts | join(' union all ') -%}
  {%- for row in pdelta.read_query(counting, reads).rows -%}
    {%- set pending_count = (scanned[row[0]] if row[0] in scanned else row[1] | int) + row[3] | int -%}
    {%- do counts.update({row[0]: {'pending': pending_count, 'state': row[2] | int}}) -%}
    {%- set ns.f = ns.f + pending_count / ([row[2] | int, 1] | max) -%}
    {%- set ns.pending = ns.pending + pending_count -%}
  {%- endfor -%}
  {%- if ns.pending == 0 and not rewrites_view -%}
    {{ return({'mode': 'refresh', 'feed': feed, 'reason': 'nothing pending', 'counts': counts}) }}
  {%- endif -%}
  {%- if rewrites_view -%}{%- set ns.f = ns.f + 1.0 -%}{%- endif -%}
  {%- if opts['learned'] -%}
    {%- set view_rows = counts[root]['state'] if root in counts else none -%}
    {%- set reached = ns.f * (view_rows or 0) -%}
    {%- set predicted = pdelta.learned_cost_prediction(costs or {}, reached, view_rows) -%}
    {%- set timed = predicted['refresh'] is not none and predicted['rebuild'] is not none -%}
    {%- set rebuilds = timed and predicted['rebuild'] < predicted['refresh'] -%}
    {#- A plain rebuild publishes a `full` batch, which every view reading the feed answers with a
        rebuild of its own; a refresh or an adaptation publishes rows they refresh from. Their
        timings can only turn a rebuild into a refresh (each reader costs at most its rebuild
        after a refresh too), so they are read only then. The readers' share of the batch: the
        fraction of the view its changes reach, without the fill of added columns (not published) -#}
    {%- set downstream = [] -%}
    {%- set totals = none -%}
    {%- if rebuilds and feed == 'reset' and model_name -%}
      {%- set published = [ns.f - (1.0 if rewrites_view else 0.0), 1.0] | min -%}
      {%- do downstream.extend(pdelta.downstream_view_costs(model_name, published, view_rows)) -%}
      {%- if downstream -%}
        {%- set totals = {'refresh': predicted['refresh'] + downstream | sum(attribute='refresh'),
                          'rebuild': predicted['rebuild'] + downstream | sum(attribute='rebuild')} -%}
        {%- set rebuilds = totals['rebuild'] < totals['refresh'] -%}
      {%- endif -%}
    {%- endif -%}
    {{ return({'mode': 'rebuild' if rebuilds else 'refresh',
               'feed': feed, 'fraction': ns.f, 'ratio': 'learned', 'predicted': predicted, 'counts': counts,
               'reached': reached, 'view_rows': view_rows, 'rewrites_view': rewrites_view,
               'downstream': downstream, 'predicted_with_downstream': totals,
               'reason': none if timed else 'learning: no ' ~ ('refresh' if predicted['refresh'] is none else 'rebuild')
                           ~ ' of this view timed yet'}) }}
  {%- endif -%}
  {%- set predicted = {'refresh': ns.f / r if r > 0 else 1e9, 'rebuild': 1.0} -%}
  {{ return({'mode': 'rebuild' if predicted['refresh'] > predicted['rebuild'] else 'refresh',
             'feed': feed, 'fraction': ns.f, 'ratio': r, 'predicted': predicted, 'counts': counts,
             'rewrites_view': rewrites_view}) }}
{% endmacro %}

{#- The dimension views that read model `model_name`'s change feed ({feed_of: model_name} in their
    declaration) and have timed runs (`pdelta.costs` in their batch logs: built under the learned
    model), with what the learned model predicts each costs, in seconds:
      rebuild  its own rebuild, what it does after a `full` batch of the view (a plain rebuild);
      refresh  its refresh from a batch of the view that reaches `fraction` of its rows (at least
               one), or its rebuild when that is predicted cheaper (its own model's choice).
    [{view, refresh, rebuild, reached}]. Rows: the reader's newest timed rebuild's, else
    `fallback_rows` (the view's: a reader over its feed as root has as many). A reader without both
    predictions is left out: nothing says what it costs either way. One `show tblproperties` per
    reader built (dbt's relation cache says which are). -#}
{% macro downstream_view_costs(model_name, fraction, fallback_rows) %}
  {%- set out = [] -%}
  {%- if not execute -%}{{ return(out) }}{%- endif -%}
  {%- for node in graph.nodes.values()
        if node.resource_type == 'model' and node.config.get('materialized') == 'dimension_view' -%}
    {%- set declaration = node.config.get('pdelta') -%}
    {%- set relations = declaration.get('relations') if declaration is mapping else none -%}
    {%- set reads = [] -%}
    {%- for spec in (relations.values() if relations is mapping else []) if spec is mapping -%}
      {%- set changes = spec.get('changes') -%}
      {%- if changes is mapping and changes.get('feed_of') == model_name -%}{%- do reads.append(1) -%}{%- endif -%}
    {%- endfor -%}
    {%- set reader = api.Relation.create(database=node.database, schema=node.schema, identifier=node.alias,
                                         type='table') -%}
    {%- set batches = pdelta.meta_relation(reader, 'batches') -%}
    {%- if reads and pdelta.relation_exists(batches) -%}
      {%- set costs = pdelta._log_properties(batches)['costs'] -%}
      {%- set rows = ((costs.get('rebuild') or []) | map('first') | reject('none') | list or [fallback_rows]) | last -%}
      {%- set reached = [fraction * (rows or 0), 1] | max -%}
      {%- set predicted = pdelta.learned_cost_prediction(costs, reached, rows) -%}
      {%- if predicted['refresh'] is not none and predicted['rebuild'] is not none -%}
        {%- do out.append({'view': node.name, 'reached': reached, 'rebuild': predicted['rebuild'],
                           'refresh': [predicted['refresh'], predicted['rebuild']] | min}) -%}
      {%- endif -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#- An input's pending rows as SQL, before its feed was scanned (refresh_cost_choice with pending
    none): 0 when its bound is known and not past the watermark; the rows in (lo, hi] of a feed
    whose bound is known (another view's, a capture's, a mirror's); for a user's feed, the rows
    it holds now less those the batch log recorded at or below the watermark (its `prior`
    position) — a count Delta answers from its log, no row read — or, without that position,
    the rows past the watermark. An estimate: rows landing until the scan freezes the bound are
    counted too. -#}
{% macro estimated_pending_sql(inp) %}
  {%- set seq = adapter.quote('_pdelta_seq') -%}
  {#- a relation an adapting batch joins in: none of its feed rows is pending (consume_joined_through_bound) -#}
  {%- if inp.get('joined') -%}{{ return('0') }}{%- endif -%}
  {%- if not inp.get('scan') or inp.get('bound_by') == 'mirror' -%}
    {%- if inp['hi'] is none or (inp['lo'] is not none and inp['hi'] <= inp['lo']) -%}{{ return('0') }}{%- endif -%}
    {%- set in_range = pdelta.feed_range_sql(inp['changes'], ['_pdelta_seq'], inp['lo'], inp['hi']) -%}
    {{ return('(select count(*) from (' ~ in_range ~ '))') }}
  {%- endif -%}
  {%- set prior = inp['scan'].get('prior') or {} -%}
  {%- if inp['lo'] is not none and prior.get('rows') is not none -%}
    {{ return('greatest((select count(*) from ' ~ inp['changes'] ~ ') - ' ~ (prior['rows'] | int) ~ ', 0)') }}
  {%- endif -%}
  {%- set past_watermark = ' where ' ~ seq ~ ' > ' ~ (inp['lo'] | int) if inp['lo'] is not none else '' -%}
  {{ return('(select count(*) from ' ~ inp['changes'] ~ past_watermark ~ ')') }}
{% endmacro %}

{#- The rows of an input's feed in (lo, hi] as feed_scans counted them (`position` rows: at or
    below the bound; `through_lo`: at or below the watermark; quarantined rows included), or none
    when the scan did not read this feed (another view's or a capture's) -#}
{% macro scanned_pending_rows(inp) %}
  {%- set position = inp.get('position') -%}
  {%- if inp.get('scan') is none or position is none -%}
    {{ return(none) }}
  {%- endif -%}
  {%- set below = 0 if inp['lo'] is none else inp.get('through_lo') -%}
  {{ return(none if below is none else [position['rows'] - below, 0] | max) }}
{% endmacro %}

{#- The learned model's prediction, in seconds, from `costs` = {refresh: [[rows reached, seconds],
    ...], rebuild: [[view rows or none, seconds], ...]} (newest last):
      rebuild  the mean of the newest three rebuilds, each scaled to the view's size now
               (a rebuild is one pass over the states);
      refresh  a + b · reached, fitted by least squares (a, b ≥ 0) when the refreshes reached at
               least two different row counts — a is the fixed cost, b the cost per row reached;
               with one count x, its mean time s plus, beyond x, k times what the predicted
               rebuild costs per view row (s + k · rebuild / view rows · (min(reached, view rows)
               − x)): a refresh is taken to cost at least its fixed cost, and per row reached k
               times what a rebuild does, until two sizes of refresh give the fit. k = 6
               (refresh_cost_per_row_factor): a refresh passes each row it reaches through
               several statements (the stage's joins, the view's delete and insert, the feed's
               before-image), a rebuild through one; `make bench` measured 5.5 at 1M (50 %: 21.8
               s against a 2.7 s rebuild) and ~8 at 10M (10 %: 61 s against 20.8 s). With k = 1
               one refresh at 0.01 % made a refresh at 10 % of 10M rows look faster than the
               rebuild (15 s predicted, 61 s taken); scaling s proportionally made every refresh
               larger than the first look dearer than a rebuild, at 10M rows as at 1M. Without a
               rebuild timed, s scaled proportionally beyond x.
    Either is none until timed once. -#}
{% macro learned_cost_prediction(costs, reached, view_rows) %}
  {%- set rebuilds = (costs.get('rebuild') or [])[-3:] -%}
  {%- set refreshes = costs.get('refresh') or [] -%}
  {%- set out = {'refresh': none, 'rebuild': none} -%}
  {%- if rebuilds -%}
    {%- set acc = namespace(s=0.0) -%}
    {%- for sample in rebuilds -%}
      {%- set scale = view_rows / sample[0] if sample[0] and view_rows else 1.0 -%}
      {%- set acc.s = acc.s + sample[1] * scale -%}
    {%- endfor -%}
    {%- do out.update({'rebuild': acc.s / (rebuilds | length)}) -%}
  {%- endif -%}
  {%- if refreshes -%}
    {%- set n = refreshes | length -%}
    {%- set acc = namespace(x=0.0, s=0.0) -%}
    {%- for sample in refreshes
        -%}{%- set acc.x = acc.x + sample[0] -%}{%- set acc.s = acc.s + sample[1] -%}{%- endfor -%}
    {%- set mean_x, mean_s = acc.x / n, acc.s / n -%}
    {%- set fit = namespace(sxx=0.0, sxs=0.0, xx=0.0, xs=0.0) -%}
    {%- for sample in refreshes -%}
      {%- set fit.sxx = fit.sxx + (sample[0] - mean_x) * (sample[0] - mean_x) -%}
      {%- set fit.sxs = fit.sxs + (sample[0] - mean_x) * (sample[1] - mean_s) -%}
      {%- set fit.xx = fit.xx + sample[0] * sample[0] -%}
      {%- set fit.xs = fit.xs + sample[0] * sample[1] -%}
    {%- endfor -%}
    {%- if fit.sxx > 0 -%}
      {%- set slope = [fit.sxs / fit.sxx, 0.0] | max -%}
      {%- set fixed = mean_s - slope * mean_x -%}
      {%- if fixed < 0 -%}{%- set fixed, slope = 0.0, fit.xs / fit.xx -%}{%- endif -%}
      {%- do out.update({'refresh': fixed + slope * reached}) -%}
    {%- else -%}
      {%- if out['rebuild'] is not none and view_rows -%}
        {%- set beyond = [([reached, view_rows] | min) - mean_x, 0] | max -%}
        {%- set per_row = pdelta.refresh_cost_per_row_factor() * out['rebuild'] / view_rows -%}
        {%- do out.update({'refresh': mean_s + per_row * beyond}) -%}
      {%- else -%}
        {%- do out.update({'refresh': mean_s * ([1.0, reached / mean_x] | max) if mean_x > 0 else mean_s}) -%}
      {%- endif -%}
    {%- endif -%}
  {%- endif -%}
  {{ return(out) }}
{% endmacro %}

{#- How many times a rebuild's cost per view row a refresh costs per row it reaches, for the
    learned model's prediction from one timed refresh size (learned_cost_prediction). -#}
{% macro refresh_cost_per_row_factor() %}
  {{ return(6) }}
{% endmacro %}

{#- `costs` with one more timed run of `kind` ('refresh': [rows reached, seconds]; 'rebuild':
    [view rows or none, seconds]), keeping the newest eight of each -#}
{% macro add_cost_sample(costs, kind, sample) %}
  {%- set out = {'v': 1, 'refresh': (costs or {}).get('refresh', []) | list,
                 'rebuild': (costs or {}).get('rebuild', []) | list} -%}
  {%- do out[kind].append(sample) -%}
  {%- do out.update({kind: out[kind][-8:]}) -%}
  {{ return(out) }}
{% endmacro %}

{#- why the cost model chose a rebuild, for the run's log line -#}
{% macro rebuild_reason(choice) %}
  {%- set filled = ' (columns added: their fill would rewrite every row of the view first)'
                   if choice.get('rewrites_view') else '' -%}
  {%- if choice['ratio'] == 'learned' -%}
    {%- set totals = choice.get('predicted_with_downstream') -%}
    {%- set readers = (choice.get('downstream') or []) | map(attribute='view') | join(', ') -%}
    {%- set with_readers = '' if totals is none
          else '; with the views reading its feed (' ~ readers ~ '), ' ~ (totals['rebuild'] | round(1))
               ~ ' s against ' ~ (totals['refresh'] | round(1)) ~ ' s' -%}
    {{ return('a rebuild is predicted to take ' ~ (choice['predicted']['rebuild'] | round(1)) ~ ' s, a refresh '
              ~ (choice['predicted']['refresh'] | round(1)) ~ ' s' ~ filled ~ with_readers
              ~ ' (pdelta_rebuild_ratio: learned, from the timed runs of this view'
              ~ (' and its readers' if totals is not none else '') ~ ')') }}
  {%- endif -%}
  {{ return('the pending changes reach ~' ~ ((choice['fraction'] * 100) | round(1)) ~ '% of the view' ~ filled
            ~ ' > pdelta_rebuild_ratio ' ~ choice['ratio']) }}
{% endmacro %}

{#- seconds since `started` (a datetime from modules.datetime), rounded to ms -#}
{% macro seconds_since(started) %}
  {{ return(((modules.datetime.datetime.now() - started).total_seconds() * 1000) | round / 1000) }}
{% endmacro %}

{#- The rebuild path with `pdelta_rebuild_feed: diff`, keeping the view's change feed exact
    and the refresh crash-safe: the full SELECT is compared with the view as it is, and the difference becomes
    the batch's *complete* six-set changes — `ins` (new key), `del` (vanished key, old row),
    `upd` (new row, `_pdelta_before` = old attributes) for keys whose attributes differ
    (null-safe). The caller stages and applies it like any batch (so a crash is retried from
    the stage) and appends it to the view's feed: consumers see ordinary complete changes.
    Costs one evaluation of the SELECT, one scan of the view joined on the key, the apply and
    the feed append: 4–5× a plain rebuild at 1M rows in `make bench` (docs/bench/). -#}
{% macro rebuild_diff_sql(target, select_sql, key, attrs, compared=none) %}
  {%- set q = adapter.quote -%}
  select {% for k in key %}coalesce(n.{{ q(k) }}, o.{{ q(k) }}) as {{ q(k) }}, {% endfor %}
         {%- for a in attrs %}case when n.{{ q(key[0]) }} is null then o.{{ q(a) }}
              else n.{{ q(a) }} end as {{ q(a) }}, {% endfor %}
         case when n.{{ q(key[0]) }} is not null and o.{{ q(key[0]) }} is not null
              then {% if attrs %}struct({% for a in attrs %}o.{{ q(a) }} as {{ q(a) }}{% if not loop.last %},
                {% endif %}{% endfor %}){% else %}cast(null as struct<`_`: int>){% endif %} end as `_pdelta_before`,
         case when o.{{ q(key[0]) }} is null then 'ins'
              when n.{{ q(key[0]) }} is null then 'del' else 'upd' end as `_pdelta_type`
  {#- _pdelta_n: a key the new rows hold twice (a state's duplicate key) keeps every one of its
      rows, unchanged or not, so the batch holds two changes for it and the refresh stops -#}
  from (select *, count(*) over (partition by
          {% for k in key %}{{ q(k) }}{% if not loop.last %}, {% endif %}{% endfor %}) as `_pdelta_n`
        from ({{ select_sql }}) as s) as n
  full outer join (select {% for c in key + attrs %}{{ q(c) }}{% if not loop.last %}, {% endif %}{% endfor %}
                   from {{ target }}) as o
    on {% for k in key %}n.{{ q(k) }} = o.{{ q(k) }}{% if not loop.last %} and {% endif %}{% endfor %}
  where n.`_pdelta_n` > 1 or n.{{ q(key[0]) }} is null or o.{{ q(key[0]) }} is null
    {%- for a in (attrs if compared is none else compared) %} or not (n.{{ q(a) }} <=> o.{{ q(a) }}){% endfor %}
{%- endmacro %}
