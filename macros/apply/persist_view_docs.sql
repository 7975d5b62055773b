{#- dbt's `persist_docs` for a relation pdelta maintains (dimension view, mirror, capture): with
    `persist_docs: {relation: true}` the model's description becomes the table's comment, with
    `{columns: true}` each documented column of `columns` (the relation's columns; none: read
    them) gets its description as the column's comment. What was written is kept as a fingerprint
    in the table's property `pdelta.docs`, written last: a run whose docs are unchanged reads that
    one property and writes nothing (a refresh stays one commit cheaper than dbt-spark's
    incremental models, which alter every column on every run); a full build, which replaces
    the table and its comments, writes them again. With `kept` ({'log': the relation's batch log,
    'docs': the log's `pdelta.docs` as batch_log_state read it, 'since_full': the batch of the
    table's last full build}), the fingerprint is kept in the log's property instead, with the
    full build it holds for: the run has read it already, so unchanged docs cost no statement.
    Returns the names of the statements run. -#}
{% macro persist_view_docs(relation, columns=none, kept=none) %}
  {%- set raw = config.get('persist_docs', {}) or {} -%}
  {%- if raw is not mapping -%}
    {{ exceptions.raise_compiler_error("persist_docs: expected a mapping like {relation: true, columns: true}, got "
                                       ~ raw) }}
  {%- endif -%}
  {%- set for_relation = raw.get('relation', false) -%}
  {%- set for_columns = raw.get('columns', false) -%}
  {%- if not for_relation and not for_columns -%}{{ return([]) }}{%- endif -%}
  {%- set docs = {'relation': model.description if for_relation and model.description else none, 'columns': {}} -%}
  {%- if for_columns -%}
    {%- set names = columns if columns is not none
          else adapter.get_columns_in_relation(relation) | map(attribute='name') | list -%}
    {%- set lower_names = names | map('lower') | list -%}
    {%- for name, col in model.columns.items() if col.get('description') and name | lower in lower_names -%}
      {%- do docs['columns'].update({names[lower_names.index(name | lower)]: col['description']}) -%}
    {%- endfor -%}
  {%- endif -%}
  {%- set fingerprint = local_md5(tojson(docs, sort_keys=true)) -%}
  {%- if kept is not none -%}
    {%- set record = {'v': 1, 'fingerprint': fingerprint, 'since_full': kept['since_full']} -%}
    {%- if kept['docs'] == record -%}{{ return([]) }}{%- endif -%}
  {%- else -%}
    {%- set on_table = [] -%}
    {%- for row in run_query('show tblproperties ' ~ relation).rows if row[0] == 'pdelta.docs' -%}
      {%- do on_table.append(row[1]) -%}
    {%- endfor -%}
    {%- if on_table == [fingerprint] -%}{{ return([]) }}{%- endif -%}
  {%- endif -%}
  {%- set ran = [] -%}
  {%- if docs['relation'] is not none -%}
    {%- call statement('persist_relation_docs') -%}
      comment on table {{ relation }} is {{ pdelta.sql_literal(docs['relation']) }}
    {%- endcall -%}
    {%- do ran.append('persist_relation_docs') -%}
  {%- endif -%}
  {%- for name, description in docs['columns'].items() -%}
    {%- call statement('persist_column_docs') -%}
      alter table {{ relation }} alter column {{ adapter.quote(name) }} comment {{ pdelta.sql_literal(description) }}
    {%- endcall -%}
    {%- do ran.append('persist_column_docs') -%}
  {%- endfor -%}
  {%- call statement('persist_docs_kept') -%}
    {%- if kept is not none %}
    alter table {{ kept['log'] }} set tblproperties ('pdelta.docs' = {{ pdelta.sql_literal(tojson(record)) }})
    {%- else %}
    alter table {{ relation }} set tblproperties ('pdelta.docs' = {{ pdelta.sql_literal(fingerprint) }})
    {%- endif %}
  {%- endcall -%}
  {%- do ran.append('persist_docs_kept') -%}
  {{ return(ran) }}
{% endmacro %}
