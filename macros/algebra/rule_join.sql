{#- Join rule for S ⋈_{S.a = T.pk} T, paper §5.6:
      Δ(S ⋈ T) = (S_new ⋈ ΔT) ∪ (ΔS ⋈ T_new)
      ∇(S ⋈ T) = π_{…,j(S.flag,T.flag)}(S_old ⋈ ∇T)
               ∪ π_{…,j(S.flag,T.flag)}(∇S ⋈ T_old)
               ∪ π_{…,NULL…,s(flag)}(σ_{flag≠comp} ∇S)
    Partial rows of S (flag up/ups) lack the join column's old value, so they take part only
    in the third term. Each term is its own macro so the generated SQL has one CTE per term.
    `on` is a list of [S column, T column] pairs.

    S is itself a join (the root and the relations joined before T), and S_new / S_old are as
    large as the view. The two terms that read them are written key-first (join_key_first_sql):
    from T's delta-sized set out through the relations of S, so no term joins S's whole states
    before it meets the batch's keys (DESIGN.md §5). Inner equi-joins commute, so the rows are
    the same. S_old ⋈ ∇T expands the old state: (S_new − ΔS) ⋈ ∇T ∪ ∇S ⋈ ∇T. -#}
{% macro _join_on(on, s='s', t='t') %}
  {%- set q = adapter.quote -%}
  {%- for p in on %}{{ s }}.{{ q(p[0]) }} = {{ t }}.{{ q(p[1]) }}{% if not loop.last %} and {% endif %}{% endfor -%}
{% endmacro %}

{#- the join of `s` and `t` on the same key columns `key`: s.k = t.k for each k, joined by `and` -#}
{% macro _key_join_on(key, s='s', t='t') %}
  {%- set pairs = [] -%}
  {%- for k in key -%}{%- do pairs.append([k, k]) -%}{%- endfor -%}
  {{ return(pdelta._join_on(pairs, s, t)) }}
{% endmacro %}

{% macro _join_cols(s_cols, t_cols) %}
  {%- for c in s_cols %}s.{{ adapter.quote(c) }}, {% endfor %}
  {% for c in t_cols %}t.{{ adapter.quote(c) }}{% if not loop.last %}, {% endif %}{% endfor -%}
{% endmacro %}

{#- S_new ⋈ T_new: the view's new state up to this join -#}
{% macro join_new_sql(s_new, t_new, s_cols, t_cols, on) %}
  select {{ pdelta._join_cols(s_cols, t_cols) }} from {{ s_new }} as s
  join {{ t_new }} as t on {{ pdelta._join_on(on) }}
{%- endmacro %}

{#- Δ terms: S_new ⋈ ΔT and ΔS ⋈ T_new -#}
{% macro rule_join_delta_term_sql(s_rel, t_rel, s_cols, t_cols, on) %}
  select {{ pdelta._join_cols(s_cols, t_cols) }} from {{ s_rel }} as s
  join {{ t_rel }} as t on {{ pdelta._join_on(on) }}
{%- endmacro %}

{#- S_new ⋈ X for a delta-sized X (ΔT or ∇T) that joins S on columns of S's relation `p`:
    X, then p, then p's parent … up to the root, then S's other relations in join order, each
    joined on its own foreign key. Each step is a subquery whose delta-sized side is hinted
    for broadcast, so a relation's state is only scanned, never shuffled: Spark estimates a
    join's size as the product of its sides and would otherwise plan the next join as a
    sort-merge join of the whole state. Column names are unique across relations (`alias__col`).
    `tree`: alias -> {new, cols, to, on: [[parent col, col]]} for S's relations; `s_order`:
    S's aliases in join order. With `anti` (S's insert set), the rows whose S key (`s_key`)
    is in it are left out: that is S_new − ΔS. With `flag`, X's `_pdelta_flag` is kept (∇T). -#}
{% macro join_key_first_sql(x, t_cols, tree, s_order, p, on, anti=none, s_key=[], flag=false) %}
  {%- set q = adapter.quote -%}
  {%- set path = [p] -%}
  {%- for _ in s_order -%}
    {%- if tree[path[-1]]['to'] -%}{%- do path.append(tree[path[-1]]['to']) -%}{%- endif -%}
  {%- endfor -%}
  {%- set steps = [[p, on]] -%}
  {%- for a in path[1:] -%}{%- do steps.append([a, tree[path[loop.index0]]['on']]) -%}{%- endfor -%}
  {%- for a in s_order if a not in path -%}
    {%- set flipped = [] -%}{%- for pr in tree[a]['on'] -%}{%- do flipped.append([pr[1], pr[0]]) -%}{%- endfor -%}
    {%- do steps.append([a, flipped]) -%}
  {%- endfor -%}
  {#- steps: [relation, [[its column, the joined side's column]]] -#}
  {%- set ns = namespace(sql='select * from ' ~ x) -%}
  {%- for st in steps -%}
    {%- set k = 'k' ~ loop.index -%}
    {%- set ns.sql = 'select /*+ BROADCAST(' ~ k ~ ') */ * from (' ~ ns.sql ~ ') as ' ~ k ~ ' join '
        ~ tree[st[0]]['new'] ~ ' as r on ' ~ pdelta._key_first_on(st[1], k) -%}
  {%- endfor -%}
  {%- if anti -%}
    {%- set pairs = [] -%}{%- for c in s_key -%}{%- do pairs.append([c, c]) -%}{%- endfor -%}
    {%- set ns.sql = 'select * from (' ~ ns.sql ~ ') as k left anti join ' ~ anti ~ ' as r on '
        ~ pdelta._key_first_on(pairs, 'k') -%}
  {%- endif %}
  select {% for a in s_order %}{% for c in tree[a]['cols'] %}{{ q(c) }}, {% endfor %}{% endfor %}
         {% for c in t_cols %}{{ q(c) }}{% if not loop.last or flag %}, {% endif %}{% endfor %}
         {% if flag %}`_pdelta_flag`{% endif %}
  from ({{ ns.sql }}) as k
{%- endmacro %}

{#- r.<relation column> = <k>.<joined column> for each pair -#}
{% macro _key_first_on(pairs, k) %}
  {%- set q = adapter.quote -%}
  {%- for pr in pairs %}r.{{ q(pr[0]) }} = {{ k }}.{{ q(pr[1]) }}{% if not loop.last %} and {% endif %}{% endfor -%}
{% endmacro %}

{#- Δ term 1: S_new ⋈ ΔT, key-first -#}
{% macro rule_join_delta_s_new_term_sql(t_delta, s_cols, t_cols, tree, s_order, p, on) %}
  select {% for c in s_cols + t_cols %}{{ adapter.quote(c) }}{% if not loop.last %}, {% endif %}{% endfor %}
  from ({{ pdelta.join_key_first_sql(t_delta, t_cols, tree, s_order, p, on) }}) as k
{%- endmacro %}

{#- ∇ term 1: S_old ⋈ ∇T, S rows complete (pre or comp). S_old = π_{…,pre}(S_new − ΔS) ∪ ∇S
    (old_state_sql), so the term is the preserved rows, key-first, and ∇S ⋈ ∇T. -#}
{% macro rule_join_nabla_s_old_term_sql(s_delta, s_nabla, t_nabla, s_cols, t_cols, s_key, tree, s_order, p, on) %}
  select {% for c in s_cols + t_cols %}{{ adapter.quote(c) }}, {% endfor %}
         {{ pdelta.flag_j("'pre'", '`_pdelta_flag`') }} as `_pdelta_flag`
  from ({{ pdelta.join_key_first_sql(t_nabla, t_cols, tree, s_order, p, on, s_delta, s_key, true) }}) as k
  union all
  select {{ pdelta._join_cols(s_cols, t_cols) }},
         {{ pdelta.flag_j('s.`_pdelta_flag`', 't.`_pdelta_flag`') }} as `_pdelta_flag`
  from {{ s_nabla }} as s join {{ t_nabla }} as t on {{ pdelta._join_on(on) }}
  where s.`_pdelta_flag` in ('pre', 'comp')
{%- endmacro %}

{#- ∇ term 2: ∇S ⋈ T_old, S rows complete (comp) -#}
{% macro rule_join_nabla_t_old_term_sql(s_nabla, t_old, s_cols, t_cols, on) %}
  select {{ pdelta._join_cols(s_cols, t_cols) }},
         {{ pdelta.flag_j('s.`_pdelta_flag`', 't.`_pdelta_flag`') }} as `_pdelta_flag`
  from {{ s_nabla }} as s join {{ t_old }} as t on {{ pdelta._join_on(on) }}
  where s.`_pdelta_flag` = 'comp'
{%- endmacro %}

{#- ∇ term 3: partial rows of ∇S, T's columns NULL, flag through s -#}
{% macro rule_join_nabla_partial_term_sql(s_nabla, s_cols, t_cols) %}
  select {% for c in s_cols %}s.{{ adapter.quote(c) }}, {% endfor %}
         {% for c in t_cols %}null as {{ adapter.quote(c) }}, {% endfor %}
         {{ pdelta.flag_s('s.`_pdelta_flag`') }} as `_pdelta_flag`
  from {{ s_nabla }} as s
  where s.`_pdelta_flag` <> 'comp'
{%- endmacro %}
