{#- Test-suite fault (`dbt run-operation`): the model's batch log keeps, in its table property
    `pdelta.state`, a state its rows do not give (one more committed batch than it holds), so that
    the package's data test batch_log_state_kept (tests/dbt/ of the package) must report it. The
    lane runs this last: a refresh after it would trust the wrong state. -#}
{% macro drift_batch_log_state(model_name) %}
  {%- set batches = pdelta.meta_relation(ref(model_name), 'batches') -%}
  {%- set kept = pdelta._kept_log_state(batches) -%}
  {%- if kept is none -%}
    {{ exceptions.raise_compiler_error('pdelta: ' ~ batches ~ ' keeps no state to change') }}
  {%- endif -%}
  {%- do kept.update({'last': kept['last'] + 1}) -%}
  {%- do pdelta.write_batch_log(batches, [], {'pdelta.state': pdelta.sql_literal(tojson(kept))}) -%}
  {{ log('pdelta: ' ~ batches ~ ' now keeps last batch ' ~ kept['last'] ~ ', which its rows do not hold', info=true) }}
{% endmacro %}
