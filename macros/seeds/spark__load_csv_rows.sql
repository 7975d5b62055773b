{#- Seed loading that keeps NULLs NULL and any text intact, on every connection method.
    dbt-spark's session cursor formats bindings as '%s' % value without escaping, so an empty
    cell arrives as the string 'None' and an apostrophe breaks the INSERT. Here an empty cell
    is a typed NULL in the statement (no binding), and text is bound hex-encoded and decoded
    by Spark (unhex), so no driver ever has quoting to get right. dbt looks up its own macros'
    implementations in the root project only: a project turns this on with a one-line
    spark__load_csv_rows of its own that returns pdelta.spark__load_csv_rows
    (docs/use-in-your-project.md, step 2; integration_tests/macros/load_csv_rows.sql). -#}
{% macro spark__load_csv_rows(model, agate_table) %}
  {%- set batch_size = get_batch_size() -%}
  {%- set column_override = model['config'].get('column_types', {}) -%}
  {%- set statements = [] -%}
  {%- for chunk in agate_table.rows | batch(batch_size) -%}
    {%- set bindings = [] -%}
    {%- set sql -%}
      insert into {{ this.render() }} values
      {% for row in chunk -%}
        ({%- for col_name in agate_table.column_names -%}
          {%- set type = column_override.get(col_name, adapter.convert_type(agate_table, loop.index0)) -%}
          {%- set value = row[loop.index0] -%}
          {%- if value is none -%}
            cast(null as {{ type }})
          {%- elif value is string -%}
            {%- do bindings.append(value.encode('utf-8').hex()) -%}
            cast(cast(unhex({{ get_binding_char() }}) as string) as {{ type }})
          {%- else -%}
            {%- do bindings.append(value) -%}
            cast({{ get_binding_char() }} as {{ type }})
          {%- endif -%}
          {%- if not loop.last %}, {% endif -%}
        {%- endfor -%})
        {%- if not loop.last %},{% endif %}
      {% endfor -%}
    {%- endset -%}
    {%- do adapter.add_query(sql, bindings=bindings, abridge_sql_log=True) -%}
    {%- if loop.index0 == 0 -%}{%- do statements.append(sql) -%}{%- endif -%}
  {%- endfor -%}
  {{ return(statements[0]) }}
{% endmacro %}
