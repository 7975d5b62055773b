{#- make test's local lane, after a dimension view with SCD2 history adapted its columns: the history
    has exactly the `expected` columns (in order, its bookkeeping columns after them; a column the
    view dropped stays, with the versions' values), its current versions are the view's rows (on
    the view's columns), no key has two current versions or versions that overlap, and no version
    holds NULL in a column of `filled` (a renamed column keeps every version's value). Fails otherwise. -#}
{% macro assert_history_kept(model_name, expected, key, filled) %}
  {%- set view = ref(model_name) -%}
  {%- set history = pdelta.meta_relation(view, 'history') -%}
  {%- set bookkeeping = ['_pdelta_valid_from', '_pdelta_valid_to', '_pdelta_is_current', '_pdelta_valid_from_at',
                         '_pdelta_valid_to_at'] -%}
  {%- set found = run_query('select * from ' ~ history ~ ' where false').column_names | list -%}
  {%- if found | reject('in', bookkeeping) | list != expected
         or found | select('in', bookkeeping) | list != bookkeeping -%}
    {{ exceptions.raise_compiler_error('pdelta: ' ~ model_name ~ ': its history has columns ' ~ found | join(', ')
                                       ~ ', expected ' ~ expected | join(', ') ~ ' and ' ~ bookkeeping | join(', ')) }}
  {%- endif -%}
  {%- set view_columns = run_query('select * from ' ~ view ~ ' where false').column_names | list -%}
  {%- set listed = [] -%}
  {%- for c in view_columns -%}{%- do listed.append(adapter.quote(c)) -%}{%- endfor -%}
  {%- set on_key = [] -%}
  {%- for k in key -%}{%- do on_key.append('a.' ~ adapter.quote(k) ~ ' = b.' ~ adapter.quote(k)) -%}{%- endfor -%}
  {%- set nulls = [] -%}
  {%- for c in filled -%}{%- do nulls.append('count_if(' ~ adapter.quote(c) ~ ' is null)') -%}{%- endfor -%}
  {%- set checks = {
        'view rows without a current version like them':
            'select count(*) from (select ' ~ listed | join(', ') ~ ' from '
            ~ view ~ ' except all select ' ~ listed | join(', ') ~ ' from ' ~ history ~ ' where `_pdelta_is_current`)',
        'current versions unlike any view row':
            'select count(*) from (select ' ~ listed | join(', ') ~ ' from ' ~ history
            ~ ' where `_pdelta_is_current` except all select ' ~ listed | join(', ') ~ ' from ' ~ view ~ ')',
        'versions overlapping another of their key': 'select count(*) from ' ~ history ~ ' as a join ' ~ history
            ~ ' as b on ' ~ on_key | join(' and ') ~ ' and a.`_pdelta_valid_from` < b.`_pdelta_valid_from`'
            ~ ' where a.`_pdelta_valid_to` is null or a.`_pdelta_valid_to` > b.`_pdelta_valid_from`',
        'versions with NULL in ' ~ filled | join(', '): 'select ' ~ (nulls | join(' + ') if nulls else '0') ~ ' from '
            ~ history} -%}
  {%- for what, sql in checks.items() -%}
    {%- set n = run_query(sql).rows[0][0] -%}
    {%- if n != 0 -%}
      {{ exceptions.raise_compiler_error('pdelta: ' ~ model_name ~ ': its history has ' ~ n ~ ' ' ~ what) }}
    {%- endif -%}
  {%- endfor -%}
  {%- set versions = run_query('select count(*) from ' ~ history).rows[0][0] -%}
  {{ log('pdelta: ' ~ model_name ~ "'s history has the columns " ~ expected | join(', ') ~ ' and ' ~ versions
         ~ ' versions, its current ones the view', info=true) }}
{% endmacro %}
