{#- The dimension views, mirrors and captures of the project whose batch log's kept state (the table
    property `pdelta.state` each commit writes, which refreshes read instead of scanning the log)
    differs from the state the log's rows give, as rows (model, kept, scanned): a singular data
    test is

      {{ pdelta.batch_log_state_drift_sql() }}

    (tests/dbt/batch_log_state_kept.sql, which runs in every project that installs pdelta: in make
    test, the paper lane and after every randomized refresh). A log without the
    property is no drift (it is read from its rows). Data values go into the result as literals. -#}
{% macro batch_log_state_drift_sql() %}
  {%- set parts = [] -%}
  {%- if execute -%}
    {%- set logs = [] -%}
    {%- for node in graph.nodes.values() if node.resource_type == 'model'
          and node.config.materialized in ['dimension_view', 'mirror', 'capture']
          and node.package_name == project_name -%}
      {%- set rel = adapter.get_relation(database=node.database, schema=node.schema, identifier=node.alias) -%}
      {%- set batches = none if rel is none else pdelta.meta_relation(rel, 'batches') -%}
      {%- if batches is not none and pdelta.relation_exists(batches) -%}
        {%- set kept = pdelta._kept_log_state(batches) -%}
        {%- if kept is not none -%}
          {%- do logs.append({'model': node.name, 'batches': batches, 'kept': kept}) -%}
        {%- endif -%}
      {%- endif -%}
    {%- endfor -%}
    {#- every log's rows in one query, each branch labelled in its last column with its position in
        `logs` (one statement instead of one per log: a data test that runs after every refresh), through
        Delta's Kernel reader (read_query): each log has a version the classic reader has not read yet -#}
    {%- set rows_of = {} -%}
    {%- if logs -%}
      {%- set branches = [] -%}
      {%- for log in logs -%}
        {%- do branches.append('select *, ' ~ loop.index0 ~ ' as `log` from ('
              ~ pdelta._log_rows_sql(log['batches']) ~ ') as l') -%}
      {%- endfor -%}
      {%- set read = pdelta.read_query(branches | join('\nunion all\n'), logs | map(attribute='batches') | list) -%}
      {%- for row in read.rows -%}
        {%- do rows_of.setdefault(row[-1], []).append(row) -%}
      {%- endfor -%}
    {%- endif -%}
    {%- for log in logs -%}
      {%- set scanned = pdelta._fold_log_rows(rows_of.get(loop.index0, []))['state'] -%}
      {%- if tojson(log['kept'], sort_keys=true) != tojson(scanned, sort_keys=true) -%}
        {%- do parts.append('select ' ~ pdelta.sql_literal(log['model']) ~ ' as model, '
              ~ pdelta.sql_literal(tojson(log['kept'])) ~ ' as kept, '
              ~ pdelta.sql_literal(tojson(scanned)) ~ ' as scanned') -%}
      {%- endif -%}
    {%- endfor -%}
  {%- endif -%}
  {{ return(parts | join('\nunion all\n') if parts
            else 'select cast(null as string) as model, cast(null as string) as kept,'
                 ~ ' cast(null as string) as scanned where false') }}
{% endmacro %}
