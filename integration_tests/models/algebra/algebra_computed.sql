-- The SQL side of the shared delta model evaluated on Spark over every input: the flag
-- functions s and j, Fig. 6 and the net-effect table. Compared with algebra_expected, which
-- `pdelta gen-macros` writes from python/pdelta/algebra.py.
{{ config(materialized='view') }}
{%- set dm = pdelta.delta_model() -%}
{%- set flags -%}{% for f in dm['flags'] %}'{{ f }}'{% if not loop.last %}, {% endif %}{% endfor %}{%- endset %}
with flags as (select explode(array({{ flags }})) as flag),
fig6_delta as (
  select * from values (1), (2), (3), (4) as t(k)
),
fig6_nabla as (
  select k, cast(null as string) as a, f as `_pdelta_flag`
  from values (1, null), (2, 'comp'), (3, 'up'), (4, 'ups'), (5, 'comp'), (6, 'up'), (7, 'ups') as t(k, f)
  where f is not null
),
fig6_delta_a as (select k, cast(null as string) as a from fig6_delta),
fig6 as (
  {{ pdelta.delete_insert_to_six_sets_sql('fig6_delta_a', 'fig6_nabla', ['k'], ['a']) }}
),
events as (
  -- one key per (first, last) pair of change types, and one per single change
  select concat(f.t, '>', l.t) as k, f.t as first, l.t as last, struct(f.t as t, 1 as seq) as e1,
         struct(l.t as t, 2 as seq) as e2
  from (select explode(array({% for t in dm['six_sets'] %}'{{ t }}'{% if not loop.last %},
                             {% endif %}{% endfor %})) as t) f
  cross join (select explode(array({% for t in dm['six_sets'] %}'{{ t }}'{% if not loop.last %},
                                   {% endif %}{% endfor %})) as t) l
),
feed as (
  select k, cast(null as string) as a, cast(null as struct<a: string>) as `_pdelta_before`, e.t as `_pdelta_type`,
         cast(e.seq as bigint) as `_pdelta_seq`
  from (select k, e1 as e from events union all select k, e2 from events)
  union all
  select concat(t, '>-'), null, null, t, 1
  from (select explode(array({% for t in dm['six_sets'] %}'{{ t }}'{% if not loop.last %},
                             {% endif %}{% endfor %})) as t)
),
net as (
  {{ pdelta.net_effect_sql('feed', ['k'], ['a']) }}
)
select 's' as fn, flag as arg1, '-' as arg2, {{ pdelta.flag_s('flag') }} as result from flags
union all
select 'j', s.flag, t.flag, {{ pdelta.flag_j('s.flag', 't.flag') }}
from flags s cross join flags t where s.flag in ('pre', 'comp')
union all
select 'fig6', case when k <= 4 then 'delta' else 'no_delta' end,
       coalesce(n.`_pdelta_flag`, 'none'), coalesce(f.`_pdelta_type`, 'none')
from fig6 f left join fig6_nabla n using (k)
union all
select 'net', split(k, '>')[0], split(k, '>')[1], coalesce(`_pdelta_type`, 'none') from net
