{#- Delta's Kernel-based reader for the statements of a refresh that read Delta tables and write
    none (Delta 4.x's V2 connector: `spark.databricks.delta.v2.enableMode = STRICT` for the one
    statement). It replays each table's Delta log on the driver, where the classic reader runs
    Spark jobs to rebuild the snapshot of every new table version a statement reads: the first
    read after each commit, which in a refresh is nearly every read (the feeds were appended to,
    the view and its logs were written by the last batch). Measured on the chain at 1M rows and
    0.1 % (2 cores): the feed scan 2.0–2.4 s and 19 jobs became 0.6–0.7 s and 3 jobs.

    The classic reader stays for everything else: the Kernel reader refuses DELETE, MERGE,
    `describe history` and table_changes by name, so the switch is made around single statements
    (the cost model's counts, the feed scan and its check examples, the lag check, the stage, the rules
    plan's scratch tables, a full build's CTAS, which Delta still writes with its classic writer)
    and only when every relation the statement reads is a table: a view may hide anything (a user's
    feed over table_changes, say). `pdelta_delta_reader` (config or var; rebuild_options checks it):
    `kernel` (default) or `classic` (no switch). On dbt-databricks nothing is switched (a SQL
    warehouse refuses the setting; Databricks reads Delta its own way). -#}

{#- Switches the session to the Kernel reader for the next statement, which reads `reads` (relations)
    and writes no Delta table; returns whether it switched (kernel_reads_off's argument). No `reads`
    (none or empty): nothing is known of what the statement reads, so it stays on the classic reader -#}
{% macro kernel_reads_on(reads) %}
  {{ return(adapter.dispatch('kernel_reads_on', 'pdelta')(reads)) }}
{% endmacro %}

{% macro default__kernel_reads_on(reads) %}
  {{ return(false) }}
{% endmacro %}

{% macro spark__kernel_reads_on(reads) %}
  {%- if not reads or pdelta.delta_reader() != 'kernel' or not pdelta._setting_stays_with_the_model()
         or not pdelta._all_tables(reads) -%}{{ return(false) }}{%- endif -%}
  {%- call statement('delta_reader') -%}set spark.databricks.delta.v2.enableMode = STRICT{%- endcall -%}
  {{ return(true) }}
{% endmacro %}

{#- Back to the classic reader after kernel_reads_on (`switched`: its result): `reset` puts back the
    session's own value, its start-up setting or else Delta's default -#}
{% macro kernel_reads_off(switched) %}
  {%- if switched -%}
    {%- call statement('delta_reader') -%}reset spark.databricks.delta.v2.enableMode{%- endcall -%}
  {%- endif -%}
{% endmacro %}

{#- dbt-databricks dispatches to databricks__ before spark__ -#}
{% macro databricks__kernel_reads_on(reads) %}
  {{ return(false) }}
{% endmacro %}

{#- At the start of a pdelta model, before it writes: the session back to its own Delta reader. A statement
    that fails while switched (kernel_reads_on) ends its model before kernel_reads_off, and the session goes
    on under the Kernel reader: the next model of the run (or of the next dbt invocation in the same Python
    process, on the session method) would write under it, where DELETE and MERGE fail and `alter table ...
    set tblproperties` returns OK without changing the table (its batch log's kept state lost). Sent when
    the model or the project reads through the Kernel reader; `reset` of a setting nobody changed changes
    nothing, so another dbt thread on the same session is not disturbed. -#}
{% macro kernel_reads_reset() %}
  {{ return(adapter.dispatch('kernel_reads_reset', 'pdelta')()) }}
{% endmacro %}

{% macro default__kernel_reads_reset() %}
{% endmacro %}

{% macro spark__kernel_reads_reset() %}
  {%- if pdelta.delta_reader() == 'kernel' or var('pdelta_delta_reader', 'kernel') == 'kernel' -%}
    {%- do pdelta.kernel_reads_off(true) -%}
  {%- endif -%}
{% endmacro %}

{% macro databricks__kernel_reads_reset() %}
{% endmacro %}

{#- the model's `pdelta_delta_reader`, else the project var's: kernel (default) or classic, as rebuild_options
    reads it (outside a model, as in `pdelta explain`'s operation: the var's) -#}
{% macro delta_reader() %}
  {{ return(pdelta.rebuild_options(config if model is defined and model is mapping else {})['delta_reader']) }}
{% endmacro %}

{#- whether a setting sent now reaches only this model's statements. dbt-spark's `session` method runs every
    dbt thread on one SparkSession, so with several threads a switch would reach another model's statements
    too: measured with two threads on one session (Delta 4.4), while one is switched the other's DELETE and
    MERGE fail, its INSERT is planned through Delta's Kernel writer and its `alter table ... set
    tblproperties` returns OK without changing the table (a batch log's kept state would be lost). Thrift and
    HTTP connections are sessions of their own. `target` leaves the method out: it comes from the
    credentials; `target.threads` includes `--threads`. -#}
{% macro _setting_stays_with_the_model() %}
  {%- set method = adapter.config.credentials.method | string | lower -%}
  {{ return(target.threads | int <= 1 or not method.endswith('session')) }}
{% endmacro %}

{#- whether every relation of `reads` is a table (no view, no SQL text), from dbt's relation cache -#}
{% macro _all_tables(reads) %}
  {%- for relation in reads -%}
    {%- if relation is string or relation is none -%}{{ return(false) }}{%- endif -%}
    {%- set found = adapter.get_relation(database=relation.database, schema=relation.schema,
                                         identifier=relation.identifier) -%}
    {%- if found is none or found.type != 'table' -%}{{ return(false) }}{%- endif -%}
  {%- endfor -%}
  {{ return(true) }}
{% endmacro %}

{#- run_query of `sql`, a statement that reads the relations `reads` and writes none, through the Kernel
    reader where kernel_reads_on allows it -#}
{% macro read_query(sql, reads) %}
  {%- set switched = pdelta.kernel_reads_on(reads) -%}
  {%- set result = run_query(sql) -%}
  {%- do pdelta.kernel_reads_off(switched) -%}
  {{ return(result) }}
{% endmacro %}

{#- the relations a refresh's statements over `inputs` (freeze_inputs') read: each input's state and
    feed, those of `aliases` only when given -#}
{% macro input_relations(inputs, aliases=none) %}
  {%- set out = [] -%}
  {%- for alias, inp in inputs.items() if aliases is none or alias in aliases -%}
    {%- do out.extend([inp['state'], inp['changes']]) -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}
