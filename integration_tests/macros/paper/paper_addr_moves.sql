{#- For `make test` only: the address `aid` moves to city `acity` after the views last read Addr —
    its state updated and a change-tracking row (`up`) appended to its feed with the next
    sequence — so that the next refresh finds it pending. -#}
{% macro paper_addr_moves(aid, acity) %}
  {%- set state, feed = ref('paper_addr'), ref('paper_addr_changes') -%}
  {%- call statement('paper_addr_moves_state') -%}
    update {{ state }} set acity = {{ pdelta.sql_literal(acity) }} where aid = {{ aid | int }}
  {%- endcall -%}
  {%- call statement('paper_addr_moves_feed') -%}
    insert into {{ feed }}
    select aid, acity, acountry, cast(null as struct<acity: string, acountry: string>), 'up',
           (select max(`_pdelta_seq`) + 1 from {{ feed }})
    from {{ state }} where aid = {{ aid | int }}
  {%- endcall -%}
  {{ log('pdelta: address ' ~ aid ~ ' moved to ' ~ acity ~ ', pending in ' ~ feed, info=true) }}
{% endmacro %}
