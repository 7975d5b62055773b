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
    (Delta answers count(*) of a table from its log). -#}
{% macro refresh_cost_choice(view, inputs, pending) %}
  {%- set r = config.get('pdelta_rebuild_ratio', var('pdelta_rebuild_ratio', none)) -%}
  {%- if r is none or r is false or r == 'false' or not pending -%}
    {{ return({'mode': 'refresh', 'reason': 'cost model off' if pending else 'nothing pending'}) }}
  {%- endif -%}
  {%- set r = r | float -%}
  {%- set parts = [] -%}
  {%- for alias in pending -%}
    {%- set inp = inputs[alias] -%}
    {%- do parts.append("select " ~ pdelta.sql_literal(alias) ~ " as a, (select count(*) from " ~ inp['changes'] ~ " where `_pdelta_seq` <= " ~ (inp['hi'] | int)
                        ~ (" and `_pdelta_seq` > " ~ (inp['lo'] | int) if inp['lo'] is not none else "") ~ ") as p, (select count(*) from " ~ inp['state'] ~ ") as s") -%}
  {%- endfor -%}
  {%- set ns = namespace(f=0.0) -%}
  {%- set counts = {} -%}
  {%- for row in run_query(parts | join(' union all ')).rows -%}
    {%- do counts.update({row[0]: {'pending': row[1] | int, 'state': row[2] | int}}) -%}
    {%- set ns.f = ns.f + (row[1] | int) / ([row[2] | int, 1] | max) -%}
  {%- endfor -%}
  {%- set predicted = {'refresh': ns.f / r if r > 0 else 1e9, 'rebuild': 1.0} -%}
  {{ return({'mode': 'rebuild' if predicted['refresh'] > predicted['rebuild'] else 'refresh',
             'fraction': ns.f, 'ratio': r, 'predicted': predicted, 'counts': counts}) }}
{% endmacro %}

{#- The rebuild path of a refresh that keeps the view's change feed exact.

    1. remember the target's current Delta version (the old view);
    2. replace the target by the full SELECT (`create or replace`: the same statement as a
       rebuild; Delta keeps the old version readable);
    3. return the SELECT of the difference between the new target and the old version, as
       *complete* six-set changes: `ins` (new key), `del` (vanished key, old row), `upd` (new
       row, `_pdelta_before` = old attributes) for keys whose attributes differ (null-safe).
    The caller stages it, skips the apply (the target is already new) and appends it to the
    view's feed like any refresh: consumers of the feed see ordinary complete changes.

    Costs a rebuild plus one scan of the old and new view joined on the key. The window
    between 2 and staging: a run that dies there leaves the target new but the batch
    unrecorded; rerunning computes an empty difference, so that batch's changes would be
    missing from the feed (the crash-safety work on the apply step covers this; see #7's
    report). -#}
{% macro rebuild_with_diff(target, select_sql, key, attrs) %}
  {%- set q = adapter.quote -%}
  {%- set old_version = run_query('describe history ' ~ target ~ ' limit 1').columns[0].values()[0] | int -%}
  {%- call statement('main') -%}
    create or replace table {{ target }} using delta as {{ select_sql }}
  {%- endcall -%}
  {%- set diff -%}
    select {% for k in key %}coalesce(n.{{ q(k) }}, o.{{ q(k) }}) as {{ q(k) }}, {% endfor %}
           {%- for a in attrs %}case when n.{{ q(key[0]) }} is null then o.{{ q(a) }} else n.{{ q(a) }} end as {{ q(a) }}, {% endfor %}
           case when n.{{ q(key[0]) }} is not null and o.{{ q(key[0]) }} is not null
                then {% if attrs %}struct({% for a in attrs %}o.{{ q(a) }} as {{ q(a) }}{% if not loop.last %}, {% endif %}{% endfor %}){% else %}cast(null as struct<`_`: int>){% endif %} end as `_pdelta_before`,
           case when o.{{ q(key[0]) }} is null then 'ins' when n.{{ q(key[0]) }} is null then 'del' else 'upd' end as `_pdelta_type`
    from {{ target }} as n
    full outer join (select * from {{ target }} version as of {{ old_version }}) as o
      on {% for k in key %}n.{{ q(k) }} = o.{{ q(k) }}{% if not loop.last %} and {% endif %}{% endfor %}
    where n.{{ q(key[0]) }} is null or o.{{ q(key[0]) }} is null
      {%- for a in attrs %} or not (n.{{ q(a) }} <=> o.{{ q(a) }}){% endfor %}
  {%- endset -%}
  {{ return(diff) }}
{% endmacro %}
