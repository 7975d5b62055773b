{#- make test's local lane, after a dimension view adapted to columns dropped or renamed: the view,
    its change feed and the feed's before-image struct have exactly the `expected` columns (in order,
    the feed's bookkeeping columns after them), and the view's last batch is an `adapted` one with
    the sets `counts` (the rows its changed predicate reached; the columns cost no row). Fails otherwise. -#}
{% macro assert_adapted_columns(model_name, expected, key, counts) %}
  {%- set view = ref(model_name) -%}
  {%- set feed = pdelta.meta_relation(view, 'changes') -%}
  {%- set attributes = expected | reject('in', key) | list -%}
  {%- set found = {
        'view': run_query('select * from ' ~ view ~ ' where false').column_names | list,
        'feed': run_query('select * from ' ~ feed ~ ' where false').column_names | list,
        'before-image': run_query('select `_pdelta_before`.* from ' ~ feed ~ ' where false').column_names | list} -%}
  {%- set wanted = {'view': expected, 'feed': expected + ['_pdelta_before', '_pdelta_type', '_pdelta_seq'],
                    'before-image': attributes} -%}
  {%- for part, columns in found.items() if columns != wanted[part] -%}
    {{ exceptions.raise_compiler_error('pdelta: ' ~ model_name ~ ': its ' ~ part ~ ' has columns '
                                       ~ columns | join(', ') ~ ', expected ' ~ wanted[part] | join(', ')) }}
  {%- endfor -%}
  {%- set batches = pdelta.meta_relation(view, 'batches') -%}
  {%- set last = run_query('select mode, counts from ' ~ batches ~ ' where batch_id = (select max(batch_id) from '
                           ~ batches ~ ') limit 1').rows[0] -%}
  {%- if last[0] != 'adapted' or fromjson(last[1]) != counts -%}
    {{ exceptions.raise_compiler_error('pdelta: ' ~ model_name ~ ': its last batch is ' ~ last[0] ~ ' with ' ~ last[1]
                                       ~ ', expected adapted with ' ~ tojson(counts)) }}
  {%- endif -%}
  {{ log('pdelta: ' ~ model_name ~ ' and its feed have the columns ' ~ expected | join(', ')
         ~ '; its last batch adapted it with ' ~ last[1], info=true) }}
{% endmacro %}
