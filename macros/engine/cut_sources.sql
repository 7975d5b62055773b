{#- A consistent cut across feeds of one source (issue #20, item 2; docs/dimension-views.md).

    Feeds of one transactional source arrive with different lags: a new address and the customer
    that moves to it, one source transaction, can land minutes apart in two feeds. Each mirror
    consuming its feed to its own end then shows the customer joined to nothing, a state the
    source was never in. A mirror that declares the feed column holding the source's commit time
    (`source_time`, and `source`, the group of feeds cut together, default `default`) consumes its
    feed only up to the run's cut instead:

      W   each feed's high watermark, the largest source time among its rows;
      T   the cut, the smallest W among the group's feeds (a feed with no row holds it back);
      bound  per feed, the largest sequence whose row's source time is at or below T.

    Rows past T stay pending for a later run. The cut is taken once per run, before any model, by
    the project's `on-run-start: "{{ pdelta.cut_sources() }}"` hook, so that mirrors refreshed one
    after another (or on parallel threads) while the feeds move are cut at the same T; each writes
    the T it was cut at into its batch log (its feed position's `cut`), and a view over mirrors is
    bound by them (freeze_inputs) and reads one source state. -#}

{#- The on-run-start hook: for each source group that the project's mirrors declare, one statement
    reads the group's feeds (sequence and source time only) and appends this run's cut of each feed
    to `pdelta_cuts` in the target schema (source_cut_sql): the rows past each feed's last cut bound
    when the feeds were only appended to since then (cut_reads), else every row. Only under `dbt run`
    and `dbt build`; returns no SQL for dbt to run. A group with a feed that does not exist yet is not
    cut: its mirrors stop and say so (run_cut). -#}
{% macro cut_sources() %}
  {%- if not execute or invocation_args_dict.get('which') not in ['run', 'build'] -%}{{ return('') }}{%- endif -%}
  {%- set groups = pdelta.source_time_groups() -%}
  {%- if not groups -%}{{ return('') }}{%- endif -%}
  {%- set cuts = pdelta.cuts_relation() -%}
  {%- set columns = pdelta.cut_table_columns() -%}
  {%- call statement('create_cuts_table') -%}
    create table if not exists {{ cuts }} (
      {%- for name, type in columns %}{{ name }} {{ type }}{{ ', ' if not loop.last }}{% endfor -%}
    ) using delta tblproperties ({{ pdelta.cuts_compaction() }})
  {%- endcall -%}
  {#- dbt listed the schema's relations before the hook ran: the mirrors look the table up in that list -#}
  {%- do adapter.cache_added(cuts) -%}
  {%- do pdelta.add_cut_columns(cuts, columns) -%}
  {%- for source_name, feeds in groups.items()
        if feeds | selectattr('exists', 'equalto', false) | list | length == 0 -%}
    {%- set reads = pdelta.cut_reads(cuts, source_name, feeds) -%}
    {%- call statement('cut_source') -%}{{ pdelta.source_cut_sql(cuts, source_name, feeds, reads) }}{%- endcall -%}
  {%- endfor -%}
  {{ return('') }}
{% endmacro %}

{#- `pdelta_cuts`' columns, in order: per run and feed, the cut (w, t, bound), the contract's counts, the lag;
    then what the next run's cut starts from (cut_reads): the feed's rows at or below the bound, the Delta
    commit read, the source time column and heartbeat table it was cut by, W encoded exactly (`w_json`,
    independent of the session's time zone) with its type, and how the feed was read (`full`, or
    `past the bound`: only the rows past the last cut's bound) -#}
{% macro cut_table_columns() %}
  {{ return([('invocation_id', 'string'), ('source', 'string'), ('feed', 'string'), ('w', 'string'), ('t', 'string'),
             ('bound', 'bigint'), ('null_time', 'bigint'), ('disorder', 'bigint'), ('lag', 'double'),
             ('held_by', 'string'), ('cut_at', 'timestamp'), ('rows_at_bound', 'bigint'), ('version', 'bigint'),
             ('version_at', 'string'), ('source_time', 'string'), ('heartbeats', 'string'), ('w_json', 'string'),
             ('time_type', 'string'), ('feed_read', 'string')]) }}
{% endmacro %}

{#- `pdelta_cuts`' Delta auto compaction: each run appends a small file, and each mirror's run and the next cut
    read the table; compacted after every few dozen of them it stays a few files -#}
{% macro cuts_compaction() %}
  {{ return("'delta.autoOptimize.autoCompact' = 'true'") }}
{% endmacro %}

{#- a `pdelta_cuts` table an earlier pdelta made has the columns up to `cut_at`: the others are added (its rows
    have none there, so the next cut reads every row), and it is compacted as a new one is (cuts_compaction) -#}
{% macro add_cut_columns(cuts, columns) %}
  {%- set present = adapter.get_columns_in_relation(cuts) | map(attribute='name') | map('lower') | list -%}
  {%- set missing = [] -%}
  {%- for name, type in columns if name not in present -%}{%- do missing.append(name ~ ' ' ~ type) -%}{%- endfor -%}
  {%- if missing -%}
    {%- call statement('add_cut_columns') -%}
      alter table {{ cuts }} add columns ({{ missing | join(', ') }})
    {%- endcall -%}
    {%- call statement('compact_cuts') -%}
      alter table {{ cuts }} set tblproperties ({{ pdelta.cuts_compaction() }})
    {%- endcall -%}
  {%- endif -%}
{% endmacro %}

{#- How this run's cut reads each feed of a source group, from the group's last cut in `cuts`:
    {prior: that cut's invocation id, incremental: read only the rows past each feed's last bound,
     feeds: feed -> {version, at (the Delta commit read, pinned with VERSION AS OF), bound, time_type}}.
    Rows at or below a feed's last bound B all had a source time at or below the last cut T (its contract
    held: none without one, none out of order), so the new W is the largest of the last W, the heartbeats
    and the rows past B, and the new bound the largest sequence past B at or below the new T, else B
    (docs/dimension-views.md). That holds while the group has the same feeds, each cut by the same column
    and heartbeat table, and each feed was only appended to since the commit that cut read
    (`describe history`: blind appends and commits that keep every row); otherwise every row is read.
    Below pdelta_feed_history_rows rows at or below the bounds (the project var, 100,000), or with a feed
    that is not a Delta table, the history is not read and neither is a commit pinned: reading every row
    costs less than the `describe history` statements. -#}
{% macro cut_reads(cuts, source_name, feeds) %}
  {%- set names = ['feed', 'bound', 'rows_at_bound', 'version', 'version_at', 'source_time', 'heartbeats', 'w_json',
                   'time_type', 'null_time', 'disorder', 'invocation_id'] -%}
  {%- set prior = pdelta.last_cut(cuts, source_name, names) -%}
  {%- set ns = namespace(rows=0, delta=true, incremental=true, invocation=none) -%}
  {%- for feed in feeds -%}
    {%- set cut = prior.get(feed['feed']) or {} -%}
    {%- set ns.rows = ns.rows + (cut.get('rows_at_bound') or 0) | int -%}
    {%- set ns.invocation = cut.get('invocation_id') or ns.invocation -%}
    {%- set ns.delta = ns.delta and feed['delta'] -%}
  {%- endfor -%}
  {%- if not prior or not ns.delta or ns.rows < var('pdelta_feed_history_rows', 100000) | int -%}
    {{ return({'prior': none, 'incremental': false, 'feeds': {}}) }}
  {%- endif -%}
  {%- set ns.incremental = prior.keys() | sort == feeds | map(attribute='feed') | sort -%}
  {%- set reads = {} -%}
  {%- for feed in feeds -%}
    {%- set cut = prior.get(feed['feed']) or {} -%}
    {%- set since = {'version': cut['version'], 'at': cut['version_at']} if cut.get('version') is not none else none -%}
    {%- set history = pdelta.feed_history(feed['relation'], since, 1) -%}
    {%- if since is not none and history['version'] > since['version'] | int -%}
      {#- commits since the last cut: each of them read, up to a thousand (more: every row is read) -#}
      {%- set history = pdelta.feed_history(feed['relation'], since,
                                            [history['version'] - since['version'] | int + 1, 1000] | min) -%}
    {%- endif -%}
    {%- set heartbeats = pdelta.cut_feed_name(feed['heartbeats']) if feed['heartbeats'] is not none else none -%}
    {%- set ns.incremental = ns.incremental and history['appends_only'] and cut.get('source_time') == feed['column']
          and cut.get('heartbeats') == heartbeats and (cut.get('null_time') or 0) | int == 0
          and (cut.get('disorder') or 0) | int == 0 and cut.get('bound') is not none and cut.get('w_json') is not none
          and cut.get('time_type') is not none -%}
    {%- do reads.update({feed['feed']: {'version': history['version'], 'at': history['at'],
                                        'bound': cut.get('bound'), 'time_type': cut.get('time_type')}}) -%}
  {%- endfor -%}
  {{ return({'prior': ns.invocation, 'incremental': ns.incremental, 'feeds': reads}) }}
{% endmacro %}

{#- The last cut of source `source_name` that `cuts` holds (the latest run's), as feed -> {column: value} for the
    columns `names` (which include `feed`); empty when the source was never cut -#}
{% macro last_cut(cuts, source_name, names) %}
  {%- set source_literal = pdelta.sql_literal(source_name) -%}
  {%- set found = run_query('select ' ~ names | join(', ') ~ ' from ' ~ cuts ~ ' where source = ' ~ source_literal
                            ~ ' and invocation_id = (select max_by(invocation_id, cut_at) from ' ~ cuts
                            ~ ' where source = ' ~ source_literal ~ ')') -%}
  {%- set by_feed = {} -%}
  {%- for row in found.rows -%}
    {%- set cut = {} -%}
    {%- for name in names -%}{%- do cut.update({name: row[loop.index0]}) -%}{%- endfor -%}
    {%- do by_feed.update({cut['feed']: cut}) -%}
  {%- endfor -%}
  {{ return(by_feed) }}
{% endmacro %}

{#- For `pdelta explain`: the last cut of each source that the view's mirror inputs are cut by (freeze_inputs'
    `cut`), so that a feed holding the others back shows, and by how much: source -> {t, lag (how far T trails
    the group's newest source time; seconds for timestamps), held_by (the feed whose W is T, or one with no
    row), feeds: feed -> {w, bound, read (`full`, or `past the bound`: only its rows past the last cut)}} -#}
{% macro explained_cuts(inputs) %}
  {%- set sources = [] -%}
  {%- for inp in inputs.values() if inp.get('cut') and inp['cut']['source'] not in sources -%}
    {%- do sources.append(inp['cut']['source']) -%}
  {%- endfor -%}
  {%- set cuts = pdelta.cuts_relation() -%}
  {%- if not sources or not pdelta.relation_exists(cuts) -%}{{ return({}) }}{%- endif -%}
  {#- a table an earlier pdelta made, not yet cut by this one, has no `feed_read` (add_cut_columns) -#}
  {%- set present = adapter.get_columns_in_relation(cuts) | map(attribute='name') | map('lower') | list -%}
  {%- set names = ['feed', 'w', 't', 'bound', 'lag', 'held_by'] + (['feed_read'] if 'feed_read' in present else []) -%}
  {%- set positioned = pdelta.position_feed_names() -%}
  {%- set out = {} -%}
  {%- for source_name in sources -%}
    {%- set by_feed = pdelta.last_cut(cuts, source_name, names) -%}
    {%- set feeds = {} -%}
    {%- for feed, cut in by_feed.items() -%}
      {%- do feeds.update({feed: {'w': cut['w'], 'bound': none if cut['bound'] is none else cut['bound'] | int,
                                  'read': cut.get('feed_read'),
                                  'unit': 'position' if feed in positioned else 'sequence'}}) -%}
    {%- endfor -%}
    {%- set any_cut = (by_feed.values() | list)[0] if by_feed else {} -%}
    {%- do out.update({source_name: {'t': any_cut.get('t'), 'held_by': any_cut.get('held_by'),
                                     'lag': none if any_cut.get('lag') is none else any_cut['lag'] | float,
                                     'feeds': feeds}}) -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#- the feeds of the project's cuts (cut_feed_name) that are captures' raw relations: a capture that declares
    `source_time` is cut at a position of its raw records (macros/materializations/capture.sql), a mirror's feed at
    a sequence; from dbt's graph -#}
{% macro position_feed_names() %}
  {%- set names = [] -%}
  {%- for node in graph.nodes.values() if node.resource_type == 'model'
        and node.config.get('materialized') == 'capture' -%}
    {%- set declared = node.config.get('pdelta_capture') -%}
    {%- if declared is mapping and declared.get('source_time') and declared.get('raw') -%}
      {%- do names.append(pdelta.cut_feed_name(pdelta._graph_relation(declared['raw']))) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(names) }}
{% endmacro %}

{#- the table the run's cuts go to: `pdelta_cuts` in the target's schema -#}
{% macro cuts_relation() %}
  {{ return(api.Relation.create(database=target.database if target.database is defined else none,
                                schema=target.schema, identifier='pdelta_cuts', type='table')) }}
{% endmacro %}

{#- a feed's name in `pdelta_cuts`: `schema.identifier`, lower case, as both the hook and the mirror
    name it; `catalog.schema.identifier` where the adapter names relations with their catalog (dbt-databricks with
    Unity Catalog: two catalogs may hold the same schema and table) -#}
{% macro cut_feed_name(relation) %}
  {%- set catalog = [relation.database] if relation.database and relation.include_policy.database else [] -%}
  {{ return((catalog + [relation.schema or '', relation.identifier]) | join('.') | lower) }}
{% endmacro %}

{#- source -> [{feed (cut_feed_name), relation, column (as declared), seq and time (SQL over the alias `r`: the
    row's sequence and source time), where (the rows counted, or none), heartbeats and heartbeat_time (SQL over the
    alias `h`), delta, exists}] over the
    project's mirrors that declare `source_time` (their feed's `_pdelta_seq` and source time column) and captures
    that do (their raw relation's position and source time: capture_time_sql), from dbt's graph (a hook
    cannot ref a model or source it did not name at parse time) -#}
{% macro source_time_groups() %}
  {%- set groups = {} -%}
  {%- for node in graph.nodes.values() if node.resource_type == 'model'
        and node.config.get('materialized') in ['mirror', 'capture'] -%}
    {%- set declared = node.config.get('pdelta_mirror') if node.config.get('materialized') == 'mirror'
                       else node.config.get('pdelta_capture') -%}
    {%- if declared is mapping and declared.get('source_time') -%}
      {%- set capture = node.config.get('materialized') == 'capture' -%}
      {%- set relation = pdelta._graph_relation(declared.get('raw') if capture else declared.get('changes')) -%}
      {%- set source_name = declared.get('source') or 'default' -%}
      {%- set feed = pdelta.cut_feed_name(relation) -%}
      {%- set listed = groups.setdefault(source_name, []) -%}
      {%- set heartbeats = pdelta._graph_relation(declared['heartbeats']) if declared.get('heartbeats') else none -%}
      {%- if feed not in listed | map(attribute='feed') | list -%}
        {%- set found = adapter.get_relation(database=relation.database, schema=relation.schema,
                                             identifier=relation.identifier) -%}
        {%- set entry = {'feed': feed, 'relation': relation, 'column': declared['source_time'],
                         'seq': 'r.`_pdelta_seq`', 'time': 'r.' ~ adapter.quote(declared['source_time']), 'where': none,
                         'heartbeats': heartbeats, 'heartbeat_time': 'h.' ~ adapter.quote(declared['source_time']),
                         'delta': found is not none and found.is_delta,
                         'exists': found is not none
                                   and (heartbeats is none or pdelta.relation_exists(heartbeats))} -%}
        {%- if capture and found is not none -%}
          {%- set m = pdelta.normalize_capture(declared, node.name) -%}
          {%- do pdelta.capture_raw_columns(m, found) -%}
          {%- do entry.update({'seq': pdelta.capture_bigint_expr(m, m['position']),
                               'time': pdelta.capture_time_sql(m['source_time'], m['value'], found, m['raw_columns'],
                                                               'r', 'source_time'),
                               'where': pdelta.capture_cut_filter(m)}) -%}
          {%- if heartbeats is not none and entry['exists'] -%}
            {%- do entry.update({'heartbeat_time': pdelta.capture_time_sql(m['heartbeat_time'], m['value'], heartbeats,
                                                                           none, 'h', 'heartbeat_time')}) -%}
          {%- endif -%}
        {%- endif -%}
        {%- do listed.append(entry) -%}
      {%- endif -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(groups) }}
{% endmacro %}

{#- the relation a mirror's `changes` names ([source, table], {source: [...]}, a model's name or
    {ref: name}), found in dbt's graph -#}
{% macro _graph_relation(spec) %}
  {%- set relation = pdelta.graph_relation(spec) -%}
  {%- if relation is none -%}
    {{ exceptions.raise_compiler_error('pdelta: a mirror or capture that declares source_time reads ' ~ tojson(spec)
          ~ ', which is no source or model of this project') }}
  {%- endif -%}
  {{ return(relation) }}
{% endmacro %}

{#- One statement: this run's cut of one source group's `feeds` (source_time_groups'), appended to
    `cuts`. A feed's heartbeats (a table of source times up to which the feed holds every row: a quiet
    feed's sink writes them, e.g. from Debezium's heartbeat messages) count towards its W only, so a
    feed with no change does not hold the cut back. Per feed: W, T (both as text: source times may be
    numbers or timestamps), the bound (none when no row is at or below T), rows without a source time
    (`null_time`) and rows at or below the bound whose source time is past T (`disorder`: sequence and
    source time disagree in order), which the feed contract stops on (run_cut), and what the next run's
    cut starts from (cut_table_columns). `reads` (cut_reads): each feed read as of the Delta commit it
    names, and with `incremental`, only its rows past the last cut's bound, its last W carried as a row
    without a sequence. Only the sequence and source time columns are read; no data value is spliced into
    the SQL. -#}
{% macro source_cut_sql(cuts, source_name, feeds, reads={'incremental': false, 'feeds': {}}) %}
  {%- set q = adapter.quote -%}
  {%- set incremental = reads['incremental'] -%}
  {#- W as JSON with its time zone and every digit of its fraction, so that a later run's session reads it back
      exactly whatever its time zone -#}
  {%- set json_options = "map('timestampFormat', 'yyyy-MM-dd HH:mm:ss.SSSSSSXXX', "
                         ~ "'timestampNTZFormat', 'yyyy-MM-dd HH:mm:ss.SSSSSS')" -%}
  insert into {{ cuts }} ({{ pdelta.cut_table_columns() | map('first') | join(', ') }})
  with
  {%- if incremental %}
  prior as (
    select feed, bound, rows_at_bound, w_json from {{ cuts }}
    where invocation_id = {{ pdelta.sql_literal(reads['prior']) }} and source = {{ pdelta.sql_literal(source_name) }}
  ),
  {%- endif %}
  rows_read as (
    {%- for feed in feeds %}
    {%- set read = reads['feeds'].get(feed['feed']) or {} %}
    select {{ pdelta.sql_literal(feed['feed']) }} as feed, {{ feed['seq'] }} as seq, {{ feed['time'] }} as st
    from {{ feed['relation'] }}{{ ' version as of ' ~ (read['version'] | int) if read.get('version') is not none }} as r
    {%- set conditions = ([feed['where']] if feed['where'] else [])
                         + ([feed['seq'] ~ ' > ' ~ read['bound'] | int] if incremental else []) %}
    {%- if conditions %}
    where {{ conditions | join(' and ') }}
    {%- endif %}
    {%- if incremental %}
    union all
    {#- the last cut's W: every row at or below its bound has a source time at or below it #}
    select feed, cast(null as bigint), from_json(w_json, {{ pdelta.sql_literal('w ' ~ read['time_type']) }},
      {{ json_options }}).w
    from prior where feed = {{ pdelta.sql_literal(feed['feed']) }}
    {%- endif %}
    {%- if feed['heartbeats'] is not none %}
    union all
    {#- a heartbeat: the feed holds every row up to its source time; no row of its own (no sequence) #}
    select {{ pdelta.sql_literal(feed['feed']) }}, cast(null as bigint), {{ feed['heartbeat_time'] }}
    from {{ feed['heartbeats'] }} as h where {{ feed['heartbeat_time'] }} is not null
    {%- endif %}{{ '\n    union all' if not loop.last }}
    {%- endfor %}
  ), f as (
    {#- the rows read, used three times below (W, the bound, the checks): read past the bounds, the few new rows are
        read once and shared (a non-deterministic filter keeps Spark from inlining the term into each use); read in
        full, reading the feeds again costs less than sharing every row -#}
    select * from rows_read{{ ' where rand() >= 0' if incremental }}
  ), names as (
    {#- per feed, what the next run's cut starts from besides the cut itself -#}
    {%- for feed in feeds %}
    {%- set read = reads['feeds'].get(feed['feed']) or {} %}
    select {{ pdelta.sql_literal(feed['feed']) }} as feed,
           {{ 'cast(null as bigint)' if read.get('version') is none else read['version'] | int }} as version,
           {{ 'cast(null as string)' if read.get('at') is none else pdelta.sql_literal(read['at']) }} as version_at,
           {{ pdelta.sql_literal(feed['column']) }} as source_time,
           {{ 'cast(null as string)' if feed['heartbeats'] is none
              else pdelta.sql_literal(pdelta.cut_feed_name(feed['heartbeats'])) }} as heartbeats
    {{- '\n    union all' if not loop.last }}
    {%- endfor %}
  ), w as (
    {#- each feed's rows aggregated before the join: as the right side of a left join a feed cannot be broadcast,
        so every row of it was shuffled (21 s against 7.6 s over two feeds of 10M and 5M rows) -#}
    select n.*, a.w
    from names as n left join (select feed, max(st) as w from f group by feed) as a on a.feed = n.feed
  ), t as (
    select case when count(w) = count(*) then min(w) end as t from w
  ), b as (
    {#- the largest sequence at or below T; read past the last bound, that bound when none is -#}
    select n.feed, {{ 'greatest(r.bound, p.bound)' if incremental else 'r.bound' }} as bound
    from names as n
    left join (select f.feed, max(f.seq) as bound from f cross join t where f.st <= t.t group by f.feed) as r
      on r.feed = n.feed
    {%- if incremental %}
    left join prior as p on p.feed = n.feed
    {%- endif %}
  ), checks as (
    select f.feed, count_if(f.st is null) as null_time, count_if(f.seq <= b.bound and f.st > t.t) as disorder,
           count_if(f.seq <= b.bound) as rows_at_bound
    from f cross join t left join b on b.feed = f.feed group by f.feed
  ), held as (
    {#- how far the cut trails the group's newest source time (seconds for timestamps), and the feed that holds it
        there: the one whose W is T, or one with no row at all -#}
    select cast(max(w.w) as double) - cast(max(t.t) as double) as lag,
           coalesce(min(case when w.w = t.t then w.feed end), min(case when w.w is null then w.feed end)) as held_by
    from w cross join t
  )
  select {{ pdelta.sql_literal(invocation_id) }}, {{ pdelta.sql_literal(source_name) }}, w.feed,
         cast(w.w as string), cast(t.t as string), b.bound, coalesce(c.null_time, 0), coalesce(c.disorder, 0),
         h.lag, h.held_by, current_timestamp(),
         coalesce(c.rows_at_bound, 0){{ ' + coalesce(p.rows_at_bound, 0)' if incremental }},
         w.version, w.version_at, w.source_time,
         w.heartbeats, to_json(named_struct('w', w.w), {{ json_options }}), typeof(w.w),
         {{ "'past the bound'" if incremental else "'full'" }}
  from w cross join t cross join held as h left join b on b.feed = w.feed left join checks as c on c.feed = w.feed
  {%- if incremental %}
  left join prior as p on p.feed = w.feed
  {%- endif %}
{%- endmacro %}

{#- This run's cut of a mirror's feed or a capture's raw relation `changes` (`kind`: mirror or capture)
    ({bound, t, w, source}), read from `pdelta_cuts`. The
    run stops, nothing written, when the run took no cut of it (the hook is missing, or a feed of its
    group did not exist when the run started), when the feed breaks the cut's contract (a row
    without a source time, or sequence and source time in different orders), or when the cut trails
    the group's newest source time by more than `max_lag` (pdelta_max_cut_lag; none: any lag). -#}
{% macro run_cut(changes, model_name, column, max_lag=none, kind='mirror') %}
  {%- set at = 'pdelta: ' ~ kind ~ ' ' ~ model_name ~ ' declares source_time `' ~ column ~ '`' -%}
  {%- if max_lag is not none and (max_lag is not number or max_lag is boolean or max_lag < 0) -%}
    {{ exceptions.raise_compiler_error(at ~ ': pdelta_max_cut_lag is how far (in the source time\'s units, seconds for'
          ~ ' timestamps) the cut may trail the newest source time of its feeds: a number, got ' ~ max_lag) }}
  {%- endif -%}
  {%- set cuts = pdelta.cuts_relation() -%}
  {%- set found = pdelta.relation_exists(cuts) -%}
  {%- set rows = run_query('select bound, t, w, source, null_time, disorder, lag, held_by from ' ~ cuts
                           ~ ' where invocation_id = ' ~ pdelta.sql_literal(invocation_id)
                           ~ ' and feed = ' ~ pdelta.sql_literal(pdelta.cut_feed_name(changes))).rows
                 if found else [] -%}
  {%- if not rows -%}
    {{ exceptions.raise_compiler_error(at ~ ', but this run took no cut of its feed ' ~ changes
          ~ ', so nothing was written. The cut is taken when a `dbt run` or `dbt build` starts, by the hook'
          ~ ' `on-run-start: "{{ pdelta.cut_sources() }}"` in dbt_project.yml, over the feeds of every mirror'
          ~ ' and capture of its source that exist then (and their heartbeat tables): add the hook, or run again'
          ~ ' once they exist.') }}
  {%- endif -%}
  {%- set row = rows[0] -%}
  {%- if row[4] | int > 0 -%}
    {{ exceptions.raise_compiler_error(at ~ ': feed-source-time-null: ' ~ row[4] ~ ' ' ~ ('raw record(s)' if kind ==
          'capture' else 'row(s)') ~ ' of ' ~ changes
          ~ ' without a source time, so the run cannot tell which side of the cut they are on; nothing'
          ~ ' was written. Every ' ~ ('raw record' if kind == 'capture' else 'row of a feed')
          ~ ' cut by source time must carry it.') }}
  {%- endif -%}
  {%- if row[5] | int > 0 -%}
    {{ exceptions.raise_compiler_error(at ~ ': feed-source-time-order: ' ~ row[5] ~ ' ' ~ ('raw record(s)' if kind ==
          'capture' else 'row(s)') ~ ' of ' ~ changes ~ ' ' ~ ('positioned' if kind == 'capture' else 'sequenced')
          ~ ' at or below the cut\'s bound (' ~ row[0] ~ ') with a source time past the cut ('
          ~ row[1] ~ '): ' ~ ('position' if kind == 'capture' else 'sequence')
          ~ ' and source time must agree in order; nothing was written.') }}
  {%- endif -%}
  {%- if max_lag is not none and (row[6] is none or row[6] > max_lag) -%}
    {{ exceptions.raise_compiler_error(at ~ ': the cut of source `' ~ row[3] ~ '` ' ~ ('is at ' ~ row[1] ~ ', '
          ~ row[6] ~ ' behind its feeds\' newest source time' if row[6] is not none else 'has no source time')
          ~ ', more than pdelta_max_cut_lag (' ~ max_lag ~ '): feed ' ~ row[7] ~ ' holds it back (its rows, or'
          ~ ' heartbeats, past the cut have not arrived); nothing was written.') }}
  {%- endif -%}
  {{ return({'bound': none if row[0] is none else row[0] | int, 't': row[1], 'w': row[2], 'source': row[3]}) }}
{% endmacro %}

{#- A mirror or capture cut by source time with nothing new up to this run's cut stands at the cut all the
    same: its batch log's state takes the cut as its input's position's `cut` (`alias`: the mirror's `changes`,
    the capture's `raw`; one property change, only when it moved), so that a view over mirrors of one source
    sees them all at one cut (mixed_cuts). `blog`: the batch log's state as the run read it. -#}
{% macro record_cut_reached(batches, blog, cut, alias='changes') %}
  {%- set cut_mark = {'source': cut['source'], 't': cut['t']} -%}
  {%- set position = (blog['positions'] or {}).get(alias) or {} -%}
  {%- if position.get('cut') == cut_mark -%}{{ return(none) }}{%- endif -%}
  {%- set state = {} -%}
  {%- for name in pdelta.empty_log_state().keys() -%}{%- do state.update({name: blog[name]}) -%}{%- endfor -%}
  {%- set positions = dict(state['positions']) -%}
  {%- do positions.update({alias: dict(position, cut=cut_mark)}) -%}
  {%- do state.update({'positions': positions}) -%}
  {%- do pdelta.write_batch_log(batches, [], {'pdelta.state': pdelta.sql_literal(tojson(state))}) -%}
{% endmacro %}

{#- Where a view reads mirrors of one source cut by source time at different cuts (a run refreshed some
    of them, not all), a phrase saying which, else none: such a view would show a state its source was
    never in. `inputs`: freeze_inputs', whose mirror inputs carry their mirror's `cut`. -#}
{% macro mixed_cuts(inputs, aliases) %}
  {%- set by_source = {} -%}
  {%- for alias in aliases if inputs[alias].get('cut') -%}
    {%- set cut = inputs[alias]['cut'] -%}
    {%- do by_source.setdefault(cut['source'], []).append({'alias': alias, 't': cut['t']}) -%}
  {%- endfor -%}
  {%- for source_name, seen in by_source.items() if seen | map(attribute='t') | unique | list | length > 1 -%}
    {%- set phrases = [] -%}
    {%- for s in seen -%}{%- do phrases.append('`' ~ s['alias'] ~ '` at ' ~ s['t']) -%}{%- endfor -%}
    {{ return('its mirrors of source `' ~ source_name ~ '` were cut at different source times ('
              ~ phrases | join(', ') ~ '): a run refreshed some of them and not the others') }}
  {%- endfor -%}
  {{ return(none) }}
{% endmacro %}

{#- The message a run stops with when its cut's bound is below what it consumed (`lo`, a sequence of a mirror's
    feed or a position of a capture's raw relation `changes`): its group's cut moved back, and it holds rows past
    it, so recording that it stands at the cut would let a view read a state its source was never in -#}
{% macro cut_moved_back_message(kind, model_name, column, cut, changes, unit, lo) %}
  {{ return('pdelta: ' ~ kind ~ ' ' ~ model_name ~ ' declares source_time `' ~ column ~ '`: this run\'s cut of source `'
            ~ cut['source'] ~ '` is at ' ~ cut['t'] ~ ', behind what the ' ~ kind ~ ' consumed ('
            ~ ('its feed ' if kind == 'mirror' else 'its raw records of ') ~ changes ~ ' through ' ~ unit ~ ' ' ~ lo
            ~ '; the cut\'s bound is ' ~ (cut['bound'] if cut['bound'] is not none else 'below every row')
            ~ '): the cut moved back (a feed joined the source group, a heartbeat table went, or the source time'
            ~ ' column changed), so nothing was written. Run again once the cut has passed that ' ~ unit
            ~ ', or run it with --full-refresh to rebuild it at the cut.') }}
{% endmacro %}
