{#- How a mirror or capture a run would refresh (`running`, its table_declaration_record) differs
    from the one its table was built as (`built_with`, kept in the batch log), as short phrases
    for the log: columns added, dropped or retyped, and every other entry that changed (`key`,
    `changes`, `snapshot`, `format`, …). Empty when they agree, and when nothing was kept (a table
    built before pdelta kept it). -#}
{% macro table_declaration_differences(built_with, running) %}
  {%- if built_with is none -%}{{ return([]) }}{%- endif -%}
  {%- set built, now = built_with['extent'], running['extent'] -%}
  {%- set out = [] -%}
  {%- set built_types, now_types = {}, {} -%}
  {%- for c in built['columns'] -%}{%- do built_types.update({c[0]: c[1]}) -%}{%- endfor -%}
  {%- for c in now['columns'] -%}{%- do now_types.update({c[0]: c[1]}) -%}{%- endfor -%}
  {%- set added = now_types.keys() | reject('in', built_types.keys() | list) | list -%}
  {%- set dropped = built_types.keys() | reject('in', now_types.keys() | list) | list -%}
  {%- if added -%}{%- do out.append('columns added: ' ~ added | join(', ')) -%}{%- endif -%}
  {%- if dropped -%}{%- do out.append('columns dropped: ' ~ dropped | join(', ')) -%}{%- endif -%}
  {%- for name, type in now_types.items() if name in built_types and built_types[name] != type -%}
    {%- do out.append('column ' ~ name ~ ' ' ~ built_types[name] ~ ' -> ' ~ type) -%}
  {%- endfor -%}
  {%- for part in (now.keys() | list + built.keys() | list) | unique | sort if part != 'columns' -%}
    {%- if tojson(now.get(part), sort_keys=true) != tojson(built.get(part), sort_keys=true) -%}
      {%- do out.append(part ~ ' ' ~ tojson(built.get(part)) ~ ' -> ' ~ tojson(now.get(part))) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}
