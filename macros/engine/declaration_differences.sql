{#- How the declaration a view was built with (`built_with`, the declaration_record its batch log
    kept) differs from the one it runs now (`running`, its declaration_record), as short phrases
    for the log and for `pdelta explain`: output columns added, dropped or renamed, relations joined in or
    removed, and per relation a changed predicate, join, key, state or change feed. Empty when
    they agree, and when nothing was kept (a view built before pdelta kept it). -#}
{% macro declaration_differences(built_with, running) %}
  {%- if built_with is none -%}{{ return([]) }}{%- endif -%}
  {%- set built, now = built_with['extent'], running['extent'] -%}
  {%- set out = [] -%}
  {%- set columns = pdelta.output_column_changes(built['output'], now['output']) -%}
  {%- if columns['added'] -%}{%- do out.append('columns added: ' ~ columns['added'] | join(', ')) -%}{%- endif -%}
  {%- if columns['dropped'] -%}{%- do out.append('columns dropped: ' ~ columns['dropped'] | join(', ')) -%}{%- endif -%}
  {%- for pair in columns['renamed'] + columns['recased'] -%}
    {%- do out.append('column ' ~ pair[0] ~ ' renamed ' ~ pair[1]) -%}
  {%- endfor -%}
  {%- for o in now['output'] if o[0] in columns['resourced'] -%}
    {%- for b in built['output'] if b[0] | lower == o[0] | lower -%}
      {%- do out.append('column ' ~ o[0] ~ ' now comes from ' ~ o[1] ~ '.' ~ o[2]
                        ~ ' (was ' ~ b[1] ~ '.' ~ b[2] ~ ')') -%}
    {%- endfor -%}
  {%- endfor -%}
  {%- for alias in now['relations'].keys() if alias not in built['relations'] -%}
    {%- do out.append('relation ' ~ alias ~ ' joined in') -%}
  {%- endfor -%}
  {%- for alias in built['relations'].keys() if alias not in now['relations'] -%}
    {%- do out.append('relation ' ~ alias ~ ' removed') -%}
  {%- endfor -%}
  {%- set parts = [('where', 'predicate'), ('join', 'join'), ('key', 'key'), ('state', 'state'),
                   ('changes', 'change feed')] -%}
  {%- for alias, r in now['relations'].items() if alias in built['relations'] -%}
    {%- set b = built['relations'][alias] -%}
    {%- for part, label in parts if tojson(r[part], sort_keys=true) != tojson(b[part], sort_keys=true) -%}
      {%- do out.append(alias ~ ': ' ~ label ~ ' ' ~ ('none' if b[part] is none else tojson(b[part]))
                        ~ ' -> ' ~ ('none' if r[part] is none else tojson(r[part]))) -%}
    {%- endfor -%}
  {%- endfor -%}
  {%- if now['root'] != built['root'] -%}
    {%- do out.append('root ' ~ built['root'] ~ ' -> ' ~ now['root']) -%}
  {%- endif -%}
  {%- if not out and tojson(now, sort_keys=true) != tojson(built, sort_keys=true) -%}
    {%- do out.append('column order or the key changed') -%}
  {%- endif -%}
  {{ return(out) }}
{% endmacro %}
