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

    The inputs are cheap to get: one statement counting each pending feed range and each state
    (Delta answers count(*) of a table from its log).

    What a rebuild does with the view's change feed, config `pdelta_rebuild_feed` (or the var):
      reset (default): a plain rebuild (build_in_full). The feed starts over; views that read
                       it see the `full` batch and rebuild too, as after --full-refresh. Costs
                       about one rebuild.
      diff:            the batch is the difference between the full SELECT and the view
                       (rebuild_diff_sql), staged, applied and appended to the feed like any
                       batch, so views downstream keep refreshing from an exact feed. Costs one
                       evaluation of the SELECT, a join with the view, and applying the
                       difference: several rebuilds (docs/bench/README.md). -#}
{% macro refresh_cost_choice(view, inputs, pending, model_config=none) %}
  {#- the materialization reads its model's `config`; `pdelta explain` passes the node's -#}
  {%- set opts = pdelta.rebuild_options(config if model_config is none else model_config) -%}
  {%- set r, feed = opts['ratio'], opts['feed'] -%}
  {%- if r is none or not pending -%}
    {{ return({'mode': 'refresh', 'feed': feed, 'reason': 'cost model off' if pending else 'nothing pending'}) }}
  {%- endif -%}
  {%- set parts = [] -%}
  {%- for alias in pending -%}
    {%- set inp = inputs[alias] -%}
    {%- set pending_rows = pdelta.feed_range_sql(inp['changes'], ['_pdelta_seq'], inp['lo'], inp['hi'], inp.get('exclude')) -%}
    {%- do parts.append("select " ~ pdelta.sql_literal(alias) ~ " as a, (select count(*) from (" ~ pending_rows ~ ")) as p, (select count(*) from " ~ inp['state'] ~ ") as s") -%}
  {%- endfor -%}
  {%- set ns = namespace(f=0.0) -%}
  {%- set counts = {} -%}
  {%- for row in run_query(parts | join(' union all ')).rows -%}
    {%- do counts.update({row[0]: {'pending': row[1] | int, 'state': row[2] | int}}) -%}
    {%- set ns.f = ns.f + (row[1] | int) / ([row[2] | int, 1] | max) -%}
  {%- endfor -%}
  {%- set predicted = {'refresh': ns.f / r if r > 0 else 1e9, 'rebuild': 1.0} -%}
  {{ return({'mode': 'rebuild' if predicted['refresh'] > predicted['rebuild'] else 'refresh',
             'feed': feed, 'fraction': ns.f, 'ratio': r, 'predicted': predicted, 'counts': counts}) }}
{% endmacro %}

{#- The rebuild path with `pdelta_rebuild_feed: diff`, keeping the view's change feed exact
    and the refresh crash-safe: the full SELECT is compared with the view as it is, and the difference becomes
    the batch's *complete* six-set changes — `ins` (new key), `del` (vanished key, old row),
    `upd` (new row, `_pdelta_before` = old attributes) for keys whose attributes differ
    (null-safe). The caller stages and applies it like any batch (so a crash is retried from
    the stage) and appends it to the view's feed: consumers see ordinary complete changes.
    Costs one evaluation of the SELECT, one scan of the view joined on the key, the apply and
    the feed append: 4–5× a plain rebuild at 1M rows in `make bench` (docs/bench/). -#}
{% macro rebuild_diff_sql(target, select_sql, key, attrs) %}
  {%- set q = adapter.quote -%}
  select {% for k in key %}coalesce(n.{{ q(k) }}, o.{{ q(k) }}) as {{ q(k) }}, {% endfor %}
         {%- for a in attrs %}case when n.{{ q(key[0]) }} is null then o.{{ q(a) }} else n.{{ q(a) }} end as {{ q(a) }}, {% endfor %}
         case when n.{{ q(key[0]) }} is not null and o.{{ q(key[0]) }} is not null
              then {% if attrs %}struct({% for a in attrs %}o.{{ q(a) }} as {{ q(a) }}{% if not loop.last %}, {% endif %}{% endfor %}){% else %}cast(null as struct<`_`: int>){% endif %} end as `_pdelta_before`,
         case when o.{{ q(key[0]) }} is null then 'ins' when n.{{ q(key[0]) }} is null then 'del' else 'upd' end as `_pdelta_type`
  {#- _pdelta_n: a key the new rows hold twice (a state's duplicate key) keeps every one of its
      rows, unchanged or not, so the batch holds two changes for it and the refresh stops -#}
  from (select *, count(*) over (partition by {% for k in key %}{{ q(k) }}{% if not loop.last %}, {% endif %}{% endfor %}) as `_pdelta_n`
        from ({{ select_sql }}) as s) as n
  full outer join (select {% for c in key + attrs %}{{ q(c) }}{% if not loop.last %}, {% endif %}{% endfor %} from {{ target }}) as o
    on {% for k in key %}n.{{ q(k) }} = o.{{ q(k) }}{% if not loop.last %} and {% endif %}{% endfor %}
  where n.`_pdelta_n` > 1 or n.{{ q(key[0]) }} is null or o.{{ q(key[0]) }} is null
    {%- for a in attrs %} or not (n.{{ q(a) }} <=> o.{{ q(a) }}){% endfor %}
{%- endmacro %}
