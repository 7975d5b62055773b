{#- Test-suite check (`dbt run-operation`): the stage the model's last refresh wrote is a table of
    the format `expected` (stage_format), read from `describe table extended` (its Provider). -#}
{% macro assert_stage_format(model_name, expected) %}
  {%- set stage = pdelta.meta_relation(ref(model_name), 'stage') -%}
  {%- set described = run_query('describe table extended ' ~ stage) -%}
  {%- set providers = [] -%}
  {%- for row in described.rows if row[0] == 'Provider' -%}{%- do providers.append(row[1] | lower) -%}{%- endfor -%}
  {%- if providers != [expected] -%}
    {{ exceptions.raise_compiler_error('pdelta: the stage ' ~ stage ~ ' is ' ~ ((providers or ['unknown'])[0])
                                       ~ ', expected ' ~ expected) }}
  {%- endif -%}
  {{ log('pdelta: ' ~ stage ~ ' is a ' ~ expected ~ ' table', info=true) }}
{% endmacro %}
