{#- The body of a CTE that Spark computes once per statement however many places read it (`sql`: a
    SELECT). Spark inlines a deterministic CTE at every reference, and in a CTAS each copy plans and
    reads its tables again (a Delta scan costs a file-listing job each, even under the Kernel reader);
    a CTE that holds a non-deterministic expression it keeps whole, computes once and hands to
    each reader through one reused exchange (Spark's InlineCTE, SPARK-36447). `rand() >= 0` holds
    for every row (rand() is in [0, 1)), so the rows are the SELECT's own. Worth it for a small
    result read twice or more, like the diff plan's affected keys (its stage at 1M rows, chain:
    26 -> 22 Spark jobs); a large one would go through a shuffle. -#}
{% macro shared_cte(sql) %}
  {{ return('select * from (' ~ sql ~ ') as shared where rand() >= 0') }}
{% endmacro %}
