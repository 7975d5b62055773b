{#- For `make test` only: rows in the paper's Cust feed that no refresh would ever read, so the
    local lane can check that paper_d's next refresh refuses them instead of losing them.
    kind 'null_seq': a copy of one feed row without a sequence; 'behind': a copy of the rows
    with the lowest sequence, which paper_d consumed already. -#}
{% macro paper_feed_fault(kind) %}
  {%- set feed = ref('paper_cust_changes') -%}
  {%- call statement('paper_feed_fault') -%}
    insert into {{ feed }}
    {% if kind == 'behind' -%}
      select * from {{ feed }} where `_pdelta_seq` = (select min(`_pdelta_seq`) from {{ feed }})
    {%- elif kind == 'null_seq' -%}
      select * except (`_pdelta_seq`), cast(null as bigint) from {{ feed }} where `_pdelta_seq` is not null limit 1
    {%- else -%}
      {{ exceptions.raise_compiler_error("paper_feed_fault: kind is 'behind' or 'null_seq'") }}
    {%- endif %}
  {%- endcall -%}
{% endmacro %}
