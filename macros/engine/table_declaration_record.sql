{#- What defines the rows of a mirror or a capture, as {v, fingerprint, extent}: `extent` is a
    mapping whose `columns` are the table's key and attribute columns with their types ([[name,
    type]]) and whose other entries (the mirror's feed, snapshot and key; the capture's raw
    relation, format and parse settings) say where the rows come from. The full build keeps it in
    the batch log (`pdelta.declaration`), and each later run compares the table it runs now with
    it (table_declaration_differences): a difference rebuilds the table, or stops the run
    (on_schema_change: fail). -#}
{% macro table_declaration_record(extent) %}
  {{ return({'v': 1, 'fingerprint': local_md5(tojson(extent, sort_keys=true)), 'extent': extent}) }}
{% endmacro %}
