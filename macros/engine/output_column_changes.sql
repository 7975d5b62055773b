{#- How a dimension view's output columns changed between two declaration records' `output`
    lists ([name, alias, source column], declaration order), matched the way Spark names columns
    (case-insensitively, the relation columns they come from too):
      renamed    [[old, new]]: the new column takes its values from the relation column an old one
                 took them from, and the old name is gone (the first such old column, when several)
      dropped    old columns neither kept nor renamed
      added      new columns from a relation column no old column (left) took its values from
      resourced  columns kept by name whose values now come from another relation column
      recased    [[old, new]] columns kept with only the case of their name changed
      order_kept whether the columns the view keeps (renamed in place) stay in the same order
    Used by declaration_differences (the phrases) and declaration_adaptation (what is adapted). -#}
{% macro output_column_changes(built_output, now_output) %}
  {%- set now_names = now_output | map('first') | map('lower') | list -%}
  {%- set renamed = [] -%}{%- set added = [] -%}{%- set resourced = [] -%}{%- set recased = [] -%}
  {%- set taken = [] -%}
  {%- for o in now_output -%}
    {%- set by_name = [] -%}
    {%- for b in built_output if b[0] | lower == o[0] | lower -%}{%- do by_name.append(b) -%}{%- endfor -%}
    {%- if by_name -%}
      {%- if by_name[0][1] != o[1] or by_name[0][2] | lower != o[2] | lower -%}{%- do resourced.append(o[0]) -%}
      {%- endif -%}
      {#- a re-sourced column's name may change its case too: both are adapted -#}
      {%- if by_name[0][0] != o[0] -%}{%- do recased.append([by_name[0][0], o[0]]) -%}
      {%- endif -%}
    {%- else -%}
      {%- set source = [] -%}
      {%- for b in built_output if b[1] == o[1] and b[2] | lower == o[2] | lower and b[0] | lower not in now_names
                                  and b[0] not in taken -%}
        {%- do source.append(b[0]) -%}
      {%- endfor -%}
      {%- if source -%}
        {%- do taken.append(source[0]) -%}
        {%- do renamed.append([source[0], o[0]]) -%}
      {%- else -%}
        {%- do added.append(o[0]) -%}
      {%- endif -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set dropped = [] -%}
  {%- for b in built_output if b[0] | lower not in now_names and b[0] not in taken -%}
    {%- do dropped.append(b[0]) -%}
  {%- endfor -%}
  {#- the old columns the new view keeps, under their new names, in the table's order -#}
  {%- set new_name_of = {} -%}
  {%- for pair in renamed -%}{%- do new_name_of.update({pair[0]: pair[1]}) -%}{%- endfor -%}
  {%- set kept_in_table_order = [] -%}
  {%- for b in built_output if b[0] not in dropped -%}
    {%- do kept_in_table_order.append((new_name_of.get(b[0], b[0])) | lower) -%}
  {%- endfor -%}
  {%- set kept_in_new_order = [] -%}
  {%- for o in now_output if o[0] not in added -%}{%- do kept_in_new_order.append(o[0] | lower) -%}{%- endfor -%}
  {{ return({'renamed': renamed, 'dropped': dropped, 'added': added, 'resourced': resourced, 'recased': recased,
             'order_kept': kept_in_table_order == kept_in_new_order}) }}
{% endmacro %}
