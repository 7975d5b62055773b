{#- Small SQL builders shared by the capture formats. Every column name is quoted and every name
    used as a map key goes through sql_literal: raw data never becomes SQL text. -#}

{#- map(name -> value as string) over typed columns of `alias`: the common form every format
    reduces an image to, so presence (a key in the map) and value (possibly NULL) stay apart -#}
{% macro capture_str_map(cols, alias) %}
  {%- if cols -%}
  map({% for c in cols %}{{ pdelta.sql_literal(c) }}, cast({{ alias }}.{{ adapter.quote(c) }} as string){%
      if not loop.last %}, {% endif %}{% endfor %})
  {%- else -%}cast(map() as map<string, string>){%- endif -%}
{% endmacro %}

{#- the raw columns that are neither declared nor meta: their non-NULL values end up in the
    image so the record is quarantined as `unknown_column` instead of losing them -#}
{% macro capture_extra_columns(raw, m) %}
  {%- set extra = [] -%}
  {%- for c in pdelta.capture_raw_columns(m, raw) if c not in m['types'] and c not in m['meta'] -%}
    {%- do extra.append(c) -%}
  {%- endfor -%}
  {{ return(extra) }}
{% endmacro %}

{#- the declared columns (from `cols`) plus the non-NULL extra columns of `alias` -#}
{% macro capture_image_map(cols, extra, alias) %}
  {%- if extra -%}
  map_concat({{ pdelta.capture_str_map(cols, alias) }},
             map_filter({{ pdelta.capture_str_map(extra, alias) }}, (k, v) -> v is not null))
  {%- else -%}{{ pdelta.capture_str_map(cols, alias) }}{%- endif -%}
{% endmacro %}

{#- the raw relation's columns as {name: type}, described once per run and kept in `m` -#}
{% macro capture_raw_columns(m, raw) %}
  {%- if 'raw_columns' not in m -%}
    {%- set cols = {} -%}
    {%- for c in adapter.get_columns_in_relation(raw) -%}{%- do cols.update({c.name: c.dtype | lower}) -%}{%- endfor -%}
    {%- do m.update({'raw_columns': cols, 'raw_relation': raw | string}) -%}
  {%- endif -%}
  {{ return(m['raw_columns']) }}
{% endmacro %}

{#- a raw position/sequence column as bigint: timestamps as epoch microseconds, dates as days -#}
{% macro capture_bigint_expr(m, col, alias='r') %}
  {%- set ns = namespace(t=m['raw_columns'].get(col, '')) -%}
  {%- if ns.t == '' -%}
    {{ exceptions.raise_compiler_error("pdelta capture: raw relation " ~ m['raw_relation']
                                       ~ " has no column `" ~ col ~ "`") }}
  {%- elif ns.t.startswith('timestamp') -%}unix_micros(cast({{ alias }}.{{ adapter.quote(col) }} as timestamp))
  {%- elif ns.t == 'date' -%}unix_date({{ alias }}.{{ adapter.quote(col) }})
  {%- else -%}try_cast({{ alias }}.{{ adapter.quote(col) }} as bigint)
  {%- endif -%}
{% endmacro %}

{#- the batch's range of a position expression: (lo, hi] -#}
{% macro capture_range(pos_sql, lo, hi) %}
  {%- if hi is none -%}false
  {%- else -%}{% if lo is not none %}{{ pos_sql }} > {{ lo | int }} and {% endif %}{{ pos_sql }} <= {{ hi | int }}
  {%- endif -%}
{% endmacro %}

{#- a raw op code -> canonical set, by the (configured) op table -#}
{% macro capture_op_case(op_sql, ops) %}
  case cast({{ op_sql }} as string){% for code, t in ops.items() %} when {{ pdelta.sql_literal(code | string) }}
       then {{ pdelta.sql_literal(t) }}{% endfor %} end
{%- endmacro %}

{#- is column `c` present in image map `mp`? (a key of the map whose value is not the
    placeholder a source writes for a value it did not log) -#}
{% macro capture_present(mp, c, placeholder) %}
  (coalesce(map_contains_key({{ mp }}, {{ pdelta.sql_literal(c) }}), false)
  {%- if placeholder %} and not coalesce(try_element_at({{ mp }}, {{ pdelta.sql_literal(c) }})
                                         = {{ pdelta.sql_literal(placeholder) }}, false){% endif %})
{%- endmacro %}

{#- `prefix0 and prefix1 and …` over the attribute positions (true for none) -#}
{% macro capture_all_of(prefix, attrs) %}
  ({% for c in attrs %}`{{ prefix }}{{ loop.index0 }}` and {% endfor %}true)
{%- endmacro %}

{#- the names of the attributes whose flag `prefix<i>` is false -#}
{% macro capture_missing_of(prefix, attrs) %}
  filter(array({% for c in attrs %}case when not `{{ prefix }}{{ loop.index0 }}` then {{ pdelta.sql_literal(c) }} end,
               {% endfor %}cast(null as string)), x -> x is not null)
{%- endmacro %}
