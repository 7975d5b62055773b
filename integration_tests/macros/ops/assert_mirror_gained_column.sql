{#- make test's local lane, after paper_cust_changes gained `cname_len` (paper_feed_column: true)
    and paper_cust_mirror was rebuilt for it (on_schema_change): the mirror is Cust's new state
    with the new column, which holds length(cname) for every key the feed changed and NULL for
    the rows only the snapshot (taken before the column existed) gives (the paper's feed changes
    every customer D keeps, so none is NULL there). Fails otherwise. -#}
{% macro assert_mirror_gained_column() %}
  {%- set sql -%}
    with expected as (
      select n.cid, n.cname, n.cdiscount, n.caddr,
             case when n.cid in (select cid from {{ ref('paper_cust_changes') }}) then length(n.cname) end as cname_len
      from {{ ref('paper_cust_new') }} as n
    ), got as (
      select cid, cname, cdiscount, caddr, cname_len from {{ ref('paper_cust_mirror') }}
    )
    select (select count(*) from (select * from expected except all select * from got)),
           (select count(*) from (select * from got except all select * from expected)),
           (select count(*) from got), (select count(cname_len) from got)
  {%- endset -%}
  {%- set row = run_query(sql).rows[0] -%}
  {%- if row[0] != 0 or row[1] != 0 or row[3] == 0 -%}
    {{ exceptions.raise_compiler_error('paper_cust_mirror is not Cust\'s new state with the feed\'s new column: '
          ~ row[0] ~ ' expected row(s) missing, ' ~ row[1] ~ ' unexpected; ' ~ row[3] ~ ' of ' ~ row[2]
          ~ ' rows hold cname_len') }}
  {%- endif -%}
  {{ log('pdelta: paper_cust_mirror holds cname_len in ' ~ row[3] ~ ' of its ' ~ row[2]
         ~ ' rows (the keys the feed changed)', info=true) }}
{% endmacro %}
