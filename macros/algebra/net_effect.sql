{#- Net effect per key of the change-feed rows a refresh consumes (several batches may touch one
    key): the first change tells what the row was before, the last what it is now; the shared
    net table (delta_model().net) maps that pair to one of the six sets, or to no change.
    Output: key, _pdelta_type, last_image and first_old_image (structs of the attributes).
    The per-key aggregates are one struct column: terms that read the net effect twice (ΔR and ∇R)
    then need the same columns of the feed, so Spark plans one aggregate and Delta lists the
    feed's files once per statement instead of once per set of columns (column pruning would
    otherwise give each reference its own aggregate and its own file-listing job). -#}
{% macro net_effect_sql(changes, key, attrs) %}
  {%- set dm = pdelta.delta_model() -%}
  {%- set q = adapter.quote -%}
  {%- set img -%}struct({% for c in attrs %}{{ q(c) }}{% if not loop.last %}, {% endif %}{% endfor %}){%- endset -%}
  {%- set before -%}
    struct({% for c in attrs %}`_pdelta_before`.{{ q(c) }} as {{ q(c) }}{% if not loop.last %}, {% endif %}{% endfor %})
  {%- endset -%}
  select {% for k in key %}{{ q(k) }}, {% endfor %}
         case{% for b, a, t in dm['net'] %}
           when agg.first_before = '{{ b }}' and agg.last_after = '{{ a }}'
             then {% if t %}'{{ t }}'{% else %}null{% endif %}{% endfor %}
         end as `_pdelta_type`,
         agg.last_image as last_image, agg.first_old_image as first_old_image
  from (
    select {% for k in key %}{{ q(k) }}, {% endfor %}named_struct(
             'first_before', case min_by(`_pdelta_type`, `_pdelta_seq`){% for t, b in dm['before'].items() %}
                               when '{{ t }}' then '{{ b }}'{% endfor %} end,
             'last_after', case max_by(`_pdelta_type`, `_pdelta_seq`){% for t, a in dm['after'].items() %}
                             when '{{ t }}' then '{{ a }}'{% endfor %} end,
             'last_image', max_by({{ img }}, `_pdelta_seq`),
             'first_old_image', min_by(case `_pdelta_type` when 'del' then {{ img }} when 'upd' then {{ before }} end,
                                       `_pdelta_seq`)) as agg
    from {{ changes }}
    group by {% for k in key %}{{ q(k) }}{% if not loop.last %}, {% endif %}{% endfor %}
  ) as per_key
{%- endmacro %}
