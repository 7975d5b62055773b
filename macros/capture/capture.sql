{#- The body of a capture model:

      {%- set c = {'raw': 'cust_debezium', 'format': 'debezium_postgres_default', 'key': ['cid'],
                   'columns': {'cid': 'int', 'cname': 'string', 'caddr': 'int'}} -%}
      {{ config(materialized='capture', pdelta_capture=c) }}
      {{ pdelta.capture(c) }}

    It registers the raw relation (and the current table of change tracking) as dependencies and
    compiles to an empty SELECT of the canonical feed's shape; the materialization does the work. -#}
{% macro capture(declaration) %}
  {%- set m = pdelta.normalize_capture(declaration, model.name) -%}
  {%- set raw = pdelta.resolve_relation(m['raw']) -%}
  {%- if m['current'] %}{%- set current = pdelta.resolve_relation(m['current']) -%}{% endif -%}
  {%- set q = adapter.quote -%}
  select {% for c in m['key'] + m['attrs'] %}cast(null as {{ m['types'][c] }}) as {{ q(c) }}, {% endfor %}
         cast(null as struct<{% for c in m['attrs'] %}{{ q(c) }}: {{ m['types'][c] }}{% if not loop.last %},
                             {% endif %}{% endfor %}>) as `_pdelta_before`,
         cast(null as string) as `_pdelta_type`, cast(null as bigint) as `_pdelta_seq`
  where false
{%- endmacro %}
