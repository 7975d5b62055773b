{#- A quoted column list, each with an optional prefix (`x.`); both refresh plans use it. -#}
{% macro _cols(cols, prefix='') %}
  {%- set out = [] -%}{%- for c in cols -%}{%- do out.append(prefix ~ adapter.quote(c)) -%}{%- endfor -%}
  {{ return(out | join(', ')) }}
{% endmacro %}
