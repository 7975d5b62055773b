{#- The inputs of a view that another pdelta view feeds and that were rebuilt in full after what
    this view consumed of them (`consumed`: alias -> the batch log's watermark), as reasons for
    the log and for `pdelta explain`: a refresh cannot apply such a feed (its `full` batch is no
    change set), so the view rebuilds too. `inputs`: freeze_inputs' records (`rebuilt_at`). -#}
{% macro inputs_rebuilt_since(view, inputs, consumed) %}
  {%- set reasons = [] -%}
  {%- for alias in view['order'] -%}
    {%- set rebuilt_at, lo = inputs[alias]['rebuilt_at'], consumed.get(alias) -%}
    {%- if rebuilt_at is not none and (lo is none or rebuilt_at > lo) -%}
      {%- do reasons.append('input `' ~ alias ~ '` (' ~ inputs[alias]['changes'] ~ ') was rebuilt in full at its batch '
                            ~ rebuilt_at ~ ', after what this view consumed') -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(reasons) }}
{% endmacro %}
